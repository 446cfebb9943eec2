import type { EntityManager } from '@mikro-orm/postgresql';
import { createTestDatabase, TestDatabase } from '../../test/db';
import { entities } from '../modules';
import { initOrm, Orm } from './orm';
import { isForked, requestEntityManager } from './request-em';
import { hotQuery, query } from './sql';

describe('requestEntityManager: the request fork, made on first use (real PostgreSQL)', () => {
  let db: TestDatabase;
  let orm: Orm;
  beforeAll(async () => {
    db = await createTestDatabase();
    orm = await initOrm({ url: db.url, poolMax: 2, entities });
  });
  afterAll(async () => {
    await orm?.close(true);
    await db?.drop();
  });

  it('serves a hot read (statement, configuration, platform, no transaction) without forking', async () => {
    const fork = jest.spyOn(orm.em, 'fork');
    const em = requestEntityManager(orm);
    expect(em.getTransactionContext()).toBeUndefined();
    expect(await hotQuery<{ n: number }>(em, 'select ?::int + 1 as n', [41])).toEqual([{ n: 42 }]);
    expect(em.getPlatform().parseDate('2026-01-02T03:04:05Z')).toEqual(new Date('2026-01-02T03:04:05Z'));
    expect(em.config).toBe(orm.em.config);
    expect(isForked(em)).toBe(false);
    expect(fork).not.toHaveBeenCalled();
    fork.mockRestore();
  });

  it('forks once, on the first use a hot read does not make, and is that fork from then on', async () => {
    const fork = jest.spyOn(orm.em, 'fork');
    const em = requestEntityManager(orm);
    expect(await query<{ n: number }>(em, 'select 1 as n')).toEqual([{ n: 1 }]);
    expect(isForked(em)).toBe(true);
    expect(fork).toHaveBeenCalledTimes(1);
    const uow = em.getUnitOfWork();
    await em.execute('select 2');
    expect(em.getUnitOfWork()).toBe(uow);
    expect(em.getUnitOfWork()).not.toBe(orm.em.fork().getUnitOfWork());
    expect(em).toBeInstanceOf(Object.getPrototypeOf(orm.em).constructor);
    fork.mockRestore();
  });

  it('runs a transaction of its own: inside it, hot reads use the transaction', async () => {
    const em = requestEntityManager(orm);
    await em.getConnection().execute(`create table if not exists lazy_fork_t (v text)`);
    await expect(
      em.transactional(async (tx) => {
        await tx.getConnection().execute(`insert into lazy_fork_t values ('inside')`, [], 'run', tx.getTransactionContext());
        expect(await hotQuery(tx as EntityManager, 'select v from lazy_fork_t')).toEqual([{ v: 'inside' }]);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await hotQuery(em, 'select v from lazy_fork_t')).toEqual([]);
    expect(em.getTransactionContext()).toBeUndefined();
  });
});
