import type { Db } from '../db/request-db';

/** A claim's answer: whether this request holds the key now, else the key's row as the claim found it. */
export interface ClaimRow {
  mine: boolean | null;
  route: string | null;
  fingerprint: string | null;
  state: string | null;
  status: number | null;
  headers: Record<string, string> | null;
  body: Buffer | null;
  wait_s: number | null;
  held: string | number;
}

/** The statements of Idempotency-Key on `idempotency_keys` (hot ones: every POST with a key runs them). */
export class IdempotencyRepository {
  constructor(private readonly db: Db) {}

  /**
   * Claims `key` for the account's request on `route` with this body `fingerprint`, in one
   * statement: a new key (while the account holds fewer than `maxKeysPerAccount`), an expired one,
   * or one whose first request has been running past `runningTimeoutS` is this request's.
   */
  async claim(
    accountId: string,
    key: string,
    route: string,
    fingerprint: string,
    { ttlHours, maxKeysPerAccount, runningTimeoutS }: { ttlHours: number; maxKeysPerAccount: number; runningTimeoutS: number },
  ): Promise<ClaimRow> {
    const [row] = await this.db.hot<ClaimRow>(`with claimed as (
         insert into idempotency_keys (account_id, key, route, fingerprint, expires_at)
         select ?, ?, ?, ?, now() + make_interval(hours => ?)
          where (select count(*) from idempotency_keys where account_id = ? and expires_at > now()) < ?
         on conflict (account_id, key) do update
            set route = excluded.route, fingerprint = excluded.fingerprint, state = 'running', status = null, headers = null,
                body = null, created_at = now(), started_at = now(), expires_at = excluded.expires_at
          where idempotency_keys.expires_at <= now()
             or (idempotency_keys.state = 'running' and idempotency_keys.started_at < now() - make_interval(secs => ?))
         returning true as mine
       )
       select (select mine from claimed) as mine, k.route, k.fingerprint, k.state, k.status, k.headers, k.body,
              greatest(1, ceil(extract(epoch from (k.started_at + make_interval(secs => ?) - now()))))::int as wait_s,
              (select count(*) from idempotency_keys where account_id = ? and expires_at > now()) as held
         from (select 1) one left join idempotency_keys k on k.account_id = ? and k.key = ? and k.expires_at > now()`,
      [accountId, key, route, fingerprint, ttlHours, accountId, maxKeysPerAccount, runningTimeoutS, runningTimeoutS, accountId, accountId, key],
    );
    return row;
  }

  /** Records the running request's outcome: `done` with its answer, or `unkept` (body null). */
  async complete(accountId: string, key: string, state: 'done' | 'unkept', status: number, headers: Record<string, string>, body: Buffer | null): Promise<void> {
    await this.db.hot(`update idempotency_keys set state = ?, status = ?, headers = ?::jsonb, body = ? where account_id = ? and key = ? and state = 'running'`,
      [state, status, JSON.stringify(headers), body, accountId, key],
    );
  }

  /** Deletes the running key. */
  async release(accountId: string, key: string): Promise<void> {
    await this.db.hot(`delete from idempotency_keys where account_id = ? and key = ? and state = 'running'`, [accountId, key]);
  }

  /** Deletes up to `batch` expired keys; answers how many. */
  async prune(batch: number): Promise<number> {
    const rows = await this.db.hot<{ n: string }>(`with gone as (delete from idempotency_keys where ctid in (select ctid from idempotency_keys where expires_at <= now() limit ${Number(batch)}) returning 1)
       select count(*) as n from gone`,
    );
    return Number(rows[0]?.n ?? 0);
  }
}
