import { scratchDatabase, ScratchDatabase } from './scratch';

/**
 * Migration20261126100000_MembershipLifecycle on data written before it: invitations hang on their
 * inviter's membership (those whose inviter is gone are dropped), a link of an organization's
 * catalog to a current member made after the organization's own is taken as made through the
 * membership, and only agent+ addresses are left unproven.
 */
describe('membership lifecycle migration on existing data', () => {
  let db: ScratchDatabase;
  const exec = <T = Record<string, unknown>>(sql: string, bindings: unknown[] = []) => db.exec<T>(sql, bindings);
  const id = (n: number) => `00000000-0000-4000-a000-${String(n).padStart(12, '0')}`;
  const [org, member, exMember, invitee, orphanInvitee, orgInvitee, agent, person] = [1, 2, 3, 4, 5, 6, 7, 8].map(id);
  const [orgCatalog, memberCatalog] = [11, 12].map(id);

  beforeAll(async () => {
    db = await scratchDatabase();
    await db.up('Migration20261124100000_ViewerChanges');

    await exec(
      `insert into accounts (id, kind, name, email, created_at, updated_at) values
        (?, 'organization', 'Org', null, now(), now()), (?, 'person', 'Member', 'member@corp.test', now(), now()),
        (?, 'person', 'Ex', 'ex@corp.test', now(), now()), (?, 'person', 'Invitee', null, now(), now()),
        (?, 'person', 'Orphan invitee', null, now(), now()), (?, 'person', 'Org invitee', null, now(), now()),
        (?, 'person', 'Agent', 'agent+bot@corp.test', now(), now()), (?, 'person', 'No address', null, now(), now())`,
      [org, member, exMember, invitee, orphanInvitee, orgInvitee, agent, person],
    );
    await exec(`insert into memberships (id, organization_id, member_id, created_at, updated_at) values (?, ?, ?, now(), now())`, [id(21), org, member]);
    await exec(
      `insert into organization_invitations (id, organization_id, account_id, invited_by_id, created_at, updated_at) values
        (?, ?, ?, ?, now(), now()), (?, ?, ?, ?, now(), now()), (?, ?, ?, ?, now(), now())`,
      [id(31), org, invitee, member, id(32), org, orphanInvitee, exMember, id(33), org, orgInvitee, org],
    );
    await exec(`insert into catalogs (id, name, created_at, updated_at) values (?, 'Org catalog', now(), now()), (?, 'Member catalog', now(), now())`, [
      orgCatalog,
      memberCatalog,
    ]);
    await exec(
      `insert into account_catalogs (id, account_id, catalog_id, created_at, updated_at) values
        (?, ?, ?, '2026-01-01', '2026-01-01'), (?, ?, ?, '2026-02-01', '2026-02-01'), (?, ?, ?, '2026-02-02', '2026-02-02'),
        (?, ?, ?, '2026-01-01', '2026-01-01'), (?, ?, ?, '2026-03-01', '2026-03-01')`,
      [id(41), org, orgCatalog, id(42), member, orgCatalog, id(43), exMember, orgCatalog, id(44), member, memberCatalog, id(45), org, memberCatalog],
    );
    await db.up();
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('hangs invitations on their inviter’s membership and drops those whose inviter is not a member', async () => {
    expect(await exec(`select account_id, inviter_membership_id from organization_invitations order by account_id`)).toEqual([
      { account_id: invitee, inviter_membership_id: id(21) },
      { account_id: orgInvitee, inviter_membership_id: null },
    ]);
    expect(await exec(`select id, membership_id from account_catalogs where membership_id is not null`)).toEqual([{ id: id(42), membership_id: id(21) }]);
    // The member's removal now takes the invitation he made, and the link made through his membership.
    await exec(`delete from memberships where id = ?`, [id(21)]);
    expect(await exec(`select account_id from organization_invitations`)).toEqual([{ account_id: orgInvitee }]);
  });

  it('took the later link of the organization’s catalog to a member as made through the membership; it ended with it', async () => {
    expect(await exec(`select account_id, catalog_id from account_catalogs order by catalog_id, account_id`)).toEqual([
      // The ex-member (no membership) keeps a plain link: the organization may unlink it, as an older holder.
      { account_id: org, catalog_id: orgCatalog },
      { account_id: exMember, catalog_id: orgCatalog },
      // The member's own catalog, shared with the organization before these rules, stays linked to both.
      { account_id: org, catalog_id: memberCatalog },
      { account_id: member, catalog_id: memberCatalog },
    ]);
  });

  it('leaves only agent+ addresses unproven', async () => {
    expect(await exec(`select email, email_verified_at is not null as proven from accounts where email is not null order by email`)).toEqual([
      { email: 'agent+bot@corp.test', proven: false },
      { email: 'ex@corp.test', proven: true },
      { email: 'member@corp.test', proven: true },
    ]);
  });

  it('deletes a catalog whose last link ends by cascade', async () => {
    await exec(`delete from accounts where id = ?`, [member]);
    await exec(`delete from accounts where id = ?`, [org]);
    expect(await exec(`select id from catalogs order by id`)).toEqual([{ id: orgCatalog }]);
    await exec(`delete from accounts where id = ?`, [exMember]);
    expect(await exec(`select id from catalogs`)).toEqual([]);
  });
});
