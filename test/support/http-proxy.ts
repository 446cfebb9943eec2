import { createServer, IncomingMessage, request, Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Upstream {
  name: string;
  port: number;
}

export interface ProxiedRequest {
  upstream: string;
  method: string;
  path: string;
  status: number;
  /** Upstreams that refused the connection first (a stopped instance), tried before this one. */
  refusedBy: string[];
}

export interface RoundRobinProxy {
  port: number;
  url: string;
  /** Every answered request, in the order the answers started. */
  log: ProxiedRequest[];
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/**
 * A round-robin HTTP load balancer on loopback, as a cloud balancer behaves while an instance
 * drains: a connection the upstream refuses (its listener closed) is tried on the next one, since
 * nothing was sent; any later failure answers 502 (the request may have run). One connection per
 * request (no keep-alive), and the answer names its upstream in `x-upstream`.
 */
export async function startRoundRobinProxy(upstreams: Upstream[]): Promise<RoundRobinProxy> {
  let next = 0;
  const log: ProxiedRequest[] = [];
  const server: Server = createServer(async (req, res) => {
    const body = await readBody(req).catch(() => undefined);
    if (!body) {
      res.destroy();
      return;
    }
    const refusedBy: string[] = [];
    const first = next;
    next = (next + 1) % upstreams.length;
    const attempt = (tries: number) => {
      const upstream = upstreams[(first + tries) % upstreams.length];
      const forward = request(
        { host: '127.0.0.1', port: upstream.port, method: req.method, path: req.url, headers: { ...req.headers, connection: 'close' }, agent: false },
        (answer) => {
          log.push({ upstream: upstream.name, method: req.method ?? '', path: req.url ?? '', status: answer.statusCode ?? 0, refusedBy: [...refusedBy] });
          res.writeHead(answer.statusCode ?? 502, { ...answer.headers, 'x-upstream': upstream.name });
          answer.pipe(res);
          answer.on('error', () => res.destroy());
        },
      );
      forward.on('error', (error: NodeJS.ErrnoException) => {
        if (error.code === 'ECONNREFUSED' && tries + 1 < upstreams.length) {
          refusedBy.push(upstream.name);
          attempt(tries + 1);
          return;
        }
        if (res.headersSent) {
          res.destroy();
          return;
        }
        log.push({ upstream: upstream.name, method: req.method ?? '', path: req.url ?? '', status: 502, refusedBy: [...refusedBy] });
        res.writeHead(502, { 'content-type': 'application/json', 'x-upstream': upstream.name });
        res.end(JSON.stringify({ status: 'error', code: 'BAD_GATEWAY', error: `upstream ${upstream.name}: ${error.code ?? error.message}` }));
      });
      forward.end(body);
    };
    attempt(0);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    log,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
