import { randomUUID } from 'node:crypto';
import type { Viewer } from '../../auth/viewer';
import type { StandingViewer } from '../../auth/standing';
import { AppError, badInput, forbidden, notFound } from '../../common/errors';
import { z } from 'zod';
import { cursorKeys, cursorOf, PageRequest, positionOf } from '../../common/paging';
import type { Logger } from '../../common/logger';
import type { Config } from '../../config/config';
import { pageOf } from '../../graphql/common.types';
import { CODECS } from '../../jobs/codecs';
import { COMPOSITIONS, propsSchema } from '../../jobs/compositions';
import type { RunEvent } from './run-events';
import type { RenderRuntime } from './render.runtime';
import { RenderPayload, RunStatus, TERMINAL_STATUSES } from './render.entity';
import type { CancelRunInput, RunsInput, WatchRunInput, WatchRunsInput } from './render.inputs';
import { applyChange as fromChange, RunsWatch } from './render.live';
import type { RenderLoaders } from './render.loaders';
import { admitRender, checkFitsBudget, RenderLimitError } from './render.quota';
import type { RenderStore, RunView } from './render.repository';
import type { CompositionType, RenderRunPage, RenderRunType } from './render.types';

/** The list name of an account's runs in cursors. */
const RUNS = 'Query.runs';
/** Runs are ordered newest first by creation time, then id: the cursor holds both. */
const RUN_KEY = z.tuple([cursorKeys.micros, cursorKeys.uuid]);

export const RENDER_TASK = 'render-video';

/** The render settings the service applies: admission limits and how long videos are kept. */
export type RenderSettings = Pick<Config['render'], 'maxActivePerAccount' | 'dailyPixelFrames' | 'retentionHours'>;

/**
 * A run as the API shows it (GET /api/tasks/runs, the runs page, subscriptions, webhook payloads):
 * a completed run's output with a fresh signed link, unless the video has expired.
 */
export async function presentRun(
  run: RunView,
  runtime: Pick<RenderRuntime, 'storage' | 'signer'>,
  settings: Pick<RenderSettings, 'retentionHours'>,
): Promise<RenderRunType> {
  // An expired video has no link: the file is gone (the sweep also clears `output`).
  const output = run.status === RunStatus.COMPLETED && run.output && !run.outputExpiredAt ? run.output : null;
  const { retentionHours } = settings;
  const { storage, signer } = runtime;
  // Object storage serves the file itself (presigned GET); the local directory is served by /media/renders.
  const link = output ? (storage.presign ? await storage.presign(output.key) : signer.sign(output.key)) : null;
  return {
    id: run.id,
    status: run.status,
    taskIdentifier: run.taskIdentifier,
    // Stored as jsonb (keys re-ordered): answer in the request's own order.
    payload: {
      compositionId: run.payload.compositionId,
      inputProps: run.payload.inputProps,
      width: run.payload.width,
      height: run.payload.height,
      fps: run.payload.fps,
      durationInFrames: run.payload.durationInFrames,
      codec: run.payload.codec,
    },
    progress: run.progress,
    createdAt: run.createdAt,
    updatedAt: run.updatedAt,
    startedAt: run.startedAt,
    finishedAt: run.finishedAt,
    attempts: run.attempts,
    error: run.error,
    outputExpiredAt: run.outputExpiredAt,
    output: output
      ? {
          ...link!,
          retainedUntil: retentionHours && run.finishedAt ? new Date(run.finishedAt.getTime() + retentionHours * 3600 * 1000) : null,
          mimeType: output.mimeType,
          bytes: output.bytes,
          width: output.width,
          height: output.height,
          fps: output.fps,
          durationInFrames: output.durationInFrames,
          codec: output.codec,
        }
      : null,
  };
}

/** A render_runs row as `to_jsonb` writes it (the webhook event trigger's snapshot), as a RunView. */
export function runViewOfSnapshot(row: Record<string, unknown>): RunView {
  const date = (value: unknown) => (value === null || value === undefined ? null : new Date(value as string));
  return {
    id: row.id as string,
    accountId: row.account_id as string,
    status: row.status as RunStatus,
    taskIdentifier: row.task_identifier as string,
    payload: row.payload as RenderPayload,
    progress: row.progress as number,
    attempts: row.attempts as number,
    version: row.version as number,
    output: (row.output ?? null) as RunView['output'],
    error: (row.error ?? null) as string | null,
    createdAt: date(row.created_at)!,
    updatedAt: date(row.updated_at)!,
    startedAt: date(row.started_at),
    finishedAt: date(row.finished_at),
    outputExpiredAt: date(row.output_expired_at),
  };
}

/** Render runs: admission under the account's limits, reading within reach, cancelling, watching. */
export class RenderService {
  constructor(
    private readonly repo: RenderStore,
    private readonly loaders: Pick<RenderLoaders, 'reachableRunById'>,
    private readonly runtime: Pick<RenderRuntime, 'queue' | 'events' | 'storage' | 'signer' | 'metrics'>,
    private readonly settings: RenderSettings,
    private readonly log: Logger,
  ) {}

  /** Admits the render under the account's limits, then creates the run and its job in one transaction; answers the run as queued. */
  async start(viewer: Viewer, payload: RenderPayload): Promise<RenderRunType> {
    checkFitsBudget(payload, this.settings);
    const runId = randomUUID();
    const jobId = randomUUID();
    const queued = await this.repo.transaction(async (repo) => {
      try {
        await admitRender(repo, viewer.accountId, payload, this.settings);
      } catch (error) {
        if (error instanceof RenderLimitError) this.runtime.metrics.admissionRefused(error.limit);
        throw error;
      }
      const run = await repo.insertRun({ id: runId, accountId: viewer.accountId, taskIdentifier: RENDER_TASK, payload, jobId });
      await this.runtime.queue.enqueue(jobId, { runId }, repo.jobSql());
      return run;
    });
    this.log.info({ runId, compositionId: payload.compositionId, codec: payload.codec }, 'render queued');
    return this.toType(queued);
  }

  /** One run (runId) or the account's runs, newest first. */
  async runs(viewer: Viewer, input: RunsInput, request: PageRequest = { page: input.page, limit: input.limit, after: null }): Promise<RenderRunPage> {
    if (input.runId) {
      if (request.after !== null) throw badInput('after', 'must not be given with runId: runId answers one run');
      const run = await this.reachable(viewer, input.runId);
      if (input.account_id && run.accountId !== input.account_id) throw notFound('Run');
      return { items: [await this.toType(run)], pagination: null, pageInfo: { endCursor: null, hasNextPage: false } };
    }
    const accountId = input.account_id ?? viewer.accountId;
    const position = positionOf(request, RUNS, accountId, RUN_KEY);
    // The account's reach is checked by the page's own statement: an account out of reach is a 403, as AccessPolicy.resolveAccount answers.
    const page = await this.repo.runsPage(viewer, accountId, request.limit, position);
    if (!page.reachable) throw forbidden();
    const items = await Promise.all(page.runs.map((r) => this.toType(r)));
    const { pagination, pageInfo } = pageOf(page.runs, { total: page.total, skipped: page.skipped, limit: request.limit }, (run) => cursorOf(RUNS, accountId, [run.createdMicros, run.id]));
    return { items, pagination, pageInfo };
  }

  /** Cancels a QUEUED or EXECUTING run: its job is dropped and a rendering worker stops ffmpeg. */
  async cancel(viewer: Viewer, input: CancelRunInput): Promise<RenderRunType> {
    const run = await this.reachable(viewer, input.runId);
    const canceled = await this.repo.cancelActive(run.id);
    if (!canceled) throw new AppError('CONFLICT', `Run ${run.id} is ${run.status} and can no longer be canceled`);
    if (canceled.jobId) {
      await this.runtime.queue.cancel(canceled.jobId).catch((error) => this.log.warn({ err: error, runId: run.id }, 'job cancel failed'));
    }
    // Only a COMPLETED run has a stored video (published under the row lock), so this is tidying: an unreachable storage does not undo the cancel.
    await this.runtime.storage.delete(`${run.id}.${CODECS[run.payload.codec].extension}`)
      .catch((error) => this.log.warn({ err: error, runId: run.id }, 'deleting a canceled run\'s video failed'));
    return this.toType(await this.fresh(run.id));
  }

  /** A live view of one run: its current state, then every change until it ends. */
  async watch(viewer: Viewer, input: WatchRunInput, standing?: StandingViewer): Promise<AsyncIterableIterator<RenderRunType | Error>> {
    const { runId } = input;
    // The viewer must still reach the run: checked when its account changes and before every state that carries a signed link.
    const stillReaches = async () => {
      const now = standing ? await standing.current() : viewer;
      if (!now) throw new AppError('UNAUTHENTICATED', 'The credential was revoked; the subscription has ended');
      const [run] = await this.repo.reachableRuns(now, [runId]);
      if (!run) throw new AppError('NOT_FOUND', 'Run not found: it is no longer within your reach; the subscription has ended');
    };
    const watch = new RunWatch((view) => this.toType(view), () => this.fresh(runId), stillReaches);
    // Listen first, then read: a change committed in between is not missed (versions order them).
    const off = await this.runtime.events.subscribe(runId, (event) => watch.push(event));
    watch.onClose(off);
    try {
      const run = await this.reachable(viewer, runId);
      // The subscriber's changes, and the run owner's (the owner leaving the organization they share ends the reach too).
      if (standing) watch.onClose(standing.onChange(() => watch.recheck(), [run.accountId]));
      watch.begin(run);
    } catch (error) {
      await watch.return();
      throw error;
    }
    return watch;
  }

  /**
   * A live view of every run the viewer reaches (its own, its organizations' and their members',
   * its roster's: the reach rule of `runs`): the newest `initial` runs first, then every change,
   * new runs included, from every instance, until the subscriber leaves or its credential is revoked.
   */
  async watchAll(viewer: Viewer, input: WatchRunsInput, standing?: StandingViewer): Promise<AsyncIterableIterator<RenderRunType | Error>> {
    const statuses = input.status?.length ? (input.status as RunStatus[]) : null;
    const watch = new RunsWatch(viewer, statuses, {
      recent: (now, wanted, limit) => this.repo.recentReachableRuns(now, wanted, limit),
      changedSince: (now, since, limit) => this.repo.reachableRunsChangedSince(now, since, limit),
      reaches: (now, accountId) => this.repo.reachesAccount(now, accountId),
      fresh: (id) => this.repo.freshRun(id),
      present: (run) => this.toType(run),
      current: () => (standing ? standing.current() : Promise.resolve(viewer)),
      watchAccount: (accountId, listener) => (standing ? standing.watchAccount(accountId, listener) : () => undefined),
    });
    // Listen first, then read: a change committed in between is applied after the first runs (versions order them).
    const off = await this.runtime.events.subscribeAll((event) => watch.push(event));
    watch.onClose(off);
    try {
      if (standing) watch.onClose(standing.onChange(() => watch.viewerChanged()));
      watch.begin(await this.repo.recentReachableRuns(viewer, statuses, input.initial));
    } catch (error) {
      await watch.return();
      throw error;
    }
    return watch;
  }

  compositions(): CompositionType[] {
    return COMPOSITIONS.map((c) => ({ id: c.id, title: c.title, description: c.description, props: propsSchema(c), example: c.example }));
  }

  /** Federation: a RenderRun by id, or null when absent or out of the caller's reach. */
  async reference(viewer: Viewer, id: string): Promise<RenderRunType | null> {
    if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
    const run = await this.loaders.reachableRunById.load({ viewer, id });
    return run ? this.toType(run) : null;
  }

  /** The run as stored now, for a state the request itself just changed or was told of. */
  private async fresh(id: string): Promise<RunView> {
    const run = await this.repo.freshRun(id);
    if (!run) throw notFound('Run');
    return run;
  }

  /** The run when the caller may reach its account; otherwise it does not exist (404). */
  private async reachable(viewer: Viewer, id: string): Promise<RunView> {
    const run = await this.loaders.reachableRunById.load({ viewer, id });
    if (!run) throw notFound('Run');
    return run;
  }

  private toType(run: RunView): Promise<RenderRunType> {
    return presentRun(run, this.runtime, this.settings);
  }
}

/**
 * The async iterator behind the renderRun subscription: yields the run as it is, then each newer
 * version announced on the bus, and ends after a final state. `return()` (client unsubscribed)
 * releases the listener at once, even while waiting.
 */
class RunWatch implements AsyncIterableIterator<RenderRunType | Error> {
  private current?: RunView;
  /** Why the subscription ends early (lost reach, revoked credential): delivered once as the last value. */
  private failure?: Error;
  private readonly pending: RunEvent[] = [];
  private waiting?: (result: IteratorResult<RenderRunType | Error>) => void;
  private startYielded = false;
  private finished = false;
  private closers: (() => void)[] = [];
  private busy = false;

  constructor(
    private readonly present: (run: RunView) => Promise<RenderRunType>,
    private readonly reload: () => Promise<RunView>,
    private readonly stillReaches: () => Promise<void>,
  ) {}

  /**
   * The viewer's account (or the run owner's) changed: ends the subscription with the reason if it
   * no longer reaches the run. A check that could not be made (database unavailable) leaves it
   * running: the check before a signed link still holds.
   */
  recheck(): void {
    if (this.finished || this.failure) return;
    this.stillReaches().catch((error: unknown) => {
      if (error instanceof AppError && (error.code === 'UNAUTHENTICATED' || error.code === 'NOT_FOUND')) this.fail(error);
    });
  }

  private fail(error: unknown): void {
    if (this.finished || this.failure) return;
    this.failure = error instanceof Error ? error : new Error(String(error));
    this.pending.length = 0;
    this.pump();
  }

  onClose(close: () => void): void {
    this.closers.push(close);
  }

  begin(run: RunView): void {
    this.current = run;
    this.pump();
  }

  push(event: RunEvent): void {
    this.pending.push(event);
    this.pump();
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<RenderRunType | Error> {
    return this;
  }

  next(): Promise<IteratorResult<RenderRunType | Error>> {
    if (this.finished) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => {
      this.waiting = resolve;
      this.pump();
    });
  }

  async return(): Promise<IteratorResult<RenderRunType | Error>> {
    this.finish();
    return { value: undefined, done: true };
  }

  private finish(): void {
    if (this.finished) return;
    this.finished = true;
    for (const close of this.closers.splice(0)) close();
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.({ value: undefined, done: true });
  }

  private deliver(run: RunView): void {
    const waiting = this.waiting!;
    this.waiting = undefined;
    // Presenting may sign a link (async): pump waits, so states are delivered in order.
    this.busy = true;
    // No link is signed for a viewer who no longer reaches the run.
    (run.output ? this.stillReaches() : Promise.resolve())
      .then(
        () => this.present(run).then((value) => (this.failure ? this.giveFailure(waiting) : waiting({ value, done: false }))),
        (error: unknown) => {
          this.failure ??= error instanceof Error ? error : new Error(String(error));
          this.giveFailure(waiting);
        },
      )
      .catch(() => {
        this.finish();
        waiting({ value: undefined, done: true });
      })
      .finally(() => {
        this.busy = false;
        this.pump();
      });
  }

  /** The failure as the last value (the resolver throws it: an error with its code), then the end. */
  private giveFailure(waiting: (result: IteratorResult<RenderRunType | Error>) => void): void {
    const failure = this.failure!;
    this.finish();
    waiting({ value: failure, done: false });
  }

  /** Hands the next newer state to a waiting next(); ends after a final state was delivered. */
  private pump(): void {
    if (this.busy || this.finished || !this.waiting) return;
    if (this.failure) {
      const waiting = this.waiting;
      this.waiting = undefined;
      this.giveFailure(waiting);
      return;
    }
    if (!this.current) return;
    if (!this.startYielded) {
      this.startYielded = true;
      this.deliver(this.current);
      return;
    }
    if (TERMINAL_STATUSES.includes(this.current.status)) {
      this.finish();
      return;
    }
    const event = this.pending.shift();
    if (!event) return;
    if (event === 'resync') {
      this.busy = true;
      this.reload()
        .then((fresh) => {
          this.busy = false;
          if (this.current && fresh.version > this.current.version && this.waiting) {
            this.current = fresh;
            this.deliver(fresh);
          } else this.pump();
        })
        .catch(() => {
          this.busy = false;
          this.pump();
        });
      return;
    }
    if (event.version <= this.current.version) {
      this.pump();
      return;
    }
    this.current = fromChange(event, this.current);
    this.deliver(this.current);
  }
}
