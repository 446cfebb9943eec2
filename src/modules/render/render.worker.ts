import type PgBoss from 'pg-boss';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { Logger } from '../../common/logger';
import type { Config } from '../../config/config';
import type { Orm } from '../../db/orm';
import { CODECS } from '../../jobs/codecs';
import { findComposition } from '../../jobs/compositions';
import { AssetWriter, mediaProblems } from '../../jobs/compositions/composition';
import { encode, ffmpegPath } from '../../jobs/encoder';
import type { RenderJobData, RenderQueue } from '../../jobs/queue';
import type { RenderStorage } from '../../jobs/storage';
import type { StoredOutput } from './render.entity';
import { RenderMaintenance, removeScratches } from './render.maintenance';
import type { RenderMetrics } from './render.metrics';
import { RenderRunsRepository } from './render-runs.repository';
import type { RunEventBus } from './run-events';
import { poolDb } from '../../db/request-db';

export interface RenderWorkerDeps {
  orm: Orm;
  queue: RenderQueue;
  events: RunEventBus;
  storage: RenderStorage;
  metrics: RenderMetrics;
  config: Config['render'];
  logger: Logger;
}

/** `lost`: the run's lease was taken over (this worker was thought dead) or the run left EXECUTING. */
type StopReason = 'canceled' | 'shutdown' | 'timeout' | 'lost';

class RenderStopped extends Error {
  constructor(readonly reason: StopReason) {
    super(`render stopped: ${reason}`);
  }
}

/** A render that can never succeed (its composition or props are gone): failed at once, not retried. */
class PermanentRenderError extends Error {}

/** How a failed attempt ended, for render_runs_finished_total. */
function outcomeOf(error: unknown, job: PgBoss.JobWithMetadata<RenderJobData>): string {
  const reason = error instanceof RenderStopped ? error.reason : undefined;
  if (reason === 'canceled') return 'CANCELED';
  if (reason === 'lost') return 'LOST';
  if (reason === 'shutdown') return 'RELEASED';
  return error instanceof PermanentRenderError || job.retryCount >= job.retryLimit ? 'FAILED' : 'RETRY';
}

/**
 * Render workers: take jobs from the queue, render them with ffmpeg, store the file and record
 * each state change on the run. Idempotent: a retried run renders again and replaces its file.
 *
 * Each attempt holds a lease (render_leases) renewed every RENDER_HEARTBEAT_INTERVAL_S; every
 * write of an attempt is fenced by its attempt number, so an attempt whose lease was taken over
 * (RenderMaintenance) changes nothing, and its file never replaces or removes the new attempt's.
 */
export class RenderWorker {
  private readonly active = new Map<string, { abort: AbortController; done: Promise<unknown> }>();
  private stopping = false;
  private readonly maintenance: RenderMaintenance;
  private readonly runs: RenderRunsRepository;
  /** Names this process in leases (for operators reading render_leases). */
  private readonly workerName = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;

  constructor(private readonly deps: RenderWorkerDeps) {
    this.maintenance = new RenderMaintenance(deps);
    this.runs = new RenderRunsRepository(poolDb(deps.orm));
  }

  async start(concurrency = this.deps.config.workers): Promise<void> {
    await this.deps.queue.work(
      Math.max(1, concurrency),
      (job) => this.track(job.data.runId, (abort) => this.handle(job, abort)),
      (job) => this.giveUp(job),
    );
    this.maintenance.start();
    this.deps.logger.info({ concurrency }, 'render worker started');
  }

  /** Stops taking jobs; waits up to `graceMs` for renders in hand, then releases them to the queue. */
  async stop(graceMs: number): Promise<void> {
    this.stopping = true;
    await this.maintenance.stop();
    await this.deps.queue.offWork();
    const all = () => Promise.allSettled([...this.active.values()].map((a) => a.done));
    let timer: NodeJS.Timeout | undefined;
    const timedOut = await Promise.race([
      all().then(() => false),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(true), graceMs);
      }),
    ]);
    if (timer) clearTimeout(timer);
    if (timedOut) {
      for (const { abort } of this.active.values()) abort.abort(new RenderStopped('shutdown'));
      await all();
    }
  }

  private async track(runId: string, run: (abort: AbortController) => Promise<void>): Promise<void> {
    const abort = new AbortController();
    const done = run(abort);
    this.active.set(runId, { abort, done });
    try {
      await done;
    } finally {
      if (this.active.get(runId)?.abort === abort) this.active.delete(runId);
    }
  }

  private async handle(job: PgBoss.JobWithMetadata<RenderJobData>, abort: AbortController): Promise<void> {
    const { runId } = job.data;
    const log = this.deps.logger.child({ runId, jobId: job.id, retryCount: job.retryCount });
    // A job fetched while stopping is handed back untouched (pg-boss retries it elsewhere).
    if (this.stopping) throw new RenderStopped('shutdown');
    const startedAt = Date.now();
    // Only the run's current job may claim it: a job replaced at a takeover is stale.
    const claimed = await this.runs.claim(runId, job.id, this.workerName);
    if (!claimed) {
      log.info('run is no longer waiting for this job (canceled, finished or taken over); job dropped');
      return;
    }
    const { payload, attempts: attempt } = claimed;
    // Cancel arrives by NOTIFY; should LISTEN be down, a progress write or heartbeat that finds the run canceled stops it too.
    const off = await this.deps.events
      .subscribe(runId, (event) => {
        if (event !== 'resync' && event.status === 'CANCELED') abort.abort(new RenderStopped('canceled'));
      })
      .catch((error) => {
        log.warn({ err: error }, 'run events unavailable; cancel is noticed at the next progress write');
        return () => undefined;
      });
    // Stop before pg-boss gives the job up, so two renders of one attempt never overlap for long.
    const timer = setTimeout(() => abort.abort(new RenderStopped('timeout')), Math.max(1, job.expireInSeconds * 1000 - 500));
    const heartbeat = this.heartbeat(runId, attempt, abort, log);
    const scratch = `${runId}-${attempt}`;
    // Leftovers of earlier attempts (a worker that died mid-render) go: a retry never duplicates files.
    await removeScratches(this.deps.storage, runId, attempt - 1);
    const codec = CODECS[payload.codec];
    const key = `${runId}.${codec.extension}`;
    let outcome = 'COMPLETED';
    try {
      const composition = findComposition(payload.compositionId);
      if (!composition) throw new PermanentRenderError(`Unknown composition ${payload.compositionId}`);
      const parsed = composition.props.safeParse(payload.inputProps);
      if (!parsed.success) throw new PermanentRenderError('The run\'s inputProps no longer fit its composition');
      // Checked again here: a run queued before a lower RENDER_MAX_IMAGE_SIDE (or by another version) is not decoded.
      const tooLarge = mediaProblems(composition.props, parsed.data, this.deps.config);
      if (tooLarge.length) throw new PermanentRenderError(`inputProps.${tooLarge[0].path} ${tooLarge[0].message}`);
      const dir = await this.deps.storage.scratchDir(scratch);
      const spec = { width: payload.width, height: payload.height, fps: payload.fps, durationInFrames: payload.durationInFrames };
      const graph = await composition.build(parsed.data, spec, new AssetWriter(dir, this.deps.config));
      const partial = join(dir, `video.${codec.extension}`);
      log.info({ compositionId: payload.compositionId, codec: payload.codec, attempt, ...spec }, 'render started');
      await encode({
        ffmpegPath: ffmpegPath(this.deps.config.ffmpegPath),
        graph,
        spec,
        codec: payload.codec,
        output: partial,
        signal: abort.signal,
        onFrame: this.progressWriter(runId, attempt, payload.durationInFrames, abort),
      });
      const stored = await this.complete(runId, attempt, key, partial, (bytes) => ({ key, mimeType: codec.mimeType, bytes, ...spec, codec: payload.codec }), abort.signal);
      if (!stored) outcome = 'LOST';
      log.info({ bytes: stored?.bytes, completed: Boolean(stored) }, stored ? 'render finished' : 'render finished, but the run is no longer this attempt\'s: file dropped');
    } catch (thrown) {
      // An aborted upload throws the SDK's own AbortError: the abort's reason says why it stopped.
      const error = abort.signal.aborted && !(thrown instanceof RenderStopped) && abort.signal.reason instanceof RenderStopped ? abort.signal.reason : thrown;
      outcome = outcomeOf(error, job);
      await this.afterFailure(job, runId, attempt, key, error, log);
    } finally {
      clearTimeout(timer);
      clearInterval(heartbeat);
      off();
      await this.runs.dropLease(runId, attempt).catch(() => undefined);
      await this.deps.storage.removeScratch(scratch).catch(() => undefined);
      this.deps.metrics.attemptEnded(outcome, payload.codec, (Date.now() - startedAt) / 1000);
    }
  }

  /**
   * Uploads the finished file unpublished, then publishes it and marks the run COMPLETED under the
   * run's row lock, only while the run is still this attempt's: a takeover cannot interleave, and a
   * late attempt's upload is discarded, never replacing the winner's file.
   * Returns the stored output, or undefined when the run is no longer `attempt`'s.
   */
  async complete(runId: string, attempt: number, key: string, partial: string, describe: (bytes: number) => StoredOutput, signal?: AbortSignal): Promise<StoredOutput | undefined> {
    // Checked before the upload too, so a late attempt does not upload a video only to discard it.
    if (!(await this.runs.isAttemptOf(runId, attempt))) return undefined;
    const staged = await this.deps.storage.stage(key, partial, signal);
    let published = false;
    try {
      return await this.runs.completeAttempt(runId, attempt, async () => {
        await staged.commit();
        published = true;
        return describe(staged.bytes);
      });
    } finally {
      if (!published) await staged.discard().catch(() => undefined);
    }
  }

  /** Renews the attempt's lease; when the run is no longer this attempt's, the render stops. */
  private heartbeat(runId: string, attempt: number, abort: AbortController, log: Logger): NodeJS.Timeout {
    let beating = false;
    const timer = setInterval(() => {
      if (beating || abort.signal.aborted) return;
      beating = true;
      this.runs
        .renewLease(runId, attempt)
        .then((renewed) => {
          if (renewed || abort.signal.aborted) return;
          log.warn('lease lost (run taken over, canceled or finished elsewhere); stopping this attempt');
          abort.abort(new RenderStopped('lost'));
        })
        // A missed beat is survivable: the lease outlives several intervals.
        .catch((error) => log.warn({ err: error }, 'heartbeat failed'))
        .finally(() => {
          beating = false;
        });
    }, this.deps.config.heartbeatIntervalS * 1000);
    timer.unref();
    return timer;
  }

  /** Records why the attempt ended; throws to let pg-boss retry when a retry is due. */
  private async afterFailure(job: PgBoss.JobWithMetadata<RenderJobData>, runId: string, attempt: number, key: string, error: unknown, log: Logger): Promise<void> {
    const reason = error instanceof RenderStopped ? error.reason : undefined;
    if (reason === 'canceled') {
      await this.deps.storage.delete(key);
      log.info('render canceled; files removed');
      return;
    }
    // Lost: another attempt owns the run (or it ended); nothing of this one is recorded, its job is already replaced.
    if (reason === 'lost') return;
    if (reason === 'shutdown') {
      // Released: back to QUEUED; throwing lets pg-boss hand the job to another worker.
      await this.runs.release(runId, attempt);
      log.warn('render released at shutdown');
      throw error;
    }
    const message = reason === 'timeout' ? `Render did not finish within ${job.expireInSeconds} s` : (error as Error)?.message || 'Render failed';
    const permanent = error instanceof PermanentRenderError;
    if (permanent || job.retryCount >= job.retryLimit) {
      await this.runs.fail(runId, attempt, message);
      log.error({ err: error }, 'render failed');
      if (permanent) return;
    } else {
      await this.runs.awaitRetry(runId, attempt, message);
      log.warn({ err: error }, 'render failed; will retry');
    }
    throw error;
  }

  /** Writes progress as frames encode, at most once per RENDER_PROGRESS_INTERVAL_MS; a canceled run stops ffmpeg. */
  private progressWriter(runId: string, attempt: number, frames: number, abort: AbortController) {
    let lastWrite = 0;
    let lastValue = 0;
    let writing = false;
    return (frame: number) => {
      const value = Math.min(0.99, Math.floor((frame / frames) * 100) / 100);
      const now = Date.now();
      if (writing || value <= lastValue || now - lastWrite < this.deps.config.progressIntervalMs) return;
      writing = true;
      lastWrite = now;
      lastValue = value;
      this.runs
        .writeProgress(runId, attempt, value)
        .then((written) => {
          if (written || abort.signal.aborted) return;
          // Canceled (the NOTIFY may be late), or no longer this attempt's: either way this render stops.
          abort.abort(new RenderStopped('lost'));
        })
        .catch((error) => this.deps.logger.warn({ err: error, runId }, 'progress write failed'))
        .finally(() => {
          writing = false;
        });
    };
  }

  /** A job that used up its retries (e.g. its worker died on the last attempt): the run is FAILED. */
  private async giveUp(job: PgBoss.JobWithMetadata<RenderJobData>): Promise<void> {
    const attempts = await this.runs.giveUp(job.data.runId);
    if (attempts !== undefined) await removeScratches(this.deps.storage, job.data.runId, attempts);
  }
}
