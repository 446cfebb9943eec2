import { createTestApp, TestApp } from '../../../test/app';
import { as, router } from '../../../test/demo';
import { createAccount, CreatedAccount } from '../../../test/factories';
import { FAKE_TRACK_STATS_KEY, trackStatsFake } from '../../../test/fakes/track-stats.fake';

const isrc = (n: number) => `USGRF26${String(n).padStart(5, '0')}`;
const FAILING = 'QZFAI2600001';
/** Stored in the demo data (platform_a and platform_b), fresh. */
const STORED = 'GBNWR2400001';

const COMPOSED = `query Composed($source: String!) {
  rosterArtists { name catalogs { name songs(limit: 100) { isrc stats(source: $source) { result stats { source data_source data } } } } }
}`;

describe('research composed across the graph', () => {
  let t: TestApp;
  let owner: CreatedAccount;
  const stats = trackStatsFake();

  beforeAll(async () => {
    await stats.start();
    t = await createTestApp({
      env: {
        TRACK_STATS_API_URL: `${stats.url}/enterprise/v1`,
        TRACK_STATS_API_KEY: FAKE_TRACK_STATS_KEY,
        PROVIDER_TIMEOUT_MS: '2000',
        PROVIDER_RETRIES: '0',
        PROVIDER_BREAKER_FAILURES: '500',
        // The cost estimate assumes 5 roster artists × 5 catalogs × 100 songs, each a provider call.
        GRAPHQL_MAX_COST: '100000',
      },
    });
    owner = await createAccount(t.orm);
    const created = await t.graphql(`mutation { addCatalog(name: "Graph catalog") { catalog { id } } }`, {}, owner.headers);
    const catalogId = created.body.data.addCatalog.catalog.id;
    const songs = [STORED, FAILING, ...Array.from({ length: 48 }, (_, i) => isrc(i + 1))].map((code) => ({ catalog_id: catalogId, isrc: code, name: `Song ${code}`, artists: ['Graph Artist'] }));
    const added = await t.graphql(`mutation ($songs: [CatalogSongInput!]!) { addCatalogSongs(songs: $songs) { status } }`, { songs }, owner.headers);
    expect(added.body.errors).toBeUndefined();
  });
  afterAll(async () => {
    await t.close();
    await stats.close();
  });
  beforeEach(() => stats.reset());

  it('answers roster → artists → catalogs → songs → stats in one request: one stored-data read, one provider call per missing ISRC, a failing song only fails its own field', async () => {
    const { result, statements } = await t.sql.measure(() => t.graphql(COMPOSED, { source: 'platform_a' }, owner.headers));
    expect(result.body.errors?.filter((e: { path?: string[] }) => !e.path?.includes('stats'))).toEqual([]);
    const songs = result.body.data.rosterArtists[0].catalogs[0].songs as { isrc: string; stats: { stats: { source: string; data_source: string }[] } | null }[];
    expect(songs).toHaveLength(50);
    expect(songs.find((s) => s.isrc === STORED)!.stats!.stats).toEqual([expect.objectContaining({ source: 'platform_a', data_source: 'stored' })]);
    expect(songs.find((s) => s.isrc === isrc(7))!.stats!.stats).toEqual([expect.objectContaining({ source: 'platform_a', data_source: 'provider' })]);
    expect(songs.find((s) => s.isrc === FAILING)!.stats).toBeNull();
    expect(result.body.errors).toEqual([expect.objectContaining({ path: ['rosterArtists', 0, 'catalogs', 0, 'songs', songs.findIndex((s) => s.isrc === FAILING), 'stats'], extensions: expect.objectContaining({ code: 'PROVIDER_ERROR' }) })]);

    // The stored song costs no call; each other ISRC exactly one.
    const asked = stats.requests.map((r) => r.query.get('isrc'));
    expect(asked.sort()).toEqual([FAILING, ...Array.from({ length: 48 }, (_, i) => isrc(i + 1))].sort());
    // One read of stored answers for all 50 songs, one write of the 48 answers fetched.
    expect(statements.filter((sql) => /from research_answers/.test(sql))).toHaveLength(1);
    expect(statements.filter((sql) => /insert into research_answers/.test(sql))).toHaveLength(1);
    // Credentials and budget (3), roster, reach, catalogs, songs (5), stored answers (1), write (1): none per song.
    expect(statements.length).toBeLessThanOrEqual(10);

    // Answers are stored: the same query again makes no provider call but the failing one.
    stats.reset();
    const again = await t.graphql(COMPOSED, { source: 'platform_a' }, owner.headers);
    expect(again.body.data.rosterArtists[0].catalogs[0].songs.filter((s: { stats: unknown }) => s.stats)).toHaveLength(49);
    expect(stats.requests.map((r) => r.query.get('isrc'))).toEqual([FAILING]);
  });

  it('keeps provider calls at most 4 at a time', async () => {
    stats.delayMs = 30;
    const { result } = await t.sql.measure(() => t.graphql(COMPOSED, { source: 'platform_b' }, owner.headers));
    expect(result.body.data.rosterArtists[0].catalogs[0].songs).toHaveLength(50);
    expect(stats.requests).toHaveLength(49);
    expect(stats.maxInFlight).toBeLessThanOrEqual(4);
    expect(stats.maxInFlight).toBeGreaterThan(1);
  });

  it('names the bad argument of Song.stats as a 400-class error, before any provider call', async () => {
    const res = await t.graphql(`{ song(isrc: "${isrc(1)}") { stats(source: "platform_z") { result } } }`, {}, owner.headers);
    expect(res.body.errors[0].extensions).toEqual(expect.objectContaining({ code: 'BAD_USER_INPUT', details: [expect.objectContaining({ field: 'source' })] }));
    expect(stats.requests).toHaveLength(0);
  });

  it('resolves Song.stats from _entities for the router, only for songs the caller reaches', async () => {
    const query = `query ($r: [_Any!]!) { _entities(representations: $r) { ... on Song { isrc stats(source: "platform_a") { stats { source data_source } } } } }`;
    const mine = await t.graphql(query, { r: [{ __typename: 'Song', isrc: isrc(3) }] }, { ...owner.headers, ...router });
    expect(mine.body.errors).toBeUndefined();
    expect(mine.body.data._entities[0].stats.stats[0].source).toBe('platform_a');
    const other = await t.graphql(query, { r: [{ __typename: 'Song', isrc: isrc(3) }] }, { ...as.otto, ...router });
    expect(other.body.data._entities).toEqual([null]);
  });
});
