import { AppError } from '../../common/errors';
import type { Logger } from '../../common/logger';
import type { ProvidersConfig } from '../../config/config';
import { QueryValue, ResilientHttpClient, unexpectedStatus } from '../http/resilient-http';
import { TokenCache } from '../http/token-cache';

export interface DiscoverFilter {
  /** ISO country code (upper case). */
  code2?: string;
  tagId?: number;
  /** Monthly listeners range [min, max]. */
  listeners?: [number, number];
  sortColumn?: string;
  limit: number;
}

export interface SearchFilter {
  q: string;
  type: string;
  limit: number;
  offset: number;
  beta?: boolean;
}

/**
 * The music intelligence provider's API: a refresh token exchanged at POST /api/token for an
 * access token (about an hour; reused, re-minted on 401), Bearer on each call, answers in `obj`.
 */
export class MusicIntelClient {
  static readonly missingSetting = 'MUSIC_INTEL_REFRESH_TOKEN';
  private readonly http: ResilientHttpClient;
  private readonly tokens: TokenCache;

  constructor(
    private readonly config: ProvidersConfig['musicIntel'],
    policy: ProvidersConfig['http'],
    log: Logger,
  ) {
    this.http = new ResilientHttpClient('music intelligence', policy, log);
    this.tokens = new TokenCache(() => this.mintToken());
  }

  get configured(): boolean {
    return Boolean(this.config.refreshToken);
  }

  discover(f: DiscoverFilter): Promise<unknown> {
    return this.get('/api/artist/list/filter', 'Artist list', {
      code2: f.code2,
      tagId: f.tagId,
      'sp_ml[]': f.listeners,
      sortColumn: f.sortColumn,
      limit: f.limit,
    });
  }

  curator(platform: string, id: string): Promise<unknown> {
    return this.get(`/api/curator/${encodeURIComponent(platform)}/${encodeURIComponent(id)}`, 'Curator');
  }

  genres(): Promise<unknown> {
    return this.get('/api/genres', 'Genres');
  }

  search(f: SearchFilter): Promise<unknown> {
    return this.get('/api/search', 'Search', { q: f.q, type: f.type, limit: f.limit, offset: f.offset, beta: f.beta ? 'true' : undefined });
  }

  /** An artist's metadata with its latest audience figures (`cm_statistics`: listeners, followers per platform). */
  artist(artistId: string): Promise<unknown> {
    return this.get(`/api/artist/${encodeURIComponent(artistId)}`, 'Artist');
  }

  artistTracks(artistId: string, limit: number, offset: number): Promise<unknown> {
    return this.get(`/api/artist/${encodeURIComponent(artistId)}/tracks`, 'Artist', { limit, offset });
  }

  artistPlaylists(artistId: string, platform: string, status: string, limit: number, offset: number): Promise<unknown> {
    return this.get(
      `/api/artist/${encodeURIComponent(artistId)}/${encodeURIComponent(platform)}/${encodeURIComponent(status)}/playlists`,
      'Artist',
      { limit, offset },
    );
  }

  /** GET with the cached access token; unwraps `obj`. */
  private async get(path: string, what: string, query: Record<string, QueryValue> = {}): Promise<unknown> {
    const req = { url: `${this.config.apiUrl}${path}`, query };
    const token = await this.tokens.get();
    let res = await this.http.request<{ obj?: unknown }>({ ...req, headers: { authorization: `Bearer ${token}` } });
    if (res.status === 401) {
      this.tokens.invalidate(token);
      res = await this.http.request<{ obj?: unknown }>({ ...req, headers: { authorization: `Bearer ${await this.tokens.get()}` } });
    }
    if (res.status !== 200 || typeof res.body !== 'object' || res.body === null) throw unexpectedStatus('music intelligence', res, what);
    return res.body.obj ?? null;
  }

  private async mintToken() {
    if (!this.config.refreshToken) {
      throw new AppError('PROVIDER_UNAVAILABLE', `The music intelligence provider is not configured: set ${MusicIntelClient.missingSetting}`, { retryAfter: 300 });
    }
    const res = await this.http.request<{ token?: string; expires_in?: number }>({
      method: 'POST',
      url: `${this.config.apiUrl}/api/token`,
      json: { refreshtoken: this.config.refreshToken },
    });
    if (res.status !== 200 || typeof res.body?.token !== 'string') {
      throw new AppError('PROVIDER_ERROR', `The music intelligence provider refused the configured refresh token (${res.status})`);
    }
    return { token: res.body.token, expiresInS: Number(res.body.expires_in ?? 3600) };
  }
}
