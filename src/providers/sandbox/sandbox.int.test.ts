import { connect } from 'node:net';
import { createTestApp, TestApp } from '../../../test/app';
import { as } from '../../../test/demo';
import { ResearchArtistGraphDocument } from '../../../test/generated/graphql';
import { createLogger } from '../../common/logger';
import { ConfigError, loadConfig } from '../../config/config';
import { DEMO_RESEARCH } from '../../db/seeders/research.seed';
import { startProviderMode } from '../provider-mode';
import { generateSandboxData, SANDBOX_ARTIST_COUNT } from './sandbox-data';
import { SandboxServer } from './sandbox-server';

/* PROVIDERS=sandbox: every research and platform search route through the real clients, no credentials. */

const log = createLogger('silent');
// Response bodies as supertest hands them over (checked field by field below).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Body = any;

describe('sandbox data', () => {
  it('is generated the same every time, with the demo artists and ISRCs in it', () => {
    const a = generateSandboxData();
    expect(generateSandboxData()).toEqual(a);
    expect(generateSandboxData(7)).not.toEqual(a);
    expect(a.artists).toHaveLength(SANDBOX_ARTIST_COUNT);
    expect(new Set(a.artists.map((x) => x.name.toLowerCase())).size).toBe(a.artists.length);
    expect(new Set(a.tracks.map((x) => x.isrc)).size).toBe(a.tracks.length);
    for (const t of a.tracks) expect(t.isrc).toMatch(/^[A-Z]{2}[A-Z0-9]{3}\d{7}$/);
    for (const d of DEMO_RESEARCH.artists) expect(a.artists).toContainEqual(expect.objectContaining({ id: d.id, name: d.name }));
    for (const d of DEMO_RESEARCH.tracks) expect(a.tracks).toContainEqual(expect.objectContaining({ isrc: d.isrc, name: d.name }));
    expect(a.curators.length).toBeGreaterThanOrEqual(50);
    expect(a.playlists.length).toBeGreaterThanOrEqual(100);
    expect(a.genres.length).toBeGreaterThanOrEqual(20);
    expect(a.charts.trackIds).toHaveLength(50);
  });
});

describe('sandbox server', () => {
  it('answers 429 with Retry-After at the configured rate', async () => {
    const server = await new SandboxServer(() => ({ status: 200, body: {} }), { rateLimitEvery: 3 }).start();
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 6; i += 1) {
        const res = await fetch(`${server.url}/x`);
        statuses.push(res.status);
        if (res.status === 429) expect(res.headers.get('retry-after')).toBe('1');
      }
      expect(statuses).toEqual([200, 200, 429, 200, 200, 429]);
    } finally {
      await server.close();
    }
  });
});

describe('sandbox server against hostile requests', () => {
  it('answers an unparsable request target and an oversized body with 400/413, and keeps serving', async () => {
    const server = await new SandboxServer(() => ({ status: 200, body: { ok: true } })).start();
    try {
      const port = Number(new URL(server.url).port);
      const raw = await new Promise<string>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1', () => socket.end('GET http://[ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'));
        let out = '';
        socket.on('data', (d) => (out += d.toString()));
        socket.on('end', () => resolve(out));
        socket.on('error', reject);
      });
      expect(raw).toMatch(/^HTTP\/1\.1 400/);
      const big = await fetch(`${server.url}/api/token`, { method: 'POST', body: 'x'.repeat(2 * 1024 * 1024) }).catch(() => undefined);
      expect(big === undefined || big.status === 413).toBe(true);
      expect((await fetch(`${server.url}/ok`)).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});

describe('PROVIDERS setting', () => {
  it('defaults to live, and sandbox is refused with NODE_ENV=production', () => {
    expect(loadConfig({}).providers.mode).toBe('live');
    expect(() => loadConfig({ PROVIDERS: 'fake' })).toThrow(/PROVIDERS: must be live or sandbox/);
    let error: unknown;
    try {
      loadConfig({ NODE_ENV: 'production', PROVIDERS: 'sandbox' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toContainEqual(expect.stringMatching(/^PROVIDERS: sandbox .* refused with NODE_ENV=production/));
  });

  it('starts the upstreams on loopback, says so in the banner, and stops them on close', async () => {
    const mode = await startProviderMode(loadConfig({ PROVIDERS: 'sandbox' }), log);
    expect(mode.banner).toContain('Providers sandbox (local, generated data)');
    const p = mode.config.providers;
    expect(p.platformA.apiUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(p.trackStats.apiUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/enterprise\/v1$/);
    expect(p.musicIntel.apiUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(p.platformA.clientId && p.trackStats.apiKey && p.musicIntel.refreshToken).toBeTruthy();
    expect((await fetch(`${p.musicIntel.apiUrl}/api/genres`)).status).toBe(401);
    await mode.close();
    await expect(fetch(`${p.musicIntel.apiUrl}/api/genres`)).rejects.toThrow();

    const live = await startProviderMode(loadConfig({}), log);
    expect(live.banner).toContain('Providers live (none configured');
    expect(live.sandbox).toBeUndefined();
  });
});

describe('an app with PROVIDERS=sandbox', () => {
  let t: TestApp;
  const sandbox = () => t.providerMode.sandbox!;
  const calls = (prefix: string) => sandbox().servers.reduce((n, s) => n + s.count(prefix), 0);

  beforeAll(async () => {
    t = await createTestApp({ env: { PROVIDERS: 'sandbox', PROVIDER_RETRY_BASE_MS: '5' } });
    // Every stored demo answer is stale, so each route below asks the sandbox upstream.
    await t.orm.em.getConnection().execute(`update research_answers set captured_at = now() - interval '400 days'`);
  });
  afterAll(() => t.close());

  it('serves every research and platform search route from the sandbox through the real clients', async () => {
    const data = sandbox().data;
    const track = data.tracks[100];
    const curator = data.curators[20];
    const cases: [string, string, (body: Body) => void][] = [
      [`/api/research/track/stats?isrc=${track.isrc}&source=all`, '/enterprise/v1/tracks/stats', (b) => {
        expect(b.stats.map((s: { source: string; data_source: string }) => `${s.source}:${s.data_source}`)).toEqual(['platform_a:provider', 'platform_b:provider', 'platform_c:provider', 'platform_d:provider']);
        expect(b.track_info.title).toBe(track.name);
      }],
      ['/api/research/track/stats?isrc=GBNWR2400001&source=platform_a', '/enterprise/v1/tracks/stats', (b) => {
        expect(b.stats[0]).toEqual(expect.objectContaining({ data_source: 'provider', data: expect.objectContaining({ streams_total: expect.any(Number) }) }));
        expect(b.track_info.title).toBe('Tidal Lights');
      }],
      ['/api/research/discover?country=DE&limit=100', '/api/artist/list/filter', (b) => {
        expect(b.artists.every((a: { country: string }) => a.country === 'DE')).toBe(true);
        expect(b.artists).toContainEqual(expect.objectContaining({ name: 'Kai Rivers', id: 4100023, sp_monthly_listeners: 1_530_000 }));
      }],
      [`/api/research/curator?platform=platform_a&id=${curator.id}`, `/api/curator/spotify/${curator.id}`, (b) => expect(b).toEqual(expect.objectContaining({ id: String(curator.id), name: curator.name }))],
      ['/api/research/genres', '/api/genres', (b) => expect(b.genres).toContainEqual({ id: 6, name: 'dream pop' })],
      ['/api/research?q=Luna%20Waves&type=artists', '/api/search', (b) => expect(b.results.artists).toEqual([expect.objectContaining({ id: 4100021, name: 'Luna Waves' })])],
      ['/api/research/tracks?artist=4100021', '/api/artist/4100021/tracks', (b) => expect(b.tracks.map((x: { isrc: string }) => x.isrc)).toEqual(['GBNWR2400001', 'GBNWR2400002', 'GBNWR2400003'])],
      ['/api/research/playlists?artist=4100021', '/api/artist/4100021/spotify/current/playlists', (b) => expect(b.playlists.length).toBeGreaterThan(0)],
      ['/api/platform_a/search?q=Midnight%20Owls&type=artist,track&limit=2', '/v1/search', (b) => {
        expect(b.artists.items.map((x: { name: string }) => x.name)).toEqual(['The Midnight Owls']);
        expect(b.tracks.total).toBe(2);
        expect(b.tracks.items.map((x: { name: string }) => x.name).sort()).toEqual(['Neon Feathers', 'Owl Hours']);
      }],
    ];
    for (const [path, upstream, check] of cases) {
      const before = calls(upstream);
      const res = await t.http().get(path).set(as.nora);
      expect({ path, status: res.status }).toEqual({ path, status: 200 });
      check(res.body);
      expect({ path, upstreamCalls: calls(upstream) - before }).toEqual({ path, upstreamCalls: 1 });
    }
  });

  it('knows every ISRC of the demo catalogs and every demo artist\'s seeded research link', async () => {
    const conn = t.orm.em.getConnection();
    const isrcs = (await conn.execute<{ isrc: string }[]>(`select distinct isrc from catalog_songs order by isrc`)).map((r) => r.isrc);
    expect(isrcs).toHaveLength(DEMO_RESEARCH.tracks.length);
    const known = new Set(sandbox().data.tracks.map((tr) => tr.isrc));
    expect(isrcs.filter((isrc) => !known.has(isrc))).toEqual([]);
    const links = await conn.execute<{ research_id: string; research_match: string }[]>(`select research_id, research_match from artist_research_links order by research_id`);
    expect(links).toEqual(DEMO_RESEARCH.artists.map((a) => ({ research_id: String(a.id), research_match: 'explicit' })));
    for (const l of links) expect(sandbox().data.artists.some((a) => String(a.id) === l.research_id)).toBe(true);
  });

  it('serves a research artist\'s profile (GET /api/artist/{id} upstream) with its listener and follower figures', async () => {
    const artist = sandbox().data.artists[42];
    const before = calls(`/api/artist/${artist.id}`);
    const res = await t.graphql(
      `query ($id: ID!) { researchArtist(id: $id) { profile { id name country sp_monthly_listeners: spMonthlyListeners sp_followers: spFollowers tiktok_followers: tiktokFollowers ins_followers: insFollowers cm_statistics: cmStatistics data_source: dataSource } } }`,
      { id: String(artist.id) },
      as.nora,
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.researchArtist.profile).toEqual({
      id: String(artist.id), name: artist.name, country: artist.country, sp_monthly_listeners: artist.listeners, sp_followers: artist.followers,
      tiktok_followers: artist.tiktok, ins_followers: artist.instagram, cm_statistics: expect.objectContaining({ sp_monthly_listeners: artist.listeners }), data_source: 'provider',
    });
    expect(calls(`/api/artist/${artist.id}`) - before).toBe(1);
    // An id the provider does not know is a 404 upstream, NOT_FOUND here.
    const unknown = await t.graphql(`{ researchArtist(id: "4999999") { profile { name } } }`, {}, as.nora);
    expect(unknown.body.errors[0].extensions.code).toBe('NOT_FOUND');
  });

  it('pages platform search by limit and offset', async () => {
    const first = await t.http().get('/api/platform_a/search?q=the&type=artist&limit=3').set(as.nora);
    const second = await t.http().get('/api/platform_a/search?q=the&type=artist&limit=3&offset=3').set(as.nora);
    expect(first.body.artists.total).toBeGreaterThan(6);
    expect(second.body.artists.offset).toBe(3);
    expect(second.body.artists.previous).toEqual(expect.stringContaining('offset=0'));
    const names = [...first.body.artists.items, ...second.body.artists.items].map((a: { name: string }) => a.name);
    expect(new Set(names).size).toBe(6);
  });

  it('mints a new token when the sandbox revokes the old one', async () => {
    const minted = sandbox().platformA.server.count('/api/token');
    sandbox().platformA.tokens.revoke();
    const res = await t.http().get('/api/platform_a/search?q=Kai&type=artist').set(as.nora);
    expect(res.status).toBe(200);
    expect(res.body.artists.items[0].name).toBe('Kai Rivers');
    expect(sandbox().platformA.server.count('/api/token')).toBe(minted + 1);

    const intelMinted = sandbox().musicIntel.server.count('/api/token');
    sandbox().musicIntel.tokens.revoke();
    expect((await t.http().get('/api/research?q=Owls&type=artists').set(as.nora)).status).toBe(200);
    expect(sandbox().musicIntel.server.count('/api/token')).toBe(intelMinted + 1);
  });

  it('waits out a 429 with Retry-After and answers', async () => {
    sandbox().musicIntel.server.failNext('/api/search', 1, { status: 429, headers: { 'retry-after': '1' }, body: { error: 'Too Many Requests' } });
    const before = calls('/api/search');
    const started = Date.now();
    const res = await t.http().get('/api/research?q=Rivers&type=artists').set(as.nora);
    expect(res.status).toBe(200);
    expect(res.body.results.artists).toContainEqual(expect.objectContaining({ name: 'Kai Rivers' }));
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(calls('/api/search') - before).toBe(2);
  });

  it('answers a 5xx asked for with a provider error, and the composed GraphQL query with provider numbers', async () => {
    sandbox().trackStats.failNext('/enterprise', 3, { status: 503, body: { result: 'error' } });
    const failed = await t.http().get(`/api/research/track/stats?isrc=${sandbox().data.tracks[200].isrc}&source=platform_a`).set(as.nora);
    expect(failed.status).toBe(502);
    expect(failed.body.code).toBe('PROVIDER_ERROR');

    const res = await t.graphql(ResearchArtistGraphDocument, { id: '4100022', source: 'platform_a' }, as.nora);
    expect(res.body.errors).toBeUndefined();
    const artist = res.body.data.researchArtist;
    expect(artist.tracks.map((x: { isrc: string }) => x.isrc)).toEqual(['USNWR2400004', 'USNWR2400005']);
    for (const tr of artist.tracks) expect(tr.stats.stats[0]).toEqual(expect.objectContaining({ source: 'platform_a', data_source: 'provider', data: expect.objectContaining({ streams_total: expect.any(Number) }) }));
  });
});
