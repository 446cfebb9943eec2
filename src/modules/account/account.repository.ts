import type { EntityManager } from '@mikro-orm/postgresql';
import { pgArray } from '../../db/sql';
import { Account, AccountKind, Membership, OrganizationInvitation } from './account.entity';
import type { AccountInvitation, OrganizationInvitee, OrganizationMember, OrganizationType } from './account.types';

/** Every read and write of accounts, memberships and organization invitations. */
export class AccountRepository {
  constructor(private readonly em: EntityManager) {}

  accountsByIds(ids: readonly string[]): Promise<Account[]> {
    return this.em.find(Account, { id: { $in: [...ids] } });
  }

  /** Organizations the accounts are members of, by name, each row naming its member. */
  async organizationsOfMembers(memberIds: readonly string[]): Promise<({ member_id: string } & OrganizationType)[]> {
    const rows = await this.em.getConnection().execute<{ member_id: string; id: string; name: string; created_at: string }[]>(
      `select m.member_id, o.id, o.name, o.created_at from memberships m join accounts o on o.id = m.organization_id
        where m.member_id = any(?::uuid[]) order by o.name, o.id`,
      [pgArray(memberIds)],
    );
    // MikroORM's pg driver hands timestamptz over as text.
    return rows.map((r) => ({ ...r, created_at: new Date(r.created_at) }));
  }

  /** The organizations the account is a member of, by name. */
  async organizationsOf(memberId: string): Promise<Account[]> {
    const memberships = await this.em.find(
      Membership,
      { member: memberId },
      { populate: ['organization'], orderBy: { organization: { name: 'asc', id: 'asc' } } },
    );
    return memberships.map((m) => m.organization);
  }

  /** The account's pending invitations, oldest first. */
  async invitationsOfAccount(accountId: string): Promise<AccountInvitation[]> {
    const rows = await this.em.getConnection().execute<{ id: string; name: string; created_at: string; invited_at: string }[]>(
      `select o.id, o.name, o.created_at, i.created_at as invited_at from organization_invitations i join accounts o on o.id = i.organization_id
        where i.account_id = ? order by i.created_at, o.id`,
      [accountId],
    );
    return rows.map(({ id, name, created_at, invited_at }) => ({ organization: { id, name, created_at: new Date(created_at) }, invited_at: new Date(invited_at) }));
  }

  /** Creates an organization with `founderId` as its first member. */
  createOrganization(name: string, founderId: string): Promise<Account> {
    return this.em.transactional(async (em) => {
      const created = em.create(Account, { kind: AccountKind.organization, name });
      em.create(Membership, { organization: created, member: em.getReference(Account, founderId) });
      return created;
    });
  }

  /** Turns the account's pending invitation into a membership; false when it had none. */
  acceptInvitation(organizationId: string, accountId: string): Promise<boolean> {
    return this.em.transactional(async (tx) => {
      const em = tx as EntityManager;
      const deleted = await em.execute<{ id: string }[]>(
        `delete from organization_invitations where organization_id = ? and account_id = ? returning id`,
        [organizationId, accountId],
      );
      if (deleted.length) await insertMembership(em, organizationId, accountId);
      return deleted.length > 0;
    });
  }

  /** Makes the account a member (idempotent) and drops its pending invitation, if any. */
  addMembership(organizationId: string, accountId: string): Promise<void> {
    return this.em.transactional(async (tx) => {
      const em = tx as EntityManager;
      await insertMembership(em, organizationId, accountId);
      await em.execute(`delete from organization_invitations where organization_id = ? and account_id = ?`, [organizationId, accountId]);
    });
  }

  /** Records a pending invitation unless the account is a member or invited already. */
  async invite(organizationId: string, accountId: string, invitedById: string): Promise<void> {
    await this.em.execute(
      `insert into organization_invitations (id, created_at, updated_at, organization_id, account_id, invited_by_id)
       select gen_random_uuid(), now(), now(), ?, ?, ?
        where not exists (select 1 from memberships where organization_id = ? and member_id = ?)
       on conflict (organization_id, account_id) do nothing`,
      [organizationId, accountId, invitedById, organizationId, accountId],
    );
  }

  /** Deletes the account's pending invitation; false when it had none. */
  async declineInvitation(organizationId: string, accountId: string): Promise<boolean> {
    const declined = await this.em.execute<{ id: string }[]>(
      `delete from organization_invitations where organization_id = ? and account_id = ? returning id`,
      [organizationId, accountId],
    );
    return declined.length > 0;
  }

  /** Removes the membership and any pending invitation of the account; answers how many rows went. */
  removeMembership(organizationId: string, accountId: string): Promise<number> {
    return this.em.transactional(async (tx) => {
      const em = tx as EntityManager;
      const members = await em.nativeDelete(Membership, { organization: organizationId, member: accountId });
      const invitations = await em.nativeDelete(OrganizationInvitation, { organization: organizationId, account: accountId });
      return members + invitations;
    });
  }

  /** The organization's members, by name. */
  members(organizationId: string): Promise<OrganizationMember[]> {
    return this.em.getConnection().execute<OrganizationMember[]>(
      `select a.id, a.name, a.kind from memberships m join accounts a on a.id = m.member_id
        where m.organization_id = ? order by a.name, a.id`,
      [organizationId],
    );
  }

  /** The organization's pending invitations, by invitee name. */
  async invitations(organizationId: string): Promise<OrganizationInvitee[]> {
    const rows = await this.em.getConnection().execute<(Omit<OrganizationInvitee, 'invited_at'> & { invited_at: string })[]>(
      `select a.id, a.name, a.kind, i.created_at as invited_at from organization_invitations i join accounts a on a.id = i.account_id
        where i.organization_id = ? order by a.name, a.id`,
      [organizationId],
    );
    // MikroORM's pg driver hands timestamptz over as text.
    return rows.map((r) => ({ ...r, invited_at: new Date(r.invited_at) }));
  }
}

async function insertMembership(em: EntityManager, organizationId: string, accountId: string): Promise<void> {
  await em.execute(
    `insert into memberships (id, created_at, updated_at, organization_id, member_id)
     values (gen_random_uuid(), now(), now(), ?, ?) on conflict (organization_id, member_id) do nothing`,
    [organizationId, accountId],
  );
}
