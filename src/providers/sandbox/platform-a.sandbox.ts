import { SandboxData } from './sandbox-data';
import { isReply, needle, paging } from './sandbox-query';
import { RecordedRequest, SandboxReply, SandboxServer, SandboxServerOptions, SandboxTokens } from './sandbox-server';

export const SANDBOX_CLIENT_ID = 'sandbox-client';
export const SANDBOX_CLIENT_SECRET = 'sandbox-secret';
const TYPES = ['album', 'artist', 'playlist', 'track', 'show', 'episode', 'audiobook'];

/**
 * The streaming platform's accounts service (POST /api/token, client credentials with Basic auth)
 * and Web API search (GET /v1/search with Bearer, paging by limit/offset), on one loopback server.
 */
export function platformASandbox(data: SandboxData, tokens = new SandboxTokens(3600, 'sandbox-a-token'), options: SandboxServerOptions = {}) {
  const artistById = new Map(data.artists.map((a) => [a.id, a]));
  const open = 'https://open.spotify.com';
  const artistItem = (a: SandboxData['artists'][number]) => ({
    external_urls: { spotify: `${open}/artist/${a.platformId}` }, followers: { href: null, total: a.followers },
    genres: a.genreIds.map((g) => data.genres.find((x) => x.id === g)?.name).filter(Boolean), href: `${server.url}/v1/artists/${a.platformId}`, id: a.platformId,
    images: [{ url: `https://i.scdn.co/image/${a.platformId}`, height: 640, width: 640 }], name: a.name, popularity: a.popularity, type: 'artist', uri: `spotify:artist:${a.platformId}`,
  });
  const simpleArtist = (id: number) => {
    const a = artistById.get(id)!;
    return { external_urls: { spotify: `${open}/artist/${a.platformId}` }, href: `${server.url}/v1/artists/${a.platformId}`, id: a.platformId, name: a.name, type: 'artist', uri: `spotify:artist:${a.platformId}` };
  };
  const albumSize = new Map<string, number>();
  for (const t of data.tracks) albumSize.set(`${t.album}|${t.artistIds[0]}`, (albumSize.get(`${t.album}|${t.artistIds[0]}`) ?? 0) + 1);
  const albumId = (t: SandboxData['tracks'][number]) => `al${t.platformId.slice(2)}`;
  const albumItem = (t: SandboxData['tracks'][number]) => ({
    album_type: 'album', total_tracks: albumSize.get(`${t.album}|${t.artistIds[0]}`) ?? 1, available_markets: ['GB', 'US', 'DE'],
    external_urls: { spotify: `${open}/album/${albumId(t)}` }, href: `${server.url}/v1/albums/${albumId(t)}`, id: albumId(t), images: [{ url: `https://i.scdn.co/image/${albumId(t)}`, height: 640, width: 640 }],
    name: t.album ?? t.name, release_date: t.released, release_date_precision: 'day', type: 'album', uri: `spotify:album:${albumId(t)}`, artists: t.artistIds.map(simpleArtist),
  });
  const trackItem = (t: SandboxData['tracks'][number]) => ({
    album: albumItem(t), artists: t.artistIds.map(simpleArtist), disc_number: 1, duration_ms: 150_000 + (t.id % 120) * 1000, explicit: false, external_ids: { isrc: t.isrc },
    external_urls: { spotify: `${open}/track/${t.platformId}` }, href: `${server.url}/v1/tracks/${t.platformId}`, id: t.platformId, name: t.name, popularity: t.popularity,
    track_number: 1, type: 'track', uri: `spotify:track:${t.platformId}`, is_local: false,
  });
  const playlistItem = (p: SandboxData['playlists'][number]) => ({
    collaborative: false, description: `${p.name}, curated.`, external_urls: { spotify: `${open}/playlist/${p.id}` }, href: `${server.url}/v1/playlists/${p.id}`, id: p.id,
    images: [{ url: `https://i.scdn.co/image/${p.id}`, height: null, width: null }], name: p.name, owner: { id: String(p.curatorId), type: 'user', display_name: data.curators.find((c) => c.id === p.curatorId)?.name },
    public: true, tracks: { href: `${server.url}/v1/playlists/${p.id}/tracks`, total: p.entries.length }, type: 'playlist', uri: `spotify:playlist:${p.id}`,
  });

  const search = (req: RecordedRequest): SandboxReply => {
    const q = req.query.get('q') ?? '';
    const types = (req.query.get('type') ?? '').split(',').filter(Boolean);
    if (!q) return { status: 400, body: { error: { status: 400, message: 'No search query' } } };
    if (types.length === 0 || types.some((t) => !TYPES.includes(t))) return { status: 400, body: { error: { status: 400, message: 'Bad search type field' } } };
    const page = paging(req.query, { limit: 20, max: 50 });
    if (isReply(page)) return page;
    const n = needle(q);
    const matches: Record<string, unknown[]> = {
      artist: data.artists.filter((a) => a.name.toLowerCase().includes(n)).map(artistItem),
      track: data.tracks.filter((t) => t.name.toLowerCase().includes(n) || t.isrc.toLowerCase() === n || t.artistIds.some((id) => artistById.get(id)!.name.toLowerCase().includes(n))).map(trackItem),
      album: [...new Map(data.tracks.filter((t) => t.album?.toLowerCase().includes(n)).map((t) => [`${t.album}|${t.artistIds[0]}`, t])).values()].map(albumItem),
      playlist: data.playlists.filter((p) => p.name.toLowerCase().includes(n)).map(playlistItem),
    };
    const body: Record<string, unknown> = {};
    for (const type of types) {
      const all = matches[type] ?? [];
      const link = (offset: number) => {
        const u = new URL(`${server.url}/v1/search`);
        u.search = new URLSearchParams({ q, type, offset: String(offset), limit: String(page.limit) }).toString();
        return u.toString();
      };
      body[`${type}s`] = {
        href: link(page.offset), items: all.slice(page.offset, page.offset + page.limit), limit: page.limit,
        next: page.offset + page.limit < all.length ? link(page.offset + page.limit) : null, offset: page.offset,
        previous: page.offset > 0 ? link(Math.max(0, page.offset - page.limit)) : null, total: all.length,
      };
    }
    return { status: 200, body };
  };

  const server: SandboxServer = new SandboxServer((req: RecordedRequest): SandboxReply => {
    if (req.method === 'POST' && req.path === '/api/token') {
      const basic = Buffer.from(`${SANDBOX_CLIENT_ID}:${SANDBOX_CLIENT_SECRET}`).toString('base64');
      const form = new URLSearchParams(req.body);
      if (req.headers.authorization !== `Basic ${basic}`) return { status: 401, body: { error: 'invalid_client' } };
      if (form.get('grant_type') !== 'client_credentials' || !String(req.headers['content-type']).startsWith('application/x-www-form-urlencoded')) {
        return { status: 400, body: { error: 'unsupported_grant_type' } };
      }
      const { token, expiresIn } = tokens.issue();
      return { status: 200, body: { access_token: token, token_type: 'Bearer', expires_in: expiresIn } };
    }
    if (req.method === 'GET' && req.path === '/v1/search') {
      if (!tokens.valid(req.headers.authorization)) return { status: 401, body: { error: { status: 401, message: 'The access token expired' } } };
      return search(req);
    }
    return { status: 404, body: { error: { status: 404, message: 'Service not found' } } };
  }, options);
  return { server, tokens };
}
