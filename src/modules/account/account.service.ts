import { cursorOf, PageRequest, positionOf, sortKeys } from '../../common/paging';
import { PageOf, pageOf } from '../../graphql/common.types';
import type { AccessPolicy } from '../../auth/access';
import type { Viewer } from '../../auth/viewer';
import type { TokenIdentity } from '../../auth/jwt';
import { AppError, badInput, forbidden, notFound } from '../../common/errors';
import { type Account, AccountKind } from './account.entity';
import type { AddMemberInput, CreateOrganizationInput, DeleteOrganizationInput, RemoveMemberInput } from './account.inputs';
import type { AccountLoaders } from './account.loaders';
import type { AccountRepository, InvitationCaps, Revocation } from './account.repository';
import type { AccountProfile, OrganizationDeletion, OrganizationMembership, OrganizationType } from './account.types';

/** What the membership rules ask of the access policy. */
export type MembershipAccess = Pick<AccessPolicy, 'requireAccess' | 'mayAccess' | 'isOnRoster' | 'canAccessAccountBatched' | 'accessibleAccountIds'>;

/** The repository's public shape: what AccountService works with, and what a test fake implements. */
export type AccountStore = Pick<
  AccountRepository,
  | 'organizationsPage'
  | 'invitationsOfAccount'
  | 'createOrganization'
  | 'acceptInvitation'
  | 'addMembership'
  | 'invite'
  | 'declineInvitation'
  | 'removeMembership'
  | 'deleteOrganization'
  | 'members'
  | 'invitations'
>;

const toOrganization = (org: Account): OrganizationType => ({ id: org.id, name: org.name, created_at: org.createdAt });

export class AccountService {
  constructor(
    private readonly repo: AccountStore,
    private readonly access: MembershipAccess,
    private readonly loaders: Pick<AccountLoaders, 'accountById' | 'organizationsByMemberId'>,
    private readonly caps: InvitationCaps,
  ) {}

  async me(viewer: Viewer): Promise<AccountProfile> {
    const account = await this.loaders.accountById.load(viewer.accountId);
    if (!account) throw notFound('Account');
    const [organizations, invitations] = await Promise.all([
      this.loaders.organizationsByMemberId.load(account.id),
      this.repo.invitationsOfAccount(account.id),
    ]);
    return { id: account.id, name: account.name, email: account.email, kind: account.kind, organizations, invitations };
  }

  /** Organizations the caller is a member of, by name then id, a page at a time. */
  async organizations(viewer: Viewer, request: PageRequest): Promise<PageOf<OrganizationType>> {
    const position = positionOf(request, 'Query.organizations', viewer.accountId, sortKeys.nameThenUuid);
    const page = await this.repo.organizationsPage(viewer.accountId, position, request.limit);
    return pageOf(page.organizations, { total: page.total, skipped: page.skipped, limit: request.limit }, (org) => cursorOf('Query.organizations', viewer.accountId, [org.name, org.id]));
  }

  /**
   * Federation reference: the organization with this id when the viewer may access it (member,
   * the organization itself, or admin), else null, like a missing one. Batched: the loader and
   * the access check each take one query for all representations of a request.
   */
  async organizationReference(viewer: Viewer, id: string): Promise<OrganizationType | null> {
    const [account, allowed] = await Promise.all([this.loaders.accountById.load(id), this.access.canAccessAccountBatched(viewer, id)]);
    if (!account || !allowed || account.kind !== AccountKind.organization) return null;
    return toOrganization(account);
  }

  /** Creates an organization; the caller becomes its first member. */
  async createOrganization(viewer: Viewer, input: CreateOrganizationInput): Promise<OrganizationType> {
    return toOrganization(await this.repo.createOrganization(input.name, viewer.accountId));
  }

  /**
   * POST /organizations/:id/members. Only members of the organization, the organization itself,
   * or admins may change its membership, and adding someone needs their consent: it records a
   * pending invitation (no reach) unless the caller is an admin or the account is an artist on the
   * organization's own roster, which are added directly. An account adding itself accepts its
   * pending invitation, which holds only while its inviter is still a member. Already a member, or
   * already invited: nothing changes. Organizations are never members; pending invitations are
   * capped per organization and per invitee.
   */
  async addMember(viewer: Viewer, input: AddMemberInput): Promise<OrganizationMembership> {
    const { id: organizationId, account_id: accountId } = input;
    if (accountId === viewer.accountId && !(await this.access.mayAccess(viewer, { organization: organizationId }))) {
      // No valid invitation to accept: a non-member adding itself is refused as before.
      if (!(await this.repo.acceptInvitation(organizationId, accountId))) await this.access.requireAccess(viewer, { organization: organizationId });
      return this.state(viewer, await this.organizationOrFail(organizationId));
    }
    await this.access.requireAccess(viewer, { organization: organizationId });
    const org = await this.organizationOrFail(organizationId);
    if (accountId === organizationId) throw badInput('account_id', 'an organization cannot be a member of itself');
    const account = await this.loaders.accountById.load(accountId);
    if (!account) throw notFound('Account');
    if (account.kind === AccountKind.organization) throw badInput('account_id', 'must be a person or an artist: organizations cannot be members of organizations');
    // Artist accounts cannot sign in to accept; one on the organization's roster is reached already.
    const direct =
      viewer.isAdmin || accountId === viewer.accountId || (account.kind === AccountKind.artist && (await this.access.isOnRoster(organizationId, accountId)));
    if (direct) await this.repo.addMembership(organizationId, accountId);
    else {
      const outcome = await this.repo.invite(organizationId, accountId, viewer.accountId, this.caps);
      if (outcome === 'organization-full') {
        throw badInput('account_id', `the organization has ${this.caps.perOrganization} pending invitations, the most allowed: revoke some first`);
      }
      if (outcome === 'account-full') throw badInput('account_id', `the account has ${this.caps.perAccount} pending invitations, the most allowed`);
      if (outcome === 'inviter-gone') throw forbidden('Not a member of the requested organization');
    }
    return this.state(viewer, org);
  }

  /**
   * DELETE /organizations/:id/members/:accountId: removes a member or revokes a pending invitation
   * (members, the organization itself, admins; members may remove themselves). An invited account
   * may decline its own invitation. Neither a member nor invited: 404. Answers what ended: the
   * invitations the member had made and the catalog links made through the membership go with it.
   */
  async removeMember(viewer: Viewer, input: RemoveMemberInput): Promise<OrganizationMembership> {
    const { id: organizationId, accountId } = input;
    if (accountId === viewer.accountId && !(await this.access.mayAccess(viewer, { organization: organizationId }))) {
      if (!(await this.repo.declineInvitation(organizationId, accountId))) await this.access.requireAccess(viewer, { organization: organizationId });
      const declined: Revocation = { membership: false, invitation: true, invitations: [], catalog_links: [] };
      return { ...(await this.state(viewer, await this.organizationOrFail(organizationId))), revoked: declined };
    }
    await this.access.requireAccess(viewer, { organization: organizationId });
    const org = await this.organizationOrFail(organizationId);
    const revoked = await this.repo.removeMembership(organizationId, accountId);
    if (!revoked.membership && !revoked.invitation) throw notFound('Membership');
    return { ...(await this.state(viewer, org)), revoked };
  }

  /**
   * DELETE /organizations/:id: its members (or the organization itself, or admins) delete it;
   * memberships, invitations (its own and those its members made), the links made through its
   * memberships, and catalogs linked to nobody else end with it.
   */
  async deleteOrganization(viewer: Viewer, input: DeleteOrganizationInput): Promise<OrganizationDeletion> {
    await this.access.requireAccess(viewer, { organization: input.id });
    const org = await this.organizationOrFail(input.id);
    const ended = await this.repo.deleteOrganization(org.id);
    return { organization: toOrganization(org), ...ended };
  }

  /** The organization's members and pending invitations; an invitee's name and kind only for a caller who reaches it already. */
  private async state(viewer: Viewer, org: Account): Promise<OrganizationMembership> {
    const [members, invitations] = await Promise.all([this.repo.members(org.id), this.repo.invitations(org.id)]);
    const known = await this.access.accessibleAccountIds(viewer, invitations.map((i) => i.id));
    return {
      organization: toOrganization(org),
      members,
      invitations: invitations.map((i) => (known.has(i.id) ? i : { ...i, name: null, kind: null })),
      revoked: null,
    };
  }

  private async organizationOrFail(id: string): Promise<Account> {
    const org = await this.loaders.accountById.load(id);
    if (!org || org.kind !== AccountKind.organization) throw notFound('Organization');
    return org;
  }
}

/** What provisioning asks of the repository. */
export type ProvisioningStore = Pick<AccountRepository, 'accountOfIdentity' | 'personWithProvenEmail' | 'bindIdentity' | 'createPersonWithIdentity'>;

/** The account a verified identity-provider token signs in to, made on first sight (src/auth/jwt.ts asks through IdentityAccounts). */
export class ProvisioningService {
  constructor(private readonly repo: ProvisioningStore) {}

  /**
   * The one bound to the token's issuer and subject; else, when the token proves its e-mail
   * address, the person whose address was proven too (and the identity is bound to it); else a new
   * person, bound to the identity, taking the address from any account holding it unproven (an
   * agent+ signup). An unproven address is never matched nor stored (the token's reader passes none).
   */
  async accountFor(identity: TokenIdentity): Promise<string> {
    const { issuer, subject, email } = identity;
    // Two first requests may race: the loser's insert finds the winner's row on the next pass.
    for (let attempt = 0; attempt < 3; attempt += 1) {
      if (subject) {
        const bound = await this.repo.accountOfIdentity(issuer, subject);
        if (bound) return bound;
      }
      if (email) {
        const person = await this.repo.personWithProvenEmail(email);
        if (person) {
          if (subject) await this.repo.bindIdentity(person, issuer, subject);
          return person;
        }
      }
      const created = await this.repo.createPersonWithIdentity({ name: identity.name, email }, { issuer, subject });
      if (created) return created;
    }
    throw new AppError('UNAUTHENTICATED', 'The account for this token could not be created');
  }
}
