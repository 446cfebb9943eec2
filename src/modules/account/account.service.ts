import type { Context } from '../../graphql/context';
import { requireViewer } from '../../auth/access';
import { notFound } from '../../common/errors';
import { validate } from '../../common/validation';
import { Account, AccountKind, Membership } from './account.entity';
import { organizationName } from './account.inputs';
import { AccountProfile, OrganizationType } from './account.types';

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
}
