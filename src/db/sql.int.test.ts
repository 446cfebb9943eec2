import type { EntityManager } from '@mikro-orm/postgresql';
import { createTestDatabase, TestDatabase } from '../../test/db';
import { entities } from '../modules';
import { initOrm, Orm } from './orm';
import { hotQuery } from './sql';

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
});
