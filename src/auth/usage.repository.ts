import type { Orm } from '../db/orm';
import { send, type PgConnection } from '../db/sql';

/** What an account's usage record counts per hour (docs/api/usage.md). */
export interface UsageCounts {
  /** Request points taken from the per-minute budget (refunds given back). */
  requestPoints: number;
  /** Research points taken from the research budget (refunds given back). */
  researchPoints: number;
  /** Upstream provider calls made for the account's requests. */
  providerCalls: number;
  /** Research answers served from stored data, with no provider call. */
  storedAnswers: number;
}

/** The counted figures, in the order of their columns. */
export const USAGE_FIELDS: (keyof UsageCounts)[] = ['requestPoints', 'researchPoints', 'providerCalls', 'storedAnswers'];
const COLUMNS: Record<keyof UsageCounts, string> = {
  requestPoints: 'request_points',
  researchPoints: 'research_points',
  providerCalls: 'provider_calls',
  storedAnswers: 'stored_answers',
};

/**
 * Adds a batch of account-hours to `account_usage` in one upsert, through a connection of the pool
 * but outside the ORM's query log (it belongs to no request: the statement tests count a request's
 * statements, and a flush landing inside one would count there). Rows of accounts deleted
 * meanwhile are skipped.
 */
export async function addUsage(orm: Orm, batch: (UsageCounts & { accountId: string; hour: number })[]): Promise<void> {
  const values: unknown[] = [];
  const tuples = batch.map((entry) => {
    values.push(entry.accountId, new Date(entry.hour).toISOString(), ...USAGE_FIELDS.map((f) => entry[f]));
    const n = values.length;
    return `($${n - 5}::uuid, $${n - 4}::timestamptz, $${n - 3}::bigint, $${n - 2}::bigint, $${n - 1}::bigint, $${n}::bigint)`;
  });
  const columns = USAGE_FIELDS.map((f) => COLUMNS[f]);
  const sql = `insert into account_usage (account_id, hour, ${columns.join(', ')})
      select v.account_id, v.hour, ${columns.map((c) => `v.${c}`).join(', ')}
        from (values ${tuples.join(', ')}) as v(account_id, hour, ${columns.join(', ')})
        join accounts a on a.id = v.account_id
      on conflict (account_id, hour) do update set ${columns.map((c) => `${c} = account_usage.${c} + excluded.${c}`).join(', ')}`;
  const knex = orm.em.getConnection().getKnex();
  const client = knex.client as { acquireConnection(): Promise<PgConnection>; releaseConnection(c: unknown): Promise<void> };
  const connection = await client.acquireConnection();
  try {
    await send(connection, { text: sql, values });
  } finally {
    await client.releaseConnection(connection);
  }
}
