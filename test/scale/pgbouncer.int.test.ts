import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { Client } from 'pg';
import { App, createApp } from '../../src/app';
import { createLogger } from '../../src/common/logger';
import { Config, loadConfig } from '../../src/config/config';
import { Database, openDatabase } from '../../src/db/database';
import { entities } from '../../src/modules';
import { createDeps } from '../../src/deps';
import { RenderWorker } from '../../src/modules/render/render.worker';
import { createTestDatabase, TestDatabase } from '../db';
import { as, TEST_ROUTER_SECRET } from '../demo';
import { ENV_ADMIN_URL } from '../pg';
import { watchRun, within, wsClient } from '../support/live';
import { findPgBouncer, startPgBouncer, TestPgBouncer } from '../support/pgbouncer';
import { renderEnv } from '../support/render';

const PGBOUNCER = findPgBouncer();
/** The connections that do session work (LISTEN, pg-boss): each straight to PostgreSQL, never through the pooler. */
const SESSION_WORK = ['render-run-events', 'render-queue', 'viewer-changes', 'mas-limit-overrides', 'mcp-cancellations'];
if (!PGBOUNCER) {
  console.warn(`SKIPPED test/scale/pgbouncer.int.test.ts: no pgbouncer ${process.env.PGBOUNCER_PATH ? `at PGBOUNCER_PATH=${process.env.PGBOUNCER_PATH}` : 'on PATH or in /usr/sbin'} (install it with: apt-get install -y pgbouncer, or set PGBOUNCER_PATH)`);
}

type Row = Record<string, unknown>;

/**
 * The service behind PgBouncer in transaction pooling mode: DATABASE_URL goes through the pooler
 * (a pool of 3 server connections), DATABASE_LISTEN_URL straight to PostgreSQL for LISTEN/NOTIFY,
 * pg-boss and the start-up lock. Migrations, demo seeding, requests and a render all run this way.
 */
(PGBOUNCER ? describe : describe.skip)('behind PgBouncer in transaction mode (real PostgreSQL, real pgbouncer)', () => {
  let db: TestDatabase;
  let bouncer: TestPgBouncer;
  let database: Database;
  let config: Config;
  let app: App;
  let worker: RenderWorker;
  let port: number;
  const base = () => `http://127.0.0.1:${port}`;
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = as.nora) => {
    const res = await fetch(`${base()}${path}`, {
      method,
      headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Row & { [key: string]: never } };
  };
  const graphql = (query: string, variables: Row = {}) => call('POST', '/graphql', { query, variables });
  const poolStats = async () => (await bouncer.admin<Row>('show stats')).find((r) => r.database === db.name);

  beforeAll(async () => {
    db = await createTestDatabase();
    bouncer = await startPgBouncer(PGBOUNCER!, process.env[ENV_ADMIN_URL]!, { poolSize: 3 });
    const logger = createLogger(process.env.TEST_LOG_LEVEL ?? 'silent');
    config = loadConfig({
      NODE_ENV: 'test',
      DATABASE_URL: bouncer.url(db.name),
      DATABASE_LISTEN_URL: db.url,
      DATABASE_POOL_MAX: '6',
      // PgBouncer before 1.21 cannot keep named prepared statements across transactions.
      DATABASE_PREPARED_STATEMENTS: 'false',
      DEMO_SEED: 'true',
      ROUTER_SECRET: TEST_ROUTER_SECRET,
      RATE_LIMIT_PER_MINUTE: '1000000',
      ...renderEnv(),
    });
    // main.ts's path: migrations (already applied to the clone: checked through the pooler) and the demo data set.
    database = await openDatabase(config, logger, { entities });
    const deps = createDeps(config, database.orm, logger);
    app = await createApp(deps);
    await deps.render.queue.start();
    worker = new RenderWorker({ ...deps.render, orm: database.orm, config: config.render, logger });
    await worker.start();
    await new Promise<void>((resolve) => app.server.listen(0, '127.0.0.1', resolve));
    port = (app.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await worker?.stop(1000);
    await app?.stop();
    await database?.close();
    await bouncer?.close();
    await db?.drop();
  });

  it('the ORM pool is PgBouncer\'s client; pg-boss and LISTEN connect straight to PostgreSQL', async () => {
    expect(database.url).toBe(bouncer.url(db.name));
    expect(database.listenUrl).toBe(db.url);
    expect((await bouncer.admin<{ key: string; value: string }>('show config')).find((r) => r.key === 'pool_mode')?.value).toBe('transaction');
    // Open a LISTEN session (it opens with the first subscriber) by watching a run that finishes at once.
    const queued = await call('POST', '/api/video/render', { compositionId: 'title-card', inputProps: { title: 'Who listens' }, width: 16, height: 16, durationInFrames: 1 });
    expect(queued.status).toBe(200);
    const client = wsClient(port, as.nora);
    try {
      await within(watchRun(client, queued.body.runId as string).done, 30_000, 'the first render');
    } finally {
      await client.dispose();
    }
    const clients = (await bouncer.admin<Row>('show clients')).filter((r) => r.database === db.name);
    expect(clients.length).toBeGreaterThan(0);
    // Session work never goes through the pooler: the pooler's clients carry neither name.
    expect(clients.map((r) => r.application_name)).not.toContain('render-queue');
    expect(clients.map((r) => r.application_name)).not.toContain('render-run-events');
    for (const name of SESSION_WORK) expect(clients.map((r) => r.application_name)).not.toContain(name);
    const direct = new Client({ connectionString: db.url });
    await direct.connect();
    try {
      const sessions = (await direct.query<{ application_name: string; query: string }>(
        `select application_name, query from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`,
      )).rows;
      expect(sessions).toEqual(expect.arrayContaining([
        expect.objectContaining({ application_name: 'render-run-events', query: expect.stringMatching(/^listen render_runs/i) }),
        expect.objectContaining({ application_name: 'render-queue' }),
      ]));
      // Server connections of the pooler: at most its pool size, however many requests ran. The session work
      // (LISTEN for run events and for viewer changes, pg-boss) connects straight to PostgreSQL, under its own names.
      const pooled = sessions.filter((s) => !SESSION_WORK.includes(s.application_name));
      expect(pooled.length).toBeLessThanOrEqual(3);
    } finally {
      await direct.end();
    }
  });

  it('serves REST and GraphQL reads and writes, 24 concurrent transactions on 3 server connections', async () => {
    const before = Number((await poolStats())?.total_xact_count ?? 0);
    expect((await call('GET', '/api/accounts/me')).body.account).toMatchObject({ name: 'Nora North' });
    const me = await graphql('{ me { name organizations { name } } }');
    expect(me.status).toBe(200);
    expect(me.body.data).toMatchObject({ me: { name: 'Nora North', organizations: [{ name: 'Northwind Records' }] } });

    // Writes that take row and advisory transaction locks, in parallel: more than either pool holds.
    const titles = Array.from({ length: 12 }, (_, i) => `Bounced ${i}`);
    const writes = await Promise.all([
      ...titles.map((title) => call('POST', '/api/sessions', { title })),
      ...Array.from({ length: 6 }, (_, i) => call('POST', '/api/keys', { name: `bouncer key ${i}` })),
      ...Array.from({ length: 6 }, (_, i) => graphql('mutation($t: String!) { createSession(input: { title: $t }) { id title } }', { t: `Graph ${i}` })),
    ]);
    expect(writes.map((w) => w.status)).toEqual(writes.map(() => 200));
    expect(writes.slice(18).map((w) => w.body.errors)).toEqual(writes.slice(18).map(() => undefined));

    const sessions = await call('GET', '/api/sessions');
    const listed = (sessions.body.sessions as unknown as { title: string }[]).map((s) => s.title);
    expect(listed).toEqual(expect.arrayContaining([...titles, ...Array.from({ length: 6 }, (_, i) => `Graph ${i}`)]));
    const keys = await call('GET', '/api/keys');
    expect((keys.body.keys as unknown as { name: string }[]).filter((k) => k.name.startsWith('bouncer key'))).toHaveLength(6);

    // A favourite toggled concurrently keeps its count exact (row lock in one transaction).
    const templates = await call('GET', '/api/agents/templates');
    const template = (templates.body.templates as unknown as { id: string }[])[0];
    const favourites = await Promise.all([as.nora, as.sam, as.otto, as.ada].map((h) => call('PUT', `/api/agents/templates/${template.id}/favorite`, { is_favourite: true }, h)));
    expect(favourites.map((f) => f.status)).toEqual([200, 200, 200, 200]);
    const after = await call('GET', '/api/agents/templates');
    const counted = (after.body.templates as unknown as { id: string; favorites_count: number }[]).find((t) => t.id === template.id);
    const rows = await database.orm.em.getConnection().execute<{ n: number }[]>('select count(*)::int as n from template_favourites where template_id = ?', [template.id]);
    expect(counted?.favorites_count).toBe(rows[0].n);
    expect(Number((await poolStats())?.total_xact_count)).toBeGreaterThan(before + 24);
  });

  it('a client that leaves has its statement cancelled through the pooler (CancelRequest), and the pool serves on', async () => {
    const holder = new Client({ connectionString: db.url, application_name: 'test-lock-holder' });
    holder.on('error', () => undefined);
    await holder.connect();
    const waiting = async () =>
      (
        await holder.query<{ n: number }>(
          // Without prepared statements the statement waits in its Parse (parse analysis takes the lock), where pg_stat_activity still says idle.
          `select count(*)::int as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and wait_event_type = 'Lock'`,
        )
      ).rows[0].n;
    try {
      await holder.query('begin');
      await holder.query('lock table catalogs in access exclusive mode');
      const socket = connect(port, '127.0.0.1');
      socket.on('error', () => undefined);
      await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
      socket.write(`GET /api/catalogs HTTP/1.1\r\nHost: x\r\nx-api-key: ${as.nora['x-api-key']}\r\n\r\n`);
      await until(async () => (await waiting()) === 1, 'the statement waiting on the lock');
      socket.destroy();
      // PgBouncer's key names the client connection; it forwards the cancel to the server connection that client holds.
      await until(async () => (await waiting()) === 0, 'the statement cancelled while the lock is held');
    } finally {
      await holder.query('rollback');
      await holder.end();
    }
    expect((await call('GET', '/api/catalogs')).status).toBe(200);
  });

  it('renders a video and pushes every state to a subscriber: QUEUED → EXECUTING → COMPLETED', async () => {
    const client = wsClient(port, as.nora);
    try {
      const started = await call('POST', '/api/video/render', { compositionId: 'title-card', inputProps: { title: 'Pooled' }, width: 64, height: 48, fps: 10, durationInFrames: 12 });
      expect(started.status).toBe(200);
      const live = watchRun(client, started.body.runId as string);
      await within(live.done, 40_000, 'the render');
      expect(live.errors).toEqual([]);
      const statuses = live.states.map((s) => s.status).filter((s, i, all) => all[i - 1] !== s);
      expect(statuses.at(-1)).toBe('COMPLETED');
      expect(statuses).toEqual(statuses[0] === 'QUEUED' ? ['QUEUED', 'EXECUTING', 'COMPLETED'] : ['EXECUTING', 'COMPLETED']);
      const output = live.states.at(-1)!.output!;
      // PUBLIC_URL is the default (port 4000): the signed path and query are what matter.
      const link = new URL(output.url);
      const video = await fetch(`${base()}${link.pathname}${link.search}`);
      expect(video.status).toBe(200);
      expect(video.headers.get('content-type')).toBe('video/mp4');
      expect((await video.arrayBuffer()).byteLength).toBe(output.bytes);
    } finally {
      await client.dispose();
    }
  });
});

async function until(check: () => Promise<boolean>, what: string, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
