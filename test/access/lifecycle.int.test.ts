import { randomUUID } from 'node:crypto';
import { createTestApp, TestApp } from '../app';
import { router } from '../demo';
import { addSong, createAccount, createCatalog, createOrganization } from '../factories';
import { bearer, JwtIssuer, startJwtIssuer } from '../jwt';

/**
 * Reach that must end, played on both faces (REST and the graph, references included): an
 * ex-member's catalog link and planted invitation (issues 24 and 30), and an address held without
 * proof (issue 24). Each case is what an attacker kept on the code before these rules.
 */
describe('access: reach ends with the membership, and an address needs proof', () => {
  let t: TestApp;
  let idp: JwtIssuer;
  beforeAll(async () => {
    idp = await startJwtIssuer();
    t = await createTestApp({ env: idp.env });
  });
  afterAll(async () => {
    await t.close();
    await idp.close();
  });

  /** What `who` reads of the catalog and its song over REST and GraphQL: statuses and lyrics. */
  async function reads(who: Record<string, string>, catalogId: string, isrc: string) {
    const rest = await t.http().get('/api/catalogs/songs').query({ catalog_id: catalogId }).set(who);
    const catalog = await t.graphql(`query ($id: ID!) { catalog(id: $id) { id } }`, { id: catalogId }, who);
    const song = await t.graphql(`query ($isrc: String!) { song(isrc: $isrc) { lyrics } }`, { isrc }, who);
    const entity = await t.graphql(
      `query ($reps: [_Any!]!) { _entities(representations: $reps) { ... on Catalog { id } } }`,
      { reps: [{ __typename: 'Catalog', id: catalogId }] },
      { ...who, ...router },
    );
    return {
      rest: rest.status,
      lyrics: rest.body.songs?.[0]?.lyrics ?? null,
      catalog: catalog.body.data?.catalog?.id ?? catalog.body.errors?.[0]?.extensions?.code,
      song: song.body.data?.song?.lyrics ?? song.body.errors?.[0]?.extensions?.code,
      entity: entity.body.data._entities[0],
    };
  }
  const NO_REACH = { rest: 403, lyrics: null, catalog: 'FORBIDDEN', song: 'NOT_FOUND', entity: null };

  async function label() {
    const owner = await createAccount(t.orm);
    const member = await createAccount(t.orm);
    const org = await createOrganization(t.orm, undefined, [owner.account.id, member.account.id]);
    const catalog = await createCatalog(t.orm, { linkedTo: [org.id] });
    const song = await addSong(t.orm, catalog.id, { lyrics: `lyrics ${randomUUID().slice(0, 6)}` });
    return { owner, member, org, catalog, song };
  }

  it('ex-member who linked the organization’s catalog to himself: no reach on either face once removed', async () => {
    const { owner, member, org, catalog, song } = await label();
    expect((await t.http().post('/api/catalogs').set(member.headers).send({ catalog_id: catalog.id })).status).toBe(200);
    expect(await reads(member.headers, catalog.id, song.isrc)).toMatchObject({ rest: 200, lyrics: song.lyrics, catalog: catalog.id, song: song.lyrics });
    expect((await t.http().delete(`/api/organizations/${org.id}/members/${member.account.id}`).set(owner.headers)).status).toBe(200);
    expect(await reads(member.headers, catalog.id, song.isrc)).toEqual(NO_REACH);
  });

  it('second account invited by a member who was then removed: accepting opens nothing', async () => {
    const { owner, member, org, catalog, song } = await label();
    const alt = await createAccount(t.orm);
    await t.http().post(`/api/organizations/${org.id}/members`).set(member.headers).send({ account_id: alt.account.id });
    await t.http().delete(`/api/organizations/${org.id}/members/${member.account.id}`).set(owner.headers);
    expect((await t.http().post(`/api/organizations/${org.id}/members`).set(alt.headers).send({ account_id: alt.account.id })).status).toBe(403);
    expect(await reads(alt.headers, catalog.id, song.isrc)).toEqual(NO_REACH);
  });

  it('agent+ signup squatting an address: the real owner’s later sign-in (email_verified) is not the squatter’s account', async () => {
    const email = `agent+${randomUUID().slice(0, 8)}@corp.test`;
    const squat = await t.http().post('/api/agents/signup').send({ email });
    const squatter = { 'x-api-key': squat.body.api_key as string };
    const owner = bearer(await idp.sign({ email, email_verified: true, sub: `owner-${randomUUID()}` }));
    const created = await t.http().post('/api/catalogs').set(owner).send({ name: 'Owner work' });
    expect(created.status).toBe(200);
    const isrc = (await addSong(t.orm, created.body.catalog.id, { lyrics: 'owner lyrics' })).isrc;
    expect(await reads(owner, created.body.catalog.id, isrc)).toMatchObject({ rest: 200, lyrics: 'owner lyrics' });
    expect(await reads(squatter, created.body.catalog.id, isrc)).toEqual(NO_REACH);
  });
});
