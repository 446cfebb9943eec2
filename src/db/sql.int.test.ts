import type { EntityManager } from '@mikro-orm/postgresql';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createTestDatabase, TestDatabase } from '../../test/db';
import { entities } from '../modules';
import { initOrm, Orm } from './orm';
import { hotQuery } from './sql';

const run = promisify(execFile);

describe('hotQuery: hot statements as named prepared statements (real PostgreSQL)', () => {
  let db: TestDatabase;
  const orms: Orm[] = [];
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    for (const orm of orms) await orm.close(true);
    await db.drop();
  });
  // One connection in the pool: the session that prepared a statement is the one asked about it.
  const open = async (preparedStatements?: boolean) => {
    const orm = await initOrm({ url: db.url, poolMax: 1, entities, preparedStatements });
    orms.push(orm);
    return orm.em.fork() as EntityManager;
  };
  const preparedNames = (em: EntityManager) =>
    hotQuery<{ name: string }>(em, `select name from pg_prepared_statements where name like 'hot\\_%' order by name`).then((rows) => rows.map((r) => r.name));

  it('prepares a statement once per connection and answers with its numbered bindings', async () => {
    const em = await open();
    expect(await hotQuery<{ n: number; s: string }>(em, `select ?::int + 1 as n, 'a?b' || ?::text as s`, [1, 'c'])).toEqual([{ n: 2, s: 'a?bc' }]);
    expect(await hotQuery(em, `select ?::int + 1 as n, 'a?b' || ?::text as s`, [41, 'd'])).toEqual([{ n: 42, s: 'a?bd' }]);
    // The statement above (run twice) and this one: each text prepared once on the session.
    expect(await preparedNames(em)).toHaveLength(2);
  });

  it('answers a failing prepared statement with PostgreSQL\'s error, and the connection serves the next one', async () => {
    const em = await open();
    await expect(hotQuery(em, 'select ?::int / 0 as n', [1])).rejects.toThrow(/division by zero/);
    await expect(hotQuery(em, 'select ?::int as n from no_such_table', [1])).rejects.toThrow(/no_such_table/);
    expect(await hotQuery(em, 'select ?::int / 1 as n', [5])).toEqual([{ n: 5 }]);
  });

  it('runs inside the caller\'s transaction, unprepared, so it sees what the transaction wrote', async () => {
    const em = await open();
    await em.transactional(async (tx) => {
      await tx.getConnection().execute(`insert into settings (name, value) values ('hot-test', 'inside')`, [], 'run', tx.getTransactionContext());
      expect(await hotQuery(tx as EntityManager, 'select value from settings where name = ?', ['hot-test'])).toEqual([{ value: 'inside' }]);
      throw new Error('roll back');
    }).catch(() => undefined);
    expect(await hotQuery(em, 'select value from settings where name = ?', ['hot-test'])).toEqual([]);
  });

  it('prepares nothing with DATABASE_PREPARED_STATEMENTS=false (a transaction pooler before PgBouncer 1.21)', async () => {
    const em = await open(false);
    expect(await hotQuery(em, 'select ?::int as n', [7])).toEqual([{ n: 7 }]);
    expect(await preparedNames(em)).toEqual([]);
  });

  it('leaves its answers to the young generation: 1,500 answers of 16 KB grow the old generation by far less than they weigh', async () => {
    // pg's promise form of Client#query kept each answer alive through the next young-generation
    // collection, so V8 moved most answers to the old generation, where only a full mark-compact
    // frees them (issue 31: a mark-compact every few seconds at 30 requests a second). `send`, the
    // callback form every hot statement goes through, leaves them young. Measured in a process of
    // its own (test/support/promotion-probe.ts): promise form 8.6-10.7 MB, `send` 1.0-1.5 MB.
    const root = join(__dirname, '..', '..');
    const { stdout } = await run(process.execPath, ['-r', join(root, 'test', 'support', 'swc-register.js'), join(root, 'test', 'support', 'promotion-probe.ts'), db.url], {
      cwd: root,
      timeout: 50_000,
    });
    const { grown, length } = JSON.parse(stdout) as { grown: number; length: number };
    expect(length).toBe(1500 * 16_000);
    expect(grown).toBeLessThan(4_000_000);
  });
});
