import { AppError } from '../common/errors';
import { createLogger } from '../common/logger';
import type { ProvidersConfig } from '../config/config';
import {
  musicIntelSandbox, platformASandbox, SANDBOX_CLIENT_ID as FAKE_CLIENT_ID, SANDBOX_CLIENT_SECRET as FAKE_CLIENT_SECRET, SANDBOX_REFRESH_TOKEN as FAKE_REFRESH_TOKEN,
  SANDBOX_TRACK_STATS_KEY as FAKE_TRACK_STATS_KEY, sandboxData, SandboxTokens, trackStatsSandbox,
} from './sandbox';
import { parseRetryAfter } from './http/resilient-http';
import { MusicIntelClient } from './music-intel/music-intel.client';
import { PlatformAClient } from './platform-a/platform-a.client';
import { TrackStatsClient } from './track-stats/track-stats.client';

/* Each client against its provider's sandbox: a loopback server speaking the real protocol (no internet). */

const data = sandboxData();

const log = createLogger('silent');
const policy = (over: Partial<ProvidersConfig['http']> = {}): ProvidersConfig['http'] => ({
  // Roomy: the sandbox's first answers run cold on a loaded machine; the timeout test sets its own.
  timeoutMs: 2000,
  retries: 2,
  retryBaseMs: 5,
  retryMaxWaitMs: 2000,
  breakerFailures: 3,
  breakerOpenMs: 400,
  ...over,
});
const search = { q: 'luna', type: ['artist'], limit: 5, offset: 0 };

async function failure(run: () => Promise<unknown>): Promise<AppError> {
  try {
    await run();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected a failure');
}

describe('platform_a client (client credentials + /v1/search)', () => {
  const fake = platformASandbox(data, new SandboxTokens(3600));
  const client = (over: Partial<ProvidersConfig['http']> = {}) =>
    new PlatformAClient({ apiUrl: fake.server.url, accountsUrl: fake.server.url, clientId: FAKE_CLIENT_ID, clientSecret: FAKE_CLIENT_SECRET }, policy(over), log);
  beforeAll(() => fake.server.start());
  afterAll(() => fake.server.close());
  beforeEach(() => {
    fake.server.reset();
    fake.tokens.lifetimeS = 3600;
  });

  it('mints one token, reuses it, and sends the search parameters', async () => {
    const c = client();
    const [a, b] = await Promise.all([c.search(search), c.search({ ...search, type: ['artist', 'track'], market: 'GB' })]);
    expect(a.artists.items).toEqual(expect.arrayContaining([expect.objectContaining({ id: expect.any(String), name: 'Luna Waves' })]));
    expect(b.tracks).toBeDefined();
    await c.search(search);
    expect(fake.server.count('/api/token')).toBe(1);
    const sent = fake.server.requests.filter((r) => r.path === '/v1/search').map((r) => Object.fromEntries(r.query));
    expect(sent[1]).toEqual({ q: 'luna', type: 'artist,track', market: 'GB', limit: '5', offset: '0' });
  });

  it('mints a new token when the old one expires, and once more when the upstream revokes it (401)', async () => {
    fake.tokens.lifetimeS = 1;
    const c = client();
    await c.search(search);
    await new Promise((r) => setTimeout(r, 1000));
    await c.search(search);
    expect(fake.server.count('/api/token')).toBe(2);
    fake.tokens.revoke();
    await c.search(search);
    expect(fake.server.count('/api/token')).toBe(3);
    // expired → new token; revoked → the old one is refused (401), a new one is minted and used
    const used = fake.server.requests.filter((r) => r.path === '/v1/search').map((r) => r.headers.authorization);
    expect(used).toHaveLength(4);
    expect(new Set(used).size).toBe(3);
    expect(used[2]).toBe(used[1]);
    expect(used[3]).not.toBe(used[2]);
  });

  it('refuses wrong client credentials as a provider error, not a 500', async () => {
    const c = new PlatformAClient({ apiUrl: fake.server.url, accountsUrl: fake.server.url, clientId: 'x', clientSecret: 'y' }, policy(), log);
    const error = await failure(() => c.search(search));
    expect(error.code).toBe('PROVIDER_ERROR');
    expect(error.message).not.toContain('y');
  });

  it('waits out a 429 Retry-After and then succeeds', async () => {
    const c = client();
    await c.search(search);
    fake.server.failNext('/v1/search', 1, { status: 429, headers: { 'retry-after': '1' } });
    const started = Date.now();
    await expect(c.search(search)).resolves.toHaveProperty('artists');
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(fake.server.count('/v1/search')).toBe(3);
  });

  it('gives up at once with 503 and the Retry-After when the upstream asks for a longer wait', async () => {
    const c = client();
    fake.server.failNext('/v1/search', 1, { status: 429, headers: { 'retry-after': '120' } });
    const error = await failure(() => c.search(search));
    expect(error.code).toBe('PROVIDER_UNAVAILABLE');
    expect(error.retryAfter).toBe(120);
  });

  it('retries 5xx with backoff, answers 502 when they persist, and opens the breaker', async () => {
    const c = client({ retries: 1, breakerFailures: 4 });
    await c.search(search); // token minted while healthy
    fake.server.failNext('/v1/search', 4, { status: 500, body: { error: 'boom' } });
    expect((await failure(() => c.search(search))).code).toBe('PROVIDER_ERROR');
    expect((await failure(() => c.search(search))).code).toBe('PROVIDER_ERROR');
    expect(fake.server.count('/v1/search')).toBe(5);
    // Four consecutive failures: the circuit is open and calls stop reaching the upstream.
    const open = await failure(() => c.search(search));
    expect(open.code).toBe('PROVIDER_UNAVAILABLE');
    expect(open.retryAfter).toBe(1);
    expect(fake.server.count('/v1/search')).toBe(5);
    // After the open period one trial call goes through and closes it again.
    await new Promise((r) => setTimeout(r, 450));
    await expect(c.search(search)).resolves.toHaveProperty('artists');
    expect(fake.server.count('/v1/search')).toBe(6);
  });

  it('cuts a hanging upstream at the timeout with 504', async () => {
    const c = client({ timeoutMs: 200 });
    await c.search(search);
    fake.server.hangNext('/v1/search');
    const started = Date.now();
    const error = await failure(() => c.search(search));
    expect(error.code).toBe('PROVIDER_TIMEOUT');
    // Cut at the 200 ms timeout, not held by the hang (which never ends): the bound leaves room for a busy machine.
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('answers 503 when the upstream cannot be reached', async () => {
    const c = new PlatformAClient({ apiUrl: 'http://127.0.0.1:9', accountsUrl: 'http://127.0.0.1:9', clientId: 'a', clientSecret: 'b' }, policy({ retries: 0 }), log);
    const error = await failure(() => c.search(search));
    expect(error.code).toBe('PROVIDER_UNAVAILABLE');
    expect(error.retryAfter).toBeGreaterThan(0);
  });
});

describe('track statistics client (apikey + /tracks/stats)', () => {
  const fake = trackStatsSandbox(data);
  beforeAll(() => fake.start());
  afterAll(() => fake.close());

  it('sends the identifier under the provider name, upstream sources and only the flags that are on', async () => {
    const c = new TrackStatsClient({ apiUrl: `${fake.url}/enterprise/v1`, apiKey: FAKE_TRACK_STATS_KEY }, policy(), log);
    const answer = await c.trackStats({
      idField: 'platform_a_track_id', id: data.tracks[0].platformId, sources: ['spotify', 'deezer'], with_playlists: true, with_charts: false,
      with_stations: false, with_videos: false, with_links: true, only_current: false, limit: 20, offset: 0,
    });
    expect(answer.stats?.map((s) => s.source)).toEqual(['spotify', 'deezer']);
    const sent = fake.requests.at(-1)!;
    expect(sent.headers.apikey).toBe(FAKE_TRACK_STATS_KEY);
    expect(Object.fromEntries(sent.query)).toEqual({ spotify_track_id: data.tracks[0].platformId, source: 'spotify,deezer', with_playlists: 'true', with_links: 'true', limit: '20', offset: '0' });
  });

  it('maps an unknown track (404) to NOT_FOUND and a rejected key to PROVIDER_ERROR', async () => {
    const good = new TrackStatsClient({ apiUrl: `${fake.url}/enterprise/v1`, apiKey: FAKE_TRACK_STATS_KEY }, policy(), log);
    const q = { idField: 'isrc' as const, id: 'UNKNOWN00000', sources: ['spotify'], with_playlists: false, with_charts: false, with_stations: false, with_videos: false, with_links: false, only_current: false, limit: 20, offset: 0 };
    expect((await failure(() => good.trackStats(q))).code).toBe('NOT_FOUND');
    const bad = new TrackStatsClient({ apiUrl: `${fake.url}/enterprise/v1`, apiKey: 'wrong' }, policy(), log);
    expect((await failure(() => bad.trackStats({ ...q, id: 'GBAAA2400001' }))).code).toBe('PROVIDER_ERROR');
  });
});

describe('music intelligence client (refresh token exchange + obj answers)', () => {
  const fake = musicIntelSandbox(data, new SandboxTokens(3600));
  const client = () => new MusicIntelClient({ apiUrl: fake.server.url, refreshToken: FAKE_REFRESH_TOKEN }, policy(), log);
  beforeAll(() => fake.server.start());
  afterAll(() => fake.server.close());
  beforeEach(() => fake.server.reset());

  it('exchanges the refresh token once, unwraps obj, and passes the discover filters', async () => {
    const c = client();
    const list = (await c.discover({ code2: 'GB', tagId: 5, listeners: [1000, 900000], sortColumn: 'weekly_diff.sp_monthly_listeners', limit: 10 })) as { cm_artist: number; code2: string }[];
    expect(list).toContainEqual(expect.objectContaining({ cm_artist: 4100021, name: 'Luna Waves', code2: 'GB' }));
    expect(list.every((a) => a.code2 === 'GB')).toBe(true);
    await c.genres();
    expect(fake.server.count('/api/token')).toBe(1);
    expect(JSON.parse(fake.server.requests[0].body)).toEqual({ refreshtoken: FAKE_REFRESH_TOKEN });
    const sent = fake.server.requests.find((r) => r.path === '/api/artist/list/filter')!;
    expect(sent.headers.authorization).toBe('Bearer sandbox-token-1');
    expect(sent.query.getAll('sp_ml[]')).toEqual(['1000', '900000']);
    expect(sent.query.get('tagId')).toBe('5');
    expect(sent.query.get('sortColumn')).toBe('weekly_diff.sp_monthly_listeners');
  });

  it('re-mints the access token on 401 and retries the call once', async () => {
    const c = client();
    await c.genres();
    fake.tokens.revoke();
    await expect(c.curator('spotify', '1001')).resolves.toEqual(expect.objectContaining({ id: 1001, name: 'Indie Shores' }));
    expect(fake.server.count('/api/token')).toBe(2);
  });

  it('calls the curator and artist playlist paths with upstream platform names', async () => {
    const c = client();
    await c.artistPlaylists('4100021', 'applemusic', 'past', 5, 0);
    expect(fake.server.requests.at(-1)!.path).toBe('/api/artist/4100021/applemusic/past/playlists');
    expect((await failure(() => c.curator('deezer', '404'))).code).toBe('NOT_FOUND');
  });
});

describe('parseRetryAfter', () => {
  it('reads seconds and HTTP dates', () => {
    expect(parseRetryAfter('3')).toBe(3000);
    expect(parseRetryAfter(new Date(10_000 + 5000).toUTCString(), 10_000)).toBe(5000);
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(parseRetryAfter(null)).toBeUndefined();
  });
});
