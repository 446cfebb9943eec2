import { createTestApp, TestApp } from '../app';
import { as, DEMO, router } from '../demo';

/**
 * Issue 11: rows a tenant writes have an owner, and natural keys (ISRC, profile URL, artist name)
 * never let one account change or read what another account owns. Every test here is a finding
 * reproduced through the public API with the demo accounts: Nora (Northwind), Sam (Southside),
 * Otto (no organization), Ada (admin).
 */
describe('ownership of rows reached by a natural key (real PostgreSQL)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const songsOf = async (catalogId: string, who: Record<string, string>) => {
    const res = await t.http().get('/api/catalogs/songs').query({ catalog_id: catalogId, limit: 100 }).set(who);
    expect(res.status).toBe(200);
    return res.body.songs as { isrc: string; name: string; album: string | null; lyrics: string | null; updated_at: string; artists: { id: string; name: string }[] }[];
  };
  const newCatalog = async (who: Record<string, string>, name: string) => {
    const res = await t.http().post('/api/catalogs').set(who).send({ name });
    expect(res.status).toBe(200);
    return res.body.catalog.id as string;
  };
  const postSongs = (who: Record<string, string>, songs: Record<string, unknown>[]) => t.http().post('/api/catalogs/songs').set(who).send({ songs });

  describe('finding 1: posting an ISRC changes only the catalog posted to', () => {
    it("an account with no organization cannot rewrite another organization's song, lyrics or credits", async () => {
      const before = (await songsOf(DEMO.catalogNorthwind, as.nora)).find((s) => s.isrc === 'GBNWR2400002')!;
      expect(before).toMatchObject({ name: 'Paper Moons', album: 'Shoreline', lyrics: 'Paper Moons\n(demo lyrics)' });

      const mine = await newCatalog(as.otto, 'Otto takeover');
      const hack = await postSongs(as.otto, [
        { catalog_id: mine, isrc: 'gb-nwr-24-00002', name: 'HACKED', album: 'Owned', lyrics: 'leaked and replaced', artists: ['Otto Crew'] },
      ]);
      expect(hack.status).toBe(200);
      expect(hack.body.songs[0]).toMatchObject({ catalog_id: mine, isrc: 'GBNWR2400002', name: 'HACKED', album: 'Owned', lyrics: 'leaked and replaced' });

      const after = (await songsOf(DEMO.catalogNorthwind, as.nora)).find((s) => s.isrc === 'GBNWR2400002')!;
      expect(after).toEqual(before);
      expect(after.artists.map((a) => a.id)).toEqual([DEMO.luna]);
      // Otto's own catalog shows what Otto wrote.
      expect((await songsOf(mine, as.otto)).map((s) => [s.isrc, s.name, s.artists.map((a) => a.name)])).toEqual([['GBNWR2400002', 'HACKED', ['Otto Crew']]]);
    });

    it("a new entry needs its own name: another catalog's values are never copied into the caller's", async () => {
      const mine = await newCatalog(as.otto, 'Otto probe');
      const probe = await postSongs(as.otto, [{ catalog_id: mine, isrc: 'USNWR2400004' }]);
      expect(probe.status).toBe(400);
      expect(probe.body.details).toEqual([{ field: 'songs[0].name', message: 'is required for a new ISRC' }]);
      expect(await songsOf(mine, as.otto)).toEqual([]);
    });

    it('what one catalog shows for an ISRC never changes what another catalog shows, even for the same caller', async () => {
      const shared = async () => (await songsOf(DEMO.catalogShared, as.sam)).find((s) => s.isrc === 'GBNWR2400001')!;
      const before = await shared();
      expect(before.name).toBe('Tidal Lights');
      const res = await postSongs(as.nora, [{ catalog_id: DEMO.catalogNorthwind, isrc: 'GBNWR2400001', name: 'Tidal Lights (Northwind edit)', lyrics: 'new words', artists: ['The Midnight Owls'] }]);
      expect(res.status).toBe(200);
      expect(await shared()).toEqual(before);
      const northwind = (await songsOf(DEMO.catalogNorthwind, as.nora)).find((s) => s.isrc === 'GBNWR2400001')!;
      expect(northwind).toMatchObject({ name: 'Tidal Lights (Northwind edit)', album: 'Shoreline', lyrics: 'new words' });
      expect(northwind.artists.map((a) => a.id).sort()).toEqual([DEMO.luna, DEMO.owls].sort());
    });
  });

  describe('crediting artists by name (decisions §5)', () => {
    it("credits only artists the caller reaches: another organization's artist of the same name is never credited", async () => {
      const mine = await newCatalog(as.otto, 'Otto credits');
      const res = await postSongs(as.otto, [{ catalog_id: mine, isrc: 'QZOTO2600001', name: 'Borrowed fame', artists: ['luna waves', 'Kai Rivers'] }]);
      expect(res.status).toBe(200);
      const credited = res.body.songs[0].artists as { id: string; name: string }[];
      expect(credited.map((a) => a.id)).not.toContain(DEMO.luna);
      expect(credited.map((a) => a.id)).not.toContain(DEMO.kai);
      // Unknown among Otto's reach: new artists on Otto's roster, named as posted.
      const roster = await t.http().get('/api/artists').set(as.otto);
      expect(roster.body.artists.map((a: { id: string }) => a.id)).toEqual(expect.arrayContaining(credited.map((a) => a.id)));
      expect(credited.map((a) => a.name).sort()).toEqual(['Kai Rivers', 'luna waves']);
      // Luna's songs, as her organization sees them, did not gain Otto's song.
      const luna = await t.graphql(`{ artist(id: "${DEMO.luna}") { songs(limit: 100) { items { isrc } } } }`, {}, as.nora);
      expect(luna.body.data.artist.songs.items.map((s: { isrc: string }) => s.isrc)).not.toContain('QZOTO2600001');
    });

    it('credits a reachable artist of that name (the caller reaches it through its organization)', async () => {
      const res = await postSongs(as.sam, [{ catalog_id: DEMO.catalogKai, isrc: 'DEKAI2600010', name: 'Reach', artists: ['KAI RIVERS'] }]);
      expect(res.status).toBe(200);
      expect(res.body.songs[0].artists.map((a: { id: string }) => a.id)).toEqual([DEMO.kai]);
    });
  });

  describe('finding 2: social profiles are unique per artist, not globally', () => {
    it("posting another artist's profile URL creates a profile of one's own artist and leaves the other untouched", async () => {
      const kaiSocials = async () => (await t.http().get(`/api/artists/${DEMO.kai}/socials`).set(as.sam)).body.socials;
      const before = await kaiSocials();
      expect(before.map((s: { profile_url: string }) => s.profile_url)).toContain('https://instagram.com/kairivers');

      const res = await t.http().post(`/api/artists/${DEMO.luna}/socials`).set(as.nora).send({
        profile_url: 'https://instagram.com/kairivers',
        username: 'HACKED',
        bio: 'owned',
        avatar: 'https://evil.example.test/a.png',
        follower_count: 1,
      });
      expect(res.status).toBe(200);
      expect(res.body.social).toMatchObject({ profile_url: 'https://instagram.com/kairivers', username: 'HACKED', follower_count: 1 });
      expect(await kaiSocials()).toEqual(before);

      // Posting it again upserts Luna's profile only, within Luna.
      const again = await t.http().post(`/api/artists/${DEMO.luna}/socials`).set(as.nora).send({ profile_url: 'https://instagram.com/kairivers', username: 'lunaonkai' });
      expect(again.status).toBe(200);
      expect(again.body.social).toMatchObject({ id: res.body.social.id, social_id: res.body.social.social_id, username: 'lunaonkai', bio: 'owned', follower_count: 1 });
      const luna = (await t.http().get(`/api/artists/${DEMO.luna}/socials`).set(as.nora)).body.socials;
      expect(luna.filter((s: { profile_url: string }) => s.profile_url === 'https://instagram.com/kairivers')).toHaveLength(1);
      expect(await kaiSocials()).toEqual(before);
    });
  });

  describe('finding 3: song reads follow the catalogs the caller reaches', () => {
    const SONG = 'query($isrc: String!) { song(isrc: $isrc) { isrc name album lyrics artists { id name } catalogs { items { id } } } }';
    const ENTITIES = 'query($r: [_Any!]!) { _entities(representations: $r) { ... on Song { isrc name album lyrics } } }';

    it('song(isrc) answers NOT_FOUND for an ISRC held only in catalogs out of reach, like an unknown one', async () => {
      // DEKAI2400007 is only in Kai Rivers Singles (Southside).
      const hidden = await t.graphql(SONG, { isrc: 'DEKAI2400007' }, as.nora);
      expect(hidden.body.data).toEqual({ song: null });
      expect(hidden.body.errors.map((e: { extensions: { code: string } }) => e.extensions.code)).toEqual(['NOT_FOUND']);
      const unknown = await t.graphql(SONG, { isrc: 'ZZZZZ0000000' }, as.nora);
      expect(unknown.body.errors[0].message).toBe(hidden.body.errors[0].message);
      expect((await t.graphql(SONG, { isrc: 'GBNWR2400001' }, as.otto)).body.errors[0].extensions.code).toBe('NOT_FOUND');

      const sam = await t.graphql(SONG, { isrc: 'DEKAI2400007' }, as.sam);
      expect(sam.body.data.song).toEqual({ isrc: 'DEKAI2400007', name: 'Concrete Bloom', album: null, lyrics: 'Concrete Bloom\n(demo lyrics)', artists: [{ id: DEMO.kai, name: 'Kai Rivers' }], catalogs: { items: [{ id: DEMO.catalogKai }] } });
      expect((await t.graphql(SONG, { isrc: 'DEKAI2400007' }, as.ada)).body.data.song.name).toBe('Concrete Bloom');
    });

    it('a Song entity reference resolves to null when the caller reaches no catalog holding it', async () => {
      const r = [
        { __typename: 'Song', isrc: 'DEKAI2400007' },
        { __typename: 'Song', isrc: 'USNWR2400004' },
      ];
      const nora = await t.graphql(ENTITIES, { r }, { ...as.nora, ...router });
      expect(nora.body.data._entities).toEqual([null, { isrc: 'USNWR2400004', name: 'Owl Hours', album: 'After Dark', lyrics: 'Owl Hours\n(demo lyrics)' }]);
      const otto = await t.graphql(ENTITIES, { r }, { ...as.otto, ...router });
      expect(otto.body.data._entities).toEqual([null, null]);
      const sam = await t.graphql(ENTITIES, { r }, { ...as.sam, ...router });
      expect(sam.body.data._entities).toEqual([{ isrc: 'DEKAI2400007', name: 'Concrete Bloom', album: null, lyrics: 'Concrete Bloom\n(demo lyrics)' }, null]);
    });

    it("Otto's copy of an ISRC is what Otto reads; Northwind's copy is what Northwind reads", async () => {
      const mine = await newCatalog(as.otto, 'Otto copy');
      expect((await postSongs(as.otto, [{ catalog_id: mine, isrc: 'USNWR2400005', name: 'Not Neon', lyrics: 'otto words' }])).status).toBe(200);
      expect((await t.graphql(SONG, { isrc: 'USNWR2400005' }, as.otto)).body.data.song).toEqual({ isrc: 'USNWR2400005', name: 'Not Neon', album: null, lyrics: 'otto words', artists: [], catalogs: { items: [{ id: mine }] } });
      expect((await t.graphql(SONG, { isrc: 'USNWR2400005' }, as.nora)).body.data.song).toMatchObject({ name: 'Neon Feathers', lyrics: 'Neon Feathers\n(demo lyrics)', artists: [{ id: DEMO.owls, name: 'The Midnight Owls' }] });
    });

    it('when several reachable catalogs hold the ISRC, the most recently updated entry answers', async () => {
      const isrc = 'GBNWR2400003';
      expect((await postSongs(as.sam, [{ catalog_id: DEMO.catalogShared, isrc, name: 'Salt & Static (sync cut)' }])).status).toBe(200);
      const first = await t.graphql(SONG, { isrc }, as.nora);
      expect(first.body.data.song.name).toBe('Salt & Static (sync cut)');
      expect(first.body.data.song.catalogs.items.map((c: { id: string }) => c.id).sort()).toEqual([DEMO.catalogNorthwind, DEMO.catalogShared].sort());
      expect((await postSongs(as.nora, [{ catalog_id: DEMO.catalogNorthwind, isrc, album: 'Shoreline (deluxe)' }])).status).toBe(200);
      const second = await t.graphql(SONG, { isrc }, as.nora);
      expect(second.body.data.song).toMatchObject({ name: 'Salt & Static', album: 'Shoreline (deluxe)' });
    });

    it("Artist.songs lists only songs held in catalogs the caller reaches, with that catalog's values", async () => {
      // The admin credits Kai on a song in Northwind's catalog only: Sam reaches Kai, not that catalog.
      const res = await postSongs(as.ada, [{ catalog_id: DEMO.catalogNorthwind, isrc: 'GBNWR2600555', name: 'Secret duet', lyrics: 'unreleased', artists: ['Kai Rivers'] }]);
      expect(res.status).toBe(200);
      expect(res.body.songs[0].artists.map((a: { id: string }) => a.id)).toEqual([DEMO.kai]);

      const query = `{ artist(id: "${DEMO.kai}") { songs(limit: 100) { items { isrc name lyrics } } catalogs { items { id } } } }`;
      const sam = await t.graphql(query, {}, as.sam);
      expect(sam.body.errors).toBeUndefined();
      expect(sam.body.data.artist.songs.items.map((s: { isrc: string }) => s.isrc)).not.toContain('GBNWR2600555');
      expect(sam.body.data.artist.catalogs.items.map((c: { id: string }) => c.id)).not.toContain(DEMO.catalogNorthwind);
      const ada = await t.graphql(query, {}, as.ada);
      expect(ada.body.data.artist.songs.items).toContainEqual({ isrc: 'GBNWR2600555', name: 'Secret duet', lyrics: 'unreleased' });
    });
  });
});
