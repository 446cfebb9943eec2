import { createTestApp, TestApp } from '../../../test/app';
import { as, DEMO } from '../../../test/demo';
import { createAccount, createOrganization } from '../../../test/factories';
import { AddOrganizationMemberDocument, MeDocument } from '../../../test/generated/graphql';

describe('organization membership (/api/organizations/:id/members)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const add = (headers: Record<string, string>, org: string, accountId: unknown) =>
    t.http().post(`/api/organizations/${org}/members`).set(headers).send({ account_id: accountId });
  const remove = (headers: Record<string, string>, org: string, accountId: string) =>
    t.http().delete(`/api/organizations/${org}/members/${accountId}`).set(headers);
  const me = async (headers: Record<string, string>) => (await t.http().get('/api/accounts/me').set(headers)).body.account;
  const ids = (rows: { id: string }[]) => rows.map((r) => r.id);

  it('Otto scenario: inviting Nora gives Otto no reach; after she accepts, reach follows the rules', async () => {
    const created = await t.http().post('/api/organizations').set(as.otto).send({ name: 'Otto Inc' });
    const ottoInc: string = created.body.organization.id;

    const invited = await add(as.otto, ottoInc, DEMO.nora);
    expect(invited.status).toBe(200);
    expect(invited.body).toEqual({
      status: 'success',
      organization: { id: ottoInc, name: 'Otto Inc', created_at: expect.any(String) },
      members: [{ id: DEMO.otto, name: 'Otto Solo', kind: 'person' }],
      invitations: [{ id: DEMO.nora, name: 'Nora North', kind: 'person', invited_at: expect.any(String) }],
    });

    // A pending invitation opens nothing: not Nora's account, catalogs, lyrics or roster.
    for (const res of [
      await t.http().get('/api/catalogs').query({ account_id: DEMO.nora }).set(as.otto),
      await t.http().get('/api/catalogs/songs').query({ catalog_id: DEMO.catalogNorthwind }).set(as.otto),
      await t.http().get('/api/artists').query({ account_id: DEMO.nora }).set(as.otto),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('FORBIDDEN');
    }
    // Nor does it make Nora a member: she cannot act for Otto Inc yet.
    expect((await t.http().get('/api/artists').query({ organization_id: ottoInc }).set(as.nora)).status).toBe(403);
    expect((await add(as.nora, ottoInc, DEMO.liam)).status).toBe(403);

    // Nora sees the invitation, on REST and GraphQL alike.
    const nora = await me(as.nora);
    expect(nora.organizations).toEqual([{ id: DEMO.northwind, name: 'Northwind Records' }]);
    expect(nora.invitations).toEqual([{ organization: { id: ottoInc, name: 'Otto Inc' }, invited_at: expect.any(String) }]);
    const gql = await t.graphql(MeDocument, {}, as.nora);
    expect(gql.body.data.me.invitations).toEqual(nora.invitations);

    // Nora accepts by adding herself: membership created, invitation gone.
    const accepted = await add(as.nora, ottoInc, DEMO.nora);
    expect(accepted.status).toBe(200);
    expect(ids(accepted.body.members)).toEqual([DEMO.nora, DEMO.otto]);
    expect(accepted.body.invitations).toEqual([]);
    const after = await me(as.nora);
    expect(after.organizations).toEqual([
      { id: DEMO.northwind, name: 'Northwind Records' },
      { id: ottoInc, name: 'Otto Inc' },
    ]);
    expect(after.invitations).toEqual([]);

    // Now Otto shares an organization with Nora: rule 6 gives him her account and its catalogs.
    expect((await t.http().get('/api/catalogs').query({ account_id: DEMO.nora }).set(as.otto)).status).toBe(200);
    const songs = await t.http().get('/api/catalogs/songs').query({ catalog_id: DEMO.catalogNorthwind }).set(as.otto);
    expect(songs.status).toBe(200);
    expect(songs.body.songs[0].lyrics).toEqual(expect.any(String));

    // Nora leaves (members may remove themselves); Otto's reach ends with it.
    const left = await remove(as.nora, ottoInc, DEMO.nora);
    expect(left.status).toBe(200);
    expect(ids(left.body.members)).toEqual([DEMO.otto]);
    expect((await t.http().get('/api/catalogs').query({ account_id: DEMO.nora }).set(as.otto)).status).toBe(403);
  });

  it('invites idempotently: a second invite changes nothing', async () => {
    const newcomer = await createAccount(t.orm, { name: 'Aaron Newcomer' });
    const first = await add(as.nora, DEMO.northwind, newcomer.account.id);
    expect(first.status).toBe(200);
    expect(ids(first.body.members)).toEqual([DEMO.liam, DEMO.nora]);
    expect(first.body.invitations).toEqual([{ id: newcomer.account.id, name: 'Aaron Newcomer', kind: 'person', invited_at: expect.any(String) }]);
    const again = await add(as.nora, DEMO.northwind, newcomer.account.id);
    expect(again.body).toEqual(first.body);
    expect((await me(newcomer.headers)).invitations).toHaveLength(1);
    expect((await me(newcomer.headers)).organizations).toEqual([]);
    // Already a member: idempotent, and no invitation is made.
    const member = await add(as.nora, DEMO.northwind, DEMO.liam);
    expect(member.status).toBe(200);
    expect(ids(member.body.members)).toEqual([DEMO.liam, DEMO.nora]);
    expect(ids(member.body.invitations)).toEqual([newcomer.account.id]);
    expect((await remove(as.nora, DEMO.northwind, newcomer.account.id)).status).toBe(200);
  });

  it('lets the invitee decline (delete its own invitation), after which it cannot accept', async () => {
    const org = await createOrganization(t.orm, 'Decline Co', [DEMO.sam]);
    const invitee = await createAccount(t.orm);
    await add(as.sam, org.id, invitee.account.id);
    const declined = await remove(invitee.headers, org.id, invitee.account.id);
    expect(declined.status).toBe(200);
    expect(declined.body.invitations).toEqual([]);
    expect(ids(declined.body.members)).toEqual([DEMO.sam]);
    expect((await me(invitee.headers)).invitations).toEqual([]);
    // Nothing left to decline or accept: a non-member again.
    expect((await remove(invitee.headers, org.id, invitee.account.id)).status).toBe(403);
    expect((await add(invitee.headers, org.id, invitee.account.id)).status).toBe(403);
    expect((await me(invitee.headers)).organizations).toEqual([]);
  });

  it('lets a member or an admin revoke an invitation', async () => {
    const org = await createOrganization(t.orm, 'Revoke Co', [DEMO.sam]);
    const invitee = await createAccount(t.orm);
    const other = await createAccount(t.orm);
    await add(as.sam, org.id, invitee.account.id);
    await add(as.sam, org.id, other.account.id);
    const revoked = await remove(as.sam, org.id, invitee.account.id);
    expect(revoked.status).toBe(200);
    expect(ids(revoked.body.invitations)).toEqual([other.account.id]);
    expect((await add(invitee.headers, org.id, invitee.account.id)).status).toBe(403);
    const byAdmin = await remove(as.ada, org.id, other.account.id);
    expect(byAdmin.status).toBe(200);
    expect(byAdmin.body.invitations).toEqual([]);
    expect((await remove(as.sam, org.id, other.account.id)).status).toBe(404);
  });

  it('refuses a non-member who accepts, declines or revokes an invitation meant for someone else', async () => {
    const org = await createOrganization(t.orm, 'Guarded Co', [DEMO.sam]);
    const invitee = await createAccount(t.orm);
    const stranger = await createAccount(t.orm);
    await add(as.sam, org.id, invitee.account.id);
    for (const res of [
      await add(stranger.headers, org.id, invitee.account.id),
      await add(stranger.headers, org.id, stranger.account.id),
      await remove(stranger.headers, org.id, invitee.account.id),
      // An invitee is not a member: it cannot invite or revoke others either.
      await add(invitee.headers, org.id, stranger.account.id),
      await remove(invitee.headers, org.id, DEMO.sam),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('FORBIDDEN');
    }
    expect((await me(invitee.headers)).invitations).toEqual([{ organization: { id: org.id, name: 'Guarded Co' }, invited_at: expect.any(String) }]);
    expect((await me(stranger.headers)).organizations).toEqual([]);
  });

  it('lets admins add directly (dropping a pending invitation) and refuses accounts outside the organization (403)', async () => {
    const newcomer = await createAccount(t.orm);
    for (const res of [await add(as.sam, DEMO.northwind, newcomer.account.id), await remove(as.sam, DEMO.northwind, DEMO.liam), await add(as.otto, DEMO.northwind, DEMO.otto)]) {
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('FORBIDDEN');
    }
    expect(ids((await me(as.otto)).organizations)).not.toContain(DEMO.northwind);
    await add(as.sam, DEMO.southside, newcomer.account.id);
    const byAdmin = await add(as.ada, DEMO.southside, newcomer.account.id);
    expect(byAdmin.status).toBe(200);
    expect(ids(byAdmin.body.members)).toContain(newcomer.account.id);
    expect(byAdmin.body.invitations).toEqual([]);
    expect((await me(newcomer.headers)).organizations).toEqual([{ id: DEMO.southside, name: 'Southside Management' }]);
    expect((await remove(as.ada, DEMO.southside, newcomer.account.id)).status).toBe(200);
  });

  it('adds an artist on the organization’s own roster directly; any other artist is invited', async () => {
    const added = await add(as.nora, DEMO.northwind, DEMO.luna);
    expect(added.status).toBe(200);
    expect(ids(added.body.members)).toContain(DEMO.luna);
    expect(added.body.invitations).toEqual([]);
    // Kai is on Southside's roster, not Northwind's.
    const kai = await add(as.nora, DEMO.northwind, DEMO.kai);
    expect(kai.status).toBe(200);
    expect(ids(kai.body.members)).not.toContain(DEMO.kai);
    expect(ids(kai.body.invitations)).toEqual([DEMO.kai]);
    expect((await t.http().get('/api/artists').query({ account_id: DEMO.kai }).set(as.nora)).status).toBe(403);
    expect((await remove(as.nora, DEMO.northwind, DEMO.luna)).status).toBe(200);
    expect((await remove(as.nora, DEMO.northwind, DEMO.kai)).status).toBe(200);
  });

  it('answers 404 for an unknown account or organization, and 400 naming a bad field', async () => {
    expect((await add(as.nora, DEMO.northwind, '00000000-0000-4000-8000-00000000ffff')).status).toBe(404);
    expect((await add(as.ada, '00000000-0000-4000-8000-00000000ffff', DEMO.otto)).status).toBe(404);
    expect((await add(as.ada, DEMO.otto, DEMO.nora)).status).toBe(404);
    const self = await add(as.nora, DEMO.northwind, DEMO.northwind);
    expect(self.status).toBe(400);
    expect(self.body.details).toEqual([{ field: 'account_id', message: expect.any(String) }]);
    expect((await add(as.nora, DEMO.northwind, 'nope')).body.details).toEqual([{ field: 'account_id', message: 'must be a UUID' }]);
    expect((await add(as.nora, 'nope', DEMO.otto)).body.details).toEqual([{ field: 'id', message: 'must be a UUID' }]);
    expect((await add(as.nora, DEMO.northwind, undefined)).body.details).toEqual([{ field: 'account_id', message: 'is required' }]);
    expect((await remove(as.nora, DEMO.northwind, 'nope')).body.details).toEqual([{ field: 'accountId', message: 'must be a UUID' }]);
  });

  it('is the same operation on GraphQL', async () => {
    const newcomer = await createAccount(t.orm);
    const res = await t.graphql(AddOrganizationMemberDocument, { input: { id: DEMO.southside, account_id: newcomer.account.id } }, as.sam);
    expect(ids(res.body.data.addOrganizationMember.members)).not.toContain(newcomer.account.id);
    expect(ids(res.body.data.addOrganizationMember.invitations)).toEqual([newcomer.account.id]);
    const refused = await t.graphql(AddOrganizationMemberDocument, { input: { id: DEMO.southside, account_id: newcomer.account.id } }, as.nora);
    expect(refused.body.errors[0].extensions.code).toBe('FORBIDDEN');
    const accepted = await t.graphql(AddOrganizationMemberDocument, { input: { id: DEMO.southside, account_id: newcomer.account.id } }, newcomer.headers);
    expect(ids(accepted.body.data.addOrganizationMember.members)).toContain(newcomer.account.id);
    expect(accepted.body.data.addOrganizationMember.invitations).toEqual([]);
  });
});
