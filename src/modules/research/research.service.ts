import { LIST_BOUNDS } from '../../common/bounds';
import type { RateLimiter } from '../../auth/rate-limit';
import { RateLimitExceeded, rateLimitedError, rateSubject } from '../../auth/rate-limit';
import type { Viewer } from '../../auth/viewer';
import { AppError, isAppError } from '../../common/errors';
import type { Logger } from '../../common/logger';
import type { Config, ResearchKind } from '../../config/config';
import type { Providers } from '../../providers';
import { TRACK_ID_PARAMS, TrackIdField, TrackStatsAnswer } from '../../providers/track-stats/track-stats.client';
import type {
  ArtistInput,
  ArtistPlaylistsInput,
  ArtistTracksInput,
  CuratorInput,
  DiscoverInput,
  PlatformSearchInput,
  ResearchSearchInput,
  TrackStatsInput,
} from './research.inputs';
import { keys } from './research.keys';
import { answerKey, ResearchLoaders } from './research.loaders';
import type { AnswerRow, ResearchRepository, StoredAnswer } from './research.repository';
import {
  isObj,
  items,
  neutralPlatformSearch,
  neutralSearchResults,
  toArtistPlaylist,
  toArtistProfile,
  toArtistTrack,
  toCurator,
  toDiscoveredArtist,
  toGenre,
  toPlatformArtistsPage,
  toTrackInfo,
} from './research.mappers';
import {
  ResearchPlaylist,
  ResearchTrack,
  CuratorProfile,
  DiscoveredArtist,
  PlatformSearchResult,
  ResearchArtistProfile,
  ResearchGenre,
  TrackStatsRecord,
  TrackStats,
} from './research.types';

/** Kinds stored beside ResearchKind: the track metadata that comes with a stats answer. */
type StoredKind = ResearchKind | 'track_info';

interface ProviderGate {
  /** Neutral provider name stored as the answer's source. */
  source: 'platform_a' | 'track_stats' | 'music_intel';
  configured: boolean;
  /** The setting to name when the provider is unconfigured and nothing is stored. */
  missing: string;
  label: string;
}

interface Served<T> {
  payload: T;
  capturedAt: Date;
  fromStore: boolean;
}

type SaveRow = AnswerRow & { kind: StoredKind };

/** The storage the service writes through; stored answers are read through the request's loader. */
export type ResearchAnswerStore = Pick<ResearchRepository, 'saveAnswers'>;

/** What the service needs besides storage: the providers, the answer TTLs, the research budget, a log. */
export interface ResearchCollaborators {
  providers: Providers;
  settings: Config['research'];
  rateLimiter: Pick<RateLimiter, 'consume'>;
  log: Pick<Logger, 'warn'>;
  /** The caller's address, naming the budget's subject as everywhere else. */
  clientIp?: string;
  /**
   * Counts the upstream calls made outside a batch (stored answers make none): a GraphQL operation
   * charged for its provider-backed fields up front settles on this count (src/graphql/rate-limit.plugin.ts).
   */
  calls?: { made: number };
  /** Records each research answer for the caller's usage: a provider call made, or an answer served from stored data. */
  tally?: (answer: 'provider' | 'stored') => void;
}

/** How a track stats request reaches the provider and storage: directly, or through a batch. */
interface TrackStatsIo {
  /** The time freshness is judged at: one instant for a whole batch, so its charge and its calls agree. */
  now: number;
  call<T>(fetch: () => Promise<T>): Promise<T>;
  store(rows: SaveRow[]): Promise<Date>;
}

/** The one track identifier of a validated request, and the options that shape its answer. */
function trackStatsTarget(input: TrackStatsInput) {
  const idField = (Object.keys(TRACK_ID_PARAMS) as TrackIdField[]).find((k) => input[k] !== undefined)!;
  const options = {
    with_playlists: input.with_playlists,
    with_charts: input.with_charts,
    with_stations: input.with_stations,
    with_videos: input.with_videos,
    with_links: input.with_links,
    only_current: input.only_current,
    limit: input.limit,
    offset: input.offset,
  };
  return { idField, id: input[idField]!, options };
}

/** Runs at most `concurrency` of the functions handed to it at once. */
function limiter(concurrency: number) {
  let active = 0;
  const queue: (() => void)[] = [];
  return async <T>(run: () => Promise<T>): Promise<T> => {
    if (active >= concurrency) await new Promise<void>((resolve) => queue.push(resolve));
    active += 1;
    try {
      return await run();
    } finally {
      active -= 1;
      queue.shift()?.();
    }
  };
}

/** Failures after which stored data, however old, is better than nothing. */
const PROVIDER_FAILURES = new Set(['PROVIDER_ERROR', 'PROVIDER_UNAVAILABLE', 'PROVIDER_TIMEOUT']);
const isProviderFailure = (error: unknown) => isAppError(error) && PROVIDER_FAILURES.has(error.code);

/** Stored answers one track stats request reads (loader keys), so a batch can read all of them at once. */
export function trackStatsAnswerKeys(input: TrackStatsInput): string[] {
  const { idField, id, options } = trackStatsTarget(input);
  return input.source.map((s) => answerKey('track_stats', keys.trackStats(idField, id, s, options)));
}

/**
 * Research data, stored data first: a fresh stored answer (per-kind TTL) is served without a
 * provider call; otherwise the provider is asked and its answer stored; when the provider fails or
 * is not configured, a stored answer of any age is served. Stored answers are public provider data,
 * shared by every account; every operation still needs credentials.
 */
export class ResearchService {
  constructor(
    private readonly repo: ResearchAnswerStore,
    private readonly loaders: Pick<ResearchLoaders, 'researchAnswer'>,
    private readonly collab: ResearchCollaborators,
  ) {}

  private get providers() {
    return this.collab.providers;
  }

  private gate(source: ProviderGate['source']): ProviderGate {
    const p = this.providers;
    if (source === 'platform_a') return { source, configured: p.platformA.configured, missing: 'PLATFORM_A_CLIENT_ID and PLATFORM_A_CLIENT_SECRET', label: 'platform_a' };
    if (source === 'track_stats') return { source, configured: p.trackStats.configured, missing: 'TRACK_STATS_API_KEY', label: 'track statistics' };
    return { source, configured: p.musicIntel.configured, missing: 'MUSIC_INTEL_REFRESH_TOKEN', label: 'music intelligence' };
  }

  private unconfigured(gate: ProviderGate): AppError {
    return new AppError('PROVIDER_UNAVAILABLE', `The ${gate.label} provider is not configured (set ${gate.missing}) and no stored data answers this request`, {
      retryAfter: 300,
    });
  }

  private isFresh(row: StoredAnswer, kind: ResearchKind, now = Date.now()): boolean {
    return now - row.capturedAt.getTime() < this.collab.settings.ttlSeconds[kind] * 1000;
  }

  private load(kind: StoredKind, key: string): Promise<StoredAnswer | null> {
    return this.loaders.researchAnswer.load(answerKey(kind, key));
  }

  /** Stores answers (one statement, so all or none) and returns their capture time. */
  private async save(all: SaveRow[]): Promise<Date> {
    // One statement may not touch a row twice (ON CONFLICT): of equal keys the last row wins.
    const rows = [...new Map(all.map((r) => [answerKey(r.kind, r.key), r])).values()];
    const capturedAt = new Date();
    if (!rows.length) return capturedAt;
    await this.repo.saveAnswers(rows, capturedAt);
    for (const r of rows) {
      const key = answerKey(r.kind, r.key);
      this.loaders.researchAnswer.clear(key).prime(key, { ...r, capturedAt });
    }
    return capturedAt;
  }

  /** Stored data first for answers that are stored whole. */
  private async serve<T>(kind: ResearchKind, key: string, gate: ProviderGate, fetch: () => Promise<T>): Promise<Served<T>> {
    const row = await this.load(kind, key);
    const stored = (found: StoredAnswer): Served<T> => {
      this.collab.tally?.('stored');
      return { payload: found.payload as T, capturedAt: found.capturedAt, fromStore: true };
    };
    if (row && this.isFresh(row, kind)) return stored(row);
    if (!gate.configured) {
      if (row) return stored(row);
      throw this.unconfigured(gate);
    }
    try {
      if (this.collab.calls) this.collab.calls.made += 1;
      this.collab.tally?.('provider');
      const payload = await fetch();
      const capturedAt = await this.save([{ kind, key, source: gate.source, payload }]);
      return { payload, capturedAt, fromStore: false };
    } catch (error) {
      if (row && isProviderFailure(error)) {
        this.collab.log.warn({ kind, key, code: (error as AppError).code }, 'provider failed; serving stale stored data');
        return stored(row);
      }
      throw error;
    }
  }

  async trackStats(_viewer: Viewer, input: TrackStatsInput): Promise<TrackStats> {
    const call = <T>(fetch: () => Promise<T>): Promise<T> => {
      if (this.collab.calls) this.collab.calls.made += 1;
      return fetch();
    };
    return this.trackStatsOf(input, { now: Date.now(), call, store: (rows) => this.save(rows) });
  }

  /**
   * Track stats of many tracks (validated inputs): one read of stored answers for all, provider
   * calls for the misses at most `concurrency` at a time, one write for every answer fetched.
   * A track's failure is its own entry (an Error), not the batch's.
   */
  async trackStatsBatch(viewer: Viewer, inputs: readonly TrackStatsInput[], concurrency: number): Promise<(TrackStats | Error)[]> {
    const answerKeys = inputs.map(trackStatsAnswerKeys);
    const stored = await this.loaders.researchAnswer.loadMany(answerKeys.flat());
    // The upstream calls this batch will make, charged to the research budget in one statement before any is made.
    const configured = this.gate('track_stats').configured;
    const now = Date.now();
    let offset = 0;
    const needsCall = answerKeys.map((keysOf) => {
      const rows = stored.slice(offset, (offset += keysOf.length));
      return configured && rows.some((row) => !row || row instanceof Error || !this.isFresh(row, 'track_stats', now));
    });
    const permitted = await this.permitProviderCalls(viewer.accountId, needsCall);
    const limit = limiter(concurrency);
    const pending: SaveRow[] = [];
    let release!: () => void;
    const allReached = new Promise<void>((resolve) => (release = resolve));
    let reached = 0;
    let settle!: { resolve: (at: Date) => void; reject: (error: unknown) => void };
    const saved = new Promise<Date>((resolve, reject) => (settle = { resolve, reject }));
    saved.catch(() => undefined); // each storing task observes the failure itself
    const tasks = inputs.map((input, index) => {
      let counted = false;
      // A task is "reached" once it has handed its rows over or finished: then the one write may run.
      const reach = () => {
        if (counted) return;
        counted = true;
        reached += 1;
        if (reached === inputs.length) release();
      };
      const io: TrackStatsIo = {
        now,
        // A call the budget did not pay for is never made: this track fails (or serves what is stored) alone.
        call: (fetch) => (permitted.allowed[index] ? limit(fetch) : Promise.reject(permitted.refusal ?? new Error('a track stats call the research budget was not charged for'))),
        store: (rows) => {
          pending.push(...rows);
          reach();
          return saved;
        },
      };
      return this.trackStatsOf(input, io).finally(reach);
    });
    const settled = Promise.allSettled(tasks);
    if (inputs.length) await allReached;
    try {
      settle.resolve(await this.save(pending));
    } catch (error) {
      settle.reject(error);
    }
    return (await settled).map((r) => (r.status === 'fulfilled' ? r.value : r.reason instanceof Error ? r.reason : new Error(String(r.reason))));
  }

  /**
   * Takes one research point per upstream call from the caller's budget (one statement); calls past
   * the budget are refused in order, each answering RATE_LIMITED with the time to retry.
   */
  private async permitProviderCalls(accountId: string, needsCall: boolean[]): Promise<{ allowed: boolean[]; refusal?: RateLimitExceeded }> {
    const wanted = needsCall.filter(Boolean).length;
    if (!wanted) return { allowed: needsCall.map(() => false) };
    const [decision] = await this.collab.rateLimiter.consume([{ budget: 'research', subject: rateSubject({ accountId }, this.collab.clientIp), points: wanted }]);
    // Points the window had left before this charge: that many calls go ahead.
    let left = Math.max(0, decision.limit - (decision.used - wanted));
    const allowed = needsCall.map((needed) => needed && left-- > 0);
    return { allowed, refusal: decision.allowed ? undefined : rateLimitedError(decision) };
  }

  private async trackStatsOf(input: TrackStatsInput, io: TrackStatsIo): Promise<TrackStats> {
    const { idField, id, options } = trackStatsTarget(input);
    const keyOf = (source: string) => keys.trackStats(idField, id, source, options);
    const rows = await Promise.all(input.source.map((s) => this.load('track_stats', keyOf(s))));
    const record = (source: string, row: StoredAnswer): TrackStatsRecord => ({
      source,
      data: isObj(row.payload) ? row.payload : {},
      data_source: 'stored',
      captured_at: row.capturedAt,
    });
    const storedOnly = (): TrackStats => {
      this.collab.tally?.('stored');
      return {
        result: 'success',
        stats: input.source.flatMap((s, i) => (rows[i] ? [record(s, rows[i]!)] : [])),
      };
    };

    const missing = input.source.filter((_, i) => !rows[i] || !this.isFresh(rows[i]!, 'track_stats', io.now));
    if (!missing.length) return storedOnly();
    const gate = this.gate('track_stats');
    if (!gate.configured) {
      if (rows.some(Boolean)) return storedOnly();
      throw this.unconfigured(gate);
    }
    const names = this.providers.platformNames;
    let answer: TrackStatsAnswer;
    try {
      answer = await io.call(() => {
        this.collab.tally?.('provider');
        return this.providers.trackStats.trackStats({ idField, id, sources: missing.map((s) => names.upstream(s)), ...options });
      });
    } catch (error) {
      if (rows.some(Boolean) && (isProviderFailure(error) || error instanceof RateLimitExceeded)) {
        this.collab.log.warn({ idField, id, code: (error as AppError).code }, 'track statistics provider not called or failed; serving stale stored data');
        return storedOnly();
      }
      throw error;
    }
    const fetched = new Map<string, Record<string, unknown>>();
    for (const entry of answer.stats ?? []) {
      const source = names.neutral(String(entry?.source ?? ''));
      if (missing.includes(source) && !fetched.has(source)) fetched.set(source, isObj(entry.data) ? entry.data : {});
    }
    const capturedAt = await io.store([
      ...[...fetched].map(([source, data]) => ({ kind: 'track_stats' as const, key: keyOf(source), source: gate.source, payload: data })),
      { kind: 'track_info', key: keys.trackInfo(idField, id, options), source: gate.source, payload: { track_info: answer.track_info ?? null, source_ids: answer.source_ids ?? [] } },
    ]);
    const stats = input.source.flatMap((source, i): TrackStatsRecord[] => {
      const data = fetched.get(source);
      if (data) return [{ source, data, data_source: 'provider', captured_at: capturedAt }];
      return rows[i] ? [record(source, rows[i]!)] : [];
    });
    return {
      provider_status: 'success',
      result: typeof answer.result === 'string' ? answer.result : 'success',
      message: typeof answer.message === 'string' ? answer.message : null,
      stats,
      track_info: answer.track_info ? toTrackInfo(answer.track_info, names) : null,
      source_ids: Array.isArray(answer.source_ids) ? answer.source_ids.slice(0, LIST_BOUNDS.providerItems).map((s) => names.neutral(String(s))) : null,
    };
  }

  async discover(_viewer: Viewer, input: DiscoverInput): Promise<DiscoveredArtist[]> {
    const min = input.sp_monthly_listeners_min;
    const max = input.sp_monthly_listeners_max;
    const key = keys.discover({ country: input.country, genre: input.genre, min, max, sort: input.sort, limit: input.limit });
    const served = await this.serve('discover', key, this.gate('music_intel'), () =>
      this.providers.musicIntel.discover({
        code2: input.country,
        tagId: input.genre,
        listeners: min !== undefined || max !== undefined ? [min ?? 0, max ?? 2 ** 31 - 1] : undefined,
        sortColumn: input.sort,
        limit: input.limit,
      }),
    );
    return items(served.payload).map(toDiscoveredArtist).slice(0, input.limit);
  }

  async curator(_viewer: Viewer, input: CuratorInput): Promise<CuratorProfile> {
    const served = await this.serve('curator', keys.curator(input.platform, input.id), this.gate('music_intel'), () =>
      this.providers.musicIntel.curator(this.providers.curatorPlatformNames.upstream(input.platform), input.id),
    );
    if (!isObj(served.payload)) throw new AppError('NOT_FOUND', 'Curator not found');
    return toCurator(served.payload, input.platform, input.id, served.capturedAt);
  }

  async genres(_viewer: Viewer): Promise<ResearchGenre[]> {
    const served = await this.serve('genres', keys.genres(), this.gate('music_intel'), () => this.providers.musicIntel.genres());
    return items(served.payload).slice(0, LIST_BOUNDS.researchGenres).map(toGenre).filter((g): g is ResearchGenre => g !== null);
  }

  async search(_viewer: Viewer, input: ResearchSearchInput): Promise<Record<string, unknown>> {
    const served = await this.serve('search', keys.search(input), this.gate('music_intel'), () => this.providers.musicIntel.search(input));
    return neutralSearchResults(served.payload, this.providers.curatorPlatformNames, this.providers.platformNames);
  }

  /** An artist's metadata and latest listener and follower figures (GET /api/artist/{id} upstream). */
  async artistProfile(_viewer: Viewer, input: ArtistInput): Promise<ResearchArtistProfile> {
    const served = await this.serve('artist', keys.artist(input.artist), this.gate('music_intel'), () => this.providers.musicIntel.artist(input.artist));
    if (!isObj(served.payload)) throw new AppError('NOT_FOUND', 'Artist not found');
    return toArtistProfile(served.payload, input.artist, served);
  }

  async artistTracks(_viewer: Viewer, input: ArtistTracksInput): Promise<ResearchTrack[]> {
    const served = await this.serve('artist_tracks', keys.artistTracks(input.artist, input.limit, input.offset), this.gate('music_intel'), () =>
      this.providers.musicIntel.artistTracks(input.artist, input.limit, input.offset),
    );
    return items(served.payload).map(toArtistTrack);
  }

  async artistPlaylists(_viewer: Viewer, input: ArtistPlaylistsInput): Promise<ResearchPlaylist[]> {
    const key = keys.artistPlaylists(input.artist, input.platform, input.status, input.limit, input.offset);
    const served = await this.serve('artist_playlists', key, this.gate('music_intel'), () =>
      this.providers.musicIntel.artistPlaylists(input.artist, this.providers.curatorPlatformNames.upstream(input.platform), input.status, input.limit, input.offset),
    );
    return items(served.payload).map((p) => toArtistPlaylist(p, input.platform));
  }

  async platformSearch(_viewer: Viewer, input: PlatformSearchInput): Promise<PlatformSearchResult> {
    const types = [...input.type].sort();
    const key = keys.platformSearch({ q: input.q, types, market: input.market, limit: input.limit, offset: input.offset });
    const served = await this.serve('platform_search', key, this.gate('platform_a'), () =>
      this.providers.platformA.search({ q: input.q, type: types, market: input.market, limit: input.limit, offset: input.offset }),
    );
    const answer = neutralPlatformSearch(served.payload, this.providers.platformNames, types);
    return {
      ...answer,
      artists: answer.artists ? toPlatformArtistsPage(answer.artists) : null,
    } as PlatformSearchResult;
  }
}

