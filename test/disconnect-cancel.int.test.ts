import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { Client } from 'pg';
import { createApp, App } from '../src/app';
import { createLogger } from '../src/common/logger';
import { loadConfig } from '../src/config/config';
import { initOrm, Orm } from '../src/db/orm';
import { CANCEL_WITHIN_MS } from '../src/db/statement-scope';
import { entities } from '../src/modules';
import { seedDemo } from '../src/db/seeders/demo.seeder';
import { createDeps } from '../src/deps';
import { createTestDatabase, TestDatabase } from './db';
import { as, TEST_ROUTER_SECRET } from './demo';
import { rawHttp } from './support/raw-http';
import { startTcpProxy, TcpProxy } from './support/tcp-proxy';

const HOLDER = 'test-lock-holder';
const OBSERVER = 'test-observer';

async function until(what: string, check: () => Promise<boolean> | boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * A client leaves while its statement runs: the service cancels that statement with PostgreSQL's
 * CancelRequest. The race this holds shut: the statement ends by itself while the cancel is on its
 * way, its connection goes back to the pool, another request's statement starts on that backend,
 * and the late cancel cuts *that* statement short (another tenant's, as likely as not). The app
 * reaches PostgreSQL through a proxy that holds CancelRequests until the test lets them through,
 * with one pooled connection, so the next request must take the very backend the cancel names.
 */
describe('a cancel for a client that left never reaches the next request on its connection', () => {
  let db: TestDatabase;
  let proxy: TcpProxy;
  let orm: Orm;
  let app: App;
  let port: number;
  let observer: Client;
  let holder: Client | undefined;
  const key = as.nora['x-api-key'];
  const catalogsHead = `GET /api/catalogs HTTP/1.1\r\nHost: x\r\nx-api-key: ${key}\r\n\r\n`;

  /** The service's statements waiting on the lock, by backend. */
  const waitingPids = async (): Promise<number[]> =>
    (
      await observer.query<{ pid: number }>(
        `select pid from pg_stat_activity where datname = current_database() and application_name not in ($1, $2) and state = 'active' and wait_event_type = 'Lock'`,
        [HOLDER, OBSERVER],
      )
    ).rows.map((r) => r.pid);
  const stateOf = async (pid: number): Promise<string | undefined> =>
    (await observer.query<{ state: string }>('select state from pg_stat_activity where pid = $1', [pid])).rows[0]?.state;

  async function lockCatalogs(): Promise<void> {
    holder = new Client({ connectionString: db.url, application_name: HOLDER });
    holder.on('error', () => undefined);
    await holder.connect();
    await holder.query('begin');
    await holder.query('lock table catalogs in access exclusive mode');
  }
  async function unlock(): Promise<void> {
    await holder?.query('rollback');
    await holder?.end();
    holder = undefined;
  }

  /** A client asks for its catalogs and leaves once its statement waits on the lock; the backend it waited on. */
  async function leaveWhileWaiting(): Promise<number> {
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => undefined);
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.write(catalogsHead);
    let pids: number[] = [];
    await until('the statement waits on the lock', async () => (pids = await waitingPids()).length === 1);
    socket.destroy();
    return pids[0];
  }

  /**
   * A client leaves while its statement waits on the lock; its cancel is sent and held by the
   * proxy; the statement then ends by itself (the lock goes). The backend it ran on, now idle.
   */
  async function leaveThenEndWhileCancelHeld(): Promise<number> {
    expect((await rawHttp(port, { method: 'GET', path: '/api/catalogs', headers: as.nora })).status).toBe(200);
    await lockCatalogs();
    proxy.holdCancels();
    const cancelsBefore = proxy.cancels;
    const left = await leaveWhileWaiting();
    await until('the cancel is sent', () => proxy.cancels === cancelsBefore + 1);
    await unlock();
    await until("the left request's statement is done", async () => (await stateOf(left)) === 'idle');
    return left;
  }

  beforeAll(async () => {
    db = await createTestDatabase();
    const target = new URL(db.url);
    proxy = await startTcpProxy(target.hostname, Number(target.port || 5432));
    const url = proxy.url(db.url);
    // No statement timeout: only a cancel can end a statement before its lock goes. A long credential
    // cache: no read ahead takes the one connection at a moment the test does not choose.
    const config = loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATABASE_URL: url,
      DATABASE_STATEMENT_TIMEOUT_MS: '0',
      AUTH_CACHE_TTL_MS: '60000',
      RATE_LIMIT_PER_MINUTE: '1000000',
      ROUTER_SECRET: TEST_ROUTER_SECRET,
    });
    orm = await initOrm({ url, poolMax: 1, entities, statementTimeoutMs: 0 });
    await seedDemo(orm, config);
    app = await createApp(createDeps(config, orm, createLogger(process.env.TEST_LOG_LEVEL ?? 'silent')));
    await new Promise<void>((resolve) => app.server.listen(0, '127.0.0.1', resolve));
    port = (app.server.address() as AddressInfo).port;
    observer = new Client({ connectionString: db.url, application_name: OBSERVER });
    await observer.connect();
  });
  afterEach(async () => {
    proxy.releaseCancels();
    await unlock();
  });
  afterAll(async () => {
    await observer?.end();
    await app?.stop();
    await orm?.close(true);
    await proxy?.close();
    await db?.drop();
  });

  it('keeps the connection until the server has the cancel, so the next request on it runs to its answer', async () => {
    const left = await leaveThenEndWhileCancelHeld();

    // Another request, from a client that stays, for a statement that will wait on the lock again.
    await lockCatalogs();
    const next = rawHttp(port, { method: 'GET', path: '/api/catalogs', headers: as.nora });
    // Its statement does not start on the backend the held cancel names.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await waitingPids()).toEqual([]);

    // The cancel reaches the idle backend (PostgreSQL drops it); only then is the connection given back.
    proxy.releaseCancels();
    await until('the next statement waits on the lock', async () => (await waitingPids()).length === 1);
    expect(await waitingPids()).toEqual([left]);
    // Nothing cuts it short: it still waits, and answers once the lock is gone.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await waitingPids()).toEqual([left]);
    await unlock();
    const answer = await next;
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body).catalogs.length).toBeGreaterThan(0);
  });

  it('closes a connection whose cancel the server has not taken within CANCEL_WITHIN_MS instead of giving it back', async () => {
    await lockCatalogs();
    proxy.holdCancels();
    const cancelsBefore = proxy.cancels;
    const left = await leaveWhileWaiting();
    await until('the cancel is sent', () => proxy.cancels === cancelsBefore + 1);

    // A request that needs no lock gets its answer on a new connection once the cancel is given up.
    const started = Date.now();
    const next = await rawHttp(port, { method: 'GET', path: '/api/accounts/me', headers: as.nora });
    expect(next.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(CANCEL_WITHIN_MS - 500);
    const [{ pid: nextPid }] = (
      await observer.query<{ pid: number }>(`select pid from pg_stat_activity where datname = current_database() and application_name not in ($1, $2) and backend_type = 'client backend' and pid <> $3 and state = 'idle' order by backend_start desc limit 1`, [HOLDER, OBSERVER, left])
    ).rows;
    expect(nextPid).not.toBe(left);

    // The closed connection's backend ends once its statement does (it waited on the lock).
    await unlock();
    await until('the abandoned backend is gone', async () => (await stateOf(left)) === undefined);
    proxy.releaseCancels();
    expect((await rawHttp(port, { method: 'GET', path: '/api/catalogs', headers: as.nora })).status).toBe(200);
  });

  it('does not hand out a connection it gave up on when its statement had already ended: the next request waiting for it gets a new one', async () => {
    // Its cancel is never taken. The next request waits for the one connection until the cancel is
    // given up (CANCEL_WITHIN_MS, 2 s), well inside the pool's 5 s wait, and must not be handed it then.
    const left = await leaveThenEndWhileCancelHeld();
    const next = await rawHttp(port, { method: 'GET', path: '/api/catalogs', headers: as.nora });
    expect(next.status).toBe(200);
    await until('the given-up backend is gone', async () => (await stateOf(left)) === undefined);
  });
});
