import { SandboxArtist, SandboxData } from './sandbox-data';
import { isReply, needle, paging } from './sandbox-query';
import { RecordedRequest, SandboxReply, SandboxServer, SandboxServerOptions, SandboxTokens } from './sandbox-server';

export const SANDBOX_REFRESH_TOKEN = 'sandbox-refresh-token';
const PLATFORMS = ['spotify', 'applemusic', 'deezer', 'amazon', 'youtube'];
const SORTABLE: Record<string, (a: SandboxArtist) => number> = {
  sp_monthly_listeners: (a) => a.listeners,
  sp_followers: (a) => a.followers,
  tiktok_followers: (a) => a.tiktok,
  ins_followers: (a) => a.instagram,
};

/**
 * The music intelligence API: POST /api/token {refreshtoken} → {token, expires_in}; every other
 * call needs a live Bearer token and answers `{obj: …}` with X-RateLimit headers.
 */
export function musicIntelSandbox(data: SandboxData, tokens = new SandboxTokens(3600, 'sandbox-mi-token'), options: SandboxServerOptions = {}) {
  const artistById = new Map(data.artists.map((a) => [a.id, a]));
  const trackById = new Map(data.tracks.map((t) => [t.id, t]));
  const curatorById = new Map(data.curators.map((c) => [c.id, c]));
  let remaining = 10;
  const ok = (obj: unknown): SandboxReply => {
    remaining = remaining <= 1 ? 10 : remaining - 1;
    return { status: 200, headers: { 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': String(remaining) }, body: { obj } };
  };
  const bad = (message: string): SandboxReply => ({ status: 400, body: { error: message } });
  const artistRow = (a: SandboxArtist) => ({ cm_artist: a.id, name: a.name, sp_monthly_listeners: a.listeners, sp_followers: a.followers, tiktok_followers: a.tiktok, ins_followers: a.instagram, code2: a.country });

  const discover = (q: URLSearchParams): SandboxReply => {
    const range = q.getAll('sp_ml[]').map(Number);
    const tagId = q.has('tagId') ? Number(q.get('tagId')) : undefined;
    const limit = q.has('limit') ? Number(q.get('limit')) : 10;
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) return bad('limit must be 1-100');
    if (range.some((n) => !Number.isFinite(n)) || range.length === 1 || range.length > 2) return bad('sp_ml[] needs a min and a max');
    const code2 = q.get('code2');
    const column = (q.get('sortColumn') ?? 'sp_monthly_listeners').replace(/^(weekly|monthly)_diff(_percent)?\./, '');
    const key = SORTABLE[column] ?? ((a: SandboxArtist) => -a.id);
    const list = data.artists
      .filter((a) => (!code2 || a.country === code2) && (tagId === undefined || a.genreIds.includes(tagId)) && (range.length === 0 || (a.listeners >= range[0] && a.listeners <= range[1])))
      .sort((a, b) => key(b) - key(a))
      .slice(0, limit);
    return ok(list.map(artistRow));
  };

  const curator = (platform: string, id: string): SandboxReply => {
    if (!PLATFORMS.includes(platform)) return bad('unknown platform');
    const c = curatorById.get(Number(id));
    if (!/^\d+$/.test(id) || !c) return { status: 404, body: { error: 'Curator not found' } };
    const reach = data.playlists.filter((p) => p.curatorId === c.id).reduce((n, p) => n + p.followers, 0);
    return ok({
      id: c.id, name: c.name, curator_id: c.platformId, image_url: `https://images.sandbox.example/curators/${c.id}.png`, description: `${c.name} curates playlists on ${platform}.`,
      followers: c.followers, instagram_followers: c.instagram, facebook_followers: null, twitter_followers: Math.round(c.instagram / 3), youtube_subscribers: null, soundcloud_followers: null,
      tiktok_followers: c.tiktok, cm_statistics: { playlist_reach: reach, editorial_count: 0 }, last_updated: '2026-11-20T06:00:00.000Z', suspicion_score: c.suspicion,
      social_urls: { instagram: `https://instagram.com/${c.platformId}` },
    });
  };

  const search = (q: URLSearchParams): SandboxReply => {
    const text = q.get('q') ?? '';
    const type = q.get('type') ?? 'all';
    if (!text) return bad('q is required');
    const page = paging(q, { limit: 10, max: 100 });
    if (isReply(page)) return page;
    const n = needle(text);
    const cut = <T>(list: T[]) => list.slice(page.offset, page.offset + page.limit);
    const all = type === 'all';
    const out: Record<string, unknown> = {};
    if (all || type === 'artists') out.artists = cut(data.artists.filter((a) => a.name.toLowerCase().includes(n))).map((a) => ({ id: a.id, name: a.name, code2: a.country, sp_monthly_listeners: a.listeners }));
    if (all || type === 'tracks') out.tracks = cut(data.tracks.filter((t) => t.name.toLowerCase().includes(n) || t.isrc.toLowerCase() === n)).map((t) => ({ id: t.id, name: t.name, isrc: t.isrc, artist_names: t.artistIds.map((id) => artistById.get(id)!.name) }));
    if (all || type === 'playlists') {
      const found = cut(data.playlists.filter((p) => p.name.toLowerCase().includes(n))).map((p) => ({ id: p.id, name: p.name, followers: p.followers }));
      // The same generated lists stand for every platform's; apple music's half keeps them apart.
      out.playlists = { spotify: found, applemusic: found.filter((_, i) => i % 2 === 0) };
    }
    if (all || type === 'curators') {
      const found = cut(data.curators.filter((c) => c.name.toLowerCase().includes(n))).map((c) => ({ id: c.id, name: c.name, followers: c.followers }));
      out.curators = { spotify: found, applemusic: [] };
    }
    return ok(out);
  };

  // GET /api/artist/{id}: metadata with the latest figures under cm_statistics, as the real API nests them.
  const artist = (id: string): SandboxReply => {
    const a = artistById.get(Number(id));
    if (!/^\d+$/.test(id) || !a) return { status: 404, body: { error: 'Artist not found' } };
    return ok({
      id: a.id, name: a.name, image_url: `https://images.sandbox.example/artists/${a.id}.png`, code2: a.country, sp_artist_id: a.platformId,
      genres: { primary: data.genres.find((g) => g.id === a.genreIds[0]) ?? null },
      cm_statistics: {
        sp_monthly_listeners: a.listeners, sp_followers: a.followers, sp_popularity: a.popularity, tiktok_followers: a.tiktok, ins_followers: a.instagram,
        // Derived, not drawn: one more draw from the generator would change every artist after it.
        ycs_subscribers: Math.round(a.instagram * 0.4), timestamp: '2026-11-20T06:00:00.000Z',
      },
    });
  };

  const artistTracks = (id: string, q: URLSearchParams): SandboxReply => {
    const artist = artistById.get(Number(id));
    if (!artist) return { status: 404, body: { error: 'Artist not found' } };
    const page = paging(q, { limit: 10, max: 100 });
    if (isReply(page)) return page;
    const tracks = data.tracks.filter((t) => t.artistIds.includes(artist.id)).slice(page.offset, page.offset + page.limit);
    return ok(tracks.map((t) => ({
      cm_track: t.id, name: t.name, isrc: t.isrc, artist_names: t.artistIds.map((a) => artistById.get(a)!.name), album_names: t.album ? [t.album] : [],
      release_dates: [t.released], image_url: `https://images.sandbox.example/tracks/${t.isrc}.png`,
    })));
  };

  const artistPlaylists = (id: string, platform: string, status: string, q: URLSearchParams): SandboxReply => {
    const artist = artistById.get(Number(id));
    if (!PLATFORMS.includes(platform)) return bad('unknown platform');
    if (!artist) return { status: 404, body: { error: 'Artist not found' } };
    const page = paging(q, { limit: 10, max: 100 });
    if (isReply(page)) return page;
    const rows = data.playlists.flatMap((p) =>
      p.entries
        .filter((e) => trackById.get(e.trackId)!.artistIds.includes(artist.id) && e.current === (status === 'current'))
        .map((e) => {
          const t = trackById.get(e.trackId)!;
          const c = curatorById.get(p.curatorId)!;
          return { playlist: { playlist_id: p.id, name: p.name, curator_id: c.id, curator_name: c.name, followers: p.followers, position: e.position, added_at: e.addedAt }, track: { name: t.name, isrc: t.isrc } };
        }),
    );
    return ok(rows.slice(page.offset, page.offset + page.limit));
  };

  const server = new SandboxServer((req: RecordedRequest): SandboxReply => {
    if (req.method === 'POST' && req.path === '/api/token') {
      let body: { refreshtoken?: string } = {};
      try {
        body = JSON.parse(req.body);
      } catch {
        return { status: 400, body: { error: 'bad json' } };
      }
      if (body?.refreshtoken !== SANDBOX_REFRESH_TOKEN) return { status: 401, body: { error: 'invalid refresh token' } };
      const { token, expiresIn } = tokens.issue();
      return { status: 200, body: { token, expires_in: expiresIn, refresh_token: SANDBOX_REFRESH_TOKEN, scope: 'api' } };
    }
    if (!tokens.valid(req.headers.authorization)) return { status: 401, body: { error: 'Unauthorized' } };
    let m: RegExpExecArray | null;
    if (req.path === '/api/artist/list/filter') return discover(req.query);
    if ((m = /^\/api\/curator\/([^/]+)\/([^/]+)$/.exec(req.path))) return curator(decodeURIComponent(m[1]), decodeURIComponent(m[2]));
    if (req.path === '/api/genres') return ok(data.genres);
    if (req.path === '/api/search') return search(req.query);
    if ((m = /^\/api\/artist\/([^/]+)$/.exec(req.path))) return artist(decodeURIComponent(m[1]));
    if ((m = /^\/api\/artist\/([^/]+)\/tracks$/.exec(req.path))) return artistTracks(decodeURIComponent(m[1]), req.query);
    if ((m = /^\/api\/artist\/([^/]+)\/([^/]+)\/(current|past)\/playlists$/.exec(req.path))) return artistPlaylists(decodeURIComponent(m[1]), decodeURIComponent(m[2]), m[3], req.query);
    return { status: 404, body: { error: 'Not found' } };
  }, options);
  return { server, tokens };
}
