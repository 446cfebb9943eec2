import type { Logger } from '../../common/logger';
import type { Config } from '../../config/config';
import type { Orm } from '../../db/orm';
import type { RenderQueue } from '../../jobs/queue';
import type { RenderStorage } from '../../jobs/storage';
import type { RenderMetrics } from './render.metrics';
import { RenderRunsRepository } from './render-runs.repository';
import { poolDb } from '../../db/request-db';

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

  private readonly runs: RenderRunsRepository;

  constructor(private readonly deps: RenderMaintenanceDeps) {
    this.runs = new RenderRunsRepository(poolDb(deps.orm));
  }

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
    const { heartbeatTimeoutS } = this.deps.config;
    let taken = 0;
    for (const id of await this.runs.staleRuns(heartbeatTimeoutS)) if (await this.takeOver(id)) taken += 1;
    await this.runs.dropOrphanLeases(heartbeatTimeoutS);
    return taken;
  }

  private async takeOver(runId: string): Promise<boolean> {
    const { config, queue, logger } = this.deps;
    const outcome = await this.runs.takeOver(runId, config.heartbeatTimeoutS, config.retryLimit, queue);
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
      const count = await this.runs.expireOutputs(retentionHours, SWEEP_BATCH, (key) => this.deps.storage.delete(key));
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
