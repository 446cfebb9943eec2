import DataLoader from 'dataloader';
import { randomUUID } from 'node:crypto';
import { AccessPolicy } from '../../auth/access';
import type { Viewer } from '../../auth/viewer';
import { Account, AccountKind } from './account.entity';
import type { InvitationCaps, InviteOutcome, OrganizationDeletion, Revocation } from './account.repository';
import { AccountService, type AccountStore, type MembershipAccess } from './account.service';
import type { OrganizationInvitee, OrganizationMember, OrganizationType } from './account.types';
import type { Db } from '../../db/request-db';

/** Accounts, memberships and invitations in memory (the SQL is covered by membership.int.test.ts). */
class FakeAccountStore implements AccountStore {
  accounts = new Map<string, Account>();
  memberships = new Set<string>();
  invites = new Set<string>();

  add(kind: AccountKind, name: string): Account {
    const account = Object.assign(new Account(), { id: randomUUID(), kind, name });
    this.accounts.set(account.id, account);
    return account;
  }

  private list(organizationId: string, keys: Set<string>): Account[] {
    return [...keys].filter((k) => k.startsWith(`${organizationId}:`)).map((k) => this.accounts.get(k.split(':')[1])!);
  }

  async organizationsPage(memberId: string): Promise<{ total: number; skipped: number; organizations: { id: string; name: string; created_at: Date }[] }> {
    const organizations = [...this.memberships].filter((k) => k.endsWith(`:${memberId}`)).map((k) => this.accounts.get(k.split(':')[0])!);
    return { total: organizations.length, skipped: 0, organizations: organizations.map((o) => ({ id: o.id, name: o.name, created_at: o.createdAt })) };
  }
  async invitationsOfAccount(): Promise<[]> {
    return [];
  }
  async createOrganization(name: string, founderId: string): Promise<Account> {
    const org = this.add(AccountKind.organization, name);
    this.memberships.add(`${org.id}:${founderId}`);
    return org;
  }
  async acceptInvitation(organizationId: string, accountId: string): Promise<boolean> {
    if (!this.invites.delete(`${organizationId}:${accountId}`)) return false;
    this.memberships.add(`${organizationId}:${accountId}`);
    return true;
  }
  async addMembership(organizationId: string, accountId: string): Promise<void> {
    this.memberships.add(`${organizationId}:${accountId}`);
    this.invites.delete(`${organizationId}:${accountId}`);
  }
  async invite(organizationId: string, accountId: string, _by: string, caps: InvitationCaps): Promise<InviteOutcome> {
    const key = `${organizationId}:${accountId}`;
    if (this.memberships.has(key) || this.invites.has(key)) return 'unchanged';
    if ([...this.invites].filter((k) => k.startsWith(`${organizationId}:`)).length >= caps.perOrganization) return 'organization-full';
    if ([...this.invites].filter((k) => k.endsWith(`:${accountId}`)).length >= caps.perAccount) return 'account-full';
    this.invites.add(key);
    return 'invited';
  }
  async declineInvitation(organizationId: string, accountId: string): Promise<boolean> {
    return this.invites.delete(`${organizationId}:${accountId}`);
  }
  async removeMembership(organizationId: string, accountId: string): Promise<Revocation> {
    const membership = this.memberships.delete(`${organizationId}:${accountId}`);
    return { membership, invitation: this.invites.delete(`${organizationId}:${accountId}`), invitations: [], catalog_links: [] };
  }
  async deleteOrganization(organizationId: string): Promise<OrganizationDeletion> {
    const members = this.list(organizationId, this.memberships).map((a) => a.id);
    this.accounts.delete(organizationId);
    return { members, invitations: [], catalog_links: [], deleted_catalogs: [] };
  }
  async members(organizationId: string): Promise<OrganizationMember[]> {
    return this.list(organizationId, this.memberships).map(({ id, name, kind }) => ({ id, name, kind }));
  }
  async invitations(organizationId: string): Promise<OrganizationInvitee[]> {
    return this.list(organizationId, this.invites).map(({ id, name, kind }) => ({ id, name, kind, invited_at: new Date(0) }));
  }
}

describe('AccountService membership rules', () => {
  let store: FakeAccountStore;
  let service: AccountService;
  let org: Account;
  let nora: Account;
  const roster = new Set<string>();

  const viewerOf = (account: Account, isAdmin = false): Viewer => ({
    accountId: account.id,
    kind: account.kind,
    name: account.name,
    email: null,
    organizationIds: [...store.memberships].filter((k) => k.endsWith(`:${account.id}`)).map((k) => k.split(':')[0]),
    isAdmin,
    via: 'api_key',
  });
  const code = (promise: Promise<unknown>) => promise.then(() => 'OK', (error: { code?: string }) => error.code);

  beforeEach(() => {
    store = new FakeAccountStore();
    // The organization rules are pure; only the roster lookup reads the database.
    const policy = new AccessPolicy({} as Db);
    const access: MembershipAccess = {
      requireAccess: (v, question) => policy.requireAccess(v, question),
      mayAccess: (v, question) => policy.mayAccess(v, question),
      isOnRoster: async (ownerId, artistId) => roster.has(`${ownerId}:${artistId}`),
      canAccessAccountBatched: async () => true,
      // Every invitee is reached already here: its name shows (the masking is covered by membership.int.test.ts).
      accessibleAccountIds: async (_v, ids) => new Set(ids),
    };
    const accountById = new DataLoader<string, Account | null>(async (ids) => ids.map((id) => store.accounts.get(id) ?? null), { cache: false });
    const organizationsByMemberId = new DataLoader<string, OrganizationType[]>(async (ids) => ids.map(() => []));
    service = new AccountService(store, access, { accountById, organizationsByMemberId }, { perOrganization: 3, perAccount: 2 });
    nora = store.add(AccountKind.person, 'Nora');
    org = store.add(AccountKind.organization, 'Northwind');
    store.memberships.add(`${org.id}:${nora.id}`);
  });

  it('invites a person, adds an artist on the roster directly, and lets an admin add anyone directly', async () => {
    const sam = store.add(AccountKind.person, 'Sam');
    const offRoster = store.add(AccountKind.artist, 'Stray');
    const onRoster = store.add(AccountKind.artist, 'Signed');
    roster.add(`${org.id}:${onRoster.id}`);
    const state = await service.addMember(viewerOf(nora), { id: org.id, account_id: sam.id });
    expect(state.invitations.map((i) => i.name)).toEqual(['Sam']);
    await service.addMember(viewerOf(nora), { id: org.id, account_id: offRoster.id });
    const after = await service.addMember(viewerOf(nora), { id: org.id, account_id: onRoster.id });
    expect(after.members.map((m) => m.name)).toEqual(['Nora', 'Signed']);
    expect(after.invitations.map((i) => i.name)).toEqual(['Sam', 'Stray']);
    const admin = store.add(AccountKind.person, 'Ada');
    const direct = await service.addMember(viewerOf(admin, true), { id: org.id, account_id: sam.id });
    expect(direct.members.map((m) => m.name)).toEqual(['Nora', 'Signed', 'Sam']);
    expect(direct.invitations.map((i) => i.name)).toEqual(['Stray']);
  });

  it('lets an invited account accept or decline its own invitation, and refuses an uninvited one', async () => {
    const sam = store.add(AccountKind.person, 'Sam');
    const otto = store.add(AccountKind.person, 'Otto');
    await service.addMember(viewerOf(nora), { id: org.id, account_id: sam.id });
    await service.addMember(viewerOf(nora), { id: org.id, account_id: otto.id });
    expect(await code(service.addMember(viewerOf(store.add(AccountKind.person, 'Liam')), { id: org.id, account_id: otto.id }))).toBe('FORBIDDEN');

    const accepted = await service.addMember(viewerOf(sam), { id: org.id, account_id: sam.id });
    expect(accepted.members.map((m) => m.name)).toEqual(['Nora', 'Sam']);
    const declined = await service.removeMember(viewerOf(otto), { id: org.id, accountId: otto.id });
    expect(declined.invitations).toEqual([]);
    // Nothing left to accept or decline: the uninvited caller is refused like any non-member.
    expect(await code(service.addMember(viewerOf(otto), { id: org.id, account_id: otto.id }))).toBe('FORBIDDEN');
    expect(await code(service.removeMember(viewerOf(otto), { id: org.id, accountId: otto.id }))).toBe('FORBIDDEN');
  });

  it('refuses an organization as its own member, unknown accounts and memberships that do not exist', async () => {
    expect(await service.addMember(viewerOf(nora), { id: org.id, account_id: org.id }).catch((e: unknown) => e)).toMatchObject({
      code: 'BAD_USER_INPUT',
      details: [{ field: 'account_id', message: 'an organization cannot be a member of itself' }],
    });
    expect(await code(service.addMember(viewerOf(nora), { id: org.id, account_id: randomUUID() }))).toBe('NOT_FOUND');
    expect(await code(service.removeMember(viewerOf(nora), { id: org.id, accountId: randomUUID() }))).toBe('NOT_FOUND');
    const other = store.add(AccountKind.organization, 'Southside');
    expect(await service.addMember(viewerOf(nora), { id: org.id, account_id: other.id }).catch((e: unknown) => e)).toMatchObject({
      code: 'BAD_USER_INPUT',
      details: [{ field: 'account_id', message: expect.stringContaining('organizations cannot be members') }],
    });
    const person = store.add(AccountKind.person, 'Not an org');
    expect(await code(service.addMember(viewerOf(nora, true), { id: person.id, account_id: nora.id }))).toBe('NOT_FOUND');
  });

  it('caps pending invitations per organization and per invitee, naming account_id', async () => {
    const people = [1, 2, 3, 4].map((i) => store.add(AccountKind.person, `P${i}`));
    for (const p of people.slice(0, 3)) await service.addMember(viewerOf(nora), { id: org.id, account_id: p.id });
    expect(await service.addMember(viewerOf(nora), { id: org.id, account_id: people[3].id }).catch((e: unknown) => e)).toMatchObject({
      code: 'BAD_USER_INPUT',
      details: [{ field: 'account_id', message: expect.stringContaining('3 pending invitations') }],
    });
    // Re-inviting an invited account changes nothing and is not refused.
    expect((await service.addMember(viewerOf(nora), { id: org.id, account_id: people[0].id })).invitations).toHaveLength(3);
    const orgs = [1, 2, 3].map((i) => store.add(AccountKind.organization, `O${i}`));
    for (const o of orgs) store.memberships.add(`${o.id}:${nora.id}`);
    await service.addMember(viewerOf(nora), { id: orgs[0].id, account_id: people[3].id });
    await service.addMember(viewerOf(nora), { id: orgs[1].id, account_id: people[3].id });
    expect(await service.addMember(viewerOf(nora), { id: orgs[2].id, account_id: people[3].id }).catch((e: unknown) => e)).toMatchObject({
      code: 'BAD_USER_INPUT',
      details: [{ field: 'account_id', message: expect.stringContaining('2 pending invitations') }],
    });
  });
});
