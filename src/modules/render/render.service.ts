import type { EntityManager } from '@mikro-orm/postgresql';
import { randomUUID } from 'node:crypto';
import { requireViewer } from '../../auth/access';
import { AppError, FieldProblem, notFound } from '../../common/errors';
import { validate, zodProblems } from '../../common/validation';
import type { Context } from '../../graphql/context';
import { Pagination, pagination } from '../../graphql/common.types';
import { CODECS } from '../../jobs/codecs';
import { COMPOSITIONS, compositionIds, findComposition, propsSchema } from '../../jobs/compositions';
import type { RunChange, RunEvent } from '../../jobs/run-events';
import { sqlExecutorOf } from '../../jobs/runtime';
import { Account } from '../account';
import { RenderPayload, RenderRun, RunStatus, StoredOutput, TERMINAL_STATUSES } from './render.entity';
import { cancelRunInput, renderVideoInput, runsInput, watchRunInput } from './render.inputs';
import { admitRender, checkFitsBudget, RenderLimitError } from './render.quota';
import { CompositionType, ProcessingStatus, RenderRunType, RenderStarted } from './render.types';

export const RENDER_TASK = 'render-video';

/** A run as the service reads it (entity row or NOTIFY change). */
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

const fromEntity = (r: RenderRun): RunView => ({
  id: r.id,
  accountId: r.account.id,
  status: r.status,
  taskIdentifier: r.taskIdentifier,
  payload: r.payload,
  progress: r.progress,
  attempts: r.attempts,
  version: r.version,
  output: r.output,
  error: r.error,
  createdAt: r.createdAt,
  updatedAt: r.updatedAt,
  startedAt: r.startedAt,
  finishedAt: r.finishedAt,
  outputExpiredAt: r.outputExpiredAt,
});

const date = (v: string | null) => (v ? new Date(v) : null);

const fromChange = (c: RunChange, base: RunView): RunView => ({
  ...base,
  status: c.status as RunStatus,
  progress: c.progress,
  attempts: c.attempts,
  version: c.version,
  output: c.output as StoredOutput | null,
  error: c.error,
  updatedAt: new Date(c.updated_at),
  startedAt: date(c.started_at),
  finishedAt: date(c.finished_at),
  outputExpiredAt: date(c.output_expired_at ?? null),
});

export class RenderService {
  constructor(private readonly ctx: Context) {}

  private get render() {
    return this.ctx.deps.render;
  }

  /** Checks the request, admits it under the account's limits, then creates the run and its job in one transaction. */
  async start(args: Record<string, unknown>): Promise<RenderStarted> {
    const viewer = requireViewer(this.ctx.viewer);
    const payload = this.checkRender(args);
    const limits = this.ctx.deps.config.render;
    checkFitsBudget(payload, limits);
    const runId = randomUUID();
    const jobId = randomUUID();
    await this.ctx.em.transactional(async (tx) => {
      const em = tx as EntityManager;
      const sql = <T>(text: string, params: unknown[]) => em.getConnection().execute<T[]>(text, params, 'all', em.getTransactionContext());
      try {
        await admitRender(sql, viewer.accountId, payload, limits);
      } catch (error) {
        if (error instanceof RenderLimitError) this.render.metrics.admissionRefused(error.limit);
        throw error;
      }
      em.create(RenderRun, { id: runId, account: em.getReference(Account, viewer.accountId), taskIdentifier: RENDER_TASK, payload, jobId });
      await em.flush();
      await this.render.queue.enqueue(jobId, { runId }, sqlExecutorOf(em));
    });
    this.ctx.log.info({ runId, compositionId: payload.compositionId, codec: payload.codec }, 'render queued');
    return { status: ProcessingStatus.processing, runId };
  }

  /** Every problem at once: bounds, the composition, and its props (decisions §8). */
  private checkRender(args: Record<string, unknown>): RenderPayload {
    const problems: FieldProblem[] = [];
    const parsed = renderVideoInput.safeParse(stripNulls(args));
    if (!parsed.success) problems.push(...zodProblems(parsed.error));
    const compositionId = typeof args.compositionId === 'string' ? args.compositionId : undefined;
    const composition = compositionId ? findComposition(compositionId) : undefined;
    let props: Record<string, unknown> | undefined;
    if (compositionId && !composition) {
      problems.push({ field: 'compositionId', message: `must be one of: ${compositionIds().join(', ')}` });
    } else if (composition) {
      const checked = composition.props.safeParse(args.inputProps ?? {});
      if (!checked.success) problems.push(...zodProblems(checked.error, 'inputProps'));
      else {
        props = checked.data;
        if (parsed.success && composition.check) {
          for (const p of composition.check(checked.data, parsed.data)) problems.push({ field: `inputProps.${p.path}`, message: p.message });
        }
      }
    }
    if (problems.length || !parsed.success || !composition || !props) {
      const message = problems.map((p) => `${p.field}: ${p.message}`).join('; ');
      const aboutComposition = problems.some((p) => p.field === 'compositionId' || p.field.startsWith('inputProps'));
      throw new AppError('BAD_USER_INPUT', `Invalid input: ${message}${aboutComposition ? `. Known compositions: ${compositionIds().join(', ')}` : ''}`, {
        details: problems,
      });
    }
    const { width, height, fps, durationInFrames, codec } = parsed.data;
    return { compositionId: composition.id, inputProps: props, width, height, fps, durationInFrames, codec };
  }

  /** One run (runId) or the account's runs, newest first. */
  async runs(args: { runId?: string | null; page?: number | null; limit?: number | null; account_id?: string | null }): Promise<{ runs: RenderRunType[]; pagination: Pagination | null }> {
    const viewer = requireViewer(this.ctx.viewer);
    const input = validate(runsInput, stripNulls(args));
    if (input.runId) {
      const run = await this.reachable(input.runId);
      if (input.account_id && run.accountId !== input.account_id) throw notFound('Run');
      return { runs: [await this.toType(run)], pagination: null };
    }
    const accountId = await this.ctx.access.resolveAccount(viewer, input.account_id);
    const [rows, total] = await this.ctx.em.findAndCount(
      RenderRun,
      { account: accountId },
      { orderBy: { createdAt: 'desc', id: 'desc' }, limit: input.limit, offset: (input.page - 1) * input.limit },
    );
    return { runs: await Promise.all(rows.map((r) => this.toType(fromEntity(r)))), pagination: pagination(total, input.page, input.limit) };
  }

  /** Cancels a QUEUED or EXECUTING run: its job is dropped and a rendering worker stops ffmpeg. */
  async cancel(runId: string): Promise<RenderRunType> {
    requireViewer(this.ctx.viewer);
    const input = validate(cancelRunInput, { runId });
    const run = await this.reachable(input.runId);
    const rows = await this.ctx.em.getConnection().execute<{ job_id: string | null }[]>(
      `update render_runs set status = 'CANCELED', finished_at = now()
        where id = ? and status in ('QUEUED', 'EXECUTING') returning job_id`,
      [run.id],
    );
    if (!rows.length) throw new AppError('CONFLICT', `Run ${run.id} is ${run.status} and can no longer be canceled`);
    if (rows[0].job_id) {
      await this.render.queue.cancel(rows[0].job_id).catch((error) => this.ctx.log.warn({ err: error, runId }, 'job cancel failed'));
    }
    // Only a COMPLETED run has a stored video (published under the row lock), so this is tidying: an unreachable storage does not undo the cancel.
    await this.render.storage.delete(`${run.id}.${CODECS[run.payload.codec].extension}`)
      .catch((error) => this.ctx.log.warn({ err: error, runId }, 'deleting a canceled run\'s video failed'));
    return this.toType(await this.load(run.id, true));
  }

  /** A live view of one run: its current state, then every change until it ends. */
  async watch(args: { runId: string }): Promise<AsyncIterableIterator<RenderRunType>> {
    requireViewer(this.ctx.viewer);
    const { runId } = validate(watchRunInput, args);
    const watch = new RunWatch((view) => this.toType(view), () => this.load(runId, true));
    // Listen first, then read: a change committed in between is not missed (versions order them).
    const off = await this.render.events.subscribe(runId, (event) => watch.push(event));
    watch.onClose(off);
    try {
      watch.begin(await this.reachable(runId));
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
  async reference(id: string): Promise<RenderRunType | null> {
    requireViewer(this.ctx.viewer);
    if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
    try {
      return await this.toType(await this.reachable(id));
    } catch (error) {
      if (error instanceof AppError && error.code === 'NOT_FOUND') return null;
      throw error;
    }
  }

  private async load(id: string, refresh = false): Promise<RunView> {
    const run = refresh ? await this.ctx.em.findOne(RenderRun, id, { refresh: true }) : await this.ctx.loaders.renderRunById.load(id);
    if (!run) throw notFound('Run');
    return fromEntity(run);
  }

  /** The run when the caller may reach its account; otherwise it does not exist (404). */
  private async reachable(id: string): Promise<RunView> {
    const viewer = requireViewer(this.ctx.viewer);
    const run = await this.load(id);
    if (!(await this.ctx.access.canAccessAccount(viewer, run.accountId))) throw notFound('Run');
    return run;
  }

  async toType(run: RunView): Promise<RenderRunType> {
    // An expired video has no link: the file is gone (the sweep also clears `output`).
    const output = run.status === RunStatus.COMPLETED && run.output && !run.outputExpiredAt ? run.output : null;
    const { retentionHours } = this.ctx.deps.config.render;
    const { storage, signer } = this.render;
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
}

/** GraphQL args arrive as null when omitted; zod defaults apply to undefined only. */
function stripNulls<T extends Record<string, unknown>>(args: T): T {
  return Object.fromEntries(Object.entries(args).filter(([, v]) => v !== null && v !== undefined)) as T;
}

/**
 * The async iterator behind the renderRun subscription: yields the run as it is, then each newer
 * version announced on the bus, and ends after a final state. `return()` (client unsubscribed)
 * releases the listener at once, even while waiting.
 */
class RunWatch implements AsyncIterableIterator<RenderRunType> {
  private current?: RunView;
  private readonly pending: RunEvent[] = [];
  private waiting?: (result: IteratorResult<RenderRunType>) => void;
  private startYielded = false;
  private finished = false;
  private closers: (() => void)[] = [];
  private busy = false;

  constructor(
    private readonly present: (run: RunView) => Promise<RenderRunType>,
    private readonly reload: () => Promise<RunView>,
  ) {}

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

  [Symbol.asyncIterator](): AsyncIterableIterator<RenderRunType> {
    return this;
  }

  next(): Promise<IteratorResult<RenderRunType>> {
    if (this.finished) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => {
      this.waiting = resolve;
      this.pump();
    });
  }

  async return(): Promise<IteratorResult<RenderRunType>> {
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
    this.present(run)
      .then((value) => waiting({ value, done: false }))
      .catch(() => {
        this.finish();
        waiting({ value: undefined, done: true });
      })
      .finally(() => {
        this.busy = false;
        this.pump();
      });
  }

  /** Hands the next newer state to a waiting next(); ends after a final state was delivered. */
  private pump(): void {
    if (this.busy || this.finished || !this.waiting || !this.current) return;
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
