import type { Position } from '../../common/paging';
import { AccountKind, Viewer } from '../../auth/viewer';
import { AppError } from '../../common/errors';
import type { SqlExecutor } from '../../jobs/queue';
import type { RenderRuntime } from './render.runtime';
import { RenderPayload, RunStatus } from './render.entity';
import { reachableRunLoader } from './render.loaders';
import type { NewRun, RenderStore, RunsPage, RunView } from './render.repository';
import { RENDER_TASK, RenderService } from './render.service';

const viewerOf = (accountId: string): Viewer => ({ accountId, kind: AccountKind.person, name: accountId, email: null, organizationIds: [], isAdmin: false, via: 'api_key' });
const mine = viewerOf('00000000-0000-4000-8000-00000000000a');
const other = viewerOf('00000000-0000-4000-8000-00000000000b');

const payload: RenderPayload = { compositionId: 'title-card', inputProps: { title: 'x' }, width: 10, height: 10, fps: 10, durationInFrames: 10, codec: 'h264' };

function runOf(accountId: string, status: RunStatus, id: string): RunView & { jobId: string | null } {
  const at = new Date();
  return {
    id, accountId, status, taskIdentifier: RENDER_TASK, payload, progress: 0, attempts: 0, version: 0, output: null, error: null,
    createdAt: at, updatedAt: at, startedAt: null, finishedAt: null, outputExpiredAt: null, jobId: null,
  };
}

/** The repository in memory: a viewer reaches only its own account's runs. */
class FakeRenderStore implements RenderStore {
  runs: (RunView & { jobId: string | null })[] = [];
  inserted: NewRun[] = [];
  locked: string[] = [];
  usage = { active: 0, used: '0' };
  progress: { progress: number; elapsed: number }[] = [];
  freedIn: number | null = null;
  readonly txSql = { executeSql: async () => ({ rows: [] }) } satisfies SqlExecutor;

  transaction<T>(work: (repo: RenderStore) => Promise<T>): Promise<T> {
    return work(this);
  }
  async reachableRuns(viewer: Viewer, ids: readonly string[]): Promise<RunView[]> {
    return this.runs.filter((r) => ids.includes(r.id) && r.accountId === viewer.accountId);
  }
  async freshRun(id: string): Promise<RunView | null> {
    return this.runs.find((r) => r.id === id) ?? null;
  }
  async runsPage(viewer: Viewer, accountId: string, limit: number, position: Position<readonly string[]>): Promise<RunsPage> {
    const offset = 'offset' in position ? position.offset : 0;
    if (accountId !== viewer.accountId) return { reachable: false, total: 0, skipped: offset, runs: [] };
    const all = this.runs.filter((r) => r.accountId === accountId).map((r) => ({ ...r, createdMicros: String(r.createdAt.getTime() * 1000) }));
    return { reachable: true, total: all.length, skipped: offset, runs: all.slice(offset, offset + limit) };
  }
  async recentReachableRuns(viewer: Viewer, statuses: readonly RunStatus[] | null, limit: number): Promise<RunView[]> {
    return this.runs.filter((r) => r.accountId === viewer.accountId && (!statuses || statuses.includes(r.status))).slice(0, limit);
  }
  async reachableRunsChangedSince(viewer: Viewer, since: Date, limit: number): Promise<RunView[]> {
    return this.runs.filter((r) => r.accountId === viewer.accountId && r.updatedAt >= since).slice(0, limit);
  }
  async reachesAccount(viewer: Viewer, accountId: string): Promise<boolean> {
    return accountId === viewer.accountId;
  }
  async insertRun(run: NewRun): Promise<RunView> {
    this.inserted.push(run);
    return runOf(run.accountId, RunStatus.QUEUED, run.id);
  }
  jobSql(): SqlExecutor {
    return this.txSql;
  }
  async cancelActive(runId: string): Promise<{ jobId: string | null } | null> {
    const run = this.runs.find((r) => r.id === runId && [RunStatus.QUEUED, RunStatus.EXECUTING].includes(r.status));
    if (!run) return null;
    run.status = RunStatus.CANCELED;
    return { jobId: run.jobId };
  }
  async outputExpiredAt(): Promise<Date | null> {
    return null;
  }
  async lockAdmission(accountId: string): Promise<void> {
    this.locked.push(accountId);
  }
  async admissionUsage(): Promise<{ active: number; used: string }> {
    return this.usage;
  }
  async executingProgress(): Promise<{ progress: number; elapsed: number }[]> {
    return this.progress;
  }
  async budgetFreedIn(): Promise<number | null> {
    return this.freedIn;
  }
}

function setup() {
  const store = new FakeRenderStore();
  const enqueued: { jobId: string; runId: string; db: SqlExecutor }[] = [];
  const refused: string[] = [];
  const deleted: string[] = [];
  const runtime = {
    queue: { enqueue: async (jobId: string, data: { runId: string }, db: SqlExecutor) => void enqueued.push({ jobId, runId: data.runId, db }), cancel: async () => undefined },
    events: {},
    storage: { delete: async (key: string) => void deleted.push(key) },
    signer: {},
    metrics: { admissionRefused: (limit: string) => void refused.push(limit) },
  } as unknown as RenderRuntime;
  const log = { info: () => undefined, warn: () => undefined } as never;
  const service = new RenderService(
    store,
    { reachableRunById: reachableRunLoader(store) },
    runtime,
    { maxActivePerAccount: 2, dailyPixelFrames: 10_000, retentionHours: 0 },
    log,
  );
  return { store, service, enqueued, refused, deleted };
}

const rejection = (promise: Promise<unknown>) => promise.then(() => { throw new Error('expected a rejection'); }, (error: AppError) => error);

describe('render admission', () => {
  it('inserts the run and enqueues its job on the admitting transaction, after the account lock', async () => {
    const { store, service, enqueued, refused } = setup();
    const started = await service.start(mine, payload);
    expect(store.locked).toEqual([mine.accountId]);
    expect(started).toMatchObject({ id: store.inserted[0].id, status: RunStatus.QUEUED, payload });
    expect(store.inserted).toEqual([{ id: started.id, accountId: mine.accountId, taskIdentifier: RENDER_TASK, payload, jobId: expect.any(String) }]);
    expect(enqueued).toEqual([{ jobId: store.inserted[0].jobId, runId: started.id, db: store.txSql }]);
    expect(refused).toEqual([]);
  });

  it('refuses past the active cap, with Retry-After from the nearest-to-done render, and queues nothing', async () => {
    const { store, service, enqueued, refused } = setup();
    store.usage = { active: 2, used: '0' };
    // Half done after 10 s: 10 s to go; a quarter done after 30 s: 90 s to go.
    store.progress = [{ progress: 0.5, elapsed: 10 }, { progress: 0.25, elapsed: 30 }];
    const error = await rejection(service.start(mine, payload));
    expect({ code: error.code, retryAfter: error.retryAfter }).toEqual({ code: 'RATE_LIMITED', retryAfter: 10 });
    expect(refused).toEqual(['active']);
    expect(store.inserted).toEqual([]);
    expect(enqueued).toEqual([]);
  });

  it('refuses past the rolling budget, with Retry-After when enough of the window frees up', async () => {
    const { store, service, refused } = setup();
    store.usage = { active: 0, used: '9500' };
    store.freedIn = 41.2;
    const error = await rejection(service.start(mine, payload));
    expect({ code: error.code, retryAfter: error.retryAfter }).toEqual({ code: 'RATE_LIMITED', retryAfter: 42 });
    expect(refused).toEqual(['daily_budget']);
  });

  it('refuses a render larger than the whole budget as bad input, before taking the lock', async () => {
    const { store, service } = setup();
    const error = await rejection(service.start(mine, { ...payload, width: 1000 }));
    expect(error.code).toBe('BAD_USER_INPUT');
    expect(store.locked).toEqual([]);
  });
});

describe('render runs', () => {
  const runId = '00000000-0000-4000-8000-0000000000f1';

  it('answers a run out of reach, or of another account than account_id, like a missing one', async () => {
    const { store, service } = setup();
    store.runs = [runOf(mine.accountId, RunStatus.QUEUED, runId)];
    expect((await rejection(service.runs(other, { runId, page: 1, limit: 20 }))).code).toBe('NOT_FOUND');
    expect((await rejection(service.runs(mine, { runId, page: 1, limit: 20, account_id: other.accountId }))).code).toBe('NOT_FOUND');
    expect(await service.reference(other, runId)).toBeNull();
    expect((await service.runs(mine, { runId, page: 1, limit: 20 })).items.map((r) => r.id)).toEqual([runId]);
  });

  it('lists a page of the account\'s runs with its total, and refuses an account out of reach with 403', async () => {
    const { store, service } = setup();
    store.runs = [runOf(mine.accountId, RunStatus.QUEUED, runId), runOf(mine.accountId, RunStatus.QUEUED, '00000000-0000-4000-8000-0000000000f2')];
    const page = await service.runs(mine, { page: 2, limit: 1 });
    expect({ ids: page.items.map((r) => r.id), pagination: page.pagination }).toEqual({
      ids: ['00000000-0000-4000-8000-0000000000f2'],
      pagination: { totalCount: 2, page: 2, limit: 1, totalPages: 2 },
    });
    expect((await rejection(service.runs(mine, { page: 1, limit: 20, account_id: other.accountId }))).code).toBe('FORBIDDEN');
  });

  it('refuses to cancel a run that already ended, and touches neither the queue nor storage', async () => {
    const { store, service, deleted } = setup();
    store.runs = [runOf(mine.accountId, RunStatus.COMPLETED, runId)];
    const error = await rejection(service.cancel(mine, { runId }));
    expect({ code: error.code, message: error.message }).toEqual({ code: 'CONFLICT', message: `Run ${runId} is COMPLETED and can no longer be canceled` });
    expect(deleted).toEqual([]);
  });
});
