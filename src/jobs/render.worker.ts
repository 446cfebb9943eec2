import type PgBoss from 'pg-boss';
import { join } from 'node:path';
import type { Logger } from '../common/logger';
import type { Config } from '../config/config';
import type { Orm } from '../db/orm';
import type { RenderPayload, StoredOutput } from '../modules/render/render.entity';
import { CODECS } from './codecs';
import { findComposition } from './compositions';
import { AssetWriter } from './compositions/composition';
import { encode, ffmpegPath } from './encoder';
import type { RenderJobData, RenderQueue } from './queue';
import type { RunEventBus } from './run-events';
import type { RenderStorage } from './storage';

export interface RenderWorkerDeps {
  orm: Orm;
  queue: RenderQueue;
  events: RunEventBus;
  storage: RenderStorage;
  config: Config['render'];
  logger: Logger;
}

type StopReason = 'canceled' | 'shutdown' | 'timeout';

class RenderStopped extends Error {
  constructor(readonly reason: StopReason) {
    super(`render stopped: ${reason}`);
  }
}

/** A render that can never succeed (its composition or props are gone): failed at once, not retried. */
class PermanentRenderError extends Error {}

/**
 * Render workers: take jobs from the queue, render them with ffmpeg, store the file and record
 * each state change on the run. Idempotent: a retried run renders again and replaces its file.
 */
export class RenderWorker {
  private readonly active = new Map<string, { abort: AbortController; done: Promise<unknown> }>();
  private stopping = false;

  constructor(private readonly deps: RenderWorkerDeps) {}

  async start(concurrency = this.deps.config.workers): Promise<void> {
    await this.deps.queue.work(
      Math.max(1, concurrency),
      (job) => this.track(job.data.runId, (abort) => this.handle(job, abort)),
      (job) => this.giveUp(job),
    );
    this.deps.logger.info({ concurrency }, 'render worker started');
  }

  /** Stops taking jobs; waits up to `graceMs` for renders in hand, then releases them to the queue. */
  async stop(graceMs: number): Promise<void> {
    this.stopping = true;
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

  private sql<T = Record<string, unknown>>(text: string, params: unknown[] = []): Promise<T[]> {
    return this.deps.orm.em.getConnection().execute<T[]>(text, params);
  }

  private async handle(job: PgBoss.JobWithMetadata<RenderJobData>, abort: AbortController): Promise<void> {
    const { runId } = job.data;
    const log = this.deps.logger.child({ runId, jobId: job.id, retryCount: job.retryCount });
    // A job fetched while stopping is handed back untouched (pg-boss retries it elsewhere).
    if (this.stopping) throw new RenderStopped('shutdown');
    const claimed = await this.sql<{ payload: RenderPayload; attempts: number }>(
      `update render_runs set status = 'EXECUTING', started_at = coalesce(started_at, now()), attempts = attempts + 1,
              progress = 0, error = null, finished_at = null
        where id = ? and status in ('QUEUED', 'EXECUTING') returning payload, attempts`,
      [runId],
    );
    if (!claimed.length) {
      log.info('run is no longer waiting (canceled or finished); job dropped');
      return;
    }
    const payload = claimed[0].payload;
    const attempt = claimed[0].attempts;
    // Cancel arrives by NOTIFY; should LISTEN be down, a progress write that finds the run canceled stops it too.
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
    const scratch = `${runId}-${attempt}`;
    // Leftovers of earlier attempts (a worker that died mid-render) go: a retry never duplicates files.
    for (let earlier = 1; earlier < attempt; earlier += 1) await this.deps.storage.removeScratch(`${runId}-${earlier}`).catch(() => undefined);
    const codec = CODECS[payload.codec];
    const key = `${runId}.${codec.extension}`;
    try {
      const composition = findComposition(payload.compositionId);
      if (!composition) throw new PermanentRenderError(`Unknown composition ${payload.compositionId}`);
      const parsed = composition.props.safeParse(payload.inputProps);
      if (!parsed.success) throw new PermanentRenderError('The run\'s inputProps no longer fit its composition');
      const dir = await this.deps.storage.scratchDir(scratch);
      const spec = { width: payload.width, height: payload.height, fps: payload.fps, durationInFrames: payload.durationInFrames };
      const graph = await composition.build(parsed.data, spec, new AssetWriter(dir));
      const partial = join(dir, `video.${codec.extension}`);
      log.info({ compositionId: payload.compositionId, codec: payload.codec, ...spec }, 'render started');
      await encode({
        ffmpegPath: ffmpegPath(this.deps.config.ffmpegPath),
        graph,
        spec,
        codec: payload.codec,
        output: partial,
        signal: abort.signal,
        onFrame: this.progressWriter(runId, payload.durationInFrames, abort),
      });
      const { bytes } = await this.deps.storage.put(key, partial);
      const output: StoredOutput = { key, mimeType: codec.mimeType, bytes, ...spec, codec: payload.codec };
      const done = await this.sql(
        `update render_runs set status = 'COMPLETED', progress = 1, output = ?::jsonb, finished_at = now()
          where id = ? and status = 'EXECUTING' returning id`,
        [JSON.stringify(output), runId],
      );
      if (!done.length) await this.deps.storage.delete(key);
      log.info({ bytes, completed: done.length > 0 }, 'render finished');
    } catch (error) {
      await this.afterFailure(job, runId, key, error, log);
    } finally {
      clearTimeout(timer);
      off();
      await this.deps.storage.removeScratch(scratch).catch(() => undefined);
    }
  }

  private async afterFailure(job: PgBoss.JobWithMetadata<RenderJobData>, runId: string, key: string, error: unknown, log: Logger): Promise<void> {
    const reason = error instanceof RenderStopped ? error.reason : undefined;
    if (reason === 'canceled') {
      await this.deps.storage.delete(key);
      log.info('render canceled; files removed');
      return;
    }
    if (reason === 'shutdown') {
      // Released: back to QUEUED; throwing lets pg-boss hand the job to another worker.
      await this.sql(`update render_runs set status = 'QUEUED', progress = 0 where id = ? and status = 'EXECUTING'`, [runId]);
      log.warn('render released at shutdown');
      throw error;
    }
    const message = reason === 'timeout' ? `Render did not finish within ${job.expireInSeconds} s` : (error as Error)?.message || 'Render failed';
    const permanent = error instanceof PermanentRenderError;
    if (permanent || job.retryCount >= job.retryLimit) {
      await this.sql(`update render_runs set status = 'FAILED', error = ?, finished_at = now() where id = ? and status = 'EXECUTING'`, [message, runId]);
      log.error({ err: error }, 'render failed');
      if (permanent) return;
    } else {
      await this.sql(`update render_runs set status = 'QUEUED', error = ? where id = ? and status = 'EXECUTING'`, [message, runId]);
      log.warn({ err: error }, 'render failed; will retry');
    }
    throw error;
  }

  /** Writes progress as frames encode, at most once per RENDER_PROGRESS_INTERVAL_MS; a canceled run stops ffmpeg. */
  private progressWriter(runId: string, frames: number, abort: AbortController) {
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
      this.sql(`update render_runs set progress = ? where id = ? and status = 'EXECUTING' returning id`, [value, runId])
        .then((rows) => {
          if (!rows.length) abort.abort(new RenderStopped('canceled'));
        })
        .catch((error) => this.deps.logger.warn({ err: error, runId }, 'progress write failed'))
        .finally(() => {
          writing = false;
        });
    };
  }

  /** A job that used up its retries (e.g. its worker died on the last attempt): the run is FAILED. */
  private async giveUp(job: PgBoss.JobWithMetadata<RenderJobData>): Promise<void> {
    await this.sql(
      `update render_runs set status = 'FAILED', finished_at = now(),
              error = coalesce(error, 'Render gave up after ' || attempts || ' attempts')
        where id = ? and status in ('QUEUED', 'EXECUTING')`,
      [job.data.runId],
    );
  }
}
