import { Client } from 'pg';
import { createTestDatabase, TestDatabase } from '../../test/db';
import { entities } from '../modules';
import { createLogger } from '../common/logger';
import { initOrm, Orm } from './orm';

/** tarn's pool, as knex holds it: its counts and its reaping cycle (run here instead of waiting for its timer). */
interface TarnPool {
  numUsed(): number;
  numFree(): number;
  check(): void;
}

const poolOf = (orm: Orm) => (orm.em.getConnection().getKnex().client as { pool: TarnPool }).pool;
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

describe('the ORM pool keeps DATABASE_POOL_MIN connections open (real PostgreSQL, issue 31)', () => {
  let db: TestDatabase;
  let admin: Client;
  const orms: Orm[] = [];
  beforeAll(async () => {
    db = await createTestDatabase();
    admin = new Client({ connectionString: db.url, application_name: 'mas_pool_min_admin' });
    await admin.connect();
  });
  afterAll(async () => {
    for (const orm of orms) await orm.close(true);
    await admin?.end();
    await db?.drop();
  });

  const previousAppName = process.env.PGAPPNAME;
  afterEach(() => {
    if (previousAppName === undefined) delete process.env.PGAPPNAME;
    else process.env.PGAPPNAME = previousAppName;
  });

  /** An ORM whose connections (every one it opens during the test) PostgreSQL lists under their own application_name: pg takes it from PGAPPNAME. */
  async function open(appName: string, poolMin: number): Promise<Orm> {
    process.env.PGAPPNAME = appName;
    const orm = await initOrm({ url: db.url, poolMax: 4, poolMin, poolIdleTimeoutMs: 1000, entities });
    orms.push(orm);
    return orm;
  }

  const countBackends = async (appName: string) =>
    Number((await admin.query<{ n: string }>(`select count(*) as n from pg_stat_activity where application_name = $1`, [appName])).rows[0].n);
  /** The backends of an app name once those of closed connections have exited (a close is not awaited by the pool). */
  async function backends(appName: string, expected?: number): Promise<number> {
    let n = await countBackends(appName);
    for (let i = 0; i < 50 && expected !== undefined && n !== expected; i += 1) {
      await sleep(100);
      n = await countBackends(appName);
    }
    return n;
  }

  /** Four connections in use at once (a burst), then idle past the idle timeout, then the pool's reaping cycle. */
  async function burstThenIdle(orm: Orm): Promise<void> {
    const client = orm.em.getConnection().getKnex().client as { acquireConnection(): Promise<unknown>; releaseConnection(c: unknown): Promise<unknown> };
    const held = await Promise.all(Array.from({ length: 4 }, () => client.acquireConnection()));
    await Promise.all(held.map((c) => client.releaseConnection(c)));
    expect(poolOf(orm).numFree()).toBe(4);
    expect(await backends(process.env.PGAPPNAME!, 4)).toBe(4);
    await sleep(1100);
    poolOf(orm).check();
  }

  it('opens the minimum at start, and after idling past the timeout keeps exactly that many (and their backends)', async () => {
    const orm = await open('mas_pool_min_2', 2);
    expect(poolOf(orm).numFree()).toBe(2);
    expect(await backends('mas_pool_min_2', 2)).toBe(2);

    await burstThenIdle(orm);
    expect(poolOf(orm).numFree()).toBe(2);
    // A second cycle after more idling closes nothing more: the minimum is kept however long the pause.
    await sleep(1100);
    poolOf(orm).check();
    expect(poolOf(orm).numFree()).toBe(2);
    expect(await backends('mas_pool_min_2', 2)).toBe(2);
    // The kept connections answer.
    expect(await orm.em.fork().getConnection().execute('select 1 as n')).toEqual([{ n: 1 }]);
  });

  it('with a minimum of 0 closes every idle connection (what traffic after a pause then pays for)', async () => {
    const orm = await open('mas_pool_min_0', 0);
    await burstThenIdle(orm);
    expect(poolOf(orm).numFree()).toBe(0);
    expect(await backends('mas_pool_min_0', 0)).toBe(0);
  });
});

describe("the driver's own warnings are the service's log lines", () => {
  let db: TestDatabase;
  let admin: Client;
  let orm: Orm | undefined;
  beforeAll(async () => {
    db = await createTestDatabase();
    admin = new Client({ connectionString: db.url });
    await admin.connect();
  });
  afterAll(async () => {
    await orm?.close(true);
    await admin?.end();
    await db?.drop();
  });

  it('a pooled connection whose backend was terminated is logged as a warning through the logger, not printed, and the next statement gets a new one', async () => {
    const lines: Record<string, unknown>[] = [];
    const logger = createLogger('warn', {}, false, { write: (line: string) => lines.push(JSON.parse(line)) });
    const printed = jest.spyOn(console, 'log').mockImplementation(() => undefined);
    const previous = process.env.PGAPPNAME;
    process.env.PGAPPNAME = 'mas_driver_log';
    try {
      orm = await initOrm({ url: db.url, poolMax: 1, entities, logger });
      await orm.em.getConnection().execute('select 1');
      // An operator (or a failover) ends the idle connection's backend; its client hears of it on its socket.
      await admin.query(`select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'mas_driver_log'`);
      const idle = () => (poolOf(orm!) as unknown as { free: { resource: { __knex__disposed?: unknown } }[] }).free[0]?.resource;
      for (let i = 0; i < 100 && !idle()?.__knex__disposed; i += 1) await sleep(20);
      expect(idle()?.__knex__disposed).toBeTruthy();
      // Handing it out again finds it broken: knex warns, and opens another.
      const [row] = await orm.em.getConnection().execute<{ one: number }[]>('select 1 as one');
      expect(row.one).toBe(1);
      expect(lines).toContainEqual(expect.objectContaining({ level: 40, msg: 'database driver warning', driver: 'knex', detail: expect.stringMatching(/^Connection Error: /) }));
      expect(printed.mock.calls.flat().join('\n')).not.toMatch(/Connection Error/);
    } finally {
      printed.mockRestore();
      if (previous === undefined) delete process.env.PGAPPNAME;
      else process.env.PGAPPNAME = previous;
    }
  });
});
