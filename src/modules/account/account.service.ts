import type { Context } from '../../graphql/context';
import { requireViewer } from '../../auth/access';
import { badInput, notFound } from '../../common/errors';
import { validate } from '../../common/validation';
import { Account, AccountKind, Membership } from './account.entity';
import { addMemberInput, organizationName, removeMemberInput } from './account.inputs';
import { AccountProfile, OrganizationMember, OrganizationType } from './account.types';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const toOrganization = (org: Account): OrganizationType => ({ id: org.id, name: org.name, created_at: org.createdAt });

export class AccountService {
  constructor(private readonly ctx: Context) {}

  async me(): Promise<AccountProfile> {
    const viewer = requireViewer(this.ctx.viewer);
    const account = await this.ctx.loaders.accountById.load(viewer.accountId);
    if (!account) throw notFound('Account');
    const organizations = await this.ctx.loaders.organizationsByMemberId.load(account.id);
    return { id: account.id, name: account.name, email: account.email, kind: account.kind, organizations };
  }

  /** Organizations the caller is a member of, by name. */
  async organizations(): Promise<OrganizationType[]> {
    const viewer = requireViewer(this.ctx.viewer);
    const memberships = await this.ctx.em.find(
      Membership,
      { member: viewer.accountId },
      { populate: ['organization'], orderBy: { organization: { name: 'asc', id: 'asc' } } },
    );
    return memberships.map((m) => toOrganization(m.organization));
  }

  /**
   * Federation reference: the organization with this id when the viewer may access it (member,
   * the organization itself, or admin), else null, like a missing one. Batched: the loader and
   * the access check each take one query for all representations of a request.
   */
  async organizationReference(id: unknown): Promise<OrganizationType | null> {
    const viewer = requireViewer(this.ctx.viewer);
    if (typeof id !== 'string' || !UUID.test(id)) return null;
    const [account, allowed] = await Promise.all([this.ctx.loaders.accountById.load(id), this.ctx.access.canAccessAccountBatched(viewer, id)]);
    if (!account || !allowed || account.kind !== AccountKind.organization) return null;
    return toOrganization(account);
  }

  /** Creates an organization; the caller becomes its first member. */
  async createOrganization(name: string): Promise<OrganizationType> {
    const viewer = requireViewer(this.ctx.viewer);
    const cleanName = validate(organizationName, name, 'name');
    const org = await this.ctx.em.transactional(async (em) => {
      const created = em.create(Account, { kind: AccountKind.organization, name: cleanName });
      em.create(Membership, { organization: created, member: em.getReference(Account, viewer.accountId) });
      return created;
    });
    return toOrganization(org);
  }

  /**
   * Adds an account to an organization (idempotent). Only members of the organization, the
   * organization itself, or admins may change its membership.
   */
  async addMember(organizationId: string, accountId: string): Promise<{ organization: OrganizationType; members: OrganizationMember[] }> {
    const viewer = requireViewer(this.ctx.viewer);
    validate(addMemberInput, { id: organizationId, account_id: accountId });
    this.ctx.access.assertOrganization(viewer, organizationId);
    const org = await this.organizationOrFail(organizationId);
    if (accountId === organizationId) throw badInput('account_id', 'an organization cannot be a member of itself');
    const member = await this.ctx.loaders.accountById.load(accountId);
    if (!member) throw notFound('Account');
    await this.ctx.em.getConnection().execute(
      `insert into memberships (id, created_at, updated_at, organization_id, member_id)
       values (gen_random_uuid(), now(), now(), ?, ?) on conflict (organization_id, member_id) do nothing`,
      [organizationId, accountId],
    );
    return { organization: toOrganization(org), members: await this.members(organizationId) };
  }

  /** Removes a member; the same people as addMember may do it. Not a member: 404. */
  async removeMember(organizationId: string, accountId: string): Promise<{ organization: OrganizationType; members: OrganizationMember[] }> {
    const viewer = requireViewer(this.ctx.viewer);
    validate(removeMemberInput, { id: organizationId, accountId });
    this.ctx.access.assertOrganization(viewer, organizationId);
    const org = await this.organizationOrFail(organizationId);
    const removed = await this.ctx.em.nativeDelete(Membership, { organization: organizationId, member: accountId });
    if (!removed) throw notFound('Membership');
    return { organization: toOrganization(org), members: await this.members(organizationId) };
  }

  private async organizationOrFail(id: string): Promise<Account> {
    const org = await this.ctx.loaders.accountById.load(id);
    if (!org || org.kind !== AccountKind.organization) throw notFound('Organization');
    return org;
  }

  private members(organizationId: string): Promise<OrganizationMember[]> {
    return this.ctx.em.getConnection().execute<OrganizationMember[]>(
      `select a.id, a.name, a.kind from memberships m join accounts a on a.id = m.member_id
        where m.organization_id = ? order by a.name, a.id`,
      [organizationId],
    );
  }
}
