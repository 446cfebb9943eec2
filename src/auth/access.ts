import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError, badInput, forbidden } from '../common/errors';
import { pgArray } from '../db/sql';
import { Viewer, viewerScope } from './viewer';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The one place the access rules (api-spec Authentication rules 5-9, decisions §3) live.
 * Access to account X: X is the caller or an organization it is a member of, X is a member of one
 * of the caller's organizations (or of the organization the caller is), X is an artist on a roster
 * of the caller or its organizations, or the caller belongs to the admin organization.
 */
export class AccessPolicy {
  constructor(private readonly em: EntityManager) {}

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
    return accountId;
  }

  /** organization_id is allowed when the caller is a member of it, is it, or is an admin. */
  assertOrganization(viewer: Viewer, organizationId: string): void {
    if (!UUID.test(organizationId)) throw badInput('organization_id', 'must be a UUID');
    if (viewer.isAdmin || viewer.accountId === organizationId || viewer.organizationIds.includes(organizationId)) return;
    throw forbidden('Not a member of the requested organization');
  }

  /** Every account the viewer may reach, for list queries; null means all (admin). */
  async reachableAccountIds(viewer: Viewer): Promise<string[] | null> {
    if (viewer.isAdmin) return null;
    const scope = viewerScope(viewer);
    const rows = await this.em.getConnection().execute<{ id: string }[]>(
      `select member_id as id from memberships where organization_id = any(?::uuid[])
       union select artist_id from roster_entries where owner_id = any(?::uuid[])`,
      [pgArray(scope), pgArray(scope)],
    );
    return [...new Set([...scope, ...rows.map((r) => r.id)])];
  }
}

export function requireViewer(viewer: Viewer | null | undefined): Viewer {
  if (!viewer) throw new AppError('UNAUTHENTICATED', 'Missing credentials: send x-api-key or Authorization: Bearer');
  return viewer;
}
