import { as, DEMO, router } from '../../../test/demo';
import { createTestApp, TestApp } from '../../../test/app';
import { ArtistGraphDocument, ArtistSocialsDocument } from '../../../test/generated/graphql';

const SOCIAL_KEYS = ['avatar', 'bio', 'follower_count', 'following_count', 'id', 'profile_url', 'region', 'social_id', 'updated_at', 'username'];

describe('artists and socials (real PostgreSQL)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const count = async (table: string) => Number((await t.orm.em.getConnection().execute(`select count(*)::int as n from ${table}`))[0].n);

  describe('GET /api/artist/socials and /api/artists/{id}/socials', () => {
    it('answers {status, socials, pagination} with the contract fields, oldest link first, on both paths and GraphQL', async () => {
      const res = await t.http().get('/api/artist/socials').query({ artist_account_id: DEMO.luna }).set(as.nora);
      expect(res.status).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual(['pagination', 'socials', 'status']);
      expect(res.body.status).toBe('success');
      expect(res.body.pagination).toEqual({ total_count: 3, page: 1, limit: 20, total_pages: 1 });
      expect(res.body.socials.map((s: { profile_url: string }) => s.profile_url)).toEqual([
        'https://instagram.com/lunawaves',
        'https://tiktok.com/@lunawaves',
        'https://x.com/lunawavesmusic',
      ]);
      for (const social of res.body.socials) expect(Object.keys(social).sort()).toEqual(SOCIAL_KEYS);
      expect(res.body.socials[0]).toMatchObject({
        social_id: '00000000-0000-4000-9000-000000000021',
        username: 'lunawaves',
        avatar: 'https://images.example.com/lunawaves.png',
        bio: 'Dream-pop from Brighton.',
        follower_count: 48200,
        following_count: 310,
        region: 'GB',
        updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      });

      const byPath = await t.http().get(`/api/artists/${DEMO.luna}/socials`).set(as.nora);
      expect(byPath.status).toBe(200);
      expect(byPath.body).toEqual(res.body);
      const gql = await t.graphql(ArtistSocialsDocument, { input: { artistAccountId: DEMO.luna } }, as.nora);
      expect(gql.body.data.artistSocials).toEqual({ items: res.body.socials, pagination: res.body.pagination });
    });

    it('pages with page and limit, in a stable order', async () => {
      const pages = [];
      for (const page of [1, 2, 3, 4]) {
        const res = await t.http().get(`/api/artists/${DEMO.luna}/socials`).query({ page, limit: 1 }).set(as.nora);
        expect(res.status).toBe(200);
        expect(res.body.pagination).toEqual({ total_count: 3, page, limit: 1, total_pages: 3 });
        pages.push(...res.body.socials.map((s: { id: string }) => s.id));
      }
      expect(pages).toEqual(['00000000-0000-4000-9000-000000000031', '00000000-0000-4000-9000-000000000032', '00000000-0000-4000-9000-000000000033']);
    });

    it('accepts limit 1 and 100 and page 1; refuses limit 0 and 101, page 0, a non-UUID id, a missing id', async () => {
      for (const limit of [1, 100]) {
        const ok = await t.http().get('/api/artist/socials').query({ artist_account_id: DEMO.luna, limit }).set(as.nora);
        expect({ limit, status: ok.status }).toEqual({ limit, status: 200 });
      }
      const cases: [Record<string, unknown>, string, string][] = [
        [{ artist_account_id: DEMO.luna, limit: 0 }, 'limit', 'must be at least 1'],
        [{ artist_account_id: DEMO.luna, limit: 101 }, 'limit', 'must be at most 100'],
        [{ artist_account_id: DEMO.luna, page: 0 }, 'page', 'must be at least 1'],
        [{ artist_account_id: 'luna' }, 'artist_account_id', 'must be a UUID'],
        [{}, 'artist_account_id', 'is required'],
        [{ artist_account_id: DEMO.luna, limit: 'ten' }, 'limit', 'must be an integer'],
      ];
      for (const [query, field, message] of cases) {
        const res = await t.http().get('/api/artist/socials').query(query).set(as.nora);
        expect({ query, status: res.status, code: res.body.code, details: res.body.details }).toEqual({
          query,
          status: 400,
          code: 'BAD_USER_INPUT',
          details: [{ field, message }],
        });
      }
      const badPath = await t.http().get('/api/artists/not-a-uuid/socials').set(as.nora);
      expect(badPath.status).toBe(400);
      expect(badPath.body.details).toEqual([{ field: 'id', message: 'must be a UUID' }]);
    });

    it('checks credentials first, then input, then existence and access', async () => {
      expect((await t.http().get('/api/artist/socials').query({ artist_account_id: 'x' })).status).toBe(401);
      const missing = await t.http().get('/api/artists/00000000-0000-4000-8000-0000000000ff/socials').set(as.nora);
      expect(missing.status).toBe(404);
      const person = await t.http().get(`/api/artists/${DEMO.nora}/socials`).set(as.nora);
      expect(person.status).toBe(404);
      // Kai is on Southside's roster: Nora (Northwind) and Otto (no organization) are refused, Sam and the admin are not.
      for (const who of [as.nora, as.otto]) {
        const refused = await t.http().get(`/api/artists/${DEMO.kai}/socials`).set(who);
        expect(refused.status).toBe(403);
        expect(refused.body).toMatchObject({ status: 'error', code: 'FORBIDDEN' });
        expect(refused.body.socials).toBeUndefined();
      }
      expect((await t.http().get(`/api/artists/${DEMO.kai}/socials`).set(as.sam)).body.pagination.total_count).toBe(2);
      expect((await t.http().get(`/api/artists/${DEMO.kai}/socials`).set(as.ada)).status).toBe(200);
      const gql = await t.graphql(ArtistSocialsDocument, { input: { artistAccountId: DEMO.kai } }, as.otto);
      expect(gql.body.errors[0].extensions.code).toBe('FORBIDDEN');
    });
  });

  describe('roster: POST and GET /api/artists', () => {
    it("creates an artist on the caller's roster; only the roster owner reaches its data", async () => {
      const created = await t.http().post('/api/artists').set(as.otto).send({ name: '  Otto Band  ' });
      expect(created.status).toBe(200);
      expect(created.body).toEqual({
        status: 'success',
        artist: { id: expect.any(String), name: 'Otto Band', image: null, created_at: expect.any(String) },
      });
      const id = created.body.artist.id;
      const roster = await t.http().get('/api/artists').set(as.otto);
      expect(roster.body.artists.map((a: { id: string }) => a.id)).toEqual([id]);
      expect((await t.http().get(`/api/artists/${id}/socials`).set(as.otto)).status).toBe(200);
      expect((await t.http().get(`/api/artists/${id}/socials`).set(as.nora)).status).toBe(403);
    });

    it("creates an artist on an organization's roster only for its members", async () => {
      const before = await count('accounts');
      const refused = await t.http().post('/api/artists').set(as.otto).send({ name: 'Sneaky', organization_id: DEMO.northwind });
      expect(refused.status).toBe(403);
      expect(await count('accounts')).toBe(before);
      const unknownOrg = await t.http().post('/api/artists').set(as.nora).send({ name: 'Nobody', organization_id: '00000000-0000-4000-8000-0000000000ff' });
      expect(unknownOrg.status).toBe(404);

      const created = await t.http().post('/api/artists').set(as.nora).send({ name: 'Aurora Deep', organization_id: DEMO.northwind });
      expect(created.status).toBe(200);
      const roster = await t.http().get('/api/artists').query({ organization_id: DEMO.northwind }).set(as.nora);
      expect(roster.body.artists.map((a: { name: string }) => a.name)).toEqual(['Aurora Deep', 'Luna Waves', 'The Midnight Owls']);
      // Nora's own roster filter: the caller's account only.
      const own = await t.http().get('/api/artists').query({ account_id: DEMO.nora }).set(as.nora);
      expect(own.body.artists).toEqual([]);
    });

    it('refuses bad input and other rosters', async () => {
      const empty = await t.http().post('/api/artists').set(as.nora).send({ name: '   ' });
      expect(empty.status).toBe(400);
      expect(empty.body.details).toEqual([{ field: 'name', message: 'must not be empty' }]);
      expect((await t.http().post('/api/artists').set(as.nora).send({ name: 'X', organization_id: 'org' })).body.details).toEqual([
        { field: 'organization_id', message: 'must be a UUID' },
      ]);
      expect((await t.http().get('/api/artists').query({ organization_id: DEMO.southside }).set(as.nora)).status).toBe(403);
      expect((await t.http().get('/api/artists').query({ account_id: DEMO.otto }).set(as.nora)).status).toBe(403);
      expect((await t.http().get('/api/artists').query({ account_id: DEMO.nora, organization_id: DEMO.northwind }).set(as.nora)).status).toBe(400);
      expect((await t.http().get('/api/artists').query({ organization_id: DEMO.southside }).set(as.sam)).body.artists).toEqual([
        { id: DEMO.kai, name: 'Kai Rivers', image: null, created_at: expect.any(String) },
      ]);
    });
  });

  describe('POST /api/artists/{id}/socials', () => {
    it('adds a profile, then updates it by profile_url without a second link', async () => {
      const url = 'https://soundcloud.com/midnightowls';
      const first = await t.http().post(`/api/artists/${DEMO.owls}/socials`).set(as.nora).send({ profile_url: url, username: 'owls', follower_count: 10 });
      expect(first.status).toBe(200);
      expect(first.body).toEqual({
        status: 'success',
        social: {
          id: expect.any(String),
          social_id: expect.any(String),
          username: 'owls',
          profile_url: url,
          avatar: null,
          bio: null,
          follower_count: 10,
          following_count: null,
          region: null,
          updated_at: expect.any(String),
        },
      });
      const second = await t.http().post(`/api/artists/${DEMO.owls}/socials`).set(as.nora).send({ profile_url: url, username: 'midnightowls', follower_count: 12, region: 'US' });
      expect(second.status).toBe(200);
      expect(second.body.social).toMatchObject({ id: first.body.social.id, social_id: first.body.social.social_id, username: 'midnightowls', follower_count: 12, region: 'US' });
      const list = await t.http().get(`/api/artists/${DEMO.owls}/socials`).set(as.nora);
      expect(list.body.socials.filter((s: { profile_url: string }) => s.profile_url === url)).toHaveLength(1);
      expect(list.body.pagination.total_count).toBe(2);
    });

    it('refuses bad fields and another account, changing nothing', async () => {
      const before = await count('socials');
      const cases: [Record<string, unknown>, string][] = [
        [{ profile_url: 'not a url', username: 'x' }, 'profile_url'],
        [{ profile_url: 'javascript:alert(1)', username: 'x' }, 'profile_url'],
        [{ profile_url: 'https://x.test/a', username: '' }, 'username'],
        [{ profile_url: 'https://x.test/a', username: 'x', follower_count: -1 }, 'follower_count'],
      ];
      for (const [body, field] of cases) {
        const res = await t.http().post(`/api/artists/${DEMO.owls}/socials`).set(as.nora).send(body);
        expect({ body, status: res.status, fields: res.body.details?.map((d: { field: string }) => d.field) }).toEqual({ body, status: 400, fields: [field] });
      }
      const wrongType = await t.http().post(`/api/artists/${DEMO.owls}/socials`).set(as.nora).send({ profile_url: 'https://x.test/a', username: 'x', follower_count: '5' });
      expect(wrongType.status).toBe(400);
      const refused = await t.http().post(`/api/artists/${DEMO.owls}/socials`).set(as.sam).send({ profile_url: 'https://x.test/sam', username: 'sam' });
      expect(refused.status).toBe(403);
      expect(await count('socials')).toBe(before);
    });
  });

  describe('the graph', () => {
    it('reaches socials, catalogs and songs of an artist; refuses an unreachable artist', async () => {
      const res = await t.graphql(ArtistGraphDocument, { id: DEMO.luna }, as.nora);
      expect(res.body.errors).toBeUndefined();
      expect(res.body.data.artist).toEqual({
        id: DEMO.luna,
        name: 'Luna Waves',
        socials: { items: [{ username: 'lunawaves' }, { username: 'lunawaves' }], pagination: { total_count: 3 } },
        catalogs: { items: [{ name: 'Northwind Masters' }, { name: 'Shared Sync Catalog' }] },
        songs: {
          items: [
            { isrc: 'GBNWR2400001', name: 'Tidal Lights' },
            { isrc: 'GBNWR2400002', name: 'Paper Moons' },
            { isrc: 'GBNWR2400003', name: 'Salt & Static' },
          ],
        },
      });
      const refused = await t.graphql(ArtistGraphDocument, { id: DEMO.kai }, as.nora);
      expect(refused.body.errors[0].extensions.code).toBe('FORBIDDEN');
      const bad = await t.graphql('{ artist(id: "00000000-0000-4000-8000-000000000021") { socials(limit: 0) { items { id } } } }', {}, as.nora);
      expect(bad.body.errors[0].extensions).toEqual({ code: 'BAD_USER_INPUT', details: [{ field: 'limit', message: 'must be at least 1' }] });
    });

    it('has one roster root field: Query.artists answers the REST roster items as Artists, with socials and catalogs reachable', async () => {
      const rest = await t.http().get('/api/artists').query({ organization_id: DEMO.northwind }).set(as.nora);
      const res = await t.graphql(
        `query ($org: ID) { artists(organizationId: $org) { items { id name image created_at: createdAt socials(limit: 1) { items { username } pagination { total_count: totalCount } } catalogs { items { name } } } } }`,
        { org: DEMO.northwind },
        as.nora,
      );
      expect(res.body.errors).toBeUndefined();
      const artists = res.body.data.artists.items as { id: string; name: string; image: string | null; created_at: string; catalogs: unknown[] }[];
      expect(artists.map(({ id, name, image, created_at }) => ({ id, name, image, created_at }))).toEqual(rest.body.artists);
      expect(artists.find((a) => a.id === DEMO.luna)).toMatchObject({ socials: { items: [{ username: 'lunawaves' }], pagination: { total_count: 3 } }, catalogs: { items: [{ name: 'Northwind Masters' }, { name: 'Shared Sync Catalog' }] } });
      // An artist read elsewhere (Query.artist) has the same image and created_at, from its account.
      const one = await t.graphql(`query ($id: ID!) { artist(id: $id) { id name image created_at: createdAt } }`, { id: DEMO.luna }, as.nora);
      expect(one.body.data.artist).toEqual(rest.body.artists.find((a: { id: string }) => a.id === DEMO.luna));
    });

    it('creates artists and upserts socials with one input each, answering the domain types', async () => {
      const created = await t.graphql(`mutation ($input: CreateArtistInput!) { createArtist(input: $input) { id name image created_at: createdAt socials { items { id } } } }`, { input: { name: ' Graph Band ' } }, as.otto);
      expect(created.body.errors).toBeUndefined();
      expect(created.body.data.createArtist).toEqual({ id: expect.any(String), name: 'Graph Band', image: null, created_at: expect.any(String), socials: { items: [] } });
      const id = created.body.data.createArtist.id;
      const social = await t.graphql(
        `mutation ($input: UpsertArtistSocialInput!) { upsertArtistSocial(input: $input) { social_id: socialId username profile_url: profileUrl follower_count: followerCount } }`,
        { input: { id, profileUrl: 'https://x.test/graph-band', username: 'graphband', followerCount: 3 } },
        as.otto,
      );
      expect(social.body.errors).toBeUndefined();
      expect(social.body.data.upsertArtistSocial).toEqual({ social_id: expect.any(String), username: 'graphband', profile_url: 'https://x.test/graph-band', follower_count: 3 });
      const bad = await t.graphql(`mutation ($input: UpsertArtistSocialInput!) { upsertArtistSocial(input: $input) { id } }`, { input: { id, profileUrl: 'nope', username: 'x' } }, as.otto);
      expect(bad.body.errors[0].extensions).toEqual({ code: 'BAD_USER_INPUT', details: [{ field: 'profileUrl', message: 'must be an http(s) URL' }] });
    });

    it('resolves Artist references for the federation router', async () => {
      const res = await t.graphql(
        'query($r: [_Any!]!) { _entities(representations: $r) { ... on Artist { id name } } }',
        { r: [{ __typename: 'Artist', id: DEMO.luna }, { __typename: 'Artist', id: DEMO.nora }, { __typename: 'Artist', id: 'nope' }] },
        { ...as.nora, ...router },
      );
      expect(res.body.data._entities).toEqual([{ id: DEMO.luna, name: 'Luna Waves' }, null, null]);
    });

    it('resolves no Artist reference the caller cannot reach, nor any without credentials', async () => {
      const query = 'query($r: [_Any!]!) { _entities(representations: $r) { ... on Artist { id name } } }';
      const r = [{ __typename: 'Artist', id: DEMO.luna }, { __typename: 'Artist', id: DEMO.kai }];
      // Kai is out of Nora's reach (Query.artist answers FORBIDDEN): his reference is null, as a missing one.
      expect((await t.graphql(query, { r }, { ...as.nora, ...router })).body.data._entities).toEqual([{ id: DEMO.luna, name: 'Luna Waves' }, null]);
      const anonymous = await t.graphql(query, { r }, router);
      expect(anonymous.body.data._entities).toEqual([null, null]);
    });
  });
});
