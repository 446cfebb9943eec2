import { AppError } from '../../common/errors';
import type { Logger } from '../../common/logger';
import type { ProvidersConfig } from '../../config/config';
import { ResilientHttpClient, unexpectedStatus } from '../http/resilient-http';

/** The provider's own identifier parameters, by the contract's names. */
export const TRACK_ID_PARAMS = {
  isrc: 'isrc',
  stats_track_id: 'songstats_track_id',
  platform_a_track_id: 'spotify_track_id',
  platform_b_track_id: 'apple_music_track_id',
} as const;
export type TrackIdField = keyof typeof TRACK_ID_PARAMS;

export interface TrackStatsOptions {
  with_playlists: boolean;
  with_charts: boolean;
  with_stations: boolean;
  with_videos: boolean;
  with_links: boolean;
  only_current: boolean;
  limit: number;
  offset: number;
}

export interface TrackStatsQuery extends TrackStatsOptions {
  idField: TrackIdField;
  id: string;
  /** Upstream source names. */
  sources: string[];
}

export interface TrackStatsAnswer {
  result?: string;
  message?: string;
  stats?: { source: string; data?: Record<string, unknown> }[];
  track_info?: Record<string, unknown>;
  source_ids?: string[];
}

/** The track statistics provider's Enterprise API: GET /tracks/stats with an `apikey` header. */
export class TrackStatsClient {
  static readonly missingSetting = 'TRACK_STATS_API_KEY';
  private readonly http: ResilientHttpClient;

  constructor(
    private readonly config: ProvidersConfig['trackStats'],
    policy: ProvidersConfig['http'],
    log: Logger,
  ) {
    this.http = new ResilientHttpClient('track statistics', policy, log);
  }

  get configured(): boolean {
    return Boolean(this.config.apiKey);
  }

  async trackStats(q: TrackStatsQuery): Promise<TrackStatsAnswer> {
    if (!this.config.apiKey) throw new AppError('PROVIDER_UNAVAILABLE', `The track statistics provider is not configured: set ${TrackStatsClient.missingSetting}`, { retryAfter: 300 });
    const flag = (on: boolean) => (on ? 'true' : undefined);
    const res = await this.http.request<TrackStatsAnswer>({
      url: `${this.config.apiUrl}/tracks/stats`,
      headers: { apikey: this.config.apiKey },
      query: {
        [TRACK_ID_PARAMS[q.idField]]: q.id,
        source: q.sources.join(','),
        with_playlists: flag(q.with_playlists),
        with_charts: flag(q.with_charts),
        with_stations: flag(q.with_stations),
        with_videos: flag(q.with_videos),
        with_links: flag(q.with_links),
        only_current: flag(q.only_current),
        limit: q.limit,
        offset: q.offset,
      },
    });
    if (res.status !== 200 || typeof res.body !== 'object' || res.body === null) throw unexpectedStatus('track statistics', res, 'Track');
    return res.body;
  }
}
