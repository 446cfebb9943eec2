import type { EntityManager } from '@mikro-orm/postgresql';
import DataLoader from 'dataloader';
import { AppError, badInput, forbidden, notFound } from '../common/errors';
import { pgArray } from '../db/sql';
import { Viewer, viewerScope } from './viewer';

/** A SQL condition with its bindings, to compose into a repository's own statement. */
export interface SqlCondition {
  sql: string;
  bindings: unknown[];
}

/**
 * The reach predicate: SQL condition "the account in `column` is reachable by the viewer" (the
 * rules below). Repositories compose it into their statements, so a read that leaves a row out
 * costs no statement of its own and a forgotten check cannot leak one.
 */
export function reachCondition(viewer: Viewer, column: string): SqlCondition {
  // Aliases no caller picks: a subquery alias would otherwise shadow the caller's table in `column`.
  if (viewer.isAdmin) return { sql: 'true', bindings: [] };
  const scope = pgArray(viewerScope(viewer));
  return {
    sql: `(${column} = any(?::uuid[])
        or exists (select 1 from memberships reach_m where reach_m.organization_id = any(?::uuid[]) and reach_m.member_id = ${column})
        or exists (select 1 from roster_entries reach_r where reach_r.owner_id = any(?::uuid[]) and reach_r.artist_id = ${column}))`,
    bindings: [scope, scope, scope],
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The one place the access rules (docs/api/auth.md "Who may act on which account", decisions §3 in docs/decisions.md) live.
 * Access to account X: X is the caller or an organization it is a member of, X is a member of one
 * of the caller's organizations (or of the organization the caller is), X is an artist on a roster
 * of the caller or its organizations, or the caller belongs to the admin organization.
 */
export class AccessPolicy {
  /** Per request (one policy per context): batches canAccessAccountBatched by viewer. */
  private readonly reach = new Map<string, DataLoader<string, boolean>>();

  constructor(private readonly em: EntityManager) {}

  /**
   * canAccessAccount for one id, batched: the calls made in the same tick (the representations of
   * one `_entities` request, the rows of a list) share one query.
   */
  canAccessAccountBatched(viewer: Viewer, accountId: string): Promise<boolean> {
    return this.reachLoader(viewer).load(accountId);
  }

  /** Seeds canAccessAccountBatched with an answer a read already computed (reachCondition in its own statement). */
  primeReach(viewer: Viewer, accountId: string, reachable: boolean): void {
    this.reachLoader(viewer).prime(accountId, reachable);
  }

  private reachLoader(viewer: Viewer): DataLoader<string, boolean> {
    let loader = this.reach.get(viewer.accountId);
    if (!loader) {
      loader = new DataLoader(async (ids) => {
        const reachable = await this.accessibleAccountIds(viewer, ids);
        return ids.map((id) => reachable.has(id));
      });
      this.reach.set(viewer.accountId, loader);
    }
    return loader;
  }

  /** The subset of `ids` the viewer may access (same rules as canAccessAccount), in one query. */
  async accessibleAccountIds(viewer: Viewer, ids: readonly string[]): Promise<Set<string>> {
    const wanted = [...new Set(ids)].filter((id) => UUID.test(id));
    if (viewer.isAdmin) return new Set(wanted);
    const scope = viewerScope(viewer);
    const reachable = new Set(wanted.filter((id) => scope.includes(id)));
    const rest = wanted.filter((id) => !reachable.has(id));
    if (!rest.length) return reachable;
    const rows = await this.em.getConnection().execute<{ id: string }[]>(
      `select member_id as id from memberships where organization_id = any(?::uuid[]) and member_id = any(?::uuid[])
       union
       select artist_id from roster_entries where owner_id = any(?::uuid[]) and artist_id = any(?::uuid[])`,
      [pgArray(scope), pgArray(rest), pgArray(scope), pgArray(rest)],
    );
    for (const row of rows) reachable.add(row.id);
    return reachable;
  }

  async canAccessAccount(viewer: Viewer, accountId: string): Promise<boolean> {
    if (viewer.isAdmin) return true;
    const scope = viewerScope(viewer);
    if (scope.includes(accountId)) return true;
    // Not a UUID: no account can have that id (and it must not reach the database as a 500).
    if (!UUID.test(accountId)) return false;
    const rows = await this.em.getConnection().execute<{ ok: number }[]>(
      `select 1 as ok from memberships where organization_id = any(?::uuid[]) and member_id = ?
       union all
       select 1 from roster_entries where owner_id = any(?::uuid[]) and artist_id = ?
       limit 1`,
      [pgArray(scope), accountId, pgArray(scope), accountId],
    );
    return rows.length > 0;
  }

  /**
   * Resolves the account a request acts on: the caller by default, or `accountId` when given and
   * reachable (else 403). An id that is not a UUID is a 400 naming account_id.
   */
  async resolveAccount(viewer: Viewer, accountId?: string | null): Promise<string> {
    if (accountId === undefined || accountId === null || accountId === viewer.accountId) return viewer.accountId;
    if (!UUID.test(accountId)) throw badInput('account_id', 'must be a UUID');
    if (!(await this.canAccessAccount(viewer, accountId))) throw forbidden();
    // An admin may act for any account, so the id may name none: a 404, not a write that fails on its foreign key
    // (a member's reach already implies the account exists).
    if (viewer.isAdmin && !(await this.accountExists(accountId))) throw notFound('Account');
    return accountId;
  }

  private async accountExists(accountId: string): Promise<boolean> {
    return (await this.em.getConnection().execute<{ ok: number }[]>('select 1 as ok from accounts where id = ?', [accountId])).length > 0;
  }

  /** organization_id is allowed when the caller is a member of it, is it, or is an admin. */
  assertOrganization(viewer: Viewer, organizationId: string): void {
    if (!UUID.test(organizationId)) throw badInput('organization_id', 'must be a UUID');
    if (this.actsForOrganization(viewer, organizationId)) return;
    throw forbidden('Not a member of the requested organization');
  }

  /**
   * The caller is a member of the organization, is it, or is an admin. A pending invitation does
   * not count: invitations (organization_invitations) grant no reach anywhere in this policy.
   */
  actsForOrganization(viewer: Viewer, organizationId: string): boolean {
    return viewer.isAdmin || viewer.accountId === organizationId || viewer.organizationIds.includes(organizationId);
  }

  /**
   * The artist account is on this owner's own roster (the owner already reaches it). A reach
   * rule, like reachCondition: memberships and rosters are what reach is made of.
   */
  async isOnRoster(ownerId: string, artistId: string): Promise<boolean> {
    const rows = await this.em.getConnection().execute<{ ok: number }[]>(
      `select 1 as ok from roster_entries where owner_id = ? and artist_id = ? limit 1`,
      [ownerId, artistId],
    );
    return rows.length > 0;
  }

  /** The subset of `accountIds` the viewer may reach, in one statement. */
  async reachableAmong(viewer: Viewer, accountIds: readonly string[]): Promise<Set<string>> {
    if (viewer.isAdmin || accountIds.length === 0) return new Set(accountIds);
    const reach = reachCondition(viewer, 't.id');
    const rows = await this.em.getConnection().execute<{ id: string }[]>(
      `select t.id from unnest(?::uuid[]) as t(id) where ${reach.sql}`,
      [pgArray(accountIds), ...reach.bindings],
    );
    return new Set(rows.map((r) => r.id));
  }
}

export function requireViewer(viewer: Viewer | null | undefined): Viewer {
  if (!viewer) throw new AppError('UNAUTHENTICATED', 'Missing credentials: send x-api-key or Authorization: Bearer');
  return viewer;
}
