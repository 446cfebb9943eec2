import { FakeReply, FakeServer, FakeTokens, RecordedRequest } from './fake-server';

export const FAKE_REFRESH_TOKEN = 'fake-refresh-token';

/**
 * The music intelligence API: POST /api/token {refreshtoken} → {token, expires_in}; every other
 * call needs a live Bearer token and answers `{obj: …}`.
 */
export function musicIntelFake(tokens = new FakeTokens()) {
  const server = new FakeServer((req: RecordedRequest): FakeReply => {
    if (req.method === 'POST' && req.path === '/api/token') {
      let body: { refreshtoken?: string } = {};
      try {
        body = JSON.parse(req.body);
      } catch {
        return { status: 400, body: { error: 'bad json' } };
      }
      if (body.refreshtoken !== FAKE_REFRESH_TOKEN) return { status: 401, body: { error: 'invalid refresh token' } };
      const { token, expiresIn } = tokens.issue();
      return { status: 200, body: { token, expires_in: expiresIn, refresh_token: FAKE_REFRESH_TOKEN, scope: 'api' } };
    }
    if (!tokens.valid(req.headers.authorization)) return { status: 401, body: { error: 'Unauthorized' } };
    const ok = (obj: unknown): FakeReply => ({ status: 200, headers: { 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '9' }, body: { obj } });
    let m: RegExpExecArray | null;
    if (req.path === '/api/artist/list/filter') {
      return ok([
        { cm_artist: 9001, name: 'Filter Artist', sp_monthly_listeners: 50_000, sp_followers: 4_000, tiktok_followers: 700, ins_followers: 2_500, code2: req.query.get('code2') ?? 'US' },
      ]);
    }
    if ((m = /^\/api\/curator\/(\w+)\/(\d+)$/.exec(req.path))) {
      if (m[2] === '404') return { status: 404, body: { error: 'Curator not found' } };
      return ok({
        id: Number(m[2]), name: `Curator ${m[2]} on ${m[1]}`, curator_id: `native-${m[2]}`, image_url: 'https://img.example/c.png', description: 'A curator',
        followers: 12_000, instagram_followers: 3_000, facebook_followers: null, twitter_followers: 800, youtube_subscribers: null, soundcloud_followers: null,
        tiktok_followers: 1_500, cm_statistics: { playlist_reach: 40_000, editorial_count: 0 }, last_updated: '2026-11-01T10:00:00.000Z', suspicion_score: 0.2,
        social_urls: { instagram: 'https://instagram.com/curator' },
      });
    }
    if (req.path === '/api/genres') return ok([{ id: 11, name: 'shoegaze' }, { id: 12, name: 'synthwave' }]);
    if (req.path === '/api/search') {
      const q = req.query.get('q');
      // A name the provider does not know: artist linking by search stores "no match".
      if (q?.startsWith('Nobody')) return ok({ artists: [], playlists: {} });
      return ok({ artists: [{ id: 9002, name: `${q} artist` }], playlists: { spotify: [{ id: 1, name: `${q} playlist` }], applemusic: [] } });
    }
    if ((m = /^\/api\/artist\/(\d+)\/tracks$/.exec(req.path))) {
      return ok([{ cm_track: 77, name: 'Intel Track', isrc: 'USFAK2400077', artist_names: ['Filter Artist'], album_names: ['Intel Album'], release_dates: ['2024-05-05'], image_url: null }]);
    }
    if ((m = /^\/api\/artist\/(\d+)\/(\w+)\/(current|past)\/playlists$/.exec(req.path))) {
      return ok([{ playlist: { playlist_id: 'pl-1', name: 'Intel Playlist', curator_id: 555, curator_name: 'Intel Curator', followers: 3_300, position: 4, added_at: '2024-06-01' }, track: { name: 'Intel Track', isrc: 'USFAK2400077' } }]);
    }
    return { status: 404, body: { error: 'Not found' } };
  });
  return { server, tokens };
}
