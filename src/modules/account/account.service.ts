import type { AccessPolicy } from '../../auth/access';
import type { Viewer } from '../../auth/viewer';
import { badInput, notFound } from '../../common/errors';
import { type Account, AccountKind } from './account.entity';
import type { AddMemberInput, CreateOrganizationInput, RemoveMemberInput } from './account.inputs';
import type { AccountLoaders } from './account.loaders';
import type { AccountRepository } from './account.repository';
import type { AccountProfile, OrganizationMembership, OrganizationType } from './account.types';

/** What the membership rules ask of the access policy. */
export type MembershipAccess = Pick<AccessPolicy, 'actsForOrganization' | 'assertOrganization' | 'isOnRoster' | 'canAccessAccountBatched'>;

/** The repository's public shape: what AccountService works with, and what a test fake implements. */
export type AccountStore = Pick<
  AccountRepository,
  'organizationsOf' | 'invitationsOfAccount' | 'createOrganization' | 'acceptInvitation' | 'addMembership' | 'invite' | 'declineInvitation' | 'removeMembership' | 'members' | 'invitations'
>;

const toOrganization = (org: Account): OrganizationType => ({ id: org.id, name: org.name, created_at: org.createdAt });

export class AccountService {
  constructor(
    private readonly repo: AccountStore,
    private readonly access: MembershipAccess,
    private readonly loaders: Pick<AccountLoaders, 'accountById' | 'organizationsByMemberId'>,
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

  /** Organizations the caller is a member of, by name. */
  async organizations(viewer: Viewer): Promise<OrganizationType[]> {
    return (await this.repo.organizationsOf(viewer.accountId)).map(toOrganization);
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
   * pending invitation. Already a member, or already invited: nothing changes.
   */
  async addMember(viewer: Viewer, input: AddMemberInput): Promise<OrganizationMembership> {
    const { id: organizationId, account_id: accountId } = input;
    if (accountId === viewer.accountId && !this.access.actsForOrganization(viewer, organizationId)) {
      // No invitation to accept: a non-member adding itself is refused as before.
      if (!(await this.repo.acceptInvitation(organizationId, accountId))) this.access.assertOrganization(viewer, organizationId);
      return this.state(await this.organizationOrFail(organizationId));
    }
    this.access.assertOrganization(viewer, organizationId);
    const org = await this.organizationOrFail(organizationId);
    if (accountId === organizationId) throw badInput('account_id', 'an organization cannot be a member of itself');
    const account = await this.loaders.accountById.load(accountId);
    if (!account) throw notFound('Account');
    // Artist accounts cannot sign in to accept; one on the organization's roster is reached already.
    const direct =
      viewer.isAdmin || accountId === viewer.accountId || (account.kind === AccountKind.artist && (await this.access.isOnRoster(organizationId, accountId)));
    if (direct) await this.repo.addMembership(organizationId, accountId);
    else await this.repo.invite(organizationId, accountId, viewer.accountId);
    return this.state(org);
  }

  /**
   * DELETE /organizations/:id/members/:accountId: removes a member or revokes a pending invitation
   * (members, the organization itself, admins; members may remove themselves). An invited account
   * may decline its own invitation. Neither a member nor invited: 404.
   */
  async removeMember(viewer: Viewer, input: RemoveMemberInput): Promise<OrganizationMembership> {
    const { id: organizationId, accountId } = input;
    if (accountId === viewer.accountId && !this.access.actsForOrganization(viewer, organizationId)) {
      if (!(await this.repo.declineInvitation(organizationId, accountId))) this.access.assertOrganization(viewer, organizationId);
      return this.state(await this.organizationOrFail(organizationId));
    }
    this.access.assertOrganization(viewer, organizationId);
    const org = await this.organizationOrFail(organizationId);
    if (!(await this.repo.removeMembership(organizationId, accountId))) throw notFound('Membership');
    return this.state(org);
  }

  private async state(org: Account): Promise<OrganizationMembership> {
    const [members, invitations] = await Promise.all([this.repo.members(org.id), this.repo.invitations(org.id)]);
    return { organization: toOrganization(org), members, invitations };
  }

  private async organizationOrFail(id: string): Promise<Account> {
    const org = await this.loaders.accountById.load(id);
    if (!org || org.kind !== AccountKind.organization) throw notFound('Organization');
    return org;
  }
}
