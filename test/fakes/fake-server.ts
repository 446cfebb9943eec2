import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface FakeReply {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

/** What to do with the next matching request instead of the normal protocol answer. */
type Override = { kind: 'reply'; reply: FakeReply } | { kind: 'hang' };

/**
 * A local HTTP server on an ephemeral port, speaking one provider's protocol through `handle`.
 * Tests can script failures (`failNext`, `hangNext`) and read what the client sent (`requests`).
 */
export class FakeServer {
  readonly requests: RecordedRequest[] = [];
  /** Delay of every normal answer, so tests can observe concurrency (maxInFlight). */
  delayMs = 0;
  /** Most requests answered at once since the last reset(). */
  maxInFlight = 0;
  private inFlight = 0;
  private readonly overrides: { pathPrefix: string; override: Override }[] = [];
  private server?: Server;
  url = '';

  constructor(private readonly handle: (req: RecordedRequest) => FakeReply) {}

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
  failNext(pathPrefix: string, times: number, reply: FakeReply): void {
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
    this.delayMs = 0;
    this.maxInFlight = 0;
  }

  private onRequest(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const recorded: RecordedRequest = { method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      this.requests.push(recorded);
      const index = this.overrides.findIndex((o) => recorded.path.startsWith(o.pathPrefix));
      if (index >= 0) {
        const [{ override }] = this.overrides.splice(index, 1);
        if (override.kind === 'hang') return;
        this.send(res, override.reply);
        return;
      }
      const reply = this.handle(recorded);
      this.inFlight += 1;
      this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
      setTimeout(() => {
        this.inFlight -= 1;
        this.send(res, reply);
      }, this.delayMs);
    });
  }

  private send(res: ServerResponse, reply: FakeReply): void {
    res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
    res.end(reply.body === undefined ? '' : JSON.stringify(reply.body));
  }
}

/** Access tokens a fake issued, with their expiry; revoke() makes every one of them answer 401. */
export class FakeTokens {
  private readonly live = new Map<string, number>();
  private n = 0;
  issued = 0;

  constructor(public lifetimeS = 3600) {}

  issue(): { token: string; expiresIn: number } {
    this.n += 1;
    this.issued += 1;
    const token = `fake-token-${this.n}`;
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
