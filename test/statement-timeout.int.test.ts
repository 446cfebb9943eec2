import type { AddressInfo } from 'node:net';
import { Client } from 'pg';
import { createTestApp, TestApp } from './app';
import { as, DEMO } from './demo';
import { rawHttp } from './support/raw-http';
import { connect } from 'node:net';

/** Holds an exclusive lock on `catalogs` in an open transaction: any statement that reads it waits. */
async function lockCatalogs(url: string): Promise<Client> {
  const client = new Client({ connectionString: url, application_name: 'test-lock-holder' });
  client.on('error', () => undefined);
  await client.connect();
  await client.query('begin');
  await client.query('lock table catalogs in access exclusive mode');
  return client;
}

/** The service's statements waiting on that lock. */
async function waiting(t: TestApp): Promise<number> {
  const rows = await t.orm.em
    .getConnection()
    .execute<{ n: number }[]>(
      `select count(*)::int as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and application_name <> 'test-lock-holder' and state = 'active' and wait_event_type = 'Lock'`,
    );
  return rows[0].n;
}

async function until(what: string, check: () => Promise<boolean>, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Sends a request on a raw socket and closes it (the client goes away) once `ready` says so. */
async function requestThenLeave(port: number, head: string, ready: () => Promise<boolean>): Promise<string> {
  const socket = connect(port, '127.0.0.1');
  let received = '';
  socket.on('data', (d) => (received += String(d)));
  socket.on('error', () => undefined);
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  socket.write(head);
  await until('the statement waits in PostgreSQL', ready);
  socket.destroy();
  return received;
}

describe('DATABASE_STATEMENT_TIMEOUT_MS: a statement past it is a 504, not a 500 with SQL', () => {
  let t: TestApp;
  let lock: Client | undefined;
  beforeAll(async () => {
    t = await createTestApp({ env: { DATABASE_STATEMENT_TIMEOUT_MS: '1000' } });
  });
  afterEach(async () => {
    await lock?.query('rollback');
    await lock?.end();
    lock = undefined;
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers 504 PROVIDER_TIMEOUT with Retry-After over REST and GraphQL, naming no SQL', async () => {
    lock = await lockCatalogs(t.db.url);
    const rest = await t.http().get('/api/catalogs').set(as.nora);
    expect(rest.status).toBe(504);
    expect(rest.body).toEqual({ status: 'error', code: 'PROVIDER_TIMEOUT', error: expect.stringMatching(/database did not answer in time/) });
    expect(rest.headers['retry-after']).toBe('5');
    expect(rest.text).not.toMatch(/select|catalogs c|statement timeout|57014/i);

    const graph = await t.graphql('{ catalogs { items { id name } } }', {}, as.nora);
    expect(graph.body.errors[0]).toMatchObject({ message: expect.stringMatching(/database did not answer in time/), extensions: { code: 'PROVIDER_TIMEOUT' } });
    expect(graph.text).not.toMatch(/select|statement timeout|57014/i);
    // Nothing is left waiting: PostgreSQL ended the statements itself.
    expect(await waiting(t)).toBe(0);
  });

  it('applies to every pooled connection (the setting PostgreSQL sees)', async () => {
    const [row] = await t.orm.em.getConnection().execute<{ statement_timeout: string }[]>('show statement_timeout');
    expect(row.statement_timeout).toBe('1s');
  });

  it('the pooled connections never JIT-compile a statement, however costly its estimate (issue 31: 40–60 ms a request)', async () => {
    const [row] = await t.orm.em.getConnection().execute<{ jit: string }[]>('show jit');
    expect(row.jit).toBe('off');
    // A statement past jit_above_cost (0 here) would report its compilation in the plan.
    const plan = await t.orm.em.getConnection().getKnex().transaction(async (trx) => {
      await trx.raw('set local jit_above_cost = 0');
      const explained = await trx.raw(`explain (analyze, format json) select count(*) from catalog_songs cs join catalog_song_artists csa on csa.catalog_song_id = cs.id`);
      return (explained.rows[0]['QUERY PLAN'] as Record<string, unknown>[])[0];
    });
    expect(plan).toHaveProperty('Plan');
    expect(plan).not.toHaveProperty('JIT');
  });
});

describe('a statement is cancelled when its client goes away before the answer', () => {
  let t: TestApp;
  let port: number;
  let lock: Client | undefined;
  beforeAll(async () => {
    // No statement timeout: only the client's leaving can end the statement before the lock is released.
    t = await createTestApp({ env: { DATABASE_STATEMENT_TIMEOUT_MS: '0' } });
    await new Promise<void>((resolve) => t.app.server.listen(0, '127.0.0.1', resolve));
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterEach(async () => {
    await lock?.query('rollback');
    await lock?.end();
    lock = undefined;
  });
  afterAll(async () => {
    await t.close();
  });

  it('REST: the waiting statement leaves pg_stat_activity within seconds, while the lock is still held', async () => {
    lock = await lockCatalogs(t.db.url);
    const key = as.nora['x-api-key'];
    await requestThenLeave(port, `GET /api/catalogs HTTP/1.1\r\nHost: x\r\nx-api-key: ${key}\r\n\r\n`, async () => (await waiting(t)) === 1);
    await until('the statement is cancelled', async () => (await waiting(t)) === 0);
    // The service still answers (its pool was not left holding a connection).
    await lock.query('rollback');
    await lock.end();
    lock = undefined;
    expect((await t.http().get('/api/catalogs').set(as.nora)).status).toBe(200);
  });

  it('GraphQL: the same', async () => {
    lock = await lockCatalogs(t.db.url);
    const body = JSON.stringify({ query: '{ catalogs { items { id name } } }' });
    const head = `POST /graphql HTTP/1.1\r\nHost: x\r\nx-api-key: ${as.nora['x-api-key']}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
    await requestThenLeave(port, head, async () => (await waiting(t)) === 1);
    await until('the statement is cancelled', async () => (await waiting(t)) === 0);
  });

  it('a write cut short by its client leaving is rolled back whole, and its connection goes back to the pool clean', async () => {
    // Credits are written last in the transaction: the entry and the new artist are written when it waits.
    const holder = new Client({ connectionString: t.db.url, application_name: 'test-lock-holder' });
    holder.on('error', () => undefined);
    await holder.connect();
    await holder.query('begin');
    await holder.query('lock table catalog_song_artists in access exclusive mode');
    const artist = `Left Behind ${Date.now()}`;
    const isrc = `GBXYZ${String(Date.now()).slice(-7)}`;
    try {
      const body = JSON.stringify({ songs: [{ catalog_id: DEMO.catalogNorthwind, isrc, name: 'Cut short', artists: [artist] }] });
      const head = `POST /api/catalogs/songs HTTP/1.1\r\nHost: x\r\nx-api-key: ${as.nora['x-api-key']}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
      await requestThenLeave(port, head, async () => (await waiting(t)) === 1);
      await until('the statement is cancelled', async () => (await waiting(t)) === 0);
    } finally {
      await holder.query('rollback');
      await holder.end();
    }
    const connection = t.orm.em.getConnection();
    const [entries] = await connection.execute('select count(*)::int as n from catalog_songs where isrc = ?', [isrc]);
    const [artists] = await connection.execute('select count(*)::int as n from accounts where name = ?', [artist]);
    expect({ entries: entries.n, artists: artists.n }).toEqual({ entries: 0, artists: 0 });
    // No pooled connection was left inside the cut transaction.
    const [open] = await connection.execute(
      `select count(*)::int as n from pg_stat_activity where datname = current_database() and state like 'idle in transaction%'`,
    );
    expect(open.n).toBe(0);
    const again = await t.http().post('/api/catalogs/songs').set(as.nora).send({ songs: [{ catalog_id: DEMO.catalogNorthwind, isrc, name: 'Sent again' }] });
    expect(again.status).toBe(200);
  });

  it('a client that stays gets its answer once the lock is gone (nothing is cancelled under it)', async () => {
    lock = await lockCatalogs(t.db.url);
    const pending = rawHttp(port, { method: 'GET', path: '/api/catalogs', headers: as.nora });
    await until('the statement waits', async () => (await waiting(t)) === 1);
    await lock.query('rollback');
    await lock.end();
    lock = undefined;
    expect((await pending).status).toBe(200);
  });
});
