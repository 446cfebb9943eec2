import type { EntityManager } from '@mikro-orm/postgresql';
import PgBoss from 'pg-boss';
import type { Logger } from '../common/logger';
import type { Config } from '../config/config';
import { withSessionLock } from '../db/session-lock';

export const RENDER_QUEUE = 'render-video';
/** Jobs that used up their retries land here; a worker marks their runs FAILED. */
export const RENDER_DEAD_LETTER_QUEUE = 'render-video-dead';
export const PGBOSS_SCHEMA = 'pgboss';
/** Processes set the queues up one at a time: pg-boss's create_queue deadlocks when two run at once on a fresh database. */
export const QUEUE_SETUP_LOCK = 'mas:render-queue-setup';

export interface RenderJobData {
  runId: string;
}

/** Runs pg-boss's SQL on a connection of the caller's choice (a transaction). */
export interface SqlExecutor {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

type Handler = (job: PgBoss.JobWithMetadata<RenderJobData>) => Promise<void>;

/**
 * The render queue: pg-boss in the service's own PostgreSQL (schema `pgboss`). Started lazily,
 * once per process; every job carries its retry limit, backoff and expiry explicitly.
 */
export class RenderQueue {
  private boss?: PgBoss;
  private starting?: Promise<PgBoss>;
  private readonly workerIds: string[] = [];

  constructor(
    private readonly url: string,
    private readonly config: Config['render'],
    private readonly logger: Logger,
    private readonly poolMax = 4,
  ) {}

  start(): Promise<PgBoss> {
    // A start that fails (database away) is forgotten, so the next call tries again.
    this.starting ??= this.open().catch((error: unknown) => {
      this.starting = undefined;
      throw error;
    });
    return this.starting;
  }

  private async open(): Promise<PgBoss> {
    const boss = new PgBoss({
      connectionString: this.url,
      schema: PGBOSS_SCHEMA,
      max: this.poolMax,
      application_name: 'render-queue',
      supervise: true,
      maintenanceIntervalSeconds: this.config.maintenanceIntervalS,
    } as PgBoss.ConstructorOptions);
    // Without a listener pg-boss's errors (a lost connection, a failed poll) would crash the process.
    boss.on('error', (error) => this.logger.error({ err: error }, 'render queue error'));
    try {
      await withSessionLock(this.url, QUEUE_SETUP_LOCK, async () => {
        await boss.start();
        await boss.createQueue(RENDER_DEAD_LETTER_QUEUE, { name: RENDER_DEAD_LETTER_QUEUE, retryLimit: 5, retryDelay: 5, retryBackoff: true, expireInSeconds: 60 });
        const policy = this.jobPolicy();
        await boss.createQueue(RENDER_QUEUE, { name: RENDER_QUEUE, ...policy, deadLetter: RENDER_DEAD_LETTER_QUEUE });
        await boss.updateQueue(RENDER_QUEUE, { name: RENDER_QUEUE, ...policy, deadLetter: RENDER_DEAD_LETTER_QUEUE });
      });
    } catch (error) {
      // Release its pool and timers; a later start builds a fresh one.
      await boss.stop({ graceful: false, wait: true }).catch(() => undefined);
      throw error;
    }
    this.boss = boss;
    return boss;
  }

  /**
   * Creates (or updates) another queue on this process's pg-boss (the webhook deliveries), under
   * the same setup lock as the render queue's; answers the started pg-boss.
   */
  async ensureQueue(name: string, options: Omit<PgBoss.Queue, 'name'>): Promise<PgBoss> {
    const boss = await this.start();
    await withSessionLock(this.url, QUEUE_SETUP_LOCK, async () => {
      await boss.createQueue(name, { name, ...options });
      await boss.updateQueue(name, { name, ...options });
    });
    return boss;
  }

  private jobPolicy() {
    return {
      retryLimit: this.config.retryLimit,
      retryDelay: this.config.retryDelayS,
      retryBackoff: true,
      expireInSeconds: this.config.jobExpireS,
    };
  }

  /**
   * Enqueues a run's job through `db` (the transaction that creates the run): both or neither.
   * `retryLimit` overrides the configured one (a taken-over run keeps only the retries it has left).
   */
  async enqueue(jobId: string, data: RenderJobData, db: SqlExecutor, { retryLimit }: { retryLimit?: number } = {}): Promise<void> {
    const boss = await this.start();
    const policy = { ...this.jobPolicy(), ...(retryLimit === undefined ? {} : { retryLimit }) };
    await boss.send(RENDER_QUEUE, data, { id: jobId, ...policy, deadLetter: RENDER_DEAD_LETTER_QUEUE, db } as PgBoss.SendOptions);
  }

  /** Cancels a job that has not finished (created, retry or active), through `db` when given. */
  async cancel(jobId: string, db?: SqlExecutor): Promise<void> {
    const boss = await this.start();
    await boss.cancel(RENDER_QUEUE, jobId, db ? ({ db } as PgBoss.ConnectionOptions) : undefined);
  }

  /** Starts `concurrency` pollers on the render queue and one on its dead-letter queue. */
  async work(concurrency: number, handler: Handler, deadLetter: Handler): Promise<void> {
    const boss = await this.start();
    const options = { batchSize: 1, includeMetadata: true as const, pollingIntervalSeconds: this.config.pollIntervalMs / 1000 };
    for (let i = 0; i < concurrency; i += 1) {
      this.workerIds.push(await boss.work<RenderJobData>(RENDER_QUEUE, options, async ([job]) => handler(job)));
    }
    this.workerIds.push(await boss.work<RenderJobData>(RENDER_DEAD_LETTER_QUEUE, options, async ([job]) => deadLetter(job)));
  }

  /** Stops polling for new jobs; jobs in hand carry on. */
  async offWork(): Promise<void> {
    if (!this.boss) return;
    for (const id of this.workerIds.splice(0)) await this.boss.offWork({ id });
  }

  async stop(): Promise<void> {
    const starting = this.starting;
    if (!starting) return;
    this.starting = undefined;
    const boss = await starting.catch(() => undefined);
    this.boss = undefined;
    await boss?.stop({ graceful: true, wait: true, timeout: 1000 });
  }
}

/** pg-boss writes `$1` placeholders; knex (MikroORM's transaction) takes `?`. */
export function toKnexBindings(text: string, values: unknown[] = []): { sql: string; bindings: unknown[] } {
  const bindings: unknown[] = [];
  const sql = text.replace(/\?/g, '\\?').replace(/\$(\d+)/g, (_match, n: string) => {
    const value = values[Number(n) - 1];
    // knex expands an array binding into a list; pg-boss means a PostgreSQL array (`unnest($2::uuid[])`).
    bindings.push(value === undefined ? null : Array.isArray(value) ? pgArrayLiteral(value) : value);
    return '?';
  });
  return { sql, bindings };
}

function pgArrayLiteral(values: unknown[]): string {
  return `{${values.map((v) => `"${String(v).replace(/["\\]/g, (c) => `\\${c}`)}"`).join(',')}}`;
}

/** pg-boss's SQL run inside `em`'s transaction, so a job is sent or cancelled with the rows written beside it. */
export function sqlExecutorOf(em: EntityManager): SqlExecutor {
  return {
    executeSql: async (text, values) => {
      const { sql, bindings } = toKnexBindings(text, values);
      const rows = await em.getConnection().execute<unknown[]>(sql, bindings, 'all', em.getTransactionContext());
      return { rows };
    },
  };
}
