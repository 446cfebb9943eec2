import { SandboxData, SandboxTrack } from './sandbox-data';
import { isReply, paging } from './sandbox-query';
import { RecordedRequest, SandboxReply, SandboxServer, SandboxServerOptions } from './sandbox-server';

export const SANDBOX_TRACK_STATS_KEY = 'sandbox-stats-key';
const ID_PARAMS = ['isrc', 'songstats_track_id', 'spotify_track_id', 'apple_music_track_id'];
const SOURCES = ['spotify', 'apple_music', 'deezer', 'youtube'];
/** Each source's share of a track's streams, so the numbers differ realistically by platform. */
const SHARE: Record<string, number> = { spotify: 0.55, apple_music: 0.2, deezer: 0.07, youtube: 0.18 };

/** The track statistics Enterprise API: GET /enterprise/v1/tracks/stats with an `apikey` header. */
export function trackStatsSandbox(data: SandboxData, options: SandboxServerOptions = {}) {
  const find: Record<string, Map<string, SandboxTrack>> = {
    isrc: new Map(data.tracks.map((t) => [t.isrc, t])),
    songstats_track_id: new Map(data.tracks.map((t) => [t.statsId, t])),
    spotify_track_id: new Map(data.tracks.map((t) => [t.platformId, t])),
    apple_music_track_id: new Map(data.tracks.map((t) => [t.appleId, t])),
  };
  const artistById = new Map(data.artists.map((a) => [a.id, a]));
  const curatorById = new Map(data.curators.map((c) => [c.id, c]));

  return new SandboxServer((req: RecordedRequest): SandboxReply => {
    if (req.path !== '/enterprise/v1/tracks/stats') return { status: 404, body: { result: 'error', message: 'Not found' } };
    if (req.headers.apikey !== SANDBOX_TRACK_STATS_KEY) return { status: 401, body: { result: 'error', message: 'Invalid API key' } };
    const ids = ID_PARAMS.filter((p) => req.query.has(p));
    if (ids.length !== 1) return { status: 400, body: { result: 'error', message: 'Provide one track identifier' } };
    const track = find[ids[0]].get(req.query.get(ids[0]) ?? '');
    if (!track) return { status: 404, body: { result: 'error', message: 'Track not found' } };
    const requested = (req.query.get('source') ?? 'all').split(',');
    const sources = requested.includes('all') ? SOURCES : requested;
    const unknown = sources.filter((s) => !SOURCES.includes(s));
    if (unknown.length) return { status: 400, body: { result: 'error', message: `Unknown source ${unknown.join(',')}` } };
    const page = paging(req.query, { limit: 20, max: 100 });
    if (isReply(page)) return page;
    const on = (flag: string) => req.query.get(flag) === 'true';
    const onlyCurrent = on('only_current');
    const lists = data.playlists
      .flatMap((p) => p.entries.filter((e) => e.trackId === track.id && (e.current || !onlyCurrent)).map((e) => ({ p, e })))
      .slice(page.offset, page.offset + page.limit);
    const chartPosition = data.charts.trackIds.indexOf(track.id);

    return {
      status: 200,
      body: {
        result: 'success',
        message: 'Data Retrieved.',
        stats: sources.map((source) => ({
          source,
          data: {
            streams_total: Math.round(track.streams * SHARE[source]),
            popularity_current: Math.max(1, track.popularity - SOURCES.indexOf(source) * 3),
            playlists_current: lists.filter((l) => l.e.current).length,
            playlist_reach_current: lists.filter((l) => l.e.current).reduce((n, l) => n + l.p.followers, 0),
            ...(on('with_playlists') ? { playlists: lists.map(({ p, e }) => ({ name: p.name, external_id: p.id, followers: p.followers, curator_name: curatorById.get(p.curatorId)?.name, position: e.position, added_at: e.addedAt, current: e.current })) } : {}),
            ...(on('with_charts') ? { charts: chartPosition >= 0 ? [{ name: 'Top 50 (sandbox)', date: data.charts.date, position: chartPosition + 1 }] : [] } : {}),
          },
        })),
        track_info: {
          songstats_track_id: track.statsId,
          title: track.name,
          avatar: `https://images.sandbox.example/tracks/${track.isrc}.png`,
          site_url: `https://songstats.com/track/${track.statsId}`,
          release_date: track.released,
          artists: track.artistIds.map((id) => ({ name: artistById.get(id)!.name, songstats_artist_id: `ssa${id.toString(36)}` })),
          labels: [{ name: `${artistById.get(track.artistIds[0])!.name} Records`, songstats_label_id: `ssl${track.artistIds[0].toString(36)}` }],
          links: [
            { source: 'spotify', external_id: track.platformId, url: `https://open.spotify.com/track/${track.platformId}`, isrc: track.isrc },
            { source: 'apple_music', external_id: track.appleId, url: `https://music.apple.com/song/${track.appleId}`, isrc: track.isrc },
          ],
        },
        source_ids: [...SOURCES, 'tiktok'],
      },
    };
  }, options);
}
