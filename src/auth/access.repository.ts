import { pgArray } from '../db/sql';
import type { AccountKind } from './viewer';
import type { Db } from '../db/request-db';

/** A SQL condition with its bindings, to compose into a repository's own statement. */
export interface SqlCondition {
  sql: string;
  bindings: unknown[];
}

/**
 * THE reach rule, its one definition (docs/api/auth.md "Who may act on which account", decisions §3 in docs/decisions.md): the account
 * in `column` is reachable from the accounts of `scope` (a caller and its organizations) when it is
 * one of them, a member of one of them (an organization), or an artist on one of their rosters.
 * Every other form (the condition repositories compose, the batched and the single check) is built
 * from this one; test/access/reach-rule.int.test.ts holds them equal.
 */
export function reachRule(scope: readonly string[], column: string): SqlCondition {
  const accounts = pgArray(scope);
  // Aliases no caller picks: a subquery alias would otherwise shadow the caller's table in `column`.
  return {
    sql: `(${column} = any(?::uuid[])
        or exists (select 1 from memberships reach_m where reach_m.organization_id = any(?::uuid[]) and reach_m.member_id = ${column})
        or exists (select 1 from roster_entries reach_r where reach_r.owner_id = any(?::uuid[]) and reach_r.artist_id = ${column}))`,
    bindings: [accounts, accounts, accounts],
  };
}

/** A viewer's row: the account and its organizations. */
export interface ViewerRow {
  id: string;
  kind: AccountKind;
  name: string;
  email: string | null;
  organization_ids: string[] | null;
}

/** The account and its organizations, as one select list (grouped by account). */
// The viewer's e-mail is its proven address only: what is shared with an address (templates) needs proof.
const VIEWER_COLUMNS = `a.id, a.kind, a.name, case when a.email_verified_at is not null then a.email end as email, array_remove(array_agg(m.organization_id), null) as organization_ids`;

/**
 * Auth's statements: who a credential is (keys, accounts, memberships) and what a caller reaches
 * (memberships, rosters). Nothing else in src/auth reads or writes these tables.
 */
export class AccessRepository {
  constructor(private readonly db: Db) {}

  /** The ids among `ids` the reach rule lets `scope` reach, in one statement. */
  async reachableAmong(scope: readonly string[], ids: readonly string[]): Promise<Set<string>> {
    const reach = reachRule(scope, 't.id');
    const rows = await this.db.execute<{ id: string }>(
      `select t.id from unnest(?::uuid[]) as t(id) where ${reach.sql}`,
      [pgArray(ids), ...reach.bindings],
    );
    return new Set(rows.map((r) => r.id));
  }

  async accountExists(accountId: string): Promise<boolean> {
    return (await this.db.execute<{ ok: number }>('select 1 as ok from accounts where id = ?', [accountId])).length > 0;
  }

  /** The artist account is on this owner's own roster. */
  async isOnRoster(ownerId: string, artistId: string): Promise<boolean> {
    const rows = await this.db.execute<{ ok: number }>(
      `select 1 as ok from roster_entries where owner_id = ? and artist_id = ? limit 1`,
      [ownerId, artistId],
    );
    return rows.length > 0;
  }

  /** The viewer behind an unrevoked API key (by its hash), with the key's id and last use. A hot statement: every keyed request without a cached viewer runs it. */
  async viewerOfKey(hash: string): Promise<(ViewerRow & { key_id: string; last_used_at: Date | string | null }) | undefined> {
    const rows = await this.db.hot<ViewerRow & { key_id: string; last_used_at: Date | string | null }>(`select k.id as key_id, k.last_used_at, ${VIEWER_COLUMNS}
         from api_keys k join accounts a on a.id = k.account_id left join memberships m on m.member_id = a.id
        where k.hash = ? and k.revoked_at is null
        group by k.id, a.id`,
      [hash],
    );
    return rows[0];
  }

  /** Marks the key used at `now`, unless it was marked after `notBefore`: conditional, so concurrent requests (and instances) do not pile up. */
  async touchKey(keyId: string, now: Date, notBefore: Date): Promise<void> {
    await this.db.execute(
      `update api_keys set last_used_at = ? where id = ? and (last_used_at is null or last_used_at < ?)`,
      [now, keyId, notBefore],
    );
  }

  /** The viewer row of an account. */
  async viewerOf(accountId: string): Promise<ViewerRow | undefined> {
    const rows = await this.db.execute<ViewerRow>(
      `select ${VIEWER_COLUMNS} from accounts a left join memberships m on m.member_id = a.id where a.id = ? group by a.id`,
      [accountId],
    );
    return rows[0];
  }
}
