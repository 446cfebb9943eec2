import type { Db } from '../db/request-db';

/** Reads of `account_limits` (an admin's per-account overrides; written by the usage module). */
export class LimitOverridesRepository {
  constructor(private readonly db: Db) {}

  /** One account's stored overrides, or every account's (null). */
  read(accountId: string | null): Promise<{ account_id: string; limits: unknown }[]> {
    return accountId
      ? this.db.execute<{ account_id: string; limits: unknown }>('select account_id, limits from account_limits where account_id = ?', [accountId])
      : this.db.execute<{ account_id: string; limits: unknown }>('select account_id, limits from account_limits');
  }
}
