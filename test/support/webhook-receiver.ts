import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: Record<string, string>;
  body: string;
  json: { type: string; timestamp: string; data: Record<string, unknown> };
}

/** How the receiver answers: a status and body, or a hang (no answer at all), or a redirect. */
export type Answer = { status: number; body?: string | Buffer; headers?: Record<string, string> } | 'hang';

/**
 * A real HTTP server standing in for an integrator's endpoint: it records every request (headers
 * and raw body) and answers as the test says (`answer`, changeable at any time).
 */
export class WebhookReceiver {
  readonly received: Received[] = [];
  answer: Answer = { status: 204 };
  private server!: Server;
  private readonly hanging = new Set<ServerResponse>();

  async start(): Promise<this> {
    this.server = createServer((req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
        let json: Received['json'];
        try {
          json = JSON.parse(body) as Received['json'];
        } catch {
          json = { type: 'unparsable', timestamp: '', data: {} };
        }
        this.received.push({ headers, body, json });
        const answer = this.answer;
        if (answer === 'hang') {
          this.hanging.add(res);
          return;
        }
        res.writeHead(answer.status, answer.headers ?? {});
        res.end(answer.body ?? '');
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return this;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  url(path = '/hooks'): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  async waitFor(test: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!test()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; received: ${JSON.stringify(this.received.map((r) => r.json.type))}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  async close(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
