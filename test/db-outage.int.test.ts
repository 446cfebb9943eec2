import supertest from 'supertest';
import WebSocket from 'ws';
import { createApp, App } from '../src/app';
import { createLogger } from '../src/common/logger';
import { loadConfig } from '../src/config/config';
import { initOrm, Orm } from '../src/db/orm';
import { entities } from '../src/modules';
import { seedDemo } from '../src/db/seeders/demo.seeder';
import { createDeps } from '../src/deps';
import { createTestDatabase, TestDatabase } from './db';
import { as, TEST_ROUTER_SECRET } from './demo';
import { startTcpProxy, TcpProxy } from './support/tcp-proxy';
import { GRAPHQL_RESPONSE_JSON } from './app';

/** The app reaches PostgreSQL through a proxy the test cuts and restores: the database goes away and comes back. */
describe('PostgreSQL unreachable', () => {
  let db: TestDatabase;
  let proxy: TcpProxy;
  let orm: Orm;
  let app: App;
  const http = () => supertest(app.server);

  beforeAll(async () => {
    db = await createTestDatabase();
    const target = new URL(db.url);
    proxy = await startTcpProxy(target.hostname, Number(target.port || 5432));
    const url = proxy.url(db.url);
    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: url, ROUTER_SECRET: TEST_ROUTER_SECRET });
    orm = await initOrm({ url, poolMax: 3, entities });
    await seedDemo(orm, config);
    app = await createApp(createDeps(config, orm, createLogger(process.env.TEST_LOG_LEVEL ?? 'silent')));
  });
  afterAll(async () => {
    await proxy.restore().catch(() => undefined);
    await app?.stop();
    await orm?.close(true);
    await proxy?.close();
    await db?.drop();
  });

  it('answers 503 PROVIDER_UNAVAILABLE with Retry-After on both faces, then recovers by itself', async () => {
    const before = await http().post('/api/catalogs').set(as.nora).send({ name: 'Written before the outage' });
    expect(before.status).toBe(200);
    const beforeId = before.body.catalog?.id ?? before.body.catalogs?.[0]?.id;
    expect(beforeId).toBeTruthy();

    await proxy.cut();

    const rest = await http().get('/api/accounts/me').set(as.nora);
    expect({ status: rest.status, code: rest.body.code }).toEqual({ status: 503, code: 'PROVIDER_UNAVAILABLE' });
    expect(Number(rest.headers['retry-after'])).toBeGreaterThan(0);
    expect(JSON.stringify(rest.body)).not.toMatch(/ECONN|127\.0\.0\.1|select|postgres/i);

    const write = await http().post('/api/catalogs').set(as.nora).send({ name: 'Written during the outage' });
    expect({ status: write.status, code: write.body.code }).toEqual({ status: 503, code: 'PROVIDER_UNAVAILABLE' });

    const gql = await http().post('/graphql').set(as.nora).set(GRAPHQL_RESPONSE_JSON).send({ query: '{ me { name } }' });
    expect(gql.status).toBe(503);
    expect(gql.body.errors[0].extensions.code).toBe('PROVIDER_UNAVAILABLE');
    expect(Number(gql.headers['retry-after'])).toBeGreaterThan(0);
    expect(gql.body.errors[0].extensions.retryAfter).toBe(Number(gql.headers['retry-after']));
    // As application/json (what a gateway asks for): 200, the code and the wait in the answer.
    const json = await http().post('/graphql').set(as.nora).set('accept', 'application/json').send({ query: '{ me { name } }' });
    expect(json.status).toBe(200);
    expect(json.body.errors[0].extensions).toEqual({ code: 'PROVIDER_UNAVAILABLE', retryAfter: expect.any(Number) });
    expect(JSON.stringify(gql.body)).not.toMatch(/ECONN|127\.0\.0\.1|select|postgres/i);

    // A public route that reaches the database (no credentials to check first).
    const signup = await http().post('/api/agents/signup').send({ email: 'agent+outage@example.test' });
    expect({ status: signup.status, code: signup.body.code }).toEqual({ status: 503, code: 'PROVIDER_UNAVAILABLE' });

    const ready = await http().get('/readyz');
    expect(ready.status).toBe(503);
    expect(ready.body).toMatchObject({ status: 'error', database: 'down' });
    expect((await http().get('/healthz')).status).toBe(200);

    await proxy.restore();

    const after = await http().get('/api/catalogs').set(as.nora);
    expect(after.status).toBe(200);
    const names = after.body.catalogs.map((c: { name: string }) => c.name);
    expect(names).toContain('Written before the outage');
    expect(names).not.toContain('Written during the outage');
    expect((await http().get('/readyz')).status).toBe(200);
    const gqlAfter = await http().post('/graphql').set(as.nora).send({ query: '{ me { name } }' });
    expect(gqlAfter.body.data.me.name).toBe('Nora North');
  });

  it('a connection lost in the middle of a request is a 503 too, and the pool heals', async () => {
    // Pooled connections are open; reset them and refuse new ones while requests are in flight.
    await http().get('/api/accounts/me').set(as.nora);
    const inFlight = Promise.all([1, 2, 3].map(() => http().get('/api/catalogs').set(as.nora)));
    await proxy.cut();
    for (const res of await inFlight) expect([200, 503]).toContain(res.status);
    await proxy.restore();
    const statuses = await Promise.all([1, 2, 3, 4, 5].map(async () => (await http().get('/api/accounts/me').set(as.nora)).status));
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
  });

  it('a write cut off in the middle of its transaction is a 503 and leaves nothing behind', async () => {
    // POST /api/catalogs inserts the catalog, then links it: the link statement never arrives.
    proxy.cutOnStatement('insert into account_catalogs');
    const res = await http().post('/api/catalogs').set(as.nora).send({ name: 'Half a write' });
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 503, code: 'PROVIDER_UNAVAILABLE' });
    expect(res.headers['retry-after']).toBeDefined();
    await proxy.restore();
    const rows = await orm.em.fork().getConnection().execute(`select id from catalogs where name = 'Half a write'`);
    expect(rows).toEqual([]);
  });

  it('a render queue that could not start during the outage starts once the database is back', async () => {
    const render = () => http().post('/api/video/render').set(as.nora).send({ compositionId: 'title-card', inputProps: { title: 'After the outage' }, width: 8, height: 8, durationInFrames: 1 });
    // The queue starts lazily on the first render; that start meets the outage.
    proxy.cutOnStatement('pgboss');
    const during = await render();
    expect({ status: during.status, code: during.body.code }).toEqual({ status: 503, code: 'PROVIDER_UNAVAILABLE' });
    await proxy.restore();
    const after = await render();
    expect({ status: after.status, body: after.body }).toEqual({ status: 200, body: { status: 'processing', runId: expect.any(String) } });
    // The refused render left no run behind (run and job are written in one transaction).
    const runs = await orm.em.fork().getConnection().execute(`select id from render_runs where payload->'inputProps'->>'title' = 'After the outage'`);
    expect(runs).toEqual([{ id: after.body.runId }]);
  });

  it('a database that accepts connections but never answers is a 503 within the connect timeout, not a hang', async () => {
    await proxy.blackhole();
    try {
      const started = Date.now();
      const res = await http().get('/api/accounts/me').set(as.nora);
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 503, code: 'PROVIDER_UNAVAILABLE' });
      expect(Date.now() - started).toBeLessThan(15_000);
    } finally {
      await proxy.cut();
      await proxy.restore();
    }
    expect((await http().get('/api/accounts/me').set(as.nora)).status).toBe(200);
  }, 30_000);

  it('an open websocket answers an operation with PROVIDER_UNAVAILABLE while the database is away, and works again after', async () => {
    const port = await listenPort(app);
    const socket = new WebSocket(`ws://127.0.0.1:${port}/graphql`, 'graphql-transport-ws');
    const messages: { type: string; id?: string; payload?: unknown }[] = [];
    let closed = false;
    socket.on('close', () => (closed = true));
    const next = (predicate: (m: { type: string; id?: string }) => boolean) =>
      new Promise<{ type: string; id?: string; payload?: unknown }>((resolve) => {
        const found = messages.find(predicate);
        if (found) return resolve(found);
        const onMessage = (data: WebSocket.RawData) => {
          const message = JSON.parse(String(data));
          if (predicate(message)) {
            socket.off('message', onMessage);
            resolve(message);
          }
        };
        socket.on('message', onMessage);
      });
    socket.on('message', (data) => messages.push(JSON.parse(String(data))));
    try {
      await new Promise((resolve) => socket.on('open', resolve));
      socket.send(JSON.stringify({ type: 'connection_init', payload: as.nora }));
      await next((m) => m.type === 'connection_ack');

      await proxy.cut();
      socket.send(JSON.stringify({ id: 'down', type: 'subscribe', payload: { query: '{ me { name } }' } }));
      const down = await next((m) => m.id === 'down');
      expect(down.type).toBe('error');
      expect(down.payload).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'PROVIDER_UNAVAILABLE', retryAfter: expect.any(Number) }) })]);
      expect(JSON.stringify(down.payload)).not.toMatch(/ECONN|127\.0\.0\.1/);
      expect(closed).toBe(false);

      await proxy.restore();
      socket.send(JSON.stringify({ id: 'up', type: 'subscribe', payload: { query: '{ me { name } }' } }));
      const up = await next((m) => m.id === 'up' && m.type === 'next');
      expect(up.payload).toEqual({ data: { me: { name: 'Nora North' } }, extensions: { cost: expect.objectContaining({ actualQueryCost: 1 }) } });
    } finally {
      socket.close();
      await proxy.restore().catch(() => undefined);
    }
  });

  it('closes a websocket that cannot be authenticated for want of the database with 1013 (try again later)', async () => {
    await proxy.cut();
    try {
      const port = await listenPort(app);
      const socket = new WebSocket(`ws://127.0.0.1:${port}/graphql`, 'graphql-transport-ws');
      const closed = new Promise<{ code: number; reason: string }>((resolve) => socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
      socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload: as.nora })));
      const { code, reason } = await closed;
      expect(code).toBe(1013);
      expect(reason).not.toMatch(/ECONN|127\.0\.0\.1/);
    } finally {
      await proxy.restore();
    }
  });
});

async function listenPort(app: App): Promise<number> {
  if (!app.server.listening) await new Promise<void>((resolve) => app.server.listen(0, '127.0.0.1', resolve));
  return (app.server.address() as { port: number }).port;
}
