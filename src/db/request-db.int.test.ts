import type { EntityManager } from '@mikro-orm/postgresql';
import { createTestDatabase, TestDatabase } from '../../test/db';
import { entities } from '../modules';
import { initOrm, Orm } from './orm';
import { dbOf, hasForked, requestDb } from './request-db';
import { hotQuery } from './sql';

describe("requestDb: a request's database, its entity manager forked on first use (real PostgreSQL)", () => {
  let db: TestDatabase;
  let orm: Orm;
  beforeAll(async () => {
    db = await createTestDatabase();
    orm = await initOrm({ url: db.url, poolMax: 2, entities });
    await orm.em.getConnection().execute(`create table request_db_t (v text)`);
  });
  afterAll(async () => {
    await orm?.close(true);
    await db?.drop();
  });

  it('runs statements, hot or not, and parses timestamps without forking', async () => {
    const fork = jest.spyOn(orm.em, 'fork');
    try {
      const request = requestDb(orm);
      expect(await request.hot<{ n: number }>('select ?::int + 1 as n', [41])).toEqual([{ n: 42 }]);
      expect(await request.execute<{ s: string }>(`select 'a' || ?::text as s`, ['b'])).toEqual([{ s: 'ab' }]);
      expect(request.platform.parseDate('2026-01-02T03:04:05Z')).toEqual(new Date('2026-01-02T03:04:05Z'));
      expect(hasForked(request)).toBe(false);
      expect(fork).not.toHaveBeenCalled();
    } finally {
      fork.mockRestore();
    }
  });

  it('forks once, when `em` is first asked for, and is that fork from then on', async () => {
    const fork = jest.spyOn(orm.em, 'fork');
    try {
      const request = requestDb(orm);
      const em = request.em;
      expect(hasForked(request)).toBe(true);
      expect(fork).toHaveBeenCalledTimes(1);
      expect(request.em).toBe(em);
      expect(em).not.toBe(orm.em);
      expect(await em.execute('select 1 as n')).toEqual([{ n: 1 }]);
      expect(em.getUnitOfWork()).not.toBe(orm.em.fork().getUnitOfWork());
      // Another request's is its own.
      expect(requestDb(orm).em).not.toBe(em);
    } finally {
      fork.mockRestore();
    }
  });

  it('runs a transaction: inside it every statement, hot ones too, is in the transaction; rolled back, nothing stays', async () => {
    const request = requestDb(orm);
    await expect(
      request.transactional(async (tx) => {
        await tx.execute(`insert into request_db_t values ('inside')`);
        expect(await tx.hot('select v from request_db_t')).toEqual([{ v: 'inside' }]);
        expect(await tx.em.execute('select v from request_db_t')).toEqual([{ v: 'inside' }]);
        // Outside the transaction, on the pool, the row is not there yet.
        expect(await request.hot('select v from request_db_t')).toEqual([]);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await request.hot('select v from request_db_t')).toEqual([]);
    expect(request.em.getTransactionContext()).toBeUndefined();
  });

  it('commits a transaction that succeeds; dbOf wraps an entity manager that exists (a worker fork) the same way', async () => {
    const worker = dbOf(orm.em.fork() as EntityManager);
    expect(hasForked(worker)).toBe(true);
    await worker.transactional(async (tx) => {
      await tx.hot(`insert into request_db_t values (?)`, ['kept']);
    });
    expect(await hotQuery(orm.em as EntityManager, 'select v from request_db_t')).toEqual([{ v: 'kept' }]);
    await worker.execute('delete from request_db_t');
  });
});
