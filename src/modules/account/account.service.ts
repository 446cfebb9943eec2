import type { EntityManager } from '@mikro-orm/postgresql';
import type { Context } from '../../graphql/context';
import { requireViewer } from '../../auth/access';
import { badInput, notFound } from '../../common/errors';
import { validate } from '../../common/validation';
import { ArtistRepository } from '../artist';
import { Account, AccountKind, Membership, OrganizationInvitation } from './account.entity';
import { addMemberInput, organizationName, removeMemberInput } from './account.inputs';
import { AccountProfile, OrganizationInvitee, OrganizationMember, OrganizationType } from './account.types';

/** Answer of the membership mutations: the organization, its members and pending invitations. */
export interface MembershipState {
  organization: OrganizationType;
  members: OrganizationMember[];
  invitations: OrganizationInvitee[];
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const toOrganization = (org: Account): OrganizationType => ({ id: org.id, name: org.name, created_at: org.createdAt });

export class AccountService {
  constructor(private readonly ctx: Context) {}

  async me(): Promise<AccountProfile> {
    const viewer = requireViewer(this.ctx.viewer);
    const account = await this.ctx.loaders.accountById.load(viewer.accountId);
    if (!account) throw notFound('Account');
    const [organizations, invitations] = await Promise.all([
      this.ctx.loaders.organizationsByMemberId.load(account.id),
      this.ctx.em.getConnection().execute<{ id: string; name: string; invited_at: string }[]>(
        `select o.id, o.name, i.created_at as invited_at from organization_invitations i join accounts o on o.id = i.organization_id
          where i.account_id = ? order by i.created_at, o.id`,
        [account.id],
      ),
    ]);
    return {
      id: account.id,
      name: account.name,
      email: account.email,
      kind: account.kind,
      organizations,
      invitations: invitations.map(({ id, name, invited_at }) => ({ organization: { id, name }, invited_at: new Date(invited_at) })),
    };
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
   * POST /organizations/:id/members. Only members of the organization, the organization itself,
   * or admins may change its membership, and adding someone needs their consent: it records a
   * pending invitation (no reach) unless the caller is an admin or the account is an artist on the
   * organization's own roster, which are added directly. An account adding itself accepts its
   * pending invitation. Already a member, or already invited: nothing changes.
   */
  async addMember(organizationId: string, accountId: string): Promise<MembershipState> {
    const viewer = requireViewer(this.ctx.viewer);
    validate(addMemberInput, { id: organizationId, account_id: accountId });
    if (accountId === viewer.accountId && !this.ctx.access.actsForOrganization(viewer, organizationId)) {
      const accepted = await this.ctx.em.transactional(async (tx) => {
        const em = tx as EntityManager;
        const deleted = await em.execute<{ id: string }[]>(
          `delete from organization_invitations where organization_id = ? and account_id = ? returning id`,
          [organizationId, accountId],
        );
        if (deleted.length) await this.insertMembership(em, organizationId, accountId);
        return deleted.length > 0;
      });
      // No invitation to accept: a non-member adding itself is refused as before.
      if (!accepted) this.ctx.access.assertOrganization(viewer, organizationId);
      return this.state(await this.organizationOrFail(organizationId));
    }
    this.ctx.access.assertOrganization(viewer, organizationId);
    const org = await this.organizationOrFail(organizationId);
    if (accountId === organizationId) throw badInput('account_id', 'an organization cannot be a member of itself');
    const account = await this.ctx.loaders.accountById.load(accountId);
    if (!account) throw notFound('Account');
    // Artist accounts cannot sign in to accept; one on the organization's roster is reached already.
    const direct =
      viewer.isAdmin || accountId === viewer.accountId || (account.kind === AccountKind.artist && (await new ArtistRepository(this.ctx.em).isOnRoster(organizationId, accountId)));
    await this.ctx.em.transactional(async (tx) => {
      const em = tx as EntityManager;
      if (direct) {
        await this.insertMembership(em, organizationId, accountId);
        await em.execute(`delete from organization_invitations where organization_id = ? and account_id = ?`, [organizationId, accountId]);
        return;
      }
      await em.execute(
        `insert into organization_invitations (id, created_at, updated_at, organization_id, account_id, invited_by_id)
         select gen_random_uuid(), now(), now(), ?, ?, ?
          where not exists (select 1 from memberships where organization_id = ? and member_id = ?)
         on conflict (organization_id, account_id) do nothing`,
        [organizationId, accountId, viewer.accountId, organizationId, accountId],
      );
    });
    return this.state(org);
  }

  /**
   * DELETE /organizations/:id/members/:accountId: removes a member or revokes a pending invitation
   * (members, the organization itself, admins; members may remove themselves). An invited account
   * may decline its own invitation. Neither a member nor invited: 404.
   */
  async removeMember(organizationId: string, accountId: string): Promise<MembershipState> {
    const viewer = requireViewer(this.ctx.viewer);
    validate(removeMemberInput, { id: organizationId, accountId });
    if (accountId === viewer.accountId && !this.ctx.access.actsForOrganization(viewer, organizationId)) {
      const declined = await this.ctx.em.execute<{ id: string }[]>(
        `delete from organization_invitations where organization_id = ? and account_id = ? returning id`,
        [organizationId, accountId],
      );
      if (!declined.length) this.ctx.access.assertOrganization(viewer, organizationId);
      return this.state(await this.organizationOrFail(organizationId));
    }
    this.ctx.access.assertOrganization(viewer, organizationId);
    const org = await this.organizationOrFail(organizationId);
    const removed = await this.ctx.em.transactional(async (tx) => {
      const em = tx as EntityManager;
      const members = await em.nativeDelete(Membership, { organization: organizationId, member: accountId });
      const invitations = await em.nativeDelete(OrganizationInvitation, { organization: organizationId, account: accountId });
      return members + invitations;
    });
    if (!removed) throw notFound('Membership');
    return this.state(org);
  }

  private async insertMembership(em: EntityManager, organizationId: string, accountId: string): Promise<void> {
    await em.execute(
      `insert into memberships (id, created_at, updated_at, organization_id, member_id)
       values (gen_random_uuid(), now(), now(), ?, ?) on conflict (organization_id, member_id) do nothing`,
      [organizationId, accountId],
    );
  }

  private async state(org: Account): Promise<MembershipState> {
    const [members, invitations] = await Promise.all([this.members(org.id), this.invitations(org.id)]);
    return { organization: toOrganization(org), members, invitations };
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

  private async invitations(organizationId: string): Promise<OrganizationInvitee[]> {
    const rows = await this.ctx.em.getConnection().execute<(Omit<OrganizationInvitee, 'invited_at'> & { invited_at: string })[]>(
      `select a.id, a.name, a.kind, i.created_at as invited_at from organization_invitations i join accounts a on a.id = i.account_id
        where i.organization_id = ? order by a.name, a.id`,
      [organizationId],
    );
    // MikroORM's pg driver hands timestamptz over as text.
    return rows.map((r) => ({ ...r, invited_at: new Date(r.invited_at) }));
  }
}
