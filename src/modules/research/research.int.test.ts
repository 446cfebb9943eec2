import { createTestApp, TestApp } from '../../../test/app';
import { as } from '../../../test/demo';
import { Sandbox, startSandbox } from '../../providers/sandbox';
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

describe('research with configured providers (the sandbox upstreams)', () => {
  let t: TestApp;
  let sandbox: Sandbox;
  let platformA: Sandbox['platformA'];
  let stats: Sandbox['trackStats'];
  let intel: Sandbox['musicIntel'];
  const upstreamCalls = () => sandbox.requestCount();

  beforeAll(async () => {
    sandbox = await startSandbox();
    ({ platformA, trackStats: stats, musicIntel: intel } = sandbox);
    t = await createTestApp({
      env: {
        ...sandbox.env,
        PROVIDER_TIMEOUT_MS: '300',
        PROVIDER_RETRIES: '1',
        PROVIDER_RETRY_BASE_MS: '5',
        PROVIDER_BREAKER_FAILURES: '50',
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await sandbox.close();
  });
  beforeEach(() => sandbox.reset());

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
    const track = sandbox.data.tracks[40];
    const first = await t.http().get(`/api/research/track/stats?platform_a_track_id=${track.platformId}&source=platform_a,platform_c&with_playlists=true`).set(as.nora);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      status: 'success',
      result: 'success',
      message: 'Data Retrieved.',
      stats: [
        { source: 'platform_a', data: expect.objectContaining({ streams_total: Math.round(track.streams * 0.55), popularity_current: track.popularity, playlists: expect.any(Array) }), data_source: 'provider', captured_at: expect.any(String) },
        { source: 'platform_c', data: expect.objectContaining({ streams_total: Math.round(track.streams * 0.07) }), data_source: 'provider', captured_at: expect.any(String) },
      ],
      track_info: expect.objectContaining({
        stats_track_id: track.statsId,
        title: track.name,
        artists: track.artistIds.map((id) => ({ name: sandbox.data.artists.find((x) => x.id === id)!.name })),
        links: expect.arrayContaining([{ source: 'platform_a', external_id: track.platformId, url: `https://open.spotify.com/track/${track.platformId}`, isrc: track.isrc }]),
      }),
      source_ids: ['platform_a', 'platform_b', 'platform_c', 'platform_d', 'tiktok'],
    });
    expect(Object.fromEntries(stats.requests[0].query)).toEqual({ spotify_track_id: track.platformId, source: 'spotify,deezer', with_playlists: 'true', limit: '20', offset: '0' });

    const again = await t.http().get(`/api/research/track/stats?platform_a_track_id=${track.platformId}&source=platform_c,platform_a&with_playlists=true`).set(as.sam);
    expect(Object.keys(again.body).sort()).toEqual(['result', 'stats']);
    expect(again.body.stats.map((s: { source: string; data_source: string }) => `${s.source}:${s.data_source}`)).toEqual(['platform_c:stored', 'platform_a:stored']);
    expect(stats.requests).toHaveLength(1);

    // One more source: only that one is asked for; the answer carries the provider's extras.
    const wider = await t.http().get(`/api/research/track/stats?platform_a_track_id=${track.platformId}&source=platform_a,platform_d&with_playlists=true`).set(as.sam);
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
    // Cut at PROVIDER_TIMEOUT_MS (300 ms), not held by the hang (which never ends): the bound leaves room for a busy machine.
    expect(Date.now() - started).toBeLessThan(10_000);

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
      artists: sandbox.data.artists
        .filter((a) => a.country === 'FR' && a.genreIds.includes(5) && a.listeners >= 1000 && a.listeners <= 90000)
        .sort((a, b) => b.listeners - a.listeners)
        .slice(0, 10)
        .map((a) => ({ name: a.name, id: a.id, sp_monthly_listeners: a.listeners, sp_followers: a.followers, tiktok_followers: a.tiktok, ins_followers: a.instagram, country: 'FR' })),
    });
    expect(res.body.artists.length).toBeGreaterThan(0);
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
    const novas = sandbox.data.artists.filter((a) => a.name.toLowerCase().includes('nova'));
    const first = novas[0];
    expect(res.body.artists).toEqual({
      href: expect.any(String),
      items: expect.any(Array),
      limit: 5,
      next: novas.length > 5 ? expect.stringContaining('offset=5') : null,
      offset: 0,
      previous: null,
      total: novas.length,
    });
    expect(res.body.artists.items).toHaveLength(Math.min(5, novas.length));
    expect(res.body.artists.items[0]).toEqual({
      external_urls: { platform_a: `https://open.spotify.com/artist/${first.platformId}` },
      followers: { href: null, total: first.followers },
      genres: expect.any(Array),
      href: expect.stringContaining(`/v1/artists/${first.platformId}`),
      id: first.platformId,
      images: [{ url: expect.any(String), height: 640, width: 640 }],
      name: first.name,
      popularity: first.popularity,
      type: 'artist',
      uri: `spotify:artist:${first.platformId}`,
    });
    expect(res.body.tracks.items[0].external_urls).toEqual({ platform_a: expect.stringMatching(/^https:\/\/open\.spotify\.com\/track\//) });
    const tokenCalls = platformA.server.count('/api/token');
    await t.http().get('/api/platform_a/search?q=nova&type=track,artist&limit=5').set(as.sam);
    expect(platformA.server.count('/v1/search')).toBe(1); // stored answer, types in any order
    await t.http().get('/api/platform_a/search?q=other&type=album').set(as.sam);
    expect(platformA.server.count('/api/token')).toBe(tokenCalls); // token reused
  });

  it('serves curator, genres, search, tracks and playlists from the provider with neutral platform names', async () => {
    const c = sandbox.data.curators[10];
    const curator = await t.http().get(`/api/research/curator?platform=platform_b&id=${c.id}`).set(as.nora);
    expect(curator.status).toBe(200);
    expect(curator.body).toEqual(expect.objectContaining({
      status: 'success', id: String(c.id), platform: 'platform_b', platform_curator_id: c.platformId, name: c.name,
      instagram_followers: c.instagram, facebook_followers: null, cm_statistics: { playlist_reach: expect.any(Number), editorial_count: 0 },
      last_synced_at: '2026-11-20T06:00:00.000Z', suspicion_score: c.suspicion,
    }));
    expect(intel.server.requests.at(-1)!.path).toBe(`/api/curator/applemusic/${c.id}`);
    expect((await t.http().get('/api/research/curator?platform=platform_a&id=404').set(as.nora)).status).toBe(404);

    const search = await t.http().get('/api/research?q=nova&type=all&beta=true').set(as.nora);
    expect(search.body.results.artists).toEqual(expect.arrayContaining([expect.objectContaining({ id: expect.any(Number), name: expect.stringMatching(/nova/i) })]));
    expect(Object.keys(search.body.results.playlists).sort()).toEqual(['platform_a', 'platform_b']);
    expect(intel.server.requests.find((r) => r.path === '/api/search')!.query.get('beta')).toBe('true');

    const artist = sandbox.data.artists[120];
    const own = sandbox.data.tracks.filter((tr) => tr.artistIds.includes(artist.id));
    const tracks = await t.http().get(`/api/research/tracks?artist=${artist.id}`).set(as.nora);
    expect(tracks.body.status).toBe('success');
    expect(tracks.body.tracks).toEqual(own.slice(0, 10).map((tr) => ({
      id: String(tr.id), name: tr.name, isrc: tr.isrc, artist_names: tr.artistIds.map((id) => sandbox.data.artists.find((x) => x.id === id)!.name),
      album_name: tr.album, release_date: tr.released, image_url: expect.any(String),
    })));
    const playlists = await t.http().get('/api/research/playlists?artist=4100021&platform=platform_c&status=current').set(as.nora);
    expect(playlists.status).toBe(200);
    expect(playlists.body.playlists.length).toBeGreaterThan(0);
    expect(playlists.body.playlists[0]).toEqual(expect.objectContaining({ platform: 'platform_c', curator_id: expect.any(String), curator_name: expect.any(String), isrc: expect.stringMatching(/^GBNWR24000\d\d$/) }));
    expect(intel.server.requests.at(-1)!.path).toBe('/api/artist/4100021/deezer/current/playlists');
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
    const bad = await t.graphql(TrackStatsDocument, { input: { source: 'all' } }, as.nora);
    expect(bad.body.errors[0].extensions).toEqual(expect.objectContaining({ code: 'BAD_USER_INPUT', details: [expect.objectContaining({ field: 'isrc' })] }));
    const ok = await t.graphql(TrackStatsDocument, { input: { isrc: 'DEKAI2400006', source: 'platform_d' } }, as.nora);
    expect(ok.body.data.trackStats).toEqual({ provider_status: null, result: 'success', message: null, stats: [expect.objectContaining({ source: 'platform_d', data_source: 'stored' })], track_info: null, source_ids: null });
    const anon = await t.graphql(TrackStatsDocument, { input: { isrc: 'DEKAI2400006', source: 'all' } });
    expect(anon.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
  });

  it('names each field as its face does: the REST name in a REST 400, the GraphQL name in a GraphQL one (paths and messages)', async () => {
    const rest = await t.http().get('/api/research/track/stats?isrc=GBNWR2400001&platform_a_track_id=abc&source=all&with_links=maybe').set(as.nora);
    expect(rest.status).toBe(400);
    expect(rest.body.details.map((d: { field: string }) => d.field)).toEqual(['with_links']);
    const both = await t.http().get('/api/research/track/stats?isrc=GBNWR2400001&platform_a_track_id=abc&source=all').set(as.nora);
    expect(both.body.details).toEqual([{ field: 'platform_a_track_id', message: 'give exactly one track identifier, not isrc and platform_a_track_id' }]);
    expect(both.body.error).toBe('Invalid input: platform_a_track_id: give exactly one track identifier, not isrc and platform_a_track_id');
    const none = await t.http().get('/api/research/track/stats?source=all').set(as.nora);
    expect(none.body.details).toEqual([{ field: 'isrc', message: 'one track identifier is required: isrc, stats_track_id, platform_a_track_id or platform_b_track_id' }]);

    const graph = await t.graphql(TrackStatsDocument, { input: { isrc: 'GBNWR2400001', platformATrackId: 'abc', source: 'all' } }, as.nora);
    expect(graph.body.errors[0].extensions).toEqual({
      code: 'BAD_USER_INPUT',
      details: [{ field: 'platformATrackId', message: 'give exactly one track identifier, not isrc and platformATrackId' }],
    });
    expect(graph.body.errors[0].message).toBe('Invalid input: platformATrackId: give exactly one track identifier, not isrc and platformATrackId');
    const graphNone = await t.graphql(TrackStatsDocument, { input: { source: 'all' } }, as.nora);
    expect(graphNone.body.errors[0].extensions.details).toEqual([{ field: 'isrc', message: 'one track identifier is required: isrc, statsTrackId, platformATrackId or platformBTrackId' }]);
    // A discover bound, by argument member: sp_monthly_listeners_min on REST, spMonthlyListenersMin in the graph.
    const discover = await t.graphql('{ discover(input: { spMonthlyListenersMin: 500, spMonthlyListenersMax: 100 }) { id } }', {}, as.nora);
    expect(discover.body.errors[0].extensions.details.map((d: { field: string }) => d.field)).toContain('spMonthlyListenersMin');
    const restDiscover = await t.http().get('/api/research/discover?sp_monthly_listeners_min=500&sp_monthly_listeners_max=100').set(as.nora);
    expect(restDiscover.body.details.map((d: { field: string }) => d.field)).toContain('sp_monthly_listeners_min');
    expect(upstreamCalls()).toBe(0);
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
