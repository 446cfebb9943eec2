import type { Orm } from '../db/orm';

/** Reads of `account_limits` (an admin's per-account overrides; written by the usage module). */
export class LimitOverridesRepository {
  constructor(private readonly orm: Orm) {}

  /** One account's stored overrides, or every account's (null). */
  read(accountId: string | null): Promise<{ account_id: string; limits: unknown }[]> {
    const conn = this.orm.em.getConnection();
    return accountId
      ? conn.execute<{ account_id: string; limits: unknown }[]>('select account_id, limits from account_limits where account_id = ?', [accountId])
      : conn.execute<{ account_id: string; limits: unknown }[]>('select account_id, limits from account_limits');
  }
}
