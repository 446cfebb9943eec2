import { Agent, request as httpRequest } from 'node:http';

export interface HttpCall {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface HttpAnswer {
  status: number;
  body: string;
}

export interface BurstResult {
  /** Requests sent. */
  sent: number;
  /** Answers with the expected status. */
  ok: number;
  /** Other statuses, socket errors and timeouts. */
  errors: number;
  /** The errors by kind: `status 503`, or the socket error's message. */
  failures: Record<string, number>;
  /** Milliseconds from sending each request to the end of its answer (successful ones). */
  latencies: number[];
  /** From the first send to the last answer. */
  elapsedMs: number;
}

const REQUEST_TIMEOUT_MS = 10_000;

/** A keep-alive client to one contender (127.0.0.1 only). */
export class Client {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 64 });

  constructor(private readonly port: number) {}

  call(call: HttpCall): Promise<HttpAnswer> {
    return new Promise((resolve, reject) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port: this.port,
          method: call.method,
          path: call.path,
          agent: this.agent,
          headers: { ...call.headers, ...(call.body === undefined ? {} : { 'content-length': Buffer.byteLength(call.body) }) },
          timeout: REQUEST_TIMEOUT_MS,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
          res.on('error', reject);
        },
      );
      req.on('timeout', () => req.destroy(new Error(`timeout after ${REQUEST_TIMEOUT_MS} ms`)));
      req.on('error', reject);
      req.end(call.body);
    });
  }

  /**
   * Open-loop load at a fixed rate: request i is sent at start + i/rate whether or not earlier
   * answers have come back (a slow answer does not slow the schedule down, so latency under load
   * is seen, not hidden). Ends when every request sent has been answered or timed out.
   */
  async fixedRate(call: HttpCall, rate: number, seconds: number, expectStatus = 200): Promise<BurstResult> {
    const total = Math.max(1, Math.round(rate * seconds));
    const interval = 1000 / rate;
    const latencies: number[] = [];
    let ok = 0;
    let errors = 0;
    const failures: Record<string, number> = {};
    const fail = (kind: string) => {
      errors += 1;
      failures[kind] = (failures[kind] ?? 0) + 1;
    };
    const pending: Promise<void>[] = [];
    const start = performance.now();
    let lastEnd = start;
    for (let i = 0; i < total; i += 1) {
      const due = start + i * interval;
      const wait = due - performance.now();
      if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
      const sentAt = performance.now();
      pending.push(
        this.call(call).then(
          (answer) => {
            const end = performance.now();
            lastEnd = Math.max(lastEnd, end);
            if (answer.status === expectStatus) {
              ok += 1;
              latencies.push(end - sentAt);
            } else fail(`status ${answer.status}: ${answer.body.slice(0, 120)}`);
          },
          (error: unknown) => {
            lastEnd = Math.max(lastEnd, performance.now());
            fail(error instanceof Error ? error.message : String(error));
          },
        ),
      );
    }
    await Promise.all(pending);
    return { sent: total, ok, errors, failures, latencies, elapsedMs: lastEnd - start };
  }

  /**
   * Closed-loop load: `requests` requests, `connections` at a time, each connection sending its
   * next request when its answer is back (the warm-up that takes a contender to its steady state:
   * every hot function past V8's tiers, the pool and the caches filled). No latencies are kept.
   */
  async closedLoop(call: HttpCall, requests: number, connections: number, expectStatus = 200): Promise<BurstResult> {
    let left = requests;
    let ok = 0;
    let errors = 0;
    const failures: Record<string, number> = {};
    const start = performance.now();
    const loop = async () => {
      while (left > 0) {
        left -= 1;
        try {
          const answer = await this.call(call);
          if (answer.status === expectStatus) ok += 1;
          else {
            errors += 1;
            const kind = `status ${answer.status}: ${answer.body.slice(0, 120)}`;
            failures[kind] = (failures[kind] ?? 0) + 1;
          }
        } catch (error) {
          errors += 1;
          const kind = error instanceof Error ? error.message : String(error);
          failures[kind] = (failures[kind] ?? 0) + 1;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, connections) }, loop));
    return { sent: requests, ok, errors, failures, latencies: [], elapsedMs: performance.now() - start };
  }

  close(): void {
    this.agent.destroy();
  }
}

/** The q-quantile (0..1) of unsorted values, nearest-rank; NaN when empty. */
export function quantile(values: number[], q: number): number {
  if (!values.length) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

export function median(values: number[]): number {
  if (!values.length) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
