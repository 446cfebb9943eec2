import DataLoader from 'dataloader';
import type { Viewer } from '../../auth/viewer';
import type { Context } from '../../request/context';
import { researchService } from './research.context';
import type { TrackStatsInput } from './research.inputs';
import { trackStatsAnswerKeys } from './research.service';
import type { TrackStats } from './research.types';

/** Provider calls one batch of track stats makes at once: enough to overlap, few enough to be polite. */
export const TRACK_STATS_CONCURRENCY = 4;

const perRequest = new WeakMap<Context, DataLoader<TrackStatsInput, TrackStats, string>>();

/**
 * Track stats by validated input (ISRC + options), per request: every Song.stats of one level of a
 * query lands in one batch (one stored-data read, bounded provider calls, one write).
 */
function trackStatsLoader(ctx: Context, viewer: Viewer): DataLoader<TrackStatsInput, TrackStats, string> {
  let loader = perRequest.get(ctx);
  if (!loader) {
    const service = researchService(ctx);
    loader = new DataLoader((inputs) => service.trackStatsBatch(viewer, inputs, TRACK_STATS_CONCURRENCY), { cacheKeyFn: (input) => JSON.stringify(input) });
    perRequest.set(ctx, loader);
  }
  return loader;
}

/** Song.stats and ResearchTrack.stats: the same records as GET /api/research/track/stats for the song's ISRC (validated input), batched per request. */
export function batchedTrackStats(ctx: Context, viewer: Viewer, input: TrackStatsInput): Promise<TrackStats> {
  // Queue the stored-answer reads now, so they share one statement with this level's other research reads.
  void ctx.loaders.researchAnswer.loadMany(trackStatsAnswerKeys(input));
  return trackStatsLoader(ctx, viewer).load(input);
}
