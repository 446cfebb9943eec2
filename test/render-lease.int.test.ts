import type { ChildProcess } from 'node:child_process';
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { as } from './demo';
import { createTestApp, TestApp } from './app';
import { probe, renderEnv, spawnWorker, startWorker, waitForRun, RunJson } from './support/render';
import { RenderWorker } from '../src/modules/render/render.worker';

// 20 s of video: a quiet machine renders 150 frames in half a second, faster than a poll can catch it mid-way.
const LONG_ENOUGH = { compositionId: 'social-post', width: 1280, height: 720, fps: 30, durationInFrames: 600, codec: 'h264' };

/** Polls the run until a worker is encoding it (progress above 0). */
async function caughtMidRender(t: TestApp, runId: string): Promise<void> {
  const deadline = Date.now() + 40_000;
  for (;;) {
    const run = (await t.http().get('/api/tasks/runs').query({ runId }).set(as.nora)).body.runs[0] as RunJson;
    if (run.status === 'EXECUTING' && run.progress > 0) return;
    if (Date.now() > deadline || ['COMPLETED', 'FAILED'].includes(run.status)) throw new Error(`never caught it mid-render: ${JSON.stringify(run)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const filesOf = async (t: TestApp, runId: string) => (await readdir(t.config.render.storageDir)).filter((f) => f.startsWith(runId));

const jobsOf = (t: TestApp, runId: string) =>
  t.orm.em.getConnection().execute<{ id: string; state: string }[]>(
    "select id, state::text from pgboss.job where name = 'render-video' and data->>'runId' = ? order by created_on", [runId]);

/** The run's jobs once none is still active (pg-boss marks a job completed after its handler returns), or after `withinMs`. */
async function settledJobsOf(t: TestApp, runId: string, withinMs: number): Promise<{ id: string; state: string }[]> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const jobs = await jobsOf(t, runId);
    if (jobs.every((job) => job.state !== 'active') || Date.now() > deadline) return jobs;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Scratch entries of a run still under `.tmp` once they are gone or `withinMs` has passed. */
async function scratchLeftAfter(t: TestApp, runId: string, withinMs: number): Promise<string[]> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const left = (await readdir(join(t.config.render.storageDir, '.tmp')).catch(() => [] as string[])).filter((f) => f.startsWith(runId));
    if (!left.length || Date.now() > deadline) return left;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('a killed worker\'s render resumes within a minute (default lease settings, real processes)', () => {
  let t: TestApp;
  const workers: RenderWorker[] = [];
  let child: ChildProcess | undefined;
  beforeAll(async () => {
    // RENDER_JOB_EXPIRE_S stays at its default (30 minutes): the lease alone brings the run back.
    t = await createTestApp({ env: renderEnv() });
    expect(t.config.render).toMatchObject({ jobExpireS: 1800, heartbeatIntervalS: 5, heartbeatTimeoutS: 30 });
  });
  afterAll(async () => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    for (const w of workers) await w.stop(1000);
    await t?.close();
  });

  it('SIGKILLed mid-render, its run is taken over and COMPLETED within 60 s, with exactly one output file', async () => {
    child = spawnWorker(t);
    const runId = (await t.http().post('/api/video/render').set(as.nora).send({ ...LONG_ENOUGH, inputProps: { caption: 'Survives a SIGKILL' } })).body.runId as string;
    await caughtMidRender(t, runId);
    const [firstJob] = await jobsOf(t, runId);
    child.kill('SIGKILL');
    await new Promise((r) => child!.once('exit', r));
    const killedAt = Date.now();
    workers.push(await startWorker(t));

    const run = await waitForRun(t, as.nora, runId, ['COMPLETED', 'FAILED'], 60_000);
    const resumedInMs = Date.now() - killedAt;
    expect(run).toMatchObject({ status: 'COMPLETED', attempts: 2, progress: 1, error: null });
    expect(resumedInMs).toBeLessThan(60_000);
    expect(await filesOf(t, runId)).toEqual([`${runId}.mp4`]);
    // The winning attempt removes its scratch right after it commits COMPLETED: give it a moment.
    expect(await scratchLeftAfter(t, runId, 10_000)).toEqual([]);
    // The dead attempt's job was cancelled and replaced by one the new worker completed.
    expect(await settledJobsOf(t, runId, 10_000)).toEqual([{ id: firstJob.id, state: 'cancelled' }, { id: expect.any(String), state: 'completed' }]);
    const metrics = await t.http().get('/metrics');
    expect(metrics.text).toMatch(/render_lease_takeovers_total 1/);
    console.log(`[render-lease] SIGKILLed worker's run completed ${(resumedInMs / 1000).toFixed(1)} s after the kill`);
  }, 120_000);
});

describe('a frozen worker that wakes after its lease was taken over (real processes)', () => {
  let t: TestApp;
  const workers: RenderWorker[] = [];
  let child: ChildProcess | undefined;
  beforeAll(async () => {
    t = await createTestApp({ env: renderEnv({ RENDER_HEARTBEAT_INTERVAL_S: '1', RENDER_HEARTBEAT_TIMEOUT_S: '4' }) });
  });
  afterAll(async () => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    for (const w of workers) await w.stop(1000);
    await t?.close();
  });

  it('changes nothing: the new attempt\'s run and file stay as they are', async () => {
    child = spawnWorker(t, { RENDER_HEARTBEAT_INTERVAL_S: '1', RENDER_HEARTBEAT_TIMEOUT_S: '4' });
    const runId = (await t.http().post('/api/video/render').set(as.nora).send({ ...LONG_ENOUGH, inputProps: { caption: 'Frozen, then late' } })).body.runId as string;
    await caughtMidRender(t, runId);
    child.kill('SIGSTOP'); // alive but silent: no heartbeats (its ffmpeg keeps encoding)
    workers.push(await startWorker(t));
    const done = await waitForRun(t, as.nora, runId, ['COMPLETED', 'FAILED'], 60_000);
    expect(done).toMatchObject({ status: 'COMPLETED', attempts: 2 });
    const file = join(t.config.render.storageDir, `${runId}.mp4`);
    const before = await stat(file);
    const version = async () => (await t.orm.em.getConnection().execute<{ version: number }[]>('select version from render_runs where id = ?', [runId]))[0].version;
    const versionBefore = await version();

    child.kill('SIGCONT');
    // Long enough for the woken worker to beat (1 s), finish its ffmpeg, and try to store its file.
    await new Promise((r) => setTimeout(r, 5000));
    expect(child.exitCode).toBeNull();
    expect(await version()).toBe(versionBefore);
    const after = await stat(file);
    expect({ ino: after.ino, size: after.size, mtimeMs: after.mtimeMs }).toEqual({ ino: before.ino, size: before.size, mtimeMs: before.mtimeMs });
    expect(await filesOf(t, runId)).toEqual([`${runId}.mp4`]);
    expect(await probe(file)).toMatchObject({ codec_name: 'h264', width: 1280, height: 720, nb_read_frames: String(LONG_ENOUGH.durationInFrames) });
    const leases = await t.orm.em.getConnection().execute('select * from render_leases where run_id = ?', [runId]);
    expect(leases).toEqual([]);
  }, 120_000);
});

describe('the fenced completion of an attempt (real PostgreSQL, real files)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: renderEnv() });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  const partialFor = async (runId: string, attempt: number, content: string) => {
    const dir = await t.deps.render.storage.scratchDir(`${runId}-${attempt}`);
    const path = join(dir, 'video.mp4');
    await writeFile(path, content);
    return path;
  };
  const describeOutput = (key: string) => (bytes: number) => ({ key, mimeType: 'video/mp4', bytes, width: 8, height: 8, fps: 1, durationInFrames: 1, codec: 'h264' as const });

  it('stores a late attempt\'s file only while the run is still that attempt\'s', async () => {
    const worker = new RenderWorker({ ...t.deps.render, orm: t.orm, config: t.config.render, logger: t.deps.logger });
    const runId = (await t.http().post('/api/video/render').set(as.nora).send({ compositionId: 'title-card', inputProps: { title: 'Fence' }, width: 8, height: 8, durationInFrames: 1 })).body.runId as string;
    const key = `${runId}.mp4`;
    const file = join(t.config.render.storageDir, key);
    const conn = t.orm.em.getConnection();

    // Attempt 2 holds the run (attempt 1 was taken over): attempt 1's file is not stored.
    await conn.execute("update render_runs set status = 'EXECUTING', attempts = 2 where id = ?", [runId]);
    expect(await worker.complete(runId, 1, key, await partialFor(runId, 1, 'late'), describeOutput(key))).toBeUndefined();
    expect(await filesOf(t, runId)).toEqual([]);

    // Attempt 2 completes and stores its file.
    expect(await worker.complete(runId, 2, key, await partialFor(runId, 2, 'current'), describeOutput(key))).toMatchObject({ key, bytes: 7 });
    expect(await readFile(file, 'utf8')).toBe('current');

    // Attempt 1 finishing later neither replaces nor removes it, and the run stays as attempt 2 left it.
    const before = await conn.execute<{ version: number }[]>('select version from render_runs where id = ?', [runId]);
    expect(await worker.complete(runId, 1, key, await partialFor(runId, 1, 'late again'), describeOutput(key))).toBeUndefined();
    expect(await readFile(file, 'utf8')).toBe('current');
    expect(await conn.execute('select version, status from render_runs where id = ?', [runId])).toEqual([{ version: before[0].version, status: 'COMPLETED' }]);
  });
});
