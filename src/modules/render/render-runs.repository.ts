import type { EntityManager } from '@mikro-orm/postgresql';
import { randomUUID } from 'node:crypto';
import { PGBOSS_SCHEMA, RENDER_QUEUE, RenderQueue, sqlExecutorOf } from '../../jobs/queue';
import type { RenderPayload, StoredOutput } from './render.entity';
import type { Db } from '../../db/request-db';

/** What a stale run's takeover did: re-queued with the retries left, or failed without any. */
export interface TakeOver {
  failed: boolean;
  attempts: number;
}

/**
 * The statements of a run's life after it is queued: the worker's claim, lease, progress and
 * outcome (each fenced by the attempt number), the maintenance's takeovers and retention sweep,
 * and the operators' gauges. Requests' reads and writes of runs are in render.repository.ts.
 */
export class RenderRunsRepository {
  /** `db`: the process's database (poolDb); each transaction runs on a fork of the ORM's entity manager. */
  constructor(private readonly db: Db) {}

  private sql<T = Record<string, unknown>>(text: string, params: unknown[] = []): Promise<T[]> {
    return this.db.execute<T>(text, params);
  }

  /** Runs `work` in a transaction, handing it a statement runner bound to it. */
  private transaction<T>(work: (sql: <R>(text: string, params: unknown[]) => Promise<R[]>, em: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transactional(async (tx) => work(<R>(text: string, params: unknown[]) => tx.execute<R>(text, params), tx.em));
  }

  // ---- the worker ----

  /**
   * Claims the run for a new attempt (EXECUTING, attempts + 1) and takes its lease, only when
   * `jobId` is still the run's job (a job replaced at a takeover is stale). Undefined: not claimed.
   */
  async claim(runId: string, jobId: string, worker: string): Promise<{ payload: RenderPayload; attempts: number } | undefined> {
    const rows = await this.sql<{ payload: RenderPayload; attempts: number }>(
      `with claimed as (
         update render_runs set status = 'EXECUTING', started_at = coalesce(started_at, now()), attempts = attempts + 1,
                progress = 0, error = null, finished_at = null
          where id = ? and job_id = ? and status in ('QUEUED', 'EXECUTING') returning id, payload, attempts
       ), lease as (
         insert into render_leases (run_id, attempt, worker, heartbeat_at) select id, attempts, ?, now() from claimed
         on conflict (run_id) do update set attempt = excluded.attempt, worker = excluded.worker, heartbeat_at = excluded.heartbeat_at
       )
       select payload, attempts from claimed`,
      [runId, jobId, worker],
    );
    return rows[0];
  }

  /** Drops the attempt's lease (a later attempt's is left alone). */
  async dropLease(runId: string, attempt: number): Promise<void> {
    await this.sql('delete from render_leases where run_id = ? and attempt = ?', [runId, attempt]);
  }

  /** The run is EXECUTING under this attempt. */
  async isAttemptOf(runId: string, attempt: number): Promise<boolean> {
    return (await this.sql(`select id from render_runs where id = ? and status = 'EXECUTING' and attempts = ?`, [runId, attempt])).length > 0;
  }

  /**
   * Marks the run COMPLETED with the output `publish` answers, under the run's row lock and only
   * while the run is still this attempt's: a takeover cannot interleave. Undefined (publish not
   * called) when the run is no longer the attempt's.
   */
  completeAttempt(runId: string, attempt: number, publish: () => Promise<StoredOutput>): Promise<StoredOutput | undefined> {
    return this.transaction(async (sql) => {
      const mine = await sql(`select id from render_runs where id = ? and status = 'EXECUTING' and attempts = ? for update`, [runId, attempt]);
      if (!mine.length) return undefined;
      const output = await publish();
      await sql(`update render_runs set status = 'COMPLETED', progress = 1, output = ?::jsonb, finished_at = now() where id = ?`, [JSON.stringify(output), runId]);
      return output;
    });
  }

  /** Renews the attempt's lease; false when the run is no longer this attempt's (taken over, canceled, finished). */
  async renewLease(runId: string, attempt: number): Promise<boolean> {
    const rows = await this.sql(
      `update render_leases l set heartbeat_at = now() from render_runs r
        where l.run_id = ? and l.attempt = ? and r.id = l.run_id and r.status = 'EXECUTING' and r.attempts = l.attempt
        returning r.id`,
      [runId, attempt],
    );
    return rows.length > 0;
  }

  /** Hands the attempt's run back to the queue (QUEUED, no progress): released at shutdown. */
  async release(runId: string, attempt: number): Promise<void> {
    await this.sql(`update render_runs set status = 'QUEUED', progress = 0 where id = ? and status = 'EXECUTING' and attempts = ?`, [runId, attempt]);
  }

  /** The attempt failed for good. */
  async fail(runId: string, attempt: number, message: string): Promise<void> {
    await this.sql(`update render_runs set status = 'FAILED', error = ?, finished_at = now() where id = ? and status = 'EXECUTING' and attempts = ?`, [message, runId, attempt]);
  }

  /** The attempt failed; the run waits for its retry (QUEUED, the error kept). */
  async awaitRetry(runId: string, attempt: number, message: string): Promise<void> {
    await this.sql(`update render_runs set status = 'QUEUED', error = ? where id = ? and status = 'EXECUTING' and attempts = ?`, [message, runId, attempt]);
  }

  /** Writes the attempt's progress; false when the run is no longer this attempt's (canceled, taken over). */
  async writeProgress(runId: string, attempt: number, progress: number): Promise<boolean> {
    const rows = await this.sql(`update render_runs set progress = ? where id = ? and status = 'EXECUTING' and attempts = ? returning id`, [progress, runId, attempt]);
    return rows.length > 0;
  }

  /** A job that used up its retries: its waiting or executing run is FAILED; answers its attempts, undefined when it had ended already. */
  async giveUp(runId: string): Promise<number | undefined> {
    const rows = await this.sql<{ attempts: number }>(
      `update render_runs set status = 'FAILED', finished_at = now(),
              error = coalesce(error, 'Render gave up after ' || attempts || ' attempts')
        where id = ? and status in ('QUEUED', 'EXECUTING') returning attempts`,
      [runId],
    );
    return rows[0]?.attempts;
  }

  // ---- the maintenance ----

  /** EXECUTING runs whose lease was not renewed within `timeoutS` (at most 50). */
  async staleRuns(timeoutS: number): Promise<string[]> {
    const rows = await this.sql<{ id: string }>(
      `select r.id from render_runs r left join render_leases l on l.run_id = r.id
        where r.status = 'EXECUTING' and coalesce(l.heartbeat_at, r.updated_at) < now() - make_interval(secs => ?)
        order by r.id limit 50`,
      [timeoutS],
    );
    return rows.map((r) => r.id);
  }

  /** Leases left by workers that died after their run was canceled or finished elsewhere. */
  async dropOrphanLeases(timeoutS: number): Promise<void> {
    await this.sql(
      `delete from render_leases l using render_runs r
        where r.id = l.run_id and r.status <> 'EXECUTING' and l.heartbeat_at < now() - make_interval(secs => ?)`,
      [timeoutS],
    );
  }

  /**
   * Takes a stale run over, in one transaction checked again under the row lock (the lease may
   * have been renewed, or another worker be on it): the dead attempt's job is cancelled and the run
   * goes back to the queue under a new job with the retries it has left, or FAILED without any.
   * Undefined: nothing to take over.
   */
  takeOver(runId: string, timeoutS: number, retryLimit: number, queue: Pick<RenderQueue, 'cancel' | 'enqueue'>): Promise<TakeOver | undefined> {
    return this.transaction(async (sql, em) => {
      const [run] = await sql<{ job_id: string | null; attempts: number }>(
        `select r.job_id, r.attempts from render_runs r left join render_leases l on l.run_id = r.id
          where r.id = ? and r.status = 'EXECUTING' and coalesce(l.heartbeat_at, r.updated_at) < now() - make_interval(secs => ?)
          for update of r skip locked`,
        [runId, timeoutS],
      );
      if (!run) return undefined;
      const db = sqlExecutorOf(em);
      if (run.job_id) await queue.cancel(run.job_id, db);
      await sql('delete from render_leases where run_id = ?', [runId]);
      const retriesLeft = retryLimit - run.attempts;
      if (retriesLeft < 0) {
        await sql(`update render_runs set status = 'FAILED', finished_at = now(), error = ? where id = ?`, [
          `The worker rendering this run stopped responding; gave up after ${run.attempts} attempts`,
          runId,
        ]);
        return { failed: true, attempts: run.attempts };
      }
      const jobId = randomUUID();
      await sql(`update render_runs set status = 'QUEUED', progress = 0, job_id = ?, error = ? where id = ?`, [
        jobId,
        'The worker rendering this run stopped responding; it was queued again',
        runId,
      ]);
      await queue.enqueue(jobId, { runId }, db, { retryLimit: retriesLeft });
      return { failed: false, attempts: run.attempts };
    });
  }

  /**
   * One batch of the retention sweep, in one transaction: up to `batch` runs finished more than
   * `hours` ago that still have a video, each file deleted (`deleteFile`) under the row lock, then
   * the run marked expired (`output` null, `output_expired_at`). Answers the runs handled.
   */
  expireOutputs(hours: number, batch: number, deleteFile: (key: string) => Promise<void>): Promise<number> {
    return this.transaction(async (sql) => {
      const rows = await sql<{ id: string; key: string }>(
        `select id, output->>'key' as key from render_runs
          where output is not null and finished_at < now() - make_interval(hours => ?)
          order by finished_at limit ${Number(batch)} for update skip locked`,
        [hours],
      );
      for (const row of rows) {
        await deleteFile(row.key);
        await sql('update render_runs set output = null, output_expired_at = now() where id = ?', [row.id]);
      }
      return rows.length;
    });
  }

  // ---- the gauges (read on scrape, one cheap statement each: partial indexes) ----

  /** Render jobs waiting in the queue (created or waiting to retry); 0 before the queue's tables exist. */
  async waitingJobs(): Promise<number> {
    const rows = await this.sql<{ n: number }>(
      `select count(*)::int as n from ${PGBOSS_SCHEMA}.job where name = '${RENDER_QUEUE}' and state in ('created', 'retry')`,
    ).catch(() => [{ n: 0 }]); // the queue's tables appear when it first starts
    return rows[0].n;
  }

  /** Runs QUEUED and EXECUTING. */
  async activeRuns(): Promise<{ QUEUED: number; EXECUTING: number }> {
    const rows = await this.sql<{ status: string; n: number }>(
      `select status, count(*)::int as n from render_runs where status in ('QUEUED', 'EXECUTING') group by status`,
    );
    return { QUEUED: rows.find((r) => r.status === 'QUEUED')?.n ?? 0, EXECUTING: rows.find((r) => r.status === 'EXECUTING')?.n ?? 0 };
  }
}
