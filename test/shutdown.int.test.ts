import { ChildProcess, fork } from 'node:child_process';
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { initOrm, Orm } from '../src/db/orm';
import { entities } from '../src/modules';
import { createTestDatabase, TestDatabase } from './db';
import { createAccount } from './factories';

const root = join(__dirname, '..');

/** An upstream that answers its token at once and everything else after `delayMs`. */
function slowUpstream(delayMs: number): Promise<Server> {
  const server = createServer((req, res) => {
    const reply = (body: unknown) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (req.url === '/api/token') return reply({ token: 'slow-token', expires_in: 3600 });
    setTimeout(() => reply({ obj: [{ id: 1, name: 'slow genre' }] }), delayMs);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

function freePort(): Promise<number> {
  const server = createServer();
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    }),
  );
}

describe('graceful shutdown of the real process (npm start path)', () => {
  let db: TestDatabase;
  let orm: Orm;
  let upstream: Server;
  let child: ChildProcess | undefined;

  beforeAll(async () => {
    db = await createTestDatabase();
    orm = await initOrm({ url: db.url, poolMax: 2, entities });
    upstream = await slowUpstream(1500);
  });
  afterAll(async () => {
    child?.kill('SIGKILL');
    upstream.close();
    await orm.close(true);
    await db.drop();
  });

  it('on SIGTERM stops accepting, finishes in-flight requests, closes websockets and exits 0', async () => {
    const { headers } = await createAccount(orm);
    const port = await freePort();
    child = fork(join(root, 'src', 'main.ts'), [], {
      cwd: root,
      execArgv: ['-r', join(root, 'test', 'support', 'swc-register.js')],
      env: {
        PATH: process.env.PATH ?? '',
        NODE_ENV: 'test',
        LOG_LEVEL: 'warn',
        LOG_FORMAT: 'json',
        DATABASE_URL: db.url,
        PORT: String(port),
        HOST: '127.0.0.1',
        RENDER_WORKERS: '0',
        MUSIC_INTEL_API_URL: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`,
        MUSIC_INTEL_REFRESH_TOKEN: 'refresh',
      },
      stdio: 'pipe',
    });
    const exited = new Promise<{ code: number | null; at: number }>((resolve) =>
      child!.once('exit', (code) => resolve({ code, at: Date.now() })),
    );
    const base = `http://127.0.0.1:${port}`;
    for (let i = 0; ; i += 1) {
      const ready = await fetch(`${base}/readyz`).then((r) => r.status === 200, () => false);
      if (ready) break;
      if (i > 150) throw new Error('the service did not become ready');
      await new Promise((r) => setTimeout(r, 200));
    }

    const wsClosed = new Promise<number>((resolve) => {
      const client = createClient({
        url: `ws://127.0.0.1:${port}/graphql`,
        webSocketImpl: WebSocket,
        connectionParams: headers,
        retryAttempts: 0,
        lazy: false,
        onNonLazyError: () => undefined,
        on: { closed: (event) => resolve((event as { code: number }).code) },
      });
      void client;
    });
    await new Promise((r) => setTimeout(r, 300));

    const inFlight = fetch(`${base}/api/research/genres`, { headers });
    await new Promise((r) => setTimeout(r, 400));
    const signalledAt = Date.now();
    child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 200));
    const refused = await fetch(`${base}/healthz`).then(() => false, () => true);

    const response = await inFlight;
    expect(response.status).toBe(200);
    expect((await response.json()).genres).toEqual([{ id: 1, name: 'slow genre' }]);
    expect(refused).toBe(true);
    expect(await wsClosed).toBe(1001);
    const { code, at } = await exited;
    expect(code).toBe(0);
    expect(at - signalledAt).toBeLessThan(10_000);
    child = undefined;
  });
});
