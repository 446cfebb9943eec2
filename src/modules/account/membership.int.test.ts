import { createTestApp, TestApp } from '../../../test/app';
import { as, DEMO } from '../../../test/demo';
import { addSong, createAccount, createCatalog, createOrganization } from '../../../test/factories';
import type { EntityManager } from '@mikro-orm/postgresql';
import { AccessPolicy } from '../../auth/access';
import { AccountKind } from './account.entity';
import { createAccountLoaders } from './account.loaders';
import { AccountRepository } from './account.repository';
import { AccountService } from './account.service';
import { AddOrganizationMemberDocument, MeDocument } from '../../../test/generated/graphql';
import { dbOf } from '../../db/request-db';

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
      // Otto does not reach Nora: the invitation shows her id only (no name or kind oracle).
      invitations: [{ id: DEMO.nora, name: null, kind: null, invited_at: expect.any(String) }],
      revoked: null,
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
    expect(first.body.invitations).toEqual([{ id: newcomer.account.id, name: null, kind: null, invited_at: expect.any(String) }]);
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
    const res = await t.graphql(AddOrganizationMemberDocument, { input: { id: DEMO.southside, accountId: newcomer.account.id } }, as.sam);
    expect(ids(res.body.data.addOrganizationMember.members)).not.toContain(newcomer.account.id);
    expect(ids(res.body.data.addOrganizationMember.invitations)).toEqual([newcomer.account.id]);
    const refused = await t.graphql(AddOrganizationMemberDocument, { input: { id: DEMO.southside, accountId: newcomer.account.id } }, as.nora);
    expect(refused.body.errors[0].extensions.code).toBe('FORBIDDEN');
    const accepted = await t.graphql(AddOrganizationMemberDocument, { input: { id: DEMO.southside, accountId: newcomer.account.id } }, newcomer.headers);
    expect(ids(accepted.body.data.addOrganizationMember.members)).toContain(newcomer.account.id);
    expect(accepted.body.data.addOrganizationMember.invitations).toEqual([]);
  });
});

describe('membership lifecycle: what a membership granted ends with it (issues 24, 30)', () => {
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

  /** An organization with an owner and a member who plants an invitation for a second account of his. */
  async function planted() {
    const owner = await createAccount(t.orm, { name: 'Owner' });
    const mallory = await createAccount(t.orm, { name: 'Mallory' });
    const alt = await createAccount(t.orm, { name: 'Mallory Alt' });
    const org = await createOrganization(t.orm, `Planted ${alt.account.id.slice(0, 6)}`, [owner.account.id, mallory.account.id]);
    const catalog = await createCatalog(t.orm, { linkedTo: [org.id] });
    await addSong(t.orm, catalog.id, { lyrics: 'secret lyrics' });
    expect((await add(mallory.headers, org.id, alt.account.id)).status).toBe(200);
    return { owner, mallory, alt, org, catalog };
  }

  async function expectNoReach(headers: Record<string, string>, org: string, catalog: string) {
    expect((await me(headers)).organizations).toEqual([]);
    expect((await me(headers)).invitations).toEqual([]);
    const accepted = await add(headers, org, (await me(headers)).id);
    expect(accepted.status).toBe(403);
    expect(accepted.body.code).toBe('FORBIDDEN');
    expect((await t.http().get('/api/artists').query({ organization_id: org }).set(headers)).status).toBe(403);
    expect((await t.http().get('/api/catalogs/songs').query({ catalog_id: catalog }).set(headers)).status).toBe(403);
  }

  it('an invitation dies with its inviter’s removal, and the removal answers it', async () => {
    const { owner, mallory, alt, org, catalog } = await planted();
    const removed = await remove(owner.headers, org.id, mallory.account.id);
    expect(removed.status).toBe(200);
    expect(removed.body.revoked).toEqual({ membership: true, invitation: false, invitations: [alt.account.id], catalog_links: [] });
    expect(removed.body.invitations).toEqual([]);
    await expectNoReach(alt.headers, org.id, catalog.id);
  });

  it('an invitation dies when its inviter leaves', async () => {
    const { mallory, alt, org, catalog } = await planted();
    const left = await remove(mallory.headers, org.id, mallory.account.id);
    expect(left.status).toBe(200);
    expect(left.body.revoked.invitations).toEqual([alt.account.id]);
    await expectNoReach(alt.headers, org.id, catalog.id);
  });

  it('an invitation dies with its inviter’s account', async () => {
    const { mallory, alt, org, catalog } = await planted();
    await t.orm.em.fork().getConnection().execute(`delete from accounts where id = ?`, [mallory.account.id]);
    await expectNoReach(alt.headers, org.id, catalog.id);
  });

  it('an invitation dies with the organization: DELETE /api/organizations/{id} answers what ended', async () => {
    const { owner, mallory, alt, org, catalog } = await planted();
    const stranger = await createAccount(t.orm);
    const refused = await t.http().delete(`/api/organizations/${org.id}`).set(stranger.headers);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('FORBIDDEN');
    const deleted = await t.http().delete(`/api/organizations/${org.id}`).set(owner.headers);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({
      status: 'success',
      organization: { id: org.id, name: org.name, created_at: expect.any(String) },
      members: [owner.account.id, mallory.account.id].sort(),
      invitations: [alt.account.id],
      catalog_links: [],
      deleted_catalogs: [catalog.id],
    });
    expect((await me(alt.headers)).invitations).toEqual([]);
    expect((await me(mallory.headers)).organizations).toEqual([]);
    expect((await t.http().delete(`/api/organizations/${org.id}`).set(owner.headers)).status).toBe(403);
    expect((await t.http().delete(`/api/organizations/${org.id}`).set(as.ada)).status).toBe(404);
    expect((await t.http().delete(`/api/organizations/nope`).set(owner.headers)).body.details).toEqual([{ field: 'id', message: 'must be a UUID' }]);
  });

  it('an invitation whose inviter is still a member is accepted as before', async () => {
    const { owner, alt, org } = await planted();
    const accepted = await add(alt.headers, org.id, alt.account.id);
    expect(accepted.status).toBe(200);
    expect(accepted.body.members.map((m: { id: string }) => m.id)).toContain(alt.account.id);
    expect((await remove(owner.headers, org.id, alt.account.id)).body.revoked).toEqual({ membership: true, invitation: false, invitations: [], catalog_links: [] });
  });

  it('an invite answers no profile of an invitee the inviter does not reach: no name or kind oracle', async () => {
    const inviter = await createAccount(t.orm);
    const org = await createOrganization(t.orm, undefined, [inviter.account.id]);
    const unknownPerson = await createAccount(t.orm, { name: 'Hidden Person' });
    const unknownArtist = await createAccount(t.orm, { name: 'Hidden Artist', kind: AccountKind.artist });
    const person = await add(inviter.headers, org.id, unknownPerson.account.id);
    const artist = await add(inviter.headers, org.id, unknownArtist.account.id);
    expect(person.status).toBe(200);
    expect(person.body.invitations).toEqual([{ id: unknownPerson.account.id, name: null, kind: null, invited_at: expect.any(String) }]);
    expect(artist.body.invitations[1]).toEqual({ id: unknownArtist.account.id, name: null, kind: null, invited_at: expect.any(String) });
    expect(JSON.stringify([person.body, artist.body])).not.toMatch(/Hidden|artist/);
    // A co-member elsewhere is reached already: the inviter knew the name.
    const colleague = await createAccount(t.orm, { name: 'Known Colleague' });
    await createOrganization(t.orm, undefined, [inviter.account.id, colleague.account.id]);
    // The factory writes behind the service's back: wait until the credential cache has heard of it
    // (as a mutation does for its own writes), or the inviter's next request may still carry the
    // reach it had before (it failed that way now and then under load).
    await t.deps.authenticator.settle();
    const known = await add(inviter.headers, org.id, colleague.account.id);
    expect(known.body.invitations[2]).toEqual({ id: colleague.account.id, name: 'Known Colleague', kind: 'person', invited_at: expect.any(String) });
  });

  it('refuses to invite or add an organization (400 naming account_id), even for an admin', async () => {
    const inviter = await createAccount(t.orm);
    const org = await createOrganization(t.orm, undefined, [inviter.account.id]);
    const other = await createOrganization(t.orm);
    for (const res of [await add(inviter.headers, org.id, other.id), await add(as.ada, org.id, other.id)]) {
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('BAD_USER_INPUT');
      expect(res.body.details).toEqual([{ field: 'account_id', message: expect.stringContaining('organizations cannot be members') }]);
    }
    const rows = await t.orm.em.fork().getConnection().execute(`select 1 from organization_invitations where account_id = ? union all select 1 from memberships where member_id = ?`, [other.id, other.id]);
    expect(rows).toEqual([]);
  });

  it('caps the pending invitations one account can be sent (INVITATIONS_MAX_PER_ACCOUNT, 20 by default)', async () => {
    const spammer = await createAccount(t.orm);
    const target = await createAccount(t.orm);
    const orgs = [];
    for (let i = 0; i < 21; i += 1) orgs.push(await createOrganization(t.orm, undefined, [spammer.account.id]));
    for (const org of orgs.slice(0, 20)) expect((await add(spammer.headers, org.id, target.account.id)).status).toBe(200);
    const refused = await add(spammer.headers, orgs[20].id, target.account.id);
    expect(refused.status).toBe(400);
    expect(refused.body.details).toEqual([{ field: 'account_id', message: 'the account has 20 pending invitations, the most allowed' }]);
    expect((await me(target.headers)).invitations).toHaveLength(20);
  });

  it('holds the per-account cap under concurrent invitations from many organizations', async () => {
    const spammer = await createAccount(t.orm);
    const target = await createAccount(t.orm);
    const orgs = [];
    for (let i = 0; i < 26; i += 1) orgs.push(await createOrganization(t.orm, undefined, [spammer.account.id]));
    const answers = await Promise.all(orgs.map((org) => add(spammer.headers, org.id, target.account.id)));
    expect(answers.filter((r) => r.status === 200)).toHaveLength(20);
    expect(answers.filter((r) => r.status === 400 && r.body.details?.[0]?.field === 'account_id')).toHaveLength(6);
    expect((await me(target.headers)).invitations).toHaveLength(20);
  });

  it('a viewer still cached as a member after its removal cannot plant an invitation (403, nothing written)', async () => {
    const mallory = await createAccount(t.orm);
    const alt = await createAccount(t.orm);
    const org = await createOrganization(t.orm, undefined, [mallory.account.id]);
    await t.orm.em.fork().getConnection().execute(`delete from memberships where organization_id = ? and member_id = ?`, [org.id, mallory.account.id]);
    // The viewer as another instance may still hold it for a moment: the membership listed.
    const stale = { accountId: mallory.account.id, kind: AccountKind.person, name: 'Mallory', email: null, organizationIds: [org.id], isAdmin: false, via: 'api_key' as const };
    const db = dbOf(t.orm.em.fork() as EntityManager);
    const service = new AccountService(new AccountRepository(db), new AccessPolicy(db), createAccountLoaders(db), { perOrganization: 100, perAccount: 20 });
    await expect(service.addMember(stale, { id: org.id, account_id: alt.account.id })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect(await db.execute(`select 1 from organization_invitations where organization_id = ?`, [org.id])).toEqual([]);
  });
});
