import type { Viewer } from '../../auth/viewer';
import { AppError } from '../../common/errors';
import type { RunChange } from './run-events';
import { RunStatus } from './render.entity';
import { RUNS_STREAM_MAX_PENDING, RunsStreamSource, RunsWatch } from './render.live';
import type { RunView } from './render.repository';
import type { RenderRunType } from './render.types';

const viewer: Viewer = { accountId: 'me', kind: 'user', name: 'Me', email: null, organizationIds: [], isAdmin: false, via: 'api_key' } as unknown as Viewer;
const at = new Date('2026-11-26T00:00:00Z');

const view = (id: string, accountId = 'me', status = RunStatus.QUEUED, version = 1): RunView => ({
  id, accountId, status, taskIdentifier: 'render-video',
  payload: { compositionId: 'title-card', inputProps: {}, width: 16, height: 16, fps: 30, durationInFrames: 5, codec: 'h264' } as RunView['payload'],
  progress: 0, attempts: 0, version, output: null, error: null, createdAt: at, updatedAt: at, startedAt: null, finishedAt: null, outputExpiredAt: null,
});
const change = (id: string, version: number, progress: number, accountId = 'me', status = RunStatus.EXECUTING): RunChange => ({
  id, account_id: accountId, status, progress, attempts: 1, version, created_at: at.toISOString(), updated_at: at.toISOString(),
  started_at: at.toISOString(), finished_at: null, output: null, error: null,
});

/** The stream's reads in memory: the viewer reaches its own account only; each run is stored as first announced. */
function source(stored: RunView[] = []): RunsStreamSource & { reads: number; revoked: boolean; announce: (accountId: string) => void } {
  const watchers = new Map<string, Set<() => void>>();
  const s = {
    reads: 0,
    revoked: false,
    announce: (accountId: string) => [...(watchers.get(accountId) ?? [])].forEach((w) => w()),
    recent: async () => [],
    changedSince: async () => [],
    reaches: async (_v: Viewer, accountId: string) => {
      s.reads += 1;
      return accountId === 'me';
    },
    fresh: async (id: string) => stored.find((r) => r.id === id) ?? view(id),
    present: async (run: RunView) => ({ id: run.id, status: run.status, progress: run.progress }) as unknown as RenderRunType,
    current: async () => (s.revoked ? null : viewer),
    watchAccount: (accountId: string, listener: () => void) => {
      const set = watchers.get(accountId) ?? new Set();
      watchers.set(accountId, set.add(listener));
      return () => set.delete(listener);
    },
  };
  return s;
}

const take = async (watch: RunsWatch, n: number) => {
  const out: (RenderRunType | Error)[] = [];
  for (let i = 0; i < n; i += 1) {
    const next = await watch.next();
    if (next.done) break;
    out.push(next.value);
  }
  return out;
};

describe('RunsWatch: the account-wide stream of runs', () => {
  it('a slow subscriber gets each run\'s newest change only: what waits is bounded by runs, not changes', async () => {
    const watch = new RunsWatch(viewer, null, source());
    watch.begin([]);
    for (let v = 2; v <= 500; v += 1) watch.push(change('a', v, v / 1000));
    watch.push(change('b', 2, 0.5));
    const got = (await take(watch, 2)) as RenderRunType[];
    expect(got.map((r) => [r.id, r.progress])).toEqual([['a', 0.5], ['b', 0.5]]);
    await watch.return();
  });

  it('an older change after a newer one is dropped (versions order them)', async () => {
    const watch = new RunsWatch(viewer, null, source());
    watch.begin([view('a', 'me', RunStatus.EXECUTING, 5)]);
    watch.push(change('a', 4, 0.4));
    watch.push(change('a', 6, 0.6));
    const got = (await take(watch, 2)) as RenderRunType[];
    expect(got.map((r) => [r.id, r.progress])).toEqual([['a', 0], ['a', 0.6]]);
    await watch.return();
  });

  it(`past ${RUNS_STREAM_MAX_PENDING} runs waiting, the stream ends with an error instead of growing`, async () => {
    const watch = new RunsWatch(viewer, null, source());
    watch.begin([]);
    for (let i = 0; i <= RUNS_STREAM_MAX_PENDING; i += 1) watch.push(change(`r${i}`, 2, 0.1));
    const [last] = await take(watch, 1);
    expect(last).toBeInstanceOf(AppError);
    expect((last as AppError).code).toBe('RATE_LIMITED');
    expect(await watch.next()).toEqual({ value: undefined, done: true });
  });

  it('another account\'s runs are not delivered, and reach is asked once per account until that account changes', async () => {
    const src = source();
    const watch = new RunsWatch(viewer, null, src);
    watch.begin([]);
    watch.push(change('x1', 2, 0.1, 'stranger'));
    watch.push(change('x2', 2, 0.1, 'stranger'));
    watch.push(change('m1', 2, 0.1));
    expect(((await take(watch, 1)) as RenderRunType[]).map((r) => r.id)).toEqual(['m1']);
    expect(src.reads).toBe(2);
    src.announce('stranger');
    watch.push(change('x3', 2, 0.1, 'stranger'));
    watch.push(change('m2', 2, 0.1));
    expect(((await take(watch, 1)) as RenderRunType[]).map((r) => r.id)).toEqual(['m2']);
    expect(src.reads).toBe(3);
    await watch.return();
  });

  it('reach is read afresh before a state that carries a signed link', async () => {
    const src = source();
    const watch = new RunsWatch(viewer, null, src);
    watch.begin([]);
    watch.push(change('m1', 2, 0.5));
    await take(watch, 1);
    expect(src.reads).toBe(1);
    // Completed with a stored video: the cached answer is not enough.
    watch.push({ ...change('m1', 3, 1, 'me', RunStatus.COMPLETED), output: { key: 'm1.webm' } });
    const [done] = (await take(watch, 1)) as RenderRunType[];
    expect(done).toMatchObject({ id: 'm1', status: 'COMPLETED' });
    expect(src.reads).toBe(2);
    await watch.return();
  });

  it('a revoked credential ends the stream with UNAUTHENTICATED, even with nothing else to send', async () => {
    const src = source();
    const watch = new RunsWatch(viewer, null, src);
    watch.begin([]);
    const pending = watch.next();
    src.revoked = true;
    watch.viewerChanged();
    const { value } = await pending;
    expect((value as AppError).code).toBe('UNAUTHENTICATED');
    expect(await watch.next()).toEqual({ value: undefined, done: true });
  });

  it('return() releases everything it holds, and later changes are ignored', async () => {
    const closed: string[] = [];
    const watch = new RunsWatch(viewer, null, source());
    watch.onClose(() => closed.push('bus'));
    watch.begin([]);
    const waiting = watch.next();
    await watch.return();
    expect(await waiting).toEqual({ value: undefined, done: true });
    watch.push(change('a', 2, 0.1));
    expect(closed).toEqual(['bus']);
    expect(await watch.next()).toEqual({ value: undefined, done: true });
  });
});
