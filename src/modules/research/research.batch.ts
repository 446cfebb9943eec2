import DataLoader from 'dataloader';
import { requireViewer } from '../../auth/access';
import { validate } from '../../common/validation';
import type { Context } from '../../graphql/context';
import { trackStatsInput, TrackStatsInput } from './research.inputs';
import { ResearchService } from './research.service';
import type { TrackStatsResult } from './research.types';

/** Provider calls one batch of track stats makes at once: enough to overlap, few enough to be polite. */
export const TRACK_STATS_CONCURRENCY = 4;

const perRequest = new WeakMap<Context, DataLoader<TrackStatsInput, TrackStatsResult, string>>();

/**
 * Track stats by validated input (ISRC + options), per request: every Song.stats of one level of a
 * query lands in one batch (one stored-data read, bounded provider calls, one write).
 */
export function trackStatsLoader(ctx: Context): DataLoader<TrackStatsInput, TrackStatsResult, string> {
  let loader = perRequest.get(ctx);
  if (!loader) {
    loader = new DataLoader((inputs) => new ResearchService(ctx).trackStatsBatch(inputs, TRACK_STATS_CONCURRENCY), { cacheKeyFn: (input) => JSON.stringify(input) });
    perRequest.set(ctx, loader);
  }
  return loader;
}

/** Song.stats and ResearchTrack.stats: the same records as GET /api/research/track/stats for the song's ISRC, batched per request. */
export function songStats(ctx: Context, isrc: string, args: Record<string, unknown>): Promise<TrackStatsResult> {
  requireViewer(ctx.viewer);
  const present = Object.fromEntries(Object.entries(args).filter(([, v]) => v !== null && v !== undefined));
  const input = validate(trackStatsInput, { ...present, isrc });
  // Queue the stored-answer reads now, so they share one statement with this level's other research reads.
  void ctx.loaders.researchAnswer.loadMany(new ResearchService(ctx).trackStatsAnswerKeys(input));
  return trackStatsLoader(ctx).load(input);
}
