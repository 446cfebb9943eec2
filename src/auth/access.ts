import DataLoader from 'dataloader';
import { AppError, badInput, forbidden, notFound } from '../common/errors';
import { AccessRepository, reachRule, SqlCondition } from './access.repository';
import { Viewer, viewerScope } from './viewer';
import type { Db } from '../db/request-db';

export type { SqlCondition } from './access.repository';

/**
 * The reach predicate: SQL condition "the account in `column` is reachable by the viewer" (the
 * reach rule of access.repository.ts for the viewer's scope; every row for an admin). Repositories
 * compose it into their statements, so a read that leaves a row out costs no statement of its own
 * and a forgotten check cannot leak one.
 */
export function reachCondition(viewer: Viewer, column: string): SqlCondition {
  if (viewer.isAdmin) return { sql: 'true', bindings: [] };
  return reachRule(viewerScope(viewer), column);
}

/**
 * An account-level question: may the viewer act for this account (absent: the caller itself), or
 * for this organization. `field` names the input a malformed id is a 400 on.
 */
export type AccessQuestion = { account: string | null | undefined; field?: string } | { organization: string; field?: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The one place the access rules (docs/api/auth.md "Who may act on which account", decisions §3 in docs/decisions.md) are asked.
 * Access to account X: X is the caller or an organization it is a member of, X is a member of one
 * of the caller's organizations (or of the organization the caller is), X is an artist on a roster
 * of the caller or its organizations, or the caller belongs to the admin organization (the reach
 * rule, `reachRule`). Acting for organization Y: the caller is a member of Y, is Y, or is an admin.
 */
export class AccessPolicy {
  /** Per request (one policy per context): batches canAccessAccountBatched by viewer. */
  private readonly reach = new Map<string, DataLoader<string, boolean>>();
  private readonly repo: AccessRepository;

  constructor(db: Db) {
    this.repo = new AccessRepository(db);
  }

  /**
   * The account-level gate every service asks: the account the request acts for (`{account}`: the
   * caller by default, or the given one when reachable; an admin's must exist, else 404), or the
   * organization (`{organization}`: a member of it, it, or an admin). Not allowed: 403; an id that
   * is not a UUID: 400 naming the field (account_id / organization_id unless `field` says otherwise).
   */
  async requireAccess(viewer: Viewer, question: AccessQuestion): Promise<string> {
    if ('organization' in question) {
      const organizationId = question.organization;
      if (!UUID.test(organizationId)) throw badInput(question.field ?? 'organization_id', 'must be a UUID');
      if (this.actsForOrganization(viewer, organizationId)) return organizationId;
      throw forbidden('Not a member of the requested organization');
    }
    const accountId = question.account;
    if (accountId === undefined || accountId === null || accountId === viewer.accountId) return viewer.accountId;
    if (!UUID.test(accountId)) throw badInput(question.field ?? 'account_id', 'must be a UUID');
    if (!(await this.canAccessAccount(viewer, accountId))) throw forbidden();
    // An admin may act for any account, so the id may name none: a 404, not a write that fails on its foreign key
    // (a member's reach already implies the account exists).
    if (viewer.isAdmin && !(await this.repo.accountExists(accountId))) throw notFound('Account');
    return accountId;
  }

  /** The same questions as requireAccess, answered yes or no (a malformed id: no) and without the admin's existence check. */
  async mayAccess(viewer: Viewer, question: AccessQuestion): Promise<boolean> {
    if ('organization' in question) return this.actsForOrganization(viewer, question.organization);
    const accountId = question.account;
    if (accountId === undefined || accountId === null) return true;
    return this.canAccessAccount(viewer, accountId);
  }

  /**
   * canAccessAccount for one id, batched: the calls made in the same tick (the representations of
   * one `_entities` request, the rows of a list) share one query. The viewer's own scope needs none.
   */
  canAccessAccountBatched(viewer: Viewer, accountId: string): Promise<boolean> {
    if (viewer.isAdmin && UUID.test(accountId)) return Promise.resolve(true);
    if (viewerScope(viewer).includes(accountId)) return Promise.resolve(true);
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

  /**
   * The subset of `ids` the viewer may access, in one statement (none when all are the viewer's
   * own scope, or for an admin): the reach rule applied to the ids. A malformed id reaches nothing.
   */
  async accessibleAccountIds(viewer: Viewer, ids: readonly string[]): Promise<Set<string>> {
    const wanted = [...new Set(ids)].filter((id) => UUID.test(id));
    if (viewer.isAdmin) return new Set(wanted);
    const scope = viewerScope(viewer);
    const reachable = new Set(wanted.filter((id) => scope.includes(id)));
    const rest = wanted.filter((id) => !reachable.has(id));
    if (!rest.length) return reachable;
    for (const id of await this.repo.reachableAmong(scope, rest)) reachable.add(id);
    return reachable;
  }

  /** Whether the viewer may access the account: accessibleAccountIds for one id. */
  async canAccessAccount(viewer: Viewer, accountId: string): Promise<boolean> {
    return (await this.accessibleAccountIds(viewer, [accountId])).has(accountId);
  }

  /**
   * The caller is a member of the organization, is it, or is an admin. A pending invitation does
   * not count: invitations (organization_invitations) grant no reach anywhere in this policy.
   */
  private actsForOrganization(viewer: Viewer, organizationId: string): boolean {
    return viewer.isAdmin || viewer.accountId === organizationId || viewer.organizationIds.includes(organizationId);
  }

  /**
   * The artist account is on this owner's own roster (the owner already reaches it). A reach
   * rule, like reachCondition: memberships and rosters are what reach is made of.
   */
  isOnRoster(ownerId: string, artistId: string): Promise<boolean> {
    return this.repo.isOnRoster(ownerId, artistId);
  }
}

export function requireViewer(viewer: Viewer | null | undefined): Viewer {
  if (!viewer) throw new AppError('UNAUTHENTICATED', 'Missing credentials: send x-api-key or Authorization: Bearer');
  return viewer;
}
