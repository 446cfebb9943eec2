import { epochMicros, fromEpochMicros, Position } from '../../common/paging';
import { skippedSql } from '../../db/pages';
import { reachCondition } from '../../auth/access';
import type { Viewer } from '../../auth/viewer';
import type { SqlExecutor } from '../../jobs/queue';
import { sqlExecutorOf } from '../../jobs/queue';
import { pgArray } from '../../db/sql';
import { Account } from '../account';
import { RenderPayload, RenderRun, RunStatus, StoredOutput } from './render.entity';
import type { Db } from '../../db/request-db';

const WINDOW = "interval '24 hours'";
/** A run canceled before any worker started it rendered nothing: it costs no budget. */
const COUNTED = "(status <> 'CANCELED' or started_at is not null)";

/** A run as the service reads it (a row of render_runs, or a NOTIFY change applied to one). */
export interface RunView {
  id: string;
  accountId: string;
  status: RunStatus;
  taskIdentifier: string;
  payload: RenderPayload;
  progress: number;
  attempts: number;
  version: number;
  output: StoredOutput | null;
  error: string | null;
  createdAt: Date;
  updatedAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  outputExpiredAt: Date | null;
}

/** One page of an account's runs, with the account's total; `reachable` false: the caller may not read that account (nothing else is read). */
export interface RunsPage {
  reachable: boolean;
  total: number;
  /** Runs of the account before the page. */
  skipped: number;
  /** Each run with its creation time in microseconds since the epoch (the list's sort key, for cursors). */
  runs: (RunView & { createdMicros: string })[];
}

/** A run's columns as raw SQL returns them (timestamps as text, jsonb parsed), under the alias `run`. */
const RUN_COLUMNS = `run.id, run.account_id, run.status, run.task_identifier, run.payload, run.progress, run.attempts, run.version,
       run.output, run.error, run.created_at, run.updated_at, run.started_at, run.finished_at, run.output_expired_at`;

interface RunRow {
  id: string;
  account_id: string;
  status: RunStatus;
  task_identifier: string;
  payload: RenderPayload;
  progress: number;
  attempts: number;
  version: number;
  output: StoredOutput | null;
  error: string | null;
  created_at: string;
  updated_at: string;
  started_at: string | null;
  finished_at: string | null;
  output_expired_at: string | null;
}

/** The repository's public shape: what the service, the admission rules and the loaders ask of it (and what a test fakes). */
export type RenderStore = Pick<RenderRepository, keyof RenderRepository>;

/** The new run's row: its job is enqueued beside it, in the same transaction. */
export interface NewRun {
  id: string;
  accountId: string;
  taskIdentifier: string;
  payload: RenderPayload;
  jobId: string;
}

/**
 * Every read and write of render runs made on behalf of a request (the worker and the queue keep
 * their own SQL in src/jobs). Reads of one run compose the reach predicate, so a run of an account
 * the viewer cannot reach is not found by the same statement.
 */
export class RenderRepository {
  constructor(private readonly db: Db) {}

  /** Runs `work` in one transaction, on a repository bound to it. */
  transaction<T>(work: (repo: RenderStore) => Promise<T>): Promise<T> {
    return this.db.transactional((tx) => work(new RenderRepository(tx)));
  }

  /**
   * The runs among `ids` whose account the viewer reaches, in one statement; the others are simply
   * absent. Raw rows, not entities: a status poll is the hottest read and needs no unit of work.
   */
  async reachableRuns(viewer: Viewer, ids: readonly string[]): Promise<RunView[]> {
    // Not `r` or `m`: the reach predicate's own subqueries use those aliases.
    const reach = reachCondition(viewer, 'run.account_id');
    const rows = await this.hotRows<RunRow>(
      `select ${RUN_COLUMNS} from render_runs run where run.id = any(?::uuid[]) and ${reach.sql}`,
      [pgArray(ids), ...reach.bindings],
    );
    return rows.map((row) => this.toRunView(row));
  }

  /** The run as stored now (not as this request first read it); no reach check: callers read it through reachableRuns first. */
  async freshRun(id: string): Promise<RunView | null> {
    const [row] = await this.rows<RunRow>(`select ${RUN_COLUMNS} from render_runs run where run.id = ?`, [id]);
    return row ? this.toRunView(row) : null;
  }

  /**
   * One page of the account's runs, newest first, with the account's total and whether the viewer
   * reaches the account, in ONE statement (an unreachable account reads no run and counts none).
   */
  async runsPage(viewer: Viewer, accountId: string, limit: number, position: Position<readonly string[]>): Promise<RunsPage> {
    const reach = reachCondition(viewer, 'asked.account_id');
    // Newest first: after a cursor, the page starts after the runs at or above its (creation time, id).
    const skip = skippedSql(position, ([at, id]) => ({
      sql: `(select count(*)::int from render_runs run join target on target.reachable and run.account_id = target.account_id
              where (run.created_at, run.id) >= (${fromEpochMicros}, ?::uuid))`,
      bindings: [at, id],
    }));
    const rows = await this.hotRows<Partial<RunRow> & { reachable: boolean; total: number; skipped: number; created_micros: string }>(
      `with target as (
         select asked.account_id, ${reach.sql} as reachable from (select ?::uuid as account_id) asked
       ),
       skip as (select ${skip.sql} as n),
       page as (
         select ${RUN_COLUMNS}, ${epochMicros('run.created_at')} as created_micros
           from render_runs run join target on target.reachable and run.account_id = target.account_id
          order by run.created_at desc, run.id desc
          limit ? offset (select n from skip)
       ),
       counted as (
         select count(*)::int as total from render_runs run join target on target.reachable and run.account_id = target.account_id
       )
       select target.reachable, counted.total, (select n from skip) as skipped, page.*
         from target cross join counted left join page on true
        order by page.created_at desc, page.id desc`,
      [...reach.bindings, accountId, ...skip.bindings, limit],
    );
    const [first] = rows;
    return {
      reachable: first.reachable,
      total: first.total,
      skipped: Number(first.skipped),
      // An empty page still answers one row (the flags), with no run in it.
      runs: rows
        .filter((row): row is RunRow & { reachable: boolean; total: number; skipped: number; created_micros: string } => row.id != null)
        .map((row) => ({ ...this.toRunView(row), createdMicros: row.created_micros })),
    };
  }

  /**
   * The newest runs (at most `limit`) of every account the viewer reaches, newest first, whose
   * status is among `statuses` (null: any), in one statement: what the renderRuns subscription
   * sends first.
   */
  async recentReachableRuns(viewer: Viewer, statuses: readonly RunStatus[] | null, limit: number): Promise<RunView[]> {
    if (limit <= 0) return [];
    const wanted = statuses ? pgArray(statuses) : null;
    // An admin reaches every run; anyone else, the runs of the accounts the reach rule names: each
    // account's newest from its (account_id, created_at) index, not a scan of every run.
    const rows = viewer.isAdmin
      ? await this.hotRows<RunRow>(
          `select ${RUN_COLUMNS} from render_runs run
            where (?::text[] is null or run.status = any(?::text[]))
            order by run.created_at desc, run.id desc limit ?`,
          [wanted, wanted, limit],
        )
      : await this.reachableNewest(viewer, wanted, limit);
    return rows.map((row) => this.toRunView(row));
  }

  private reachableNewest(viewer: Viewer, wanted: string | null, limit: number): Promise<RunRow[]> {
    const reach = reachCondition(viewer, 'reached.id');
    return this.hotRows<RunRow>(
      `select run.* from accounts reached
        cross join lateral (
          select ${RUN_COLUMNS} from render_runs run
           where run.account_id = reached.id and (?::text[] is null or run.status = any(?::text[]))
           order by run.created_at desc, run.id desc limit ?
        ) run
        where ${reach.sql}
        order by run.created_at desc, run.id desc limit ?`,
      [wanted, wanted, limit, ...reach.bindings, limit],
    );
  }

  /**
   * The runs of every account the viewer reaches changed at or after `since` (at most `limit`,
   * the most recently changed first): what a live stream may have missed while its event
   * connection was down.
   */
  async reachableRunsChangedSince(viewer: Viewer, since: Date, limit: number): Promise<RunView[]> {
    const reach = reachCondition(viewer, 'run.account_id');
    const rows = await this.hotRows<RunRow>(
      `select ${RUN_COLUMNS} from render_runs run where ${reach.sql} and run.updated_at >= ? order by run.updated_at desc, run.id desc limit ?`,
      [...reach.bindings, since, limit],
    );
    return rows.map((row) => this.toRunView(row));
  }

  /** Whether the viewer reaches the account (and so its runs), by the one reach rule. */
  async reachesAccount(viewer: Viewer, accountId: string): Promise<boolean> {
    const reach = reachCondition(viewer, 'asked.account_id');
    const [row] = await this.hotRows<{ reachable: boolean }>(
      `select ${reach.sql} as reachable from (select ?::uuid as account_id) asked`,
      [...reach.bindings, accountId],
    );
    return row?.reachable === true;
  }

  /** Inserts the run (its job is enqueued with jobSql() in the same transaction); answers it as inserted. */
  async insertRun(run: NewRun): Promise<RunView> {
    const row = this.db.em.create(RenderRun, { id: run.id, account: this.db.em.getReference(Account, run.accountId), taskIdentifier: run.taskIdentifier, payload: run.payload, jobId: run.jobId });
    await this.db.em.flush();
    return {
      id: row.id,
      accountId: run.accountId,
      status: row.status,
      taskIdentifier: row.taskIdentifier,
      payload: row.payload,
      progress: row.progress,
      attempts: row.attempts,
      version: row.version,
      output: row.output,
      error: row.error,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
      startedAt: row.startedAt,
      finishedAt: row.finishedAt,
      outputExpiredAt: row.outputExpiredAt,
    };
  }

  /** pg-boss's statements on this repository's connection, so a job is sent inside its transaction. */
  jobSql(): SqlExecutor {
    return sqlExecutorOf(this.db.em);
  }

  /** Cancels the run if it is QUEUED or EXECUTING; null when it was in neither state. */
  async cancelActive(runId: string): Promise<{ jobId: string | null } | null> {
    const rows = await this.rows<{ job_id: string | null }>(
      `update render_runs set status = 'CANCELED', finished_at = now()
        where id = ? and status in ('QUEUED', 'EXECUTING') returning job_id`,
      [runId],
    );
    return rows.length ? { jobId: rows[0].job_id } : null;
  }

  /** When the run's video was deleted under the retention policy; null when it was not (or there is no such run). */
  async outputExpiredAt(runId: string): Promise<Date | null> {
    const rows = await this.rows<{ output_expired_at: Date | null }>('select output_expired_at from render_runs where id = ?', [runId]);
    return rows[0]?.output_expired_at ?? null;
  }

  /** Serializes render admission per account until the transaction ends. */
  async lockAdmission(accountId: string): Promise<void> {
    await this.rows(`select pg_advisory_xact_lock(hashtextextended('render-admission:' || ?, 0))`, [accountId]);
  }

  /** The account's renders QUEUED or EXECUTING, and the pixel-frames it used in the rolling 24 hours (as text: a bigint). */
  async admissionUsage(accountId: string): Promise<{ active: number; used: string }> {
    const [usage] = await this.rows<{ active: number; used: string }>(
      `select count(*) filter (where status in ('QUEUED', 'EXECUTING'))::int as active,
              coalesce(sum(pixel_frames) filter (where created_at > now() - ${WINDOW} and ${COUNTED}), 0)::text as used
         from render_runs
        where account_id = ? and (status in ('QUEUED', 'EXECUTING') or created_at > now() - ${WINDOW})`,
      [accountId],
    );
    return usage;
  }

  /** The account's renders under way with some progress: how far along each is and for how many seconds it has run. */
  executingProgress(accountId: string): Promise<{ progress: number; elapsed: number }[]> {
    return this.rows<{ progress: number; elapsed: number }>(
      `select progress, extract(epoch from now() - started_at)::float8 as elapsed
         from render_runs where account_id = ? and status = 'EXECUTING' and started_at is not null and progress > 0.01`,
      [accountId],
    );
  }

  /** Seconds until enough of the window's oldest renders leave it to free `over` pixel-frames; null when none would. */
  async budgetFreedIn(accountId: string, over: number): Promise<number | null> {
    const [row] = await this.rows<{ wait: number }>(
      `select extract(epoch from created_at + ${WINDOW} - now())::float8 as wait
         from (select created_at, sum(pixel_frames) over (order by created_at, id) as freed
                 from render_runs where account_id = ? and created_at > now() - ${WINDOW} and ${COUNTED}) w
        where freed >= ? order by created_at limit 1`,
      [accountId, over],
    );
    return row?.wait ?? null;
  }

  /** A raw row as a RunView; timestamps are parsed as the ORM parses them for the entity. */
  private toRunView(row: RunRow): RunView {
    const platform = this.db.platform;
    const date = (value: string | null) => (value === null ? null : (platform.parseDate(value) as Date));
    return {
      id: row.id,
      accountId: row.account_id,
      status: row.status,
      taskIdentifier: row.task_identifier,
      payload: row.payload,
      progress: row.progress,
      attempts: row.attempts,
      version: row.version,
      output: row.output,
      error: row.error,
      createdAt: date(row.created_at)!,
      updatedAt: date(row.updated_at)!,
      startedAt: date(row.started_at),
      finishedAt: date(row.finished_at),
      outputExpiredAt: date(row.output_expired_at),
    };
  }

  /** A hot read (status polls, the runs page): a prepared statement, unless inside a transaction. */
  private hotRows<T>(sql: string, params: unknown[]): Promise<T[]> {
    return this.db.hot<T>(sql, params);
  }

  /** A raw statement on this repository's connection, inside its transaction if any. */
  private rows<T>(sql: string, params: unknown[]): Promise<T[]> {
    return this.db.execute<T>(sql, params);
  }
}
