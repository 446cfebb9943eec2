import type { Position } from '../../common/paging';
import { skippedSql } from '../../db/pages';
import type { EntityManager } from '@mikro-orm/postgresql';
import { pgArray } from '../../db/sql';
import { Account, AccountKind, Membership } from './account.entity';
import type { AccountInvitation, OrganizationInvitee, OrganizationMember, OrganizationType } from './account.types';
import type { Db } from '../../db/request-db';

/** Most pending invitations an organization may have out, and an account may hold. */
export interface InvitationCaps {
  perOrganization: number;
  perAccount: number;
}

export type InviteOutcome = 'invited' | 'unchanged' | 'organization-full' | 'account-full' | 'inviter-gone';

/** What ending a membership took with it. */
export interface Revocation {
  /** A membership ended. */
  membership: boolean;
  /** A pending invitation of the account was revoked (or declined). */
  invitation: boolean;
  /** Accounts whose invitations, made by the member, died with the membership. */
  invitations: string[];
  /** Catalog links the member had made through the membership, ended with it. */
  catalog_links: { catalog_id: string; account_id: string }[];
}

/** What deleting an organization ended. */
export interface OrganizationDeletion {
  members: string[];
  invitations: string[];
  catalog_links: { catalog_id: string; account_id: string }[];
  deleted_catalogs: string[];
}

/** Rolls back an account insert another request already made (same e-mail or identity). */
class LostRace extends Error {}

/** Every read and write of accounts, memberships, organization invitations and identity-provider bindings. */
export class AccountRepository {
  constructor(private readonly db: Db) {}

  /** The account bound to an identity provider's (issuer, subject), if any. */
  async accountOfIdentity(issuer: string, subject: string): Promise<string | null> {
    const rows = await this.db.execute<{ account_id: string }>('select account_id from account_identities where issuer = ? and subject = ?', [issuer, subject]);
    return rows[0]?.account_id ?? null;
  }

  /** The person whose address is this proven one (an agent+ signup's unproven address never matches). */
  async personWithProvenEmail(email: string): Promise<string | null> {
    const rows = await this.db.execute<{ id: string }>(`select id from accounts where email = ? and kind = 'person' and email_verified_at is not null`, [email]);
    return rows[0]?.id ?? null;
  }

  /** Binds an identity to the account; false when the identity is bound already (to any account). */
  async bindIdentity(accountId: string, issuer: string, subject: string): Promise<boolean> {
    const rows = await this.db.execute<{ id: string }>(
      `insert into account_identities (id, created_at, updated_at, account_id, issuer, subject)
       values (gen_random_uuid(), now(), now(), ?, ?, ?)
       on conflict (issuer, subject) do nothing returning id`,
      [accountId, issuer, subject],
    );
    return rows.length > 0;
  }

  /**
   * A new person with its identity (when it has a subject), in one transaction; a proven address
   * is taken from an account that holds it unproven (it keeps its keys and data, not the address).
   * Null, with nothing written, when a concurrent request made the account or bound the identity first.
   */
  async createPersonWithIdentity(person: { name: string; email: string | null }, identity: { issuer: string; subject: string | null }): Promise<string | null> {
    try {
      return await this.db.transactional(async (tx) => {
        if (person.email) await tx.execute(`update accounts set email = null, updated_at = now() where email = ? and email_verified_at is null`, [person.email]);
        const rows = await tx.execute<{ id: string }>(
          `insert into accounts (id, created_at, updated_at, kind, name, email, email_verified_at)
           values (gen_random_uuid(), now(), now(), ?, ?, ?, case when ?::text is null then null else now() end)
           on conflict do nothing returning id`,
          [AccountKind.person, person.name, person.email, person.email],
        );
        if (!rows[0]) throw new LostRace();
        if (identity.subject && !(await new AccountRepository(tx).bindIdentity(rows[0].id, identity.issuer, identity.subject))) throw new LostRace();
        return rows[0].id;
      });
    } catch (error) {
      if (error instanceof LostRace) return null;
      throw error;
    }
  }

  accountsByIds(ids: readonly string[]): Promise<Account[]> {
    return this.db.em.find(Account, { id: { $in: [...ids] } });
  }

  /** Organizations the accounts are members of, by name, each row naming its member. */
  async organizationsOfMembers(memberIds: readonly string[]): Promise<({ member_id: string } & OrganizationType)[]> {
    const rows = await this.db.execute<{ member_id: string; id: string; name: string; created_at: string }>(
      `select m.member_id, o.id, o.name, o.created_at from memberships m join accounts o on o.id = m.organization_id
        where m.member_id = any(?::uuid[]) order by o.name, o.id`,
      [pgArray(memberIds)],
    );
    // MikroORM's pg driver hands timestamptz over as text.
    return rows.map((r) => ({ ...r, created_at: new Date(r.created_at) }));
  }

  /**
   * A page of the organizations the account is a member of, by name then id, with their total and
   * the organizations before the page, in one statement. After a cursor, the page starts after the
   * organizations at or before its (name, id).
   */
  async organizationsPage(memberId: string, position: Position<readonly string[]>, limit: number): Promise<{ total: number; skipped: number; organizations: OrganizationType[] }> {
    const skip = skippedSql(position, ([name, id]) => ({ sql: '(select count(*)::int from mine where (name, id) <= (?, ?::uuid))', bindings: [name, id] }));
    const rows = await this.db.execute<{ total: number; skipped: number; id: string | null; name: string; created_at: string }>(
      `with mine as (select o.id, o.name, o.created_at from memberships m join accounts o on o.id = m.organization_id where m.member_id = ?),
       skip as (select ${skip.sql} as n),
       page as (select * from mine order by name, id offset (select n from skip) limit ?)
       select (select count(*)::int from mine) as total, (select n from skip) as skipped, page.id, page.name, page.created_at
         from (select 1) one left join page on true
        order by page.name, page.id`,
      [memberId, ...skip.bindings, limit],
    );
    return {
      total: rows[0]!.total,
      skipped: rows[0]!.skipped,
      // MikroORM's pg driver hands timestamptz over as text.
      organizations: rows.filter((r) => r.id !== null).map((r) => ({ id: r.id!, name: r.name, created_at: new Date(r.created_at) })),
    };
  }

  /** The account's pending invitations, oldest first. */
  async invitationsOfAccount(accountId: string): Promise<AccountInvitation[]> {
    const rows = await this.db.execute<{ id: string; name: string; created_at: string; invited_at: string }>(
      `select o.id, o.name, o.created_at, i.created_at as invited_at from organization_invitations i join accounts o on o.id = i.organization_id
        where i.account_id = ? order by i.created_at, o.id`,
      [accountId],
    );
    return rows.map(({ id, name, created_at, invited_at }) => ({ organization: { id, name, created_at: new Date(created_at) }, invited_at: new Date(invited_at) }));
  }

  /** Creates an organization with `founderId` as its first member. */
  createOrganization(name: string, founderId: string): Promise<Account> {
    return this.db.em.transactional(async (em) => {
      const created = em.create(Account, { kind: AccountKind.organization, name });
      em.create(Membership, { organization: created, member: em.getReference(Account, founderId) });
      return created;
    });
  }

  /**
   * Turns the account's pending invitation into a membership; false when it had none. An
   * invitation whose inviter is no longer a member is gone already (it hangs on his membership);
   * one without an inviter membership counts only when the organization itself invited.
   */
  acceptInvitation(organizationId: string, accountId: string): Promise<boolean> {
    return this.db.transactional(async (tx) => {
      const em = tx.em;
      const deleted = await em.execute<{ id: string }[]>(
        `delete from organization_invitations where organization_id = ? and account_id = ?
          and (inviter_membership_id is not null or invited_by_id = organization_id) returning id`,
        [organizationId, accountId],
      );
      if (deleted.length) await insertMembership(em, organizationId, accountId);
      return deleted.length > 0;
    });
  }

  /** Makes the account a member (idempotent) and drops its pending invitation, if any. */
  addMembership(organizationId: string, accountId: string): Promise<void> {
    return this.db.transactional(async (tx) => {
      const em = tx.em;
      await insertMembership(em, organizationId, accountId);
      await em.execute(`delete from organization_invitations where organization_id = ? and account_id = ?`, [organizationId, accountId]);
    });
  }

  /**
   * Records a pending invitation unless the account is a member or invited already, hung on the
   * inviter's membership (none when the organization itself invites). The organization's and the
   * invitee's rows are locked (in id order) so concurrent invitations cannot pass the caps.
   */
  invite(organizationId: string, accountId: string, invitedById: string, caps: InvitationCaps): Promise<InviteOutcome> {
    return this.db.transactional(async (tx) => {
      const em = tx.em;
      await em.execute(`select id from accounts where id = any(?::uuid[]) order by id for update`, [pgArray([organizationId, accountId])]);
      const [state] = await em.execute<{ member: boolean; invited: boolean; by_organization: number; by_account: number }[]>(
        `select exists (select 1 from memberships where organization_id = ? and member_id = ?) as member,
                exists (select 1 from organization_invitations where organization_id = ? and account_id = ?) as invited,
                (select count(*) from organization_invitations where organization_id = ?)::int as by_organization,
                (select count(*) from organization_invitations where account_id = ?)::int as by_account`,
        [organizationId, accountId, organizationId, accountId, organizationId, accountId],
      );
      if (state.member || state.invited) return 'unchanged';
      // The caller's cached viewer may still list a membership that just ended: no invitation hangs on nothing.
      // Key-share locked: a removal committing meanwhile waits for this invitation, then takes it with the membership.
      const [inviter] = await em.execute<{ id: string }[]>(`select id from memberships where organization_id = ? and member_id = ? for key share`, [
        organizationId,
        invitedById,
      ]);
      if (!inviter && invitedById !== organizationId) return 'inviter-gone';
      if (state.by_organization >= caps.perOrganization) return 'organization-full';
      if (state.by_account >= caps.perAccount) return 'account-full';
      await em.execute(
        `insert into organization_invitations (id, created_at, updated_at, organization_id, account_id, invited_by_id, inviter_membership_id)
         values (gen_random_uuid(), now(), now(), ?, ?, ?, ?)`,
        [organizationId, accountId, invitedById, inviter?.id ?? null],
      );
      return 'invited';
    });
  }

  /** Deletes the account's pending invitation; false when it had none. */
  async declineInvitation(organizationId: string, accountId: string): Promise<boolean> {
    const declined = await this.db.em.execute<{ id: string }[]>(
      `delete from organization_invitations where organization_id = ? and account_id = ? returning id`,
      [organizationId, accountId],
    );
    return declined.length > 0;
  }

  /**
   * Ends the account's membership and any pending invitation of it, and answers what went: the
   * invitations it had made and the catalog links it had made through the membership go with the
   * membership (foreign keys cascade; read first to be answered).
   */
  removeMembership(organizationId: string, accountId: string): Promise<Revocation> {
    return this.db.transactional(async (tx) => {
      const em = tx.em;
      const revoked = await revocationsOf(em, `m.organization_id = ? and m.member_id = ?`, [organizationId, accountId]);
      const members = await em.execute<{ id: string }[]>(`delete from memberships where organization_id = ? and member_id = ? returning id`, [organizationId, accountId]);
      const invitation = await em.execute<{ id: string }[]>(`delete from organization_invitations where organization_id = ? and account_id = ? returning id`, [organizationId, accountId]);
      return { membership: members.length > 0, invitation: invitation.length > 0, ...revoked };
    });
  }

  /**
   * Deletes the organization account and, by cascade, its memberships, invitations, links, roster
   * and runs; a catalog left with no linked account goes too. Answers what it ended.
   */
  deleteOrganization(organizationId: string): Promise<OrganizationDeletion> {
    return this.db.transactional(async (tx) => {
      const em = tx.em;
      await em.execute(`select id from accounts where id = ? for update`, [organizationId]);
      const members = await em.execute<{ id: string }[]>(`select member_id as id from memberships where organization_id = ? order by member_id`, [organizationId]);
      const invitations = await em.execute<{ id: string }[]>(`select account_id as id from organization_invitations where organization_id = ? order by account_id`, [organizationId]);
      const revoked = await revocationsOf(em, `m.organization_id = ?`, [organizationId]);
      const catalogs = await em.execute<{ id: string }[]>(`select catalog_id as id from account_catalogs where account_id = ?`, [organizationId]);
      await em.execute(`delete from accounts where id = ? and kind = 'organization'`, [organizationId]);
      const left = await em.execute<{ id: string }[]>(`select id from catalogs where id = any(?::uuid[])`, [pgArray(catalogs.map((c) => c.id))]);
      const kept = new Set(left.map((c) => c.id));
      return {
        members: members.map((m) => m.id),
        invitations: [...new Set([...invitations.map((i) => i.id), ...revoked.invitations])].sort(),
        catalog_links: revoked.catalog_links,
        deleted_catalogs: catalogs.map((c) => c.id).filter((id) => !kept.has(id)).sort(),
      };
    });
  }

  /** The organization's members, by name. */
  members(organizationId: string): Promise<OrganizationMember[]> {
    return this.db.execute<OrganizationMember>(
      `select a.id, a.name, a.kind from memberships m join accounts a on a.id = m.member_id
        where m.organization_id = ? order by a.name, a.id`,
      [organizationId],
    );
  }

  /** The organization's pending invitations, oldest first. */
  async invitations(organizationId: string): Promise<OrganizationInvitee[]> {
    const rows = await this.db.execute<(Omit<OrganizationInvitee, 'invited_at'> & { invited_at: string })>(
      `select a.id, a.name, a.kind, i.created_at as invited_at from organization_invitations i join accounts a on a.id = i.account_id
        where i.organization_id = ? order by i.created_at, a.id`,
      [organizationId],
    );
    // MikroORM's pg driver hands timestamptz over as text.
    return rows.map((r) => ({ ...r, invited_at: new Date(r.invited_at) }));
  }
}

/** What ending the memberships matched by `where` (alias m) takes with it: invitations made and catalog links made through them. */
async function revocationsOf(em: EntityManager, where: string, bindings: unknown[]): Promise<Pick<Revocation, 'invitations' | 'catalog_links'>> {
  const invitations = await em.execute<{ id: string }[]>(
    `select i.account_id as id from organization_invitations i join memberships m on m.id = i.inviter_membership_id where ${where} order by i.account_id`,
    bindings,
  );
  // account_catalogs is the catalog module's table: read here only to answer what the cascade takes.
  const links = await em.execute<{ catalog_id: string; account_id: string }[]>(
    `select ac.catalog_id, ac.account_id from account_catalogs ac join memberships m on m.id = ac.membership_id where ${where} order by ac.catalog_id, ac.account_id`,
    bindings,
  );
  return { invitations: invitations.map((i) => i.id), catalog_links: links };
}

async function insertMembership(em: EntityManager, organizationId: string, accountId: string): Promise<void> {
  await em.execute(
    `insert into memberships (id, created_at, updated_at, organization_id, member_id)
     values (gen_random_uuid(), now(), now(), ?, ?) on conflict (organization_id, member_id) do nothing`,
    [organizationId, accountId],
  );
}
