import { readdir } from 'node:fs/promises';
import { as } from './demo';
import { createTestApp, TestApp } from './app';
import { renderEnv, startWorker, waitForRun, RunJson } from './support/render';
import { RenderMaintenance } from '../src/modules/render/render.maintenance';
import type { RenderWorker } from '../src/modules/render/render.worker';

const tiny = { compositionId: 'title-card', inputProps: { title: 'Kept a while' }, width: 16, height: 16, fps: 5, durationInFrames: 2 };

describe('render retention and render metrics (real PostgreSQL, real ffmpeg)', () => {
  let t: TestApp;
  let worker: RenderWorker;
  beforeAll(async () => {
    t = await createTestApp({ env: renderEnv({ RENDER_RETENTION_HOURS: '168', RENDER_MAINTENANCE_INTERVAL_S: '1' }) });
    worker = await startWorker(t);
  });
  afterAll(async () => {
    await worker?.stop(1000);
    await t?.close();
  });

  const rendered = async (): Promise<RunJson> => {
    const runId = (await t.http().post('/api/video/render').set(as.nora).send(tiny)).body.runId as string;
    return waitForRun(t, as.nora, runId, ['COMPLETED', 'FAILED']);
  };
  const age = (runId: string, hours: number) =>
    t.orm.em.getConnection().execute(`update render_runs set finished_at = now() - make_interval(hours => ?) where id = ?`, [hours, runId]);
  const files = async (runId: string) => (await readdir(t.config.render.storageDir)).filter((f) => f.startsWith(runId));
  const fetchPath = (url: string) => `${new URL(url).pathname}${new URL(url).search}`;

  it('deletes a video RENDER_RETENTION_HOURS after its run finished; the run then says its output expired', async () => {
    const run = await rendered();
    expect(run).toMatchObject({ status: 'COMPLETED', outputExpiredAt: null });
    expect(new Date(run.output!.retainedUntil!).getTime()).toBe(new Date(run.finishedAt as string).getTime() + 168 * 3600 * 1000);
    const link = run.output!.url;

    // Not old enough yet: kept.
    await age(run.id, 167);
    await new Promise((r) => setTimeout(r, 2500));
    expect(await files(run.id)).toEqual([`${run.id}.mp4`]);

    // Past the retention time, the worker's scheduled sweep deletes it.
    await age(run.id, 169);
    const deadline = Date.now() + 15_000;
    let expired: RunJson;
    for (;;) {
      expired = (await t.http().get('/api/tasks/runs').query({ runId: run.id }).set(as.nora)).body.runs[0];
      if (expired.outputExpiredAt || Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(expired).toMatchObject({ id: run.id, status: 'COMPLETED', output: null, outputExpiredAt: expect.any(String) });
    expect(await files(run.id)).toEqual([]);

    const gql = await t.graphql('query($id: String) { runs(input: { runId: $id }) { items { status outputExpiredAt output { url } } } }', { id: run.id }, as.nora);
    expect(gql.body.data.runs.items[0]).toEqual({ status: 'COMPLETED', outputExpiredAt: expired.outputExpiredAt, output: null });

    // A link handed out before still verifies, but the file is gone: a clear 404, never a 500 or a broken stream.
    const gone = await t.http().get(fetchPath(link));
    expect(gone.status).toBe(404);
    expect(gone.body).toMatchObject({ status: 'error', code: 'NOT_FOUND' });
    expect(gone.body.error).toContain('deleted');
    expect(gone.body.error).toContain('168 hours');
  });

  it('is safe with several workers sweeping at once: one deletes, the others find nothing', async () => {
    const run = await rendered();
    await age(run.id, 200);
    const sweepers = Array.from({ length: 3 }, () => new RenderMaintenance({ ...t.deps.render, orm: t.orm, config: t.config.render, logger: t.deps.logger }));
    const counts = await Promise.all(sweepers.map((s) => s.expireOutputs()));
    // The scheduled sweep of the running worker may have got there first.
    expect(counts.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(1);
    expect(await files(run.id)).toEqual([]);
    const after = (await t.http().get('/api/tasks/runs').query({ runId: run.id }).set(as.nora)).body.runs[0];
    expect(after).toMatchObject({ output: null, outputExpiredAt: expect.any(String) });
    expect(await Promise.all(sweepers.map((s) => s.expireOutputs()))).toEqual([0, 0, 0]);
  });

  it('reports queue depth, active renders, render durations and outcomes in /metrics', async () => {
    await rendered();
    const res = await t.http().get('/metrics');
    expect(res.status).toBe(200);
    expect(res.text).toMatch(/render_queue_depth \d+/);
    expect(res.text).toMatch(/render_runs_active\{status="QUEUED"\} \d+/);
    expect(res.text).toMatch(/render_runs_active\{status="EXECUTING"\} \d+/);
    expect(res.text).toMatch(/render_duration_seconds_bucket\{le="1",codec="h264",status="COMPLETED"\} \d+/);
    expect(res.text).toMatch(/render_runs_finished_total\{status="COMPLETED"\} [1-9]/);
    expect(res.text).toMatch(/render_outputs_expired_total [1-9]/);
    // Still the HTTP metrics of before.
    expect(res.text).toContain('http_requests_total');
  });
});
