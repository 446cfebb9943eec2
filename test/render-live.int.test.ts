import { readdir } from 'node:fs/promises';
import { as } from './demo';
import { createTestApp, TestApp } from './app';
import { renderEnv, secondInstance, spawnWorker, startWorker, waitForRun } from './support/render';
import type { RenderWorker } from '../src/modules/render/render.worker';
import { watchRun as watch, wsClient } from './support/live';

describe('live render status across processes (real PostgreSQL)', () => {
  let t: TestApp;
  const workers: RenderWorker[] = [];
  beforeAll(async () => {
    // A short lease brings a killed worker's run back (no short job expiry, which would cut slow renders on a busy machine).
    t = await createTestApp({ env: renderEnv({ RENDER_HEARTBEAT_INTERVAL_S: '1', RENDER_HEARTBEAT_TIMEOUT_S: '4', RENDER_MAINTENANCE_INTERVAL_S: '1', RENDER_RETRY_DELAY_S: '1' }) });
  });
  afterAll(async () => {
    for (const w of workers) await w.stop(1000);
    await t?.close();
  });

  it('pushes QUEUED → EXECUTING → COMPLETED to a subscriber on another API instance', async () => {
    const other = await secondInstance(t);
    const client = wsClient(other.port, { 'x-api-key': as.nora['x-api-key'] });
    try {
      const started = await t.http().post('/api/video/render').set(as.nora).send({
        compositionId: 'lyric-video', inputProps: { lines: ['one', 'two'] }, width: 1280, height: 720, fps: 30, durationInFrames: 240, codec: 'vp8',
      });
      const runId = started.body.runId as string;
      const live = watch(client, runId);
      await live.first;
      expect(live.states[0]).toMatchObject({ id: runId, status: 'QUEUED', progress: 0 });
      workers.push(await startWorker(t)); // renders in instance A's process; the subscriber is on B
      await live.done;
      expect(live.errors).toEqual([]);
      const statuses = live.states.map((s) => s.status).filter((s, i, all) => all[i - 1] !== s);
      expect(statuses).toEqual(['QUEUED', 'EXECUTING', 'COMPLETED']);
      const progress = live.states.map((s) => s.progress);
      expect(progress.every((p, i) => i === 0 || p >= progress[i - 1])).toBe(true);
      expect(progress.at(-1)).toBe(1);
      // ffmpeg reports every half second: a render of a second or more shows progress on the way.
      expect(live.states.some((s) => s.status === 'EXECUTING' && s.progress > 0 && s.progress < 1)).toBe(true);
      const last = live.states.at(-1)!;
      expect(last.output).toMatchObject({ codec: 'vp8', url: expect.stringContaining(`/media/renders/${runId}.webm?expires=`) });
    } finally {
      await client.dispose();
      await other.close();
      for (const w of workers.splice(0)) await w.stop(1000);
    }
  });

  it('keeps a subscription alive when the LISTEN connection drops: it reconnects and catches up', async () => {
    const other = await secondInstance(t);
    const client = wsClient(other.port, { 'x-api-key': as.nora['x-api-key'] });
    try {
      const runId = (await t.http().post('/api/video/render').set(as.nora).send({ compositionId: 'title-card', inputProps: { title: 'Reconnect' }, width: 16, height: 16, durationInFrames: 5 })).body.runId;
      const live = watch(client, runId);
      await live.first;
      const killed = await t.orm.em.getConnection().execute(
        "select pg_terminate_backend(pid) as ok from pg_stat_activity where application_name = 'render-run-events' and datname = current_database()");
      expect(killed.length).toBeGreaterThan(0);
      workers.push(await startWorker(t));
      await live.done;
      expect(live.states.at(-1)).toMatchObject({ id: runId, status: 'COMPLETED', progress: 1 });
    } finally {
      await client.dispose();
      await other.close();
      for (const w of workers.splice(0)) await w.stop(1000);
    }
  });

  it('refuses a subscription without credentials, and to a run the caller cannot reach', async () => {
    const runId = (await t.http().post('/api/video/render').set(as.sam).send({ compositionId: 'title-card', inputProps: { title: 'x' }, width: 8, height: 8, durationInFrames: 1 })).body.runId;
    await new Promise<void>((resolve) => t.app.server.listen(0, '127.0.0.1', resolve));
    const port = (t.app.server.address() as { port: number }).port;
    const stranger = wsClient(port, { 'x-api-key': as.otto['x-api-key'] });
    const anonymous = wsClient(port, {});
    try {
      const refused = watch(stranger, runId);
      await refused.done;
      expect(refused.states).toEqual([]);
      expect(JSON.stringify(refused.errors)).toContain('NOT_FOUND');
      const anon = watch(anonymous, runId);
      await anon.done;
      expect(anon.states).toEqual([]);
      expect(anon.errors.length).toBeGreaterThan(0);
    } finally {
      await stranger.dispose();
      await anonymous.dispose();
    }
  });

  it('a worker process stopped with SIGTERM releases its render to the queue, and another worker completes it', async () => {
    const child = spawnWorker(t, { SHUTDOWN_TIMEOUT_MS: '3100' }); // 100 ms grace, then release
    try {
      const started = await t.http().post('/api/video/render').set(as.nora).send({
        compositionId: 'social-post', inputProps: { caption: 'Released' }, width: 1280, height: 720, fps: 30, durationInFrames: 300, codec: 'h264',
      });
      const runId = started.body.runId as string;
      await waitForRun(t, as.nora, runId, ['EXECUTING'], 30_000);
      child.kill('SIGTERM');
      const code = await new Promise((r) => child.once('exit', r));
      expect(code).toBe(0);
      const released = (await t.http().get('/api/tasks/runs').query({ runId }).set(as.nora)).body.runs[0];
      expect(released).toMatchObject({ status: 'QUEUED', attempts: 1 });
      workers.push(await startWorker(t));
      expect(await waitForRun(t, as.nora, runId, ['COMPLETED', 'FAILED'], 40_000)).toMatchObject({ status: 'COMPLETED', attempts: 2 });
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      for (const w of workers.splice(0)) await w.stop(1000);
    }
  });

  it('a run whose worker process is killed mid-render is completed by another worker', async () => {
    const child = spawnWorker(t);
    try {
      const started = await t.http().post('/api/video/render').set(as.nora).send({
        // Long enough (20 s of video) that a quiet machine cannot finish it between two polls.
        compositionId: 'social-post', inputProps: { caption: 'Survives a crash' }, width: 1280, height: 720, fps: 30, durationInFrames: 600, codec: 'h264',
      });
      const runId = started.body.runId as string;
      const deadline = Date.now() + 30_000;
      for (;;) {
        const run = (await t.http().get('/api/tasks/runs').query({ runId }).set(as.nora)).body.runs[0];
        if (run.status === 'EXECUTING' && run.progress > 0) break;
        if (Date.now() > deadline || ['COMPLETED', 'FAILED'].includes(run.status)) throw new Error(`never caught it mid-render: ${JSON.stringify(run)}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      child.kill('SIGKILL');
      await new Promise((r) => child.once('exit', r));
      workers.push(await startWorker(t));
      const run = await waitForRun(t, as.nora, runId, ['COMPLETED', 'FAILED'], 90_000);
      expect(run).toMatchObject({ status: 'COMPLETED', attempts: 2, progress: 1 });
      const files = (await readdir(t.config.render.storageDir)).filter((f) => f.startsWith(runId));
      expect(files).toEqual([`${runId}.mp4`]);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }, 150_000);
});
