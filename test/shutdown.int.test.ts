import { ChildProcess, fork } from 'node:child_process';
import { createServer, get, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { initOrm, Orm } from '../src/db/orm';
import { entities } from '../src/modules';
import { createTestDatabase, TestDatabase } from './db';
import { createAccount } from './factories';

const root = join(__dirname, '..');

/**
 * An upstream that answers its token at once and holds every other request until `release()`:
 * `arrived` resolves when the first held request is in, so the test knows a request is in flight.
 */
function heldUpstream(): Promise<{ server: Server; arrived: Promise<void>; release: () => void }> {
  const held: Array<() => void> = [];
  let arrivedNow!: () => void;
  const arrived = new Promise<void>((resolve) => (arrivedNow = resolve));
  const server = createServer((req, res) => {
    const reply = (body: unknown) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (req.url === '/api/token') return reply({ token: 'slow-token', expires_in: 3600 });
    held.push(() => reply({ obj: [{ id: 1, name: 'slow genre' }] }));
    arrivedNow();
  });
  const release = () => held.splice(0).forEach((answer) => answer());
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, arrived, release })));
}

/** A GET on a new connection (no keep-alive pool): the error code when it fails, else null. */
function connectError(url: string): Promise<string | null> {
  return new Promise((resolve) => {
    get(url, { agent: false }, (res) => {
      res.resume();
      resolve(null);
    }).on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
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
  let upstream: Awaited<ReturnType<typeof heldUpstream>>;
  let child: ChildProcess | undefined;

  beforeAll(async () => {
    db = await createTestDatabase();
    orm = await initOrm({ url: db.url, poolMax: 2, entities });
    upstream = await heldUpstream();
  });
  afterAll(async () => {
    // After a failure: the child goes before its database is dropped.
    if (child && child.exitCode === null && child.signalCode === null) {
      const gone = new Promise((resolve) => child!.once('exit', resolve));
      child.kill('SIGKILL');
      await gone;
    }
    upstream.release();
    upstream.server.close();
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
        MUSIC_INTEL_API_URL: `http://127.0.0.1:${(upstream.server.address() as AddressInfo).port}`,
        MUSIC_INTEL_REFRESH_TOKEN: 'refresh',
        // The held request waits for the test, not for the provider's 5 s default.
        PROVIDER_TIMEOUT_MS: '60000',
      },
      stdio: 'pipe',
    });
    const exited = new Promise<number | null>((resolve) => child!.once('exit', (code) => resolve(code)));
    const base = `http://127.0.0.1:${port}`;
    for (let i = 0; ; i += 1) {
      const ready = await fetch(`${base}/readyz`).then((r) => r.status === 200, () => false);
      if (ready) break;
      if (i > 150) throw new Error('the service did not become ready');
      await new Promise((r) => setTimeout(r, 200));
    }

    let wsConnected!: () => void;
    const connected = new Promise<void>((resolve) => (wsConnected = resolve));
    const wsClosed = new Promise<number>((resolve) => {
      const client = createClient({
        url: `ws://127.0.0.1:${port}/graphql`,
        webSocketImpl: WebSocket,
        connectionParams: headers,
        retryAttempts: 0,
        lazy: false,
        onNonLazyError: () => undefined,
        on: { connected: () => wsConnected(), closed: (event) => resolve((event as { code: number }).code) },
      });
      void client;
    });
    await connected;

    // Each step waits for the event it needs, never a fixed time: on a busy machine the child
    // takes as long as it takes, and SHUTDOWN_TIMEOUT_MS (10 s) is the only deadline.
    const inFlight = fetch(`${base}/api/research/genres`, { headers });
    await upstream.arrived;
    child.kill('SIGTERM');
    // New connections are refused while the request above is still held upstream (in flight).
    let refusal: string | null = null;
    for (let i = 0; i < 400 && refusal === null; i += 1) {
      refusal = await connectError(`${base}/healthz`);
      if (refusal === null) await new Promise((r) => setTimeout(r, 25));
    }
    // Refused, or reset when the connection was still in the listen queue as the listener closed.
    expect(['ECONNREFUSED', 'ECONNRESET']).toContain(refusal);
    upstream.release();

    const response = await inFlight;
    expect(response.status).toBe(200);
    expect((await response.json()).genres).toEqual([{ id: 1, name: 'slow genre' }]);
    expect(await wsClosed).toBe(1001);
    // 0: stopped within SHUTDOWN_TIMEOUT_MS (past it the service exits 1).
    expect(await exited).toBe(0);
    child = undefined;
  });
});
