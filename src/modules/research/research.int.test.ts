import { createTestApp, TestApp } from '../../../test/app';
import { as } from '../../../test/demo';
import { FakeServer } from '../../../test/fakes/fake-server';
import { FAKE_REFRESH_TOKEN, musicIntelFake } from '../../../test/fakes/music-intel.fake';
import { FAKE_CLIENT_ID, FAKE_CLIENT_SECRET, platformAFake } from '../../../test/fakes/platform-a.fake';
import { FAKE_TRACK_STATS_KEY, trackStatsFake } from '../../../test/fakes/track-stats.fake';
import { ResearchArtistGraphDocument, TrackStatsDocument } from '../../../test/generated/graphql';

const ROUTES = [
  '/api/research/track/stats?isrc=GBNWR2400001&source=all',
  '/api/research/discover',
  '/api/research/curator?platform=platform_a&id=1001',
  '/api/research/genres',
  '/api/research?q=Luna%20Waves&type=artists',
  '/api/research/tracks?artist=4100021',
  '/api/research/playlists?artist=4100021',
  '/api/platform_a/search?q=Luna%20Waves&type=artist',
];

describe('research with configured providers (local fakes)', () => {
  let t: TestApp;
  const platformA = platformAFake();
  const stats = trackStatsFake();
  const intel = musicIntelFake();
  const servers: FakeServer[] = [platformA.server, stats, intel.server];
  const upstreamCalls = () => servers.reduce((n, s) => n + s.requests.length, 0);

  beforeAll(async () => {
    await Promise.all(servers.map((s) => s.start()));
    t = await createTestApp({
      env: {
        PLATFORM_A_API_URL: platformA.server.url,
        PLATFORM_A_ACCOUNTS_URL: platformA.server.url,
        PLATFORM_A_CLIENT_ID: FAKE_CLIENT_ID,
        PLATFORM_A_CLIENT_SECRET: FAKE_CLIENT_SECRET,
        TRACK_STATS_API_URL: `${stats.url}/enterprise/v1`,
        TRACK_STATS_API_KEY: FAKE_TRACK_STATS_KEY,
        MUSIC_INTEL_API_URL: intel.server.url,
        MUSIC_INTEL_REFRESH_TOKEN: FAKE_REFRESH_TOKEN,
        PROVIDER_TIMEOUT_MS: '300',
        PROVIDER_RETRIES: '1',
        PROVIDER_RETRY_BASE_MS: '5',
        PROVIDER_BREAKER_FAILURES: '50',
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await Promise.all(servers.map((s) => s.close()));
  });
  beforeEach(() => servers.forEach((s) => s.reset()));

  it('needs credentials on every route', async () => {
    for (const path of ROUTES) {
      const res = await t.http().get(path);
      expect({ path, status: res.status, code: res.body.code }).toEqual({ path, status: 401, code: 'UNAUTHENTICATED' });
    }
    expect(upstreamCalls()).toBe(0);
  });

  it('serves fresh stored track stats as only {result, stats}, without a provider call', async () => {
    const res = await t.http().get('/api/research/track/stats?isrc=GBNWR2400001&source=all').set(as.otto);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['result', 'stats']);
    expect(res.body.stats.map((s: { source: string }) => s.source)).toEqual(['platform_a', 'platform_b', 'platform_c', 'platform_d']);
    expect(res.body.stats[0]).toEqual({
      source: 'platform_a',
      data: expect.objectContaining({ streams_total: expect.any(Number), popularity_current: expect.any(Number) }),
      data_source: 'stored',
      captured_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(upstreamCalls()).toBe(0);
  });

  it('asks the provider for what is not stored, stores it, and answers from storage next time', async () => {
    const first = await t.http().get('/api/research/track/stats?platform_a_track_id=4uLU6hMCjMI75M1A2tKUQC&source=platform_a,platform_c&with_playlists=true').set(as.nora);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      status: 'success',
      result: 'success',
      message: 'Data Retrieved.',
      stats: [
        { source: 'platform_a', data: { streams_total: 1000, popularity_current: 50, playlists: [{ name: 'Fresh Finds', followers: 900 }] }, data_source: 'provider', captured_at: expect.any(String) },
        { source: 'platform_c', data: expect.objectContaining({ streams_total: 2000 }), data_source: 'provider', captured_at: expect.any(String) },
      ],
      track_info: expect.objectContaining({
        stats_track_id: 'ss-track-1',
        title: 'Fake Track',
        artists: [{ name: 'Fake Artist' }],
        links: [{ source: 'platform_a', external_id: 'sp1', url: 'https://open.example/track/sp1', isrc: 'GBAAA2400001' }],
      }),
      source_ids: ['platform_a', 'platform_b', 'platform_c', 'platform_d', 'tiktok'],
    });
    expect(Object.fromEntries(stats.requests[0].query)).toEqual({ spotify_track_id: '4uLU6hMCjMI75M1A2tKUQC', source: 'spotify,deezer', with_playlists: 'true', limit: '20', offset: '0' });

    const again = await t.http().get('/api/research/track/stats?platform_a_track_id=4uLU6hMCjMI75M1A2tKUQC&source=platform_c,platform_a&with_playlists=true').set(as.sam);
    expect(Object.keys(again.body).sort()).toEqual(['result', 'stats']);
    expect(again.body.stats.map((s: { source: string; data_source: string }) => `${s.source}:${s.data_source}`)).toEqual(['platform_c:stored', 'platform_a:stored']);
    expect(stats.requests).toHaveLength(1);

    // One more source: only that one is asked for; the answer carries the provider's extras.
    const wider = await t.http().get('/api/research/track/stats?platform_a_track_id=4uLU6hMCjMI75M1A2tKUQC&source=platform_a,platform_d&with_playlists=true').set(as.sam);
    expect(stats.requests[1].query.get('source')).toBe('youtube');
    expect(wider.body.stats.map((s: { source: string; data_source: string }) => `${s.source}:${s.data_source}`)).toEqual(['platform_a:stored', 'platform_d:provider']);
    expect(wider.body.track_info).toBeDefined();
  });

  it('serves stale stored data when the provider fails, and 502 when nothing is stored', async () => {
    await t.orm.em.getConnection().execute(`update research_answers set captured_at = now() - interval '30 days' where kind = 'track_stats' and key like 'isrc=GBNWR2400002|platform_a|%'`);
    stats.failNext('/enterprise', 2, { status: 500, body: { result: 'error' } });
    const stale = await t.http().get('/api/research/track/stats?isrc=GBNWR2400002&source=platform_a').set(as.nora);
    expect(stale.status).toBe(200);
    expect(Object.keys(stale.body).sort()).toEqual(['result', 'stats']);
    expect(stale.body.stats[0].data_source).toBe('stored');
    expect(new Date(stale.body.stats[0].captured_at).getTime()).toBeLessThan(Date.now() - 29 * 86_400_000);
    expect(stats.requests).toHaveLength(2); // tried (with one retry) before falling back

    stats.failNext('/enterprise', 2, { status: 503 });
    const none = await t.http().get('/api/research/track/stats?isrc=GBXYZ2400099&source=platform_a').set(as.nora);
    expect(none.status).toBe(502);
    expect(none.body).toEqual({ status: 'error', code: 'PROVIDER_ERROR', error: expect.stringContaining('track statistics') });

    // A stale answer is refreshed when the provider is back.
    const refreshed = await t.http().get('/api/research/track/stats?isrc=GBNWR2400002&source=platform_a').set(as.nora);
    expect(refreshed.body.stats[0].data_source).toBe('provider');
  });

  it('cuts a hanging provider at the timeout (504) and serves stored data instead where it has some', async () => {
    intel.server.hangNext('/api/genres');
    await t.orm.em.getConnection().execute(`update research_answers set captured_at = now() - interval '30 days' where kind = 'genres'`);
    const started = Date.now();
    const res = await t.http().get('/api/research/genres').set(as.nora);
    expect(res.status).toBe(200);
    expect(res.body.genres).toContainEqual({ id: 6, name: 'dream pop' });
    expect(Date.now() - started).toBeLessThan(2000);

    intel.server.hangNext('/api/curator');
    const timeout = await t.http().get('/api/research/curator?platform=platform_c&id=777').set(as.nora);
    expect(timeout.status).toBe(504);
    expect(timeout.body.code).toBe('PROVIDER_TIMEOUT');
  });

  it('rejects bad input with 400 naming the field, before any provider call', async () => {
    const cases: [string, string][] = [
      ['/api/research/track/stats?source=all', 'isrc'],
      ['/api/research/track/stats?isrc=GBNWR2400001&platform_a_track_id=abc&source=all', 'platform_a_track_id'],
      ['/api/research/track/stats?isrc=GBNWR2400001', 'source'],
      ['/api/research/track/stats?isrc=GBNWR2400001&source=platform_z', 'source'],
      ['/api/research/track/stats?isrc=GBNWR2400001&source=all,platform_a', 'source'],
      ['/api/research/track/stats?isrc=nope&source=all', 'isrc'],
      ['/api/research/track/stats?isrc=GBNWR2400001&source=all&limit=101', 'limit'],
      ['/api/research/track/stats?isrc=GBNWR2400001&source=all&offset=-1', 'offset'],
      ['/api/research/track/stats?isrc=GBNWR2400001&source=all&with_links=maybe', 'with_links'],
      ['/api/research/discover?country=GBR', 'country'],
      ['/api/research/discover?genre=pop', 'genre'],
      ['/api/research/discover?sp_monthly_listeners_min=500&sp_monthly_listeners_max=100', 'sp_monthly_listeners_min'],
      ['/api/research/discover?sort=name;drop', 'sort'],
      ['/api/research/discover?limit=0', 'limit'],
      ['/api/research/discover?limit=101', 'limit'],
      ['/api/research/curator?platform=platform_d&id=1', 'platform'],
      ['/api/research/curator?platform=platform_a&id=12a', 'id'],
      ['/api/research/curator?platform=platform_a', 'id'],
      ['/api/platform_a/search?type=artist', 'q'],
      ['/api/platform_a/search?q=luna', 'type'],
      ['/api/platform_a/search?q=luna&type=artist,podcast', 'type'],
      ['/api/platform_a/search?q=luna&type=artist&market=GBR', 'market'],
      ['/api/platform_a/search?q=luna&type=artist&limit=51', 'limit'],
      ['/api/platform_a/search?q=luna&type=artist&offset=10001', 'offset'],
      ['/api/research?q=luna', 'type'],
      ['/api/research?type=artists', 'q'],
      ['/api/research?q=luna&type=people', 'type'],
      ['/api/research/tracks', 'artist'],
      ['/api/research/tracks?artist=luna', 'artist'],
      ['/api/research/playlists?artist=1&platform=platform_d', 'platform'],
      ['/api/research/playlists?artist=1&status=future', 'status'],
    ];
    for (const [path, field] of cases) {
      const res = await t.http().get(path).set(as.nora);
      expect({ path, status: res.status, code: res.body.code, fields: res.body.details?.map((d: { field: string }) => d.field) }).toEqual({
        path,
        status: 400,
        code: 'BAD_USER_INPUT',
        fields: expect.arrayContaining([field]),
      });
    }
    expect(upstreamCalls()).toBe(0);
  });

  it('upper-cases country and market, and passes discover filters to the provider', async () => {
    const res = await t.http().get('/api/research/discover?country=fr&genre=5&sp_monthly_listeners_min=1000&sp_monthly_listeners_max=90000&sort=weekly_diff.sp_monthly_listeners&limit=10').set(as.nora);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      status: 'success',
      artists: [{ name: 'Filter Artist', id: 9001, sp_monthly_listeners: 50000, sp_followers: 4000, tiktok_followers: 700, ins_followers: 2500, country: 'FR' }],
    });
    const sent = intel.server.requests.find((r) => r.path === '/api/artist/list/filter')!;
    expect(sent.query.get('code2')).toBe('FR');
    expect(sent.query.getAll('sp_ml[]')).toEqual(['1000', '90000']);
    expect(sent.query.get('limit')).toBe('10');

    const search = await t.http().get('/api/platform_a/search?q=nova&type=artist&market=gb').set(as.nora);
    expect(search.status).toBe(200);
    expect(platformA.server.requests.find((r) => r.path === '/v1/search')!.query.get('market')).toBe('GB');
  });

  it('answers platform_a search with only the requested members, external_urls under the neutral name', async () => {
    const res = await t.http().get('/api/platform_a/search?q=nova&type=artist,track&limit=5').set(as.nora);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['artists', 'tracks']);
    expect(res.body.artists).toEqual({
      href: expect.any(String),
      items: [
        {
          external_urls: { platform_a: 'https://open.example/artist/a1' },
          followers: { href: null, total: 1234 },
          genres: ['indie pop'],
          href: 'https://api.example/v1/artists/a1',
          id: 'a1',
          images: [{ url: 'https://img.example/a1.png', height: 640, width: 640 }],
          name: 'nova (artist)',
          popularity: 55,
          type: 'artist',
          uri: 'spotify:artist:a1',
        },
      ],
      limit: 5,
      next: null,
      offset: 0,
      previous: null,
      total: 1,
    });
    expect(res.body.tracks.items[0].external_urls).toEqual({ platform_a: 'https://open.example/track/1' });
    const tokenCalls = platformA.server.count('/api/token');
    await t.http().get('/api/platform_a/search?q=nova&type=track,artist&limit=5').set(as.sam);
    expect(platformA.server.count('/v1/search')).toBe(1); // stored answer, types in any order
    await t.http().get('/api/platform_a/search?q=other&type=album').set(as.sam);
    expect(platformA.server.count('/api/token')).toBe(tokenCalls); // token reused
  });

  it('serves curator, genres, search, tracks and playlists from the provider with neutral platform names', async () => {
    const curator = await t.http().get('/api/research/curator?platform=platform_b&id=42').set(as.nora);
    expect(curator.status).toBe(200);
    expect(curator.body).toEqual(expect.objectContaining({
      status: 'success', id: '42', platform: 'platform_b', platform_curator_id: 'native-42', name: 'Curator 42 on applemusic',
      instagram_followers: 3000, facebook_followers: null, cm_statistics: { playlist_reach: 40000, editorial_count: 0 },
      last_synced_at: '2026-11-01T10:00:00.000Z', suspicion_score: 0.2,
    }));
    expect((await t.http().get('/api/research/curator?platform=platform_a&id=404').set(as.nora)).status).toBe(404);

    const search = await t.http().get('/api/research?q=nova&type=all&beta=true').set(as.nora);
    expect(search.body).toEqual({ status: 'success', results: { artists: [{ id: 9002, name: 'nova artist' }], playlists: { platform_a: [{ id: 1, name: 'nova playlist' }], platform_b: [] } } });
    expect(intel.server.requests.find((r) => r.path === '/api/search')!.query.get('beta')).toBe('true');

    const tracks = await t.http().get('/api/research/tracks?artist=9001').set(as.nora);
    expect(tracks.body).toEqual({
      status: 'success',
      tracks: [{ id: '77', name: 'Intel Track', isrc: 'USFAK2400077', artist_names: ['Filter Artist'], album_name: 'Intel Album', release_date: '2024-05-05', image_url: null }],
    });
    const playlists = await t.http().get('/api/research/playlists?artist=9001&platform=platform_c&status=past').set(as.nora);
    expect(playlists.body.playlists).toEqual([
      { id: 'pl-1', name: 'Intel Playlist', platform: 'platform_c', curator_id: '555', curator_name: 'Intel Curator', followers: 3300, track_name: 'Intel Track', isrc: 'USFAK2400077', position: 4, added_at: '2024-06-01' },
    ]);
    expect(intel.server.requests.at(-1)!.path).toBe('/api/artist/9001/deezer/past/playlists');
  });

  it('composes an artist, its tracks with stats and its playlists with curators in one GraphQL request, batching stored reads', async () => {
    const { result, count, statements } = await t.sql.measure(() => t.graphql(ResearchArtistGraphDocument, { id: '4100021', source: 'platform_a,platform_b' }, as.nora));
    expect(result.body.errors).toBeUndefined();
    const artist = result.body.data.researchArtist;
    expect(artist.tracks.map((tr: { isrc: string }) => tr.isrc)).toEqual(['GBNWR2400001', 'GBNWR2400002', 'GBNWR2400003']);
    for (const track of artist.tracks) {
      expect(track.stats.stats.map((s: { source: string; data_source: string }) => `${s.source}:${s.data_source}`)).toEqual(['platform_a:stored', 'platform_b:stored']);
    }
    expect(artist.playlists[0].curator).toEqual(expect.objectContaining({ id: '1002', name: 'Late Night Lo-Fi', followers: 52300 }));
    expect(upstreamCalls()).toBe(0);
    // One read for tracks and playlists, one for every stats row and curator: not one per track.
    expect(statements.filter((sql) => sql.includes('research_answers'))).toHaveLength(2);
    expect(count).toBeLessThanOrEqual(5);
  });

  it('gives GraphQL the same codes and omits nothing from typed GraphQL answers', async () => {
    const bad = await t.graphql(TrackStatsDocument, { source: 'all' }, as.nora);
    expect(bad.body.errors[0].extensions).toEqual(expect.objectContaining({ code: 'BAD_USER_INPUT', details: [expect.objectContaining({ field: 'isrc' })] }));
    const ok = await t.graphql(TrackStatsDocument, { isrc: 'DEKAI2400006', source: 'platform_d' }, as.nora);
    expect(ok.body.data.trackStats).toEqual({ status: null, result: 'success', message: null, stats: [expect.objectContaining({ source: 'platform_d', data_source: 'stored' })], track_info: null, source_ids: null });
    const anon = await t.graphql(TrackStatsDocument, { isrc: 'DEKAI2400006', source: 'all' });
    expect(anon.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
  });
});

describe('research with no provider configured (the demo, offline)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('answers every research route from the demo stored data', async () => {
    for (const path of ROUTES) {
      const res = await t.http().get(path).set(as.nora);
      expect({ path, status: res.status }).toEqual({ path, status: 200 });
    }
    const discover = await t.http().get('/api/research/discover').set(as.nora);
    expect(discover.body.artists.map((a: { name: string }) => a.name)).toEqual(['Kai Rivers', 'Luna Waves', 'The Midnight Owls']);
    const curator = await t.http().get('/api/research/curator?platform=platform_a&id=1001').set(as.nora);
    expect(curator.body).toEqual(expect.objectContaining({ status: 'success', id: '1001', name: 'Indie Shores', tiktok_followers: expect.any(Number) }));
  });

  it('answers 503 naming the missing setting when nothing is stored', async () => {
    const cases: [string, string][] = [
      ['/api/research/track/stats?isrc=GBXYZ2400099&source=all', 'TRACK_STATS_API_KEY'],
      ['/api/research/discover?country=JP', 'MUSIC_INTEL_REFRESH_TOKEN'],
      ['/api/platform_a/search?q=nobody&type=artist', 'PLATFORM_A_CLIENT_ID'],
    ];
    for (const [path, setting] of cases) {
      const res = await t.http().get(path).set(as.nora);
      expect(res.status).toBe(503);
      expect(res.body.code).toBe('PROVIDER_UNAVAILABLE');
      expect(res.body.error).toContain(setting);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    }
  });

  it('serves stored data of any age when the provider is not configured', async () => {
    await t.orm.em.getConnection().execute(`update research_answers set captured_at = now() - interval '400 days'`);
    const res = await t.http().get('/api/research/track/stats?isrc=GBNWR2400003&source=platform_a,platform_b').set(as.nora);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['result', 'stats']);
    expect(res.body.stats).toHaveLength(2);
  });
});
