import type { Db } from '../db/request-db';

/** The advisory lock one pruning instance holds (the others skip). */
const PRUNE_LOCK = 0x61707127;

/** The statements of the persisted-query store on `persisted_queries`. */
export class PersistedQueriesRepository {
  constructor(private readonly db: Db) {}

  /** The unexpired document of this hash and how long it has left (ms), in one hot statement. */
  async find(hash: string): Promise<{ query: string; ttl_ms: number } | undefined> {
    const [row] = await this.db.hot<{ query: string; ttl_ms: number }>(`select query, greatest(1, floor(extract(epoch from (expires_at - now())) * 1000))::float8 as ttl_ms
         from persisted_queries where hash = ? and expires_at > now()`,
      [hash],
    );
    return row;
  }

  /** Registers (or registers again) a document for `ttlS` seconds. */
  async register(hash: string, query: string, bytes: number, ttlS: number): Promise<void> {
    await this.db.execute(
      `insert into persisted_queries (hash, query, bytes, registered_at, expires_at)
       values (?, ?, ?, now(), now() + make_interval(secs => ?))
       on conflict (hash) do update set registered_at = excluded.registered_at, expires_at = excluded.expires_at`,
      [hash, query, bytes, ttlS],
    );
  }

  async delete(hash: string): Promise<void> {
    await this.db.execute('delete from persisted_queries where hash = ?', [hash]);
  }

  /**
   * Drops the expired rows and the oldest registrations past either bound. Under a transaction-level
   * advisory lock that only one instance takes at a time (the others skip: the holder prunes for them),
   * so concurrent registrations never delete in crossing orders. Answers the rows deleted.
   */
  prune(maxEntries: number, maxBytes: number): Promise<number> {
    return this.db.transactional(async (tx) => {
      const em = tx.em;
      const [lock] = await em.execute<{ locked: boolean }[]>('select pg_try_advisory_xact_lock(?) as locked', [PRUNE_LOCK]);
      if (!lock?.locked) return 0;
      const deleted = await em.execute<{ hash: string }[]>(
        `delete from persisted_queries p
          where p.expires_at <= now()
             or p.hash in (
               select hash from (
                 select hash, row_number() over w as n, sum(bytes) over w as total
                   from persisted_queries where expires_at > now()
                 window w as (order by registered_at desc, hash)
               ) ranked
               where n > ? or total > ?)
          returning p.hash`,
        [maxEntries, maxBytes],
      );
      return deleted.length;
    });
  }
}
