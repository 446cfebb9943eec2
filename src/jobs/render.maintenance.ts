import type { EntityManager } from '@mikro-orm/postgresql';
import { randomUUID } from 'node:crypto';
import type { Logger } from '../common/logger';
import type { Config } from '../config/config';
import type { Orm } from '../db/orm';
import type { RenderQueue } from './queue';
import type { RenderMetrics } from './render.metrics';
import { sqlExecutorOf } from './runtime';
import type { RenderStorage } from './storage';

export interface RenderMaintenanceDeps {
  orm: Orm;
  queue: RenderQueue;
  storage: RenderStorage;
  metrics: RenderMetrics;
  config: Config['render'];
  logger: Logger;
}

/** Rows the retention sweep handles per transaction. */
const SWEEP_BATCH = 100;

/** Leftover scratch directories of a run's attempts (`<runId>-<attempt>`). */
export async function removeScratches(storage: RenderStorage, runId: string, attempts: number): Promise<void> {
  for (let attempt = 1; attempt <= attempts; attempt += 1) await storage.removeScratch(`${runId}-${attempt}`).catch(() => undefined);
}

/**
 * What every render worker process does besides rendering: takes over runs whose worker stopped
 * heart-beating, and deletes videos older than RENDER_RETENTION_HOURS. Rows are claimed with
 * `for update skip locked`, so with several workers each run is handled by exactly one.
 */
export class RenderMaintenance {
  private timers: NodeJS.Timeout[] = [];
  private running = new Set<Promise<unknown>>();

  constructor(private readonly deps: RenderMaintenanceDeps) {}

  start(): void {
    const { heartbeatIntervalS, maintenanceIntervalS } = this.deps.config;
    this.every(heartbeatIntervalS, () => this.takeOverStaleRuns());
    this.every(maintenanceIntervalS, () => this.expireOutputs());
  }

  async stop(): Promise<void> {
    for (const timer of this.timers.splice(0)) clearInterval(timer);
    await Promise.allSettled([...this.running]);
  }

  private every(seconds: number, task: () => Promise<unknown>): void {
    let busy = false;
    const tick = () => {
      if (busy) return;
      busy = true;
      const run = task()
        .catch((error) => this.deps.logger.warn({ err: error }, 'render maintenance failed; next round retries'))
        .finally(() => {
          busy = false;
          this.running.delete(run);
        });
      this.running.add(run);
    };
    const timer = setInterval(tick, seconds * 1000);
    timer.unref();
    this.timers.push(timer);
    tick();
  }

  /**
   * EXECUTING runs whose lease was not renewed within RENDER_HEARTBEAT_TIMEOUT_S: their worker died
   * or hangs. The dead attempt's job is cancelled (its late answers then change nothing) and the
   * run goes back to the queue under a new job with the retries it has left, or FAILED without any.
   */
  async takeOverStaleRuns(): Promise<number> {
    const stale = await this.deps.orm.em.getConnection().execute<{ id: string }[]>(
      `select r.id from render_runs r left join render_leases l on l.run_id = r.id
        where r.status = 'EXECUTING' and coalesce(l.heartbeat_at, r.updated_at) < now() - make_interval(secs => ?)
        order by r.id limit 50`,
      [this.deps.config.heartbeatTimeoutS],
    );
    let taken = 0;
    for (const { id } of stale) if (await this.takeOver(id)) taken += 1;
    // Leases left by workers that died after their run was canceled or finished elsewhere.
    await this.deps.orm.em.getConnection().execute(
      `delete from render_leases l using render_runs r
        where r.id = l.run_id and r.status <> 'EXECUTING' and l.heartbeat_at < now() - make_interval(secs => ?)`,
      [this.deps.config.heartbeatTimeoutS],
    );
    return taken;
  }

  private async takeOver(runId: string): Promise<boolean> {
    const { config, queue, logger } = this.deps;
    const outcome = await this.deps.orm.em.fork().transactional(async (tx) => {
      const em = tx as EntityManager;
      const sql = <T>(text: string, params: unknown[]) => em.getConnection().execute<T[]>(text, params, 'all', em.getTransactionContext());
      // Checked again under the row lock: the lease may have been renewed, or another worker be on it.
      const [run] = await sql<{ job_id: string | null; attempts: number }>(
        `select r.job_id, r.attempts from render_runs r left join render_leases l on l.run_id = r.id
          where r.id = ? and r.status = 'EXECUTING' and coalesce(l.heartbeat_at, r.updated_at) < now() - make_interval(secs => ?)
          for update of r skip locked`,
        [runId, config.heartbeatTimeoutS],
      );
      if (!run) return undefined;
      const db = sqlExecutorOf(em);
      if (run.job_id) await queue.cancel(run.job_id, db);
      await sql('delete from render_leases where run_id = ?', [runId]);
      const retriesLeft = config.retryLimit - run.attempts;
      if (retriesLeft < 0) {
        await sql(
          `update render_runs set status = 'FAILED', finished_at = now(), error = ? where id = ?`,
          [`The worker rendering this run stopped responding; gave up after ${run.attempts} attempts`, runId],
        );
        return { failed: true, attempts: run.attempts };
      }
      const jobId = randomUUID();
      await sql(
        `update render_runs set status = 'QUEUED', progress = 0, job_id = ?, error = ? where id = ?`,
        [jobId, 'The worker rendering this run stopped responding; it was queued again', runId],
      );
      await queue.enqueue(jobId, { runId }, db, { retryLimit: retriesLeft });
      return { failed: false, attempts: run.attempts };
    });
    if (!outcome) return false;
    this.deps.metrics.leaseTakenOver();
    if (outcome.failed) await removeScratches(this.deps.storage, runId, outcome.attempts);
    logger.warn({ runId, attempts: outcome.attempts, failed: outcome.failed }, 'render worker stopped heart-beating; run taken over');
    return true;
  }

  /**
   * Deletes videos of runs finished more than RENDER_RETENTION_HOURS ago; the run keeps saying so
   * (`outputExpiredAt`, `output` null). Files are deleted under the row lock: should the commit
   * fail, the next sweep deletes again (deleting a missing file is no error).
   */
  async expireOutputs(): Promise<number> {
    const { retentionHours } = this.deps.config;
    if (retentionHours === 0) return 0;
    let total = 0;
    for (;;) {
      const count = await this.deps.orm.em.fork().transactional(async (tx) => {
        const em = tx as EntityManager;
        const sql = <T>(text: string, params: unknown[]) => em.getConnection().execute<T[]>(text, params, 'all', em.getTransactionContext());
        const rows = await sql<{ id: string; key: string }>(
          `select id, output->>'key' as key from render_runs
            where output is not null and finished_at < now() - make_interval(hours => ?)
            order by finished_at limit ${SWEEP_BATCH} for update skip locked`,
          [retentionHours],
        );
        for (const row of rows) {
          await this.deps.storage.delete(row.key);
          await sql('update render_runs set output = null, output_expired_at = now() where id = ?', [row.id]);
        }
        return rows.length;
      });
      total += count;
      if (count < SWEEP_BATCH) break;
    }
    if (total) {
      this.deps.metrics.outputsExpired(total);
      this.deps.logger.info({ count: total, retentionHours }, 'expired render outputs deleted');
    }
    return total;
  }
}
