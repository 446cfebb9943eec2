import { createTestApp, TestApp } from '../../../test/app';
import { as, DEMO, router } from '../../../test/demo';
import { DEMO_RESEARCH } from '../../db/seeders/research.seed';
import { createAccount, CreatedAccount } from '../../../test/factories';
import { Sandbox, sandboxData } from '../../providers/sandbox';

/** Sandbox tracks past the demo catalog's (which have stored answers): the provider knows each of them. */
const PROVIDED = sandboxData().tracks.slice(7, 56).map((track) => track.isrc);
const isrc = (n: number) => PROVIDED[n];
/** A track the sandbox knows, made to fail upstream with failWhen in each test. */
const FAILING = PROVIDED[0];
/** Stored in the demo data (platform_a and platform_b), fresh. */
const STORED = 'GBNWR2400001';
/** A generated (not demo) sandbox artist, found by an exact name search. */
const SEARCHABLE = sandboxData().artists[150];
/** No sandbox artist's name contains this: the search finds nothing. */
const NOBODY = 'Nobody Heard Of';

const COMPOSED = `query Composed($source: String!) {
  artists(limit: 5) { items { name catalogs(limit: 5) { items { name songs(limit: 100) { items { isrc stats(source: $source) { result stats { source data_source: dataSource data } } } } } } } }
}`;
/** The README's second headline query: an artist's research profile, its top tracks and their playlist placements. */
const PROFILE = `query ($id: ID!) { artist(id: $id) { name research_link: researchLink { research_id: researchId match }
  research { id profile { name sp_monthly_listeners: spMonthlyListeners sp_followers: spFollowers ins_followers: insFollowers tiktok_followers: tiktokFollowers data_source: dataSource }
    tracks(limit: 10) { name isrc song { isrc name } stats(source: "all", withPlaylists: true) { stats { source data } } }
    playlists(limit: 5) { name isrc curator { name followers } } } } }`;
/** A generated sandbox artist with a track the owner's catalog holds, and tracks it does not. */
const TRACK_ARTIST = sandboxData().artists.find((a) => a.id === sandboxData().tracks[7].artistIds[0])!;

describe('research composed across the graph', () => {
  let t: TestApp;
  let owner: CreatedAccount;
  let sandbox: Sandbox;
  let stats: Sandbox['trackStats'];
  let intel: Sandbox['musicIntel'];
  const searches = () => intel.server.requests.filter((r) => r.path === '/api/search').length;

  beforeAll(async () => {
    // deterministicBudgets: every charge is its statement, so the statements counted are the same whatever ran before,
    // and the budget a test writes into rate_limit_counters is the one charged (production's leases take points ahead
    // with a statement now and then, and charge from them in memory in between).
    t = await createTestApp({
      deterministicBudgets: true,
      env: {
        PROVIDERS: 'sandbox',
        PROVIDER_TIMEOUT_MS: '2000',
        PROVIDER_RETRIES: '0',
        PROVIDER_BREAKER_FAILURES: '500',
        // GRAPHQL_MAX_COST stays at its default (600): the composed queries below must be admitted under it.
      },
    });
    sandbox = t.providerMode.sandbox!;
    ({ trackStats: stats, musicIntel: intel } = sandbox);
    owner = await createAccount(t.orm);
    const created = await t.graphql(`mutation { addCatalog(input: { name: "Graph catalog" }) { id } }`, {}, owner.headers);
    const catalogId = created.body.data.addCatalog.id;
    const songs = [STORED, ...PROVIDED].map((code) => ({ catalogId: catalogId, isrc: code, name: `Song ${code}`, artists: ['Graph Artist'] }));
    const added = await t.graphql(`mutation ($songs: [CatalogSongInput!]!) { addCatalogSongs(input: { songs: $songs }) { isrc } }`, { songs }, owner.headers);
    expect(added.body.errors).toBeUndefined();
  });
  afterAll(async () => {
    await t.close();
  });
  /** One song's upstream always breaks (per-song error tests); reset() drops it, so it is set again after each. */
  const failOneSong = () => stats.failWhen((r) => r.query.get('isrc') === FAILING, { status: 500, body: { result: 'error', message: 'Upstream broke' } });
  beforeEach(() => {
    sandbox.reset();
    failOneSong();
  });

  it('uses sandbox tracks the provider knows, distinct from the stored one', () => {
    expect(PROVIDED).toHaveLength(49);
    expect(new Set([STORED, ...PROVIDED]).size).toBe(50);
  });

  const researchPoints = async (accountId: string) =>
    Number((await t.orm.em.getConnection().execute(`select points from rate_limit_counters where key = ?`, [`research:acct:${accountId}`]))[0]?.points ?? 0);

  it('answers roster → artists → catalogs → songs → stats in one request: one stored-data read, one provider call per missing ISRC, a failing song only fails its own field', async () => {
    expect(t.config.requestLimits.graphqlMaxCost).toBe(600);
    const pointsBefore = await researchPoints(owner.account.id);
    const { result, statements } = await t.sql.measure(() => t.graphql(COMPOSED, { source: 'platform_a' }, owner.headers));
    expect(result.status).toBe(200);
    expect(result.body.errors?.filter((e: { path?: string[] }) => !e.path?.includes('stats'))).toEqual([]);
    const songs = result.body.data.artists.items[0].catalogs.items[0].songs.items as { isrc: string; stats: { stats: { source: string; data_source: string }[] } | null }[];
    expect(songs).toHaveLength(50);
    expect(songs.find((s) => s.isrc === STORED)!.stats!.stats).toEqual([expect.objectContaining({ source: 'platform_a', data_source: 'stored' })]);
    expect(songs.find((s) => s.isrc === isrc(7))!.stats!.stats).toEqual([expect.objectContaining({ source: 'platform_a', data_source: 'provider' })]);
    expect(songs.find((s) => s.isrc === FAILING)!.stats).toBeNull();
    expect(result.body.errors).toEqual([expect.objectContaining({ path: ['artists', 'items', 0, 'catalogs', 'items', 0, 'songs', 'items', songs.findIndex((s) => s.isrc === FAILING), 'stats'], extensions: expect.objectContaining({ code: 'PROVIDER_ERROR' }) })]);

    // The stored song costs no call; each other ISRC exactly one.
    const asked = stats.requests.map((r) => r.query.get('isrc'));
    expect(asked.sort()).toEqual([...PROVIDED].sort());
    // One read of stored answers for all 50 songs, one write of the 48 answers fetched.
    expect(statements.filter((sql) => /from research_answers/.test(sql))).toHaveLength(1);
    expect(statements.filter((sql) => /insert into research_answers/.test(sql))).toHaveLength(1);
    // Credentials and budget (3), roster, reach, catalogs, songs (5), stored answers (1), the batch's research charge (1),
    // write (1): none per song. The charge is new with batching: the batch pays for its upstream calls as it makes them.
    // Then the settlement gives back what the upper bound charged and the answer did not read (a statement with
    // RATE_LIMIT_LEASE_MAX=0, as this file runs; none from a lease).
    expect(statements.filter((sql) => /rate_limit_counters/.test(sql))).toHaveLength(3);
    expect(statements.length).toBeLessThanOrEqual(12);
    // 49 upstream calls (the failing one included), each one research point; the stored song none.
    expect(stats.requests).toHaveLength(49);
    expect((await researchPoints(owner.account.id)) - pointsBefore).toBe(49);

    // Answers are stored: the same query again makes no provider call but the failing one.
    stats.reset();
    failOneSong();
    const again = await t.graphql(COMPOSED, { source: 'platform_a' }, owner.headers);
    expect(again.body.data.artists.items[0].catalogs.items[0].songs.items.filter((s: { stats: unknown }) => s.stats)).toHaveLength(49);
    expect(stats.requests.map((r) => r.query.get('isrc'))).toEqual([FAILING]);
  });

  it('keeps provider calls at most 4 at a time', async () => {
    stats.delayMs = 30;
    const { result } = await t.sql.measure(() => t.graphql(COMPOSED, { source: 'platform_b' }, owner.headers));
    expect(result.body.data.artists.items[0].catalogs.items[0].songs.items).toHaveLength(50);
    expect(stats.requests).toHaveLength(49);
    expect(stats.maxInFlight).toBeLessThanOrEqual(4);
    expect(stats.maxInFlight).toBeGreaterThan(1);
  });

  it('makes only the upstream calls the research budget has left, and answers RATE_LIMITED for the rest', async () => {
    stats.reset(); // no failing song here: every call that is made answers
    const key = `research:acct:${owner.account.id}`;
    const limit = t.config.requestLimits.researchPerMinute;
    // Three points left in the window: three of the 49 missing ISRCs reach the provider.
    await t.orm.em.getConnection().execute(
      `insert into rate_limit_counters (key, window_start, points) values (?, now(), ?) on conflict (key) do update set window_start = now(), points = excluded.points`,
      [key, limit - 3],
    );
    try {
      const res = await t.graphql(COMPOSED, { source: 'platform_d' }, owner.headers);
      const songs = res.body.data.artists.items[0].catalogs.items[0].songs.items as { isrc: string; stats: { stats: { data_source: string }[] } | null }[];
      expect(stats.requests).toHaveLength(3);
      // The stored song answers from storage, the three paid for from the provider; every other song is its own error.
      expect(songs.filter((s) => s.stats).map((s) => s.stats!.stats[0].data_source).sort()).toEqual(['provider', 'provider', 'provider', 'stored']);
      const refused = res.body.errors.filter((e: { extensions: { code: string } }) => e.extensions.code === 'RATE_LIMITED');
      expect(refused).toHaveLength(46);
      expect(res.body.errors).toHaveLength(46);
      expect(refused[0].message).toMatch(/Research rate limit/);
    } finally {
      await t.orm.em.getConnection().execute(`delete from rate_limit_counters where key = ?`, [key]);
    }
  });

  it('names the bad argument of Song.stats as a 400-class error, before any provider call', async () => {
    const res = await t.graphql(`{ song(isrc: "${isrc(1)}") { stats(source: "platform_z") { result } } }`, {}, owner.headers);
    expect(res.body.errors[0].extensions).toEqual(expect.objectContaining({ code: 'BAD_USER_INPUT', details: [expect.objectContaining({ field: 'source' })] }));
    expect(stats.requests).toHaveLength(0);
  });

  it('resolves Song.stats from _entities for the router, only for songs the caller reaches', async () => {
    const query = `query ($r: [_Any!]!) { _entities(representations: $r) { ... on Song { isrc stats(source: "platform_a") { stats { source data_source: dataSource } } } } }`;
    const mine = await t.graphql(query, { r: [{ __typename: 'Song', isrc: isrc(3) }] }, { ...owner.headers, ...router });
    expect(mine.body.errors).toBeUndefined();
    expect(mine.body.data._entities[0].stats.stats[0].source).toBe('platform_a');
    const other = await t.graphql(query, { r: [{ __typename: 'Song', isrc: isrc(3) }] }, { ...as.otto, ...router });
    expect(other.body.data._entities).toEqual([null]);
  });

  describe('links back to the catalog, and audience figures', () => {
    const TRACKS = `query ($id: ID!) { researchArtist(id: $id) { tracks { isrc song { isrc name catalogs { items { id } } } } playlists { isrc song { isrc } } } }`;

    it('ResearchTrack.song is the catalog song with that ISRC, one statement for all tracks, only from catalogs the caller reaches', async () => {
      const mine = sandboxData().tracks.filter((tr) => tr.artistIds.includes(TRACK_ARTIST.id)).map((tr) => tr.isrc);
      expect(mine.filter((code) => PROVIDED.includes(code)).length).toBeGreaterThan(0);
      expect(mine.filter((code) => !PROVIDED.includes(code)).length).toBeGreaterThan(0);
      const { result, statements } = await t.sql.measure(() => t.graphql(TRACKS, { id: String(TRACK_ARTIST.id) }, owner.headers));
      expect(result.body.errors).toBeUndefined();
      const tracks = result.body.data.researchArtist.tracks as { isrc: string; song: { isrc: string; name: string } | null }[];
      expect(tracks.map((tr) => tr.isrc).sort()).toEqual([...mine].sort());
      for (const tr of tracks) {
        expect({ isrc: tr.isrc, song: tr.song && { isrc: tr.song.isrc, name: tr.song.name } }).toEqual({ isrc: tr.isrc, song: PROVIDED.includes(tr.isrc) ? { isrc: tr.isrc, name: `Song ${tr.isrc}` } : null });
      }
      // Every track's and placement's song in one statement (the catalog module's reach loader), not one per track.
      expect(statements.filter((sql) => /distinct on \(cs.isrc\)/.test(sql))).toHaveLength(1);

      // Another account reaches none of the owner's catalogs: the same tracks link to nothing, without an error.
      const other = await t.graphql(TRACKS, { id: String(TRACK_ARTIST.id) }, as.otto);
      expect(other.body.errors).toBeUndefined();
      expect(other.body.data.researchArtist.tracks.map((tr: { song: unknown }) => tr.song)).toEqual(tracks.map(() => null));
    });

    it('ResearchArtist.profile carries the provider\'s listener and follower figures, from the provider and then from storage', async () => {
      const artist = sandboxData().artists[200];
      const query = `query ($id: ID!) { researchArtist(id: $id) { profile { id name country sp_monthly_listeners: spMonthlyListeners sp_followers: spFollowers sp_popularity: spPopularity tiktok_followers: tiktokFollowers ins_followers: insFollowers youtube_subscribers: youtubeSubscribers data_source: dataSource } } }`;
      const first = await t.graphql(query, { id: String(artist.id) }, owner.headers);
      expect(first.body.errors).toBeUndefined();
      expect(first.body.data.researchArtist.profile).toEqual({
        id: String(artist.id), name: artist.name, country: artist.country, sp_monthly_listeners: artist.listeners, sp_followers: artist.followers,
        sp_popularity: artist.popularity, tiktok_followers: artist.tiktok, ins_followers: artist.instagram, youtube_subscribers: expect.any(Number), data_source: 'provider',
      });
      expect(intel.server.requests.filter((r) => r.path === `/api/artist/${artist.id}`)).toHaveLength(1);
      const again = await t.graphql(query, { id: String(artist.id) }, owner.headers);
      expect(again.body.data.researchArtist.profile.data_source).toBe('stored');
      expect(intel.server.requests.filter((r) => r.path === `/api/artist/${artist.id}`)).toHaveLength(1);

      const unknown = await t.graphql(query, { id: '999999999' }, owner.headers);
      expect(unknown.body.errors[0].extensions.code).toBe('NOT_FOUND');
    });

    it('the demo artists are linked in the seed: the README\'s profile query answers for Luna Waves with no search, under the default cost', async () => {
      const luna = DEMO_RESEARCH.artists[0];
      const res = await t.graphql(PROFILE, { id: DEMO.luna }, as.nora);
      expect(res.status).toBe(200);
      expect(res.body.errors).toBeUndefined();
      const artist = res.body.data.artist;
      expect(artist.research_link).toEqual({ research_id: String(luna.id), match: 'explicit' });
      expect(artist.research.profile).toEqual(expect.objectContaining({ name: luna.name, sp_monthly_listeners: luna.listeners, sp_followers: luna.followers }));
      expect(artist.research.tracks.map((tr: { isrc: string }) => tr.isrc)).toEqual(['GBNWR2400001', 'GBNWR2400002', 'GBNWR2400003']);
      // Nora's catalogs hold the demo ISRCs: every track links back to her song.
      expect(artist.research.tracks.map((tr: { song: { name: string } }) => tr.song.name)).toEqual(['Tidal Lights', 'Paper Moons', 'Salt & Static']);
      expect(artist.research.tracks[0].stats.stats.length).toBeGreaterThan(0);
      expect(artist.research.playlists.length).toBeGreaterThan(0);
      expect(artist.research.playlists[0].curator.name).toEqual(expect.any(String));
      expect(searches()).toBe(0);
    });
  });

  describe('Artist.research', () => {
    const RESEARCH = `query ($id: ID!) { artist(id: $id) { id research_link: researchLink { research_id: researchId match matched_at: matchedAt } research { id tracks { isrc } } } }`;
    const newArtist = async (name: string) => {
      const res = await t.http().post('/api/artists').set(owner.headers).send({ name });
      expect(res.status).toBe(200);
      return res.body.artist.id as string;
    };

    it('links explicitly with PATCH /api/artists/{id}, and the graph follows the link without a search', async () => {
      const id = await newArtist('Luna Waves Explicit');
      const res = await t.http().patch(`/api/artists/${id}`).set(owner.headers).send({ research_id: '4100021' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        status: 'success',
        artist: { id, name: 'Luna Waves Explicit', research_id: '4100021', research_match: 'explicit', research_matched_at: expect.stringMatching(/^\d{4}-/) },
      });
      const graph = await t.graphql(RESEARCH, { id }, owner.headers);
      expect(graph.body.errors).toBeUndefined();
      expect(graph.body.data.artist.research_link).toEqual(expect.objectContaining({ research_id: '4100021', match: 'explicit' }));
      expect(graph.body.data.artist.research.id).toBe('4100021');
      expect(graph.body.data.artist.research.tracks.length).toBeGreaterThan(0);
      expect(searches()).toBe(0);

      // null clears the link; an explicit "none" is never replaced by a search.
      const cleared = await t.http().patch(`/api/artists/${id}`).set(owner.headers).send({ research_id: null });
      expect(cleared.body.artist).toEqual(expect.objectContaining({ research_id: null, research_match: 'explicit' }));
      const after = await t.graphql(RESEARCH, { id }, owner.headers);
      expect(after.body.data.artist.research).toBeNull();
      expect(searches()).toBe(0);
    });

    it('is Mutation.updateArtist in the graph: one input, the artist with its stored link as the answer', async () => {
      const id = await newArtist('Twin Artist');
      const before = searches();
      const UPDATE = `mutation ($input: UpdateArtistInput!) { updateArtist(input: $input) { id name research_id: researchId research_match: researchMatch research_matched_at: researchMatchedAt } }`;
      const res = await t.graphql(UPDATE, { input: { id, researchId: '4100021' } }, owner.headers);
      expect(res.body.errors).toBeUndefined();
      expect(res.body.data.updateArtist).toEqual({ id, name: 'Twin Artist', research_id: '4100021', research_match: 'explicit', research_matched_at: expect.stringMatching(/^\d{4}-/) });
      // The same fields on a read are the stored link as it is (never searched for).
      const read = await t.graphql(`query ($id: ID!) { artist(id: $id) { research_id: researchId research_match: researchMatch } }`, { id }, owner.headers);
      expect(read.body.data.artist).toEqual({ research_id: '4100021', research_match: 'explicit' });
      const cleared = await t.graphql(UPDATE, { input: { id, researchId: null } }, owner.headers);
      expect(cleared.body.data.updateArtist).toEqual(expect.objectContaining({ research_id: null, research_match: 'explicit' }));
      const never = await newArtist('Never Linked Artist');
      const unlinked = await t.graphql(`query ($id: ID!) { artist(id: $id) { research_id: researchId research_match: researchMatch research_matched_at: researchMatchedAt } }`, { id: never }, owner.headers);
      expect(unlinked.body.data.artist).toEqual({ research_id: null, research_match: null, research_matched_at: null });
      expect(searches()).toBe(before);
    });

    it('finds the research artist once by name, stores how it was matched, and stores "no match" too', async () => {
      const found = String(SEARCHABLE.id);
      const id = await newArtist(SEARCHABLE.name);
      const first = await t.graphql(RESEARCH, { id }, owner.headers);
      expect(first.body.errors).toBeUndefined();
      expect(first.body.data.artist.research_link).toEqual(expect.objectContaining({ research_id: found, match: 'search' }));
      expect(first.body.data.artist.research.id).toBe(found);
      expect(searches()).toBe(1);
      expect(intel.server.requests.find((r) => r.path === '/api/search')!.query.get('q')).toBe(SEARCHABLE.name);
      await t.orm.em.getConnection().execute(`delete from research_answers where kind = 'search'`);
      const again = await t.graphql(RESEARCH, { id }, owner.headers);
      expect(again.body.data.artist.research.id).toBe(found);
      expect(searches()).toBe(1);

      expect(sandbox.data.artists.some((a) => a.name.toLowerCase().includes(NOBODY.toLowerCase()))).toBe(false);
      const nobody = await newArtist(NOBODY);
      const none = await t.graphql(RESEARCH, { id: nobody }, owner.headers);
      expect(none.body.errors).toBeUndefined();
      expect(none.body.data.artist.research).toBeNull();
      expect(none.body.data.artist.research_link).toEqual(expect.objectContaining({ research_id: null, match: 'search' }));
      await t.orm.em.getConnection().execute(`delete from research_answers where kind = 'search'`);
      await t.graphql(RESEARCH, { id: nobody }, owner.headers);
      expect(searches()).toBe(2);

      // A client corrects a search match with PATCH.
      const fixed = await t.http().patch(`/api/artists/${id}`).set(owner.headers).send({ research_id: '4100021' });
      expect(fixed.body.artist.research_match).toBe('explicit');
    });

    it('refuses another account, bad ids and unknown artists, and stores nothing then', async () => {
      const id = await newArtist('Guarded Artist');
      const other = await t.http().patch(`/api/artists/${id}`).set(as.otto).send({ research_id: '4100021' });
      expect({ status: other.status, code: other.body.code }).toEqual({ status: 403, code: 'FORBIDDEN' });
      const bad = await t.http().patch(`/api/artists/${id}`).set(owner.headers).send({ research_id: '41; drop table accounts' });
      expect(bad.status).toBe(400);
      expect(bad.body.details).toEqual([expect.objectContaining({ field: 'research_id' })]);
      const missing = await t.http().patch(`/api/artists/${id}`).set(owner.headers).send({});
      expect(missing.status).toBe(400);
      expect(missing.body.details).toEqual([expect.objectContaining({ field: 'research_id' })]);
      const unknown = await t.http().patch('/api/artists/00000000-0000-4000-8000-00000000ffff').set(owner.headers).send({ research_id: '1' });
      expect(unknown.status).toBe(404);
      const rows = await t.orm.em.getConnection().execute(`select * from artist_research_links where artist_id = ?`, [id]);
      expect(rows).toEqual([]);
      // Reads follow reach: another account never sees the link, and no search runs for it.
      const read = await t.graphql(RESEARCH, { id }, as.otto);
      expect(read.body.data?.artist ?? null).toBeNull();
      const viaRouter = await t.graphql(
        `query ($r: [_Any!]!) { _entities(representations: $r) { ... on Artist { id research { id } } } }`,
        { r: [{ __typename: 'Artist', id }] },
        { ...as.otto, ...router },
      );
      expect(viaRouter.body.data._entities).toEqual([null]);
      expect(searches()).toBe(0);
    });

    it('resolves Artist.research from _entities for the router', async () => {
      const id = await newArtist('Router Artist');
      await t.http().patch(`/api/artists/${id}`).set(owner.headers).send({ research_id: '4100021' });
      const res = await t.graphql(`query ($r: [_Any!]!) { _entities(representations: $r) { ... on Artist { id research { id } } } }`, { r: [{ __typename: 'Artist', id }] }, { ...owner.headers, ...router });
      expect(res.body.errors).toBeUndefined();
      expect(res.body.data._entities).toEqual([{ id, research: { id: '4100021' } }]);
    });
  });

  describe('a failing field is null beside the others (root and provider-backed fields are nullable)', () => {
    it('answers me with song null and its error, where the whole answer was null', async () => {
      const res = await t.graphql('{ me { name } song(isrc: "ZZZZZ0000000") { name } }', {}, owner.headers);
      expect(res.body.data).toEqual({ me: { name: owner.account.name }, song: null });
      expect(res.body.errors).toEqual([expect.objectContaining({ path: ['song'], extensions: expect.objectContaining({ code: 'NOT_FOUND' }) })]);
      // The REST twin of a failing root field answers as before: its status and error body.
      const rest = await t.http().get('/api/catalogs/songs').query({ catalog_id: '00000000-0000-4000-8000-00000000dead' }).set(owner.headers);
      expect(rest.status).toBe(404);
      expect(rest.body).toMatchObject({ status: 'error', code: 'NOT_FOUND' });
    });

    it('a provider failure nulls only the provider-backed field: the research artist and its other fields still answer', async () => {
      const artist = sandboxData().artists[210];
      intel.server.failWhen((r) => r.path === `/api/artist/${artist.id}`, { status: 500, body: { error: 'Upstream broke' } });
      try {
        const res = await t.graphql('query ($id: ID!) { me { name } researchArtist(id: $id) { id profile { name } } }', { id: String(artist.id) }, owner.headers);
        expect(res.body.data).toEqual({ me: { name: owner.account.name }, researchArtist: { id: String(artist.id), profile: null } });
        expect(res.body.errors).toEqual([expect.objectContaining({ path: ['researchArtist', 'profile'], extensions: expect.objectContaining({ code: 'PROVIDER_ERROR' }) })]);
      } finally {
        intel.server.reset();
      }
    });
  });
});
