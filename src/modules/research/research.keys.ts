/**
 * Keys of stored answers: the normalized request that produced each one. The service and the demo
 * seed build them through these functions only, so a seeded answer is found by a real request.
 */
export interface TrackStatsOptionsKey {
  with_playlists: boolean;
  with_charts: boolean;
  with_stations: boolean;
  with_videos: boolean;
  with_links: boolean;
  only_current: boolean;
  limit: number;
  offset: number;
}

export const DEFAULT_TRACK_OPTIONS: TrackStatsOptionsKey = {
  with_playlists: false,
  with_charts: false,
  with_stations: false,
  with_videos: false,
  with_links: false,
  only_current: false,
  limit: 20,
  offset: 0,
};

const optionsPart = (o: TrackStatsOptionsKey) =>
  (Object.keys(DEFAULT_TRACK_OPTIONS) as (keyof TrackStatsOptionsKey)[]).map((k) => `${k}=${o[k]}`).join('&');

export const keys = {
  trackStats: (idField: string, id: string, source: string, o: TrackStatsOptionsKey) => `${idField}=${id}|${source}|${optionsPart(o)}`,
  trackInfo: (idField: string, id: string, o: TrackStatsOptionsKey) => `${idField}=${id}|${optionsPart(o)}`,
  discover: (f: { country?: string; genre?: number; min?: number; max?: number; sort?: string; limit: number }) =>
    `country=${f.country ?? ''}&genre=${f.genre ?? ''}&min=${f.min ?? ''}&max=${f.max ?? ''}&sort=${f.sort ?? ''}&limit=${f.limit}`,
  curator: (platform: string, id: string) => `${platform}:${id}`,
  genres: () => 'all',
  search: (f: { q: string; type: string; beta: boolean; limit: number; offset: number }) =>
    `q=${f.q.toLowerCase()}&type=${f.type}&beta=${f.beta}&limit=${f.limit}&offset=${f.offset}`,
  artist: (artist: string) => artist,
  artistTracks: (artist: string, limit: number, offset: number) => `${artist}|limit=${limit}&offset=${offset}`,
  artistPlaylists: (artist: string, platform: string, status: string, limit: number, offset: number) =>
    `${artist}|${platform}|${status}|limit=${limit}&offset=${offset}`,
  platformSearch: (f: { q: string; types: string[]; market?: string; limit: number; offset: number }) =>
    `q=${f.q.toLowerCase()}&type=${[...f.types].sort().join(',')}&market=${f.market ?? ''}&limit=${f.limit}&offset=${f.offset}`,
};
