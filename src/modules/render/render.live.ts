import { LRUCache } from 'lru-cache';
import type { Viewer } from '../../auth/viewer';
import { AppError } from '../../common/errors';
import type { RunChange, RunEvent } from './run-events';
import { RunStatus } from './render.entity';
import type { RunView } from './render.repository';
import type { RenderRunType } from './render.types';

/** Runs whose changes wait for a slow subscriber (each run's newest change only): past it, the stream ends. */
export const RUNS_STREAM_MAX_PENDING = 1000;
/** Runs whose last state a stream remembers (to apply a change to, and to drop an older one). */
const KNOWN_RUNS = 200;
/** Accounts whose reach a stream remembers, each watched for changes of its memberships. */
const KNOWN_ACCOUNTS = 200;
/** After a lost event connection with nothing seen yet: how far back the missed changes are read. */
const RESYNC_MARGIN_MS = 60_000;

/** What an account-wide stream reads and watches, bound to its viewer's request by the service. */
export interface RunsStreamSource {
  /** The newest runs the viewer reaches (at most `limit`) with one of `statuses` (null: any), newest first. */
  recent(viewer: Viewer, statuses: readonly RunStatus[] | null, limit: number): Promise<RunView[]>;
  /** The runs the viewer reaches changed at or after `since` (at most `limit`). */
  changedSince(viewer: Viewer, since: Date, limit: number): Promise<RunView[]>;
  /** Whether the viewer reaches the account's runs (the reach rule of `runs` and `renderRun`). */
  reaches(viewer: Viewer, accountId: string): Promise<boolean>;
  /** The run as stored now (its account's reach is checked before). */
  fresh(id: string): Promise<RunView | null>;
  /** The run as the graph answers it (a COMPLETED run's signed link). */
  present(run: RunView): Promise<RenderRunType>;
  /** The credential's viewer now, null once it no longer authenticates. */
  current(): Promise<Viewer | null>;
  /** Calls `listener` when the account's keys or memberships may have changed; returns the unsubscribe. */
  watchAccount(accountId: string, listener: () => void): () => void;
}

const date = (v: string | null) => (v ? new Date(v) : null);

/** A NOTIFY change applied to the run's last known state. */
export const applyChange = (c: RunChange, base: RunView): RunView => ({
  ...base,
  status: c.status as RunStatus,
  progress: c.progress,
  attempts: c.attempts,
  version: c.version,
  output: c.output as RunView['output'],
  error: c.error,
  updatedAt: new Date(c.updated_at),
  startedAt: date(c.started_at),
  finishedAt: date(c.finished_at),
  outputExpiredAt: date(c.output_expired_at ?? null),
});

type Item = RunChange | RunView;
const isView = (item: Item): item is RunView => 'payload' in item;
const accountOf = (item: Item) => (isView(item) ? item.accountId : item.account_id);

/**
 * The async iterator behind the renderRuns subscription: the newest runs in reach first, then every
 * change of every run the viewer reaches, in the order they happened (a run's changes that pile up
 * while the subscriber is slow are coalesced into its newest: memory is bounded by the number of
 * runs, not of changes; past RUNS_STREAM_MAX_PENDING runs waiting, the stream ends with an error).
 * Reach is decided per account by the one rule, remembered, and forgotten when that account or the
 * viewer's changes are announced (`viewer_changes`), so a revoked key ends the stream and an ended
 * membership stops that account's runs.
 */
export class RunsWatch implements AsyncIterableIterator<RenderRunType | Error> {
  private readonly statuses: ReadonlySet<RunStatus> | null;
  private readonly initial: RunView[] = [];
  private begun = false;
  private readonly pending = new Map<string, Item>();
  private resync = false;
  private readonly known = new LRUCache<string, RunView>({ max: KNOWN_RUNS });
  /** Reach by account, each entry with the watcher of that account's changes (removed with it). */
  private readonly reach = new LRUCache<string, { reachable: boolean; off: () => void }>({
    max: KNOWN_ACCOUNTS,
    dispose: (entry) => entry.off(),
  });
  /** Bumped whenever reach may have changed: a reach read that started before it is not remembered. */
  private reachEpoch = 0;
  private viewer: Promise<Viewer>;
  private lastUpdatedAt: Date;
  private failure?: Error;
  private waiting?: (result: IteratorResult<RenderRunType | Error>) => void;
  private busy = false;
  private finished = false;
  private readonly closers: (() => void)[] = [];

  constructor(
    viewer: Viewer,
    statuses: readonly RunStatus[] | null,
    private readonly source: RunsStreamSource,
  ) {
    this.viewer = Promise.resolve(viewer);
    this.statuses = statuses ? new Set(statuses) : null;
    this.lastUpdatedAt = new Date(Date.now() - RESYNC_MARGIN_MS);
  }

  onClose(close: () => void): void {
    if (this.finished) close();
    else this.closers.push(close);
  }

  /** The runs sent first (newest first); changes received before are applied after them. */
  begin(runs: readonly RunView[]): void {
    for (const run of runs) this.remember(run);
    this.initial.push(...runs);
    this.begun = true;
    this.pump();
  }

  /** A change announced on the bus (any run of any account: filtered here), or 'resync' after a lost connection. */
  push(event: RunEvent): void {
    if (this.finished || this.failure) return;
    if (event === 'resync') {
      this.resync = true;
    } else {
      const waiting = this.pending.get(event.id);
      if (!waiting || waiting.version < event.version) {
        // A run already waiting keeps its place; its newest change replaces the older one.
        this.pending.set(event.id, event);
      }
      if (this.pending.size > RUNS_STREAM_MAX_PENDING) {
        this.fail(new AppError('RATE_LIMITED', `The subscription fell behind: more than ${RUNS_STREAM_MAX_PENDING} runs changed before it read them; it has ended, subscribe again`));
        return;
      }
    }
    this.pump();
  }

  /**
   * The viewer's account changed (a key revoked, a membership made or ended): the credential is
   * read again (revoked: the stream ends with UNAUTHENTICATED) and every account's reach is
   * decided again at its next change.
   */
  viewerChanged(): void {
    if (this.finished || this.failure) return;
    this.forgetReach();
    const before = this.viewer;
    const now = this.source.current().then((viewer) => {
      if (!viewer) throw new AppError('UNAUTHENTICATED', 'The credential was revoked; the subscription has ended');
      return viewer;
    });
    this.viewer = now.catch((error: unknown) => {
      if (error instanceof AppError && error.code === 'UNAUTHENTICATED') {
        this.fail(error);
        throw error;
      }
      // Not decided (database unavailable): the viewer as it was, reach read again as it comes.
      return before;
    });
    this.viewer.catch(() => undefined);
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

  private forgetReach(): void {
    this.reachEpoch += 1;
    this.reach.clear();
  }

  private fail(error: Error): void {
    if (this.finished || this.failure) return;
    this.failure = error;
    this.pending.clear();
    this.initial.length = 0;
    this.pump();
  }

  private finish(): void {
    if (this.finished) return;
    this.finished = true;
    this.pending.clear();
    this.initial.length = 0;
    this.reach.clear();
    for (const close of this.closers.splice(0)) close();
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.({ value: undefined, done: true });
  }

  private remember(run: RunView): void {
    this.known.set(run.id, run);
    if (run.updatedAt > this.lastUpdatedAt) this.lastUpdatedAt = run.updatedAt;
  }

  /** Hands the next run to a waiting next(): first the initial runs, then the waiting changes in order. */
  private pump(): void {
    if (this.busy || this.finished || !this.waiting || !this.begun) return;
    if (this.failure) {
      const failure = this.failure;
      const waiting = this.waiting;
      this.waiting = undefined;
      this.finish();
      waiting({ value: failure, done: false });
      return;
    }
    const first = this.initial.shift();
    if (first) {
      this.run(async () => first);
      return;
    }
    if (this.resync) {
      this.resync = false;
      this.run(async () => {
        const viewer = await this.viewer;
        const missed = await this.source.changedSince(viewer, this.lastUpdatedAt, RUNS_STREAM_MAX_PENDING);
        // Oldest change first, each only if no newer change of the run is already waiting.
        for (const run of missed.reverse()) {
          const waiting = this.pending.get(run.id);
          if (!waiting || waiting.version < run.version) this.pending.set(run.id, run);
        }
        return null;
      });
      return;
    }
    const next = this.pending.entries().next();
    if (next.done) return;
    const [id, item] = next.value;
    this.pending.delete(id);
    this.run(() => this.visible(item));
  }

  /** Runs one step (reading the database, signing a link), delivering the run it yields, if any. */
  private run(step: () => Promise<RunView | null>): void {
    this.busy = true;
    step()
      .then(async (run) => {
        if (!run || this.finished || this.failure) return;
        const value = await this.source.present(run);
        if (this.finished || this.failure || !this.waiting) return;
        const waiting = this.waiting;
        this.waiting = undefined;
        waiting({ value, done: false });
      })
      .catch((error: unknown) => {
        // A revoked credential ends the stream with its error; an unavailable database skips this change.
        if (error instanceof AppError && error.code === 'UNAUTHENTICATED') this.fail(error);
      })
      .finally(() => {
        this.busy = false;
        this.pump();
      });
  }

  /** The run's new state if the viewer may see it and the status filter lets it through; null otherwise. */
  private async visible(item: Item): Promise<RunView | null> {
    const viewer = await this.viewer;
    const before = this.known.get(item.id);
    if (before && item.version <= before.version) return null;
    // A run leaving the statuses asked for is told once (its new state), so a filtered list can drop it.
    const wanted = (status: RunStatus) => !this.statuses || this.statuses.has(status);
    if (!wanted(item.status as RunStatus) && !(before && wanted(before.status))) {
      if (before) this.known.set(item.id, isView(item) ? item : applyChange(item, before));
      return null;
    }
    if (!(await this.reaches(viewer, accountOf(item)))) return null;
    let run: RunView | null;
    if (isView(item)) run = item;
    else if (before) run = applyChange(item, before);
    else {
      // First sight of this run: its request (payload) is not in the announcement.
      const fresh = await this.source.fresh(item.id);
      run = fresh && fresh.version < item.version ? applyChange(item, fresh) : fresh;
    }
    if (!run) return null;
    const latest = this.known.get(run.id);
    if (latest && run.version <= latest.version) return null;
    // No link is signed on a remembered answer: reach is read afresh before a state that carries one
    // (as renderRun does; a roster entry removed is not announced).
    if (run.output && !(await this.source.reaches(viewer, run.accountId))) {
      this.reach.delete(run.accountId);
      return null;
    }
    this.remember(run);
    return run;
  }

  private async reaches(viewer: Viewer, accountId: string): Promise<boolean> {
    const cached = this.reach.get(accountId);
    if (cached) return cached.reachable;
    const epoch = this.reachEpoch;
    // Watched before it is read: a change committed while reading is not missed.
    let changed = false;
    const off = this.source.watchAccount(accountId, () => {
      changed = true;
      this.reach.delete(accountId);
    });
    let reachable: boolean;
    try {
      reachable = await this.source.reaches(viewer, accountId);
    } catch (error) {
      off();
      throw error;
    }
    if (changed || epoch !== this.reachEpoch || this.finished) off();
    else this.reach.set(accountId, { reachable, off });
    return reachable;
  }
}
