import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface SandboxReply {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

/** What to do with the next matching request instead of the normal protocol answer. */
type Override = { kind: 'reply'; reply: SandboxReply } | { kind: 'hang' };

const MAX_BODY_BYTES = 64 * 1024;

export interface SandboxServerOptions {
  /** Answer every Nth request with 429 and `Retry-After: 1` (0: never), as a rate-limited upstream does. */
  rateLimitEvery?: number;
  /** Keep at most this many recorded requests (a long-running `npm start` must not grow without bound). */
  maxRecorded?: number;
}

/**
 * A loopback HTTP server on an ephemeral port, speaking one provider's protocol through `handle`.
 * Failures can be scripted (`failNext`, `hangNext`, `rateLimitEvery`); `requests` shows what clients sent.
 */
export class SandboxServer {
  readonly requests: RecordedRequest[] = [];
  private readonly overrides: { pathPrefix: string; override: Override }[] = [];
  private server?: Server;
  url = '';

  private seen = 0;

  constructor(
    private readonly handle: (req: RecordedRequest) => SandboxReply,
    readonly options: SandboxServerOptions = {},
  ) {}

  async start(): Promise<this> {
    this.server = createServer((req, res) => this.onRequest(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }

  /** Answer the next `times` requests under `pathPrefix` with `reply`. */
  failNext(pathPrefix: string, times: number, reply: SandboxReply): void {
    for (let i = 0; i < times; i += 1) this.overrides.push({ pathPrefix, override: { kind: 'reply', reply } });
  }

  /** Never answer the next `times` requests under `pathPrefix`. */
  hangNext(pathPrefix: string, times = 1): void {
    for (let i = 0; i < times; i += 1) this.overrides.push({ pathPrefix, override: { kind: 'hang' } });
  }

  count(pathPrefix: string): number {
    return this.requests.filter((r) => r.path.startsWith(pathPrefix)).length;
  }

  reset(): void {
    this.requests.length = 0;
    this.overrides.length = 0;
    this.seen = 0;
  }

  private onRequest(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      // No provider request carries more than a few hundred bytes: refuse rather than buffer.
      if (size > MAX_BODY_BYTES) {
        if (!res.headersSent) this.send(res, { status: 413, body: { error: 'Payload Too Large' } });
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => {
      if (size > MAX_BODY_BYTES) return;
      let url: URL;
      try {
        url = new URL(req.url ?? '/', 'http://sandbox');
      } catch {
        // An unparsable request target must not crash the process that hosts the sandbox.
        this.send(res, { status: 400, body: { error: 'Bad Request' } });
        return;
      }
      const recorded: RecordedRequest = { method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      this.requests.push(recorded);
      if (this.requests.length > (this.options.maxRecorded ?? 10_000)) this.requests.shift();
      this.seen += 1;
      const index = this.overrides.findIndex((o) => recorded.path.startsWith(o.pathPrefix));
      if (index >= 0) {
        const [{ override }] = this.overrides.splice(index, 1);
        if (override.kind === 'hang') return;
        this.send(res, override.reply);
        return;
      }
      const every = this.options.rateLimitEvery ?? 0;
      if (every > 0 && this.seen % every === 0) {
        this.send(res, { status: 429, headers: { 'retry-after': '1' }, body: { error: 'Too Many Requests' } });
        return;
      }
      let reply: SandboxReply;
      try {
        reply = this.handle(recorded);
      } catch {
        reply = { status: 500, body: { error: 'sandbox failure' } };
      }
      this.send(res, reply);
    });
  }

  private send(res: ServerResponse, reply: SandboxReply): void {
    res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
    res.end(reply.body === undefined ? '' : JSON.stringify(reply.body));
  }
}

/** Access tokens a sandbox issued, with their expiry; revoke() makes every one of them answer 401. */
export class SandboxTokens {
  private readonly live = new Map<string, number>();
  private n = 0;
  issued = 0;

  constructor(
    public lifetimeS = 3600,
    private readonly prefix = 'sandbox-token',
  ) {}

  issue(): { token: string; expiresIn: number } {
    this.n += 1;
    this.issued += 1;
    // Expired tokens are dropped so a long-running sandbox keeps a bounded map.
    for (const [t, until] of this.live) if (until <= Date.now()) this.live.delete(t);
    const token = `${this.prefix}-${this.n}`;
    this.live.set(token, Date.now() + this.lifetimeS * 1000);
    return { token, expiresIn: this.lifetimeS };
  }

  valid(authorization: string | undefined): boolean {
    const token = /^Bearer (.+)$/.exec(authorization ?? '')?.[1];
    const until = token ? this.live.get(token) : undefined;
    return until !== undefined && until > Date.now();
  }

  revoke(): void {
    this.live.clear();
  }
}
