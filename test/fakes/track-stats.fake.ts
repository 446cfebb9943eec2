import { FakeReply, FakeServer, RecordedRequest } from './fake-server';

export const FAKE_TRACK_STATS_KEY = 'fake-stats-key';
const ID_PARAMS = ['isrc', 'songstats_track_id', 'spotify_track_id', 'apple_music_track_id'];

/** The track statistics Enterprise API: GET /enterprise/v1/tracks/stats with an `apikey` header. */
export function trackStatsFake() {
  return new FakeServer((req: RecordedRequest): FakeReply => {
    if (req.path !== '/enterprise/v1/tracks/stats') return { status: 404, body: { result: 'error', message: 'Not found' } };
    if (req.headers.apikey !== FAKE_TRACK_STATS_KEY) return { status: 401, body: { result: 'error', message: 'Invalid API key' } };
    const ids = ID_PARAMS.filter((p) => req.query.has(p));
    if (ids.length !== 1) return { status: 400, body: { result: 'error', message: 'Provide one track identifier' } };
    if (req.query.get(ids[0]) === 'UNKNOWN00000') return { status: 404, body: { result: 'error', message: 'Track not found' } };
    // An ISRC with registrant code QZFAI always breaks upstream: per-track error tests.
    if (req.query.get('isrc')?.startsWith('QZFAI')) return { status: 500, body: { result: 'error', message: 'Upstream broke' } };
    const requested = (req.query.get('source') ?? 'all').split(',');
    const sources = requested.includes('all') ? ['spotify', 'apple_music', 'deezer', 'youtube'] : requested;
    return {
      status: 200,
      body: {
        result: 'success',
        message: 'Data Retrieved.',
        stats: sources.map((source, i) => ({
          source,
          data: {
            streams_total: 1000 * (i + 1),
            popularity_current: 50 + i,
            ...(req.query.get('with_playlists') === 'true' ? { playlists: [{ name: 'Fresh Finds', followers: 900 }] } : {}),
          },
        })),
        track_info: {
          songstats_track_id: 'ss-track-1',
          title: 'Fake Track',
          avatar: 'https://img.example/t.png',
          site_url: 'https://stats.example/t/1',
          release_date: '2024-01-01',
          artists: [{ name: 'Fake Artist', songstats_artist_id: 'ss-artist-1' }],
          labels: [{ name: 'Fake Label', songstats_label_id: 'ss-label-1' }],
          links: [{ source: 'spotify', external_id: 'sp1', url: 'https://open.example/track/sp1', isrc: req.query.get('isrc') ?? 'GBAAA2400001' }],
        },
        source_ids: ['spotify', 'apple_music', 'deezer', 'youtube', 'tiktok'],
      },
    };
  });
}
