import { execFile } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { as } from './demo';
import { createTestApp, TestApp } from './app';
import { probe, renderEnv, startWorker, waitForRun } from './support/render';
import type { RenderWorker } from '../src/modules/render/render.worker';
import { ffmpegPath, ffprobePath } from '../src/jobs/encoder';

describe('video render runs (real PostgreSQL, real ffmpeg)', () => {
  let t: TestApp;
  let worker: RenderWorker;
  beforeAll(async () => {
    t = await createTestApp({ env: renderEnv() });
    worker = await startWorker(t, 2);
  });
  afterAll(async () => {
    await worker?.stop(1000);
    await t?.close();
  });

  const fetchFile = async (url: string) => {
    const u = new URL(url);
    const res = await t.http().get(`${u.pathname}${u.search}`).buffer(true).parse((r, cb) => {
      const chunks: Buffer[] = [];
      r.on('data', (c: Buffer) => chunks.push(c));
      r.on('end', () => cb(null, Buffer.concat(chunks)));
    });
    return res;
  };

  it.each([
    ['h264', 'h264', 'mp4'],
    ['h265', 'hevc', 'mp4'],
    ['vp8', 'vp8', 'webm'],
    ['vp9', 'vp9', 'webm'],
  ])('renders %s with the exact size, fps, frame count and codec', async (codec, probeName, container) => {
    const started = await t.http().post('/api/video/render').set(as.nora).send({
      compositionId: 'title-card', inputProps: { title: 'Hi', subtitle: 'there' }, width: 64, height: 48, fps: 12, durationInFrames: 10, codec,
    });
    expect(started.status).toBe(200);
    expect(started.body).toEqual({ status: 'processing', runId: expect.any(String) });
    const run = await waitForRun(t, as.nora, started.body.runId, ['COMPLETED', 'FAILED']);
    expect(run).toMatchObject({ status: 'COMPLETED', progress: 1, attempts: 1, error: null });
    expect(run.output).toMatchObject({ width: 64, height: 48, fps: 12, durationInFrames: 10, codec, mimeType: `video/${container}` });
    const file = await fetchFile(run.output!.url);
    expect(file.status).toBe(200);
    expect(file.body.length).toBe(run.output!.bytes);
    const path = join(tmpdir(), `probe-${run.id}.${container}`);
    await writeFile(path, file.body);
    const p = await probe(path);
    expect(p).toMatchObject({ codec_name: probeName, width: 64, height: 48, r_frame_rate: '12/1', nb_read_frames: '10' });
    expect(p.format_name).toContain(container === 'mp4' ? 'mp4' : 'webm');
  });
});

describe('render compositions, links and cancel (real ffmpeg)', () => {
  let t: TestApp;
  let worker: RenderWorker;
  beforeAll(async () => {
    t = await createTestApp({ env: renderEnv() });
    worker = await startWorker(t, 1);
  });
  afterAll(async () => {
    await worker?.stop(1000);
    await t?.close();
  });

  const dataUrl = async (args: string[], ext: string, type: string) => {
    const file = join(tmpdir(), `asset-${process.pid}-${Date.now()}.${ext}`);
    await promisify(execFile)(ffmpegPath(), ['-hide_banner', '-loglevel', 'error', '-y', ...args, file]);
    return `data:${type};base64,${(await readFile(file)).toString('base64')}`;
  };

  it('renders a social post over an image with a soundtrack, and a lyric video at an odd size', async () => {
    const image = await dataUrl(['-f', 'lavfi', '-i', 'testsrc=s=32x24', '-frames:v', '1'], 'png', 'image/png');
    const audio = await dataUrl(['-f', 'lavfi', '-i', 'sine=frequency=440:duration=0.3'], 'wav', 'audio/wav');
    const social = await t.http().post('/api/video/render').set(as.nora).send({
      compositionId: 'social-post', inputProps: { caption: 'Out now: a caption long enough to wrap', backgroundImage: image, audio }, width: 48, height: 64, fps: 8, durationInFrames: 8, codec: 'vp9',
    });
    const lyric = await t.http().post('/api/video/render').set(as.nora).send({
      compositionId: 'lyric-video', inputProps: { title: 'Song', lines: ['first line', { text: 'second', startFrame: 5, endFrame: 9 }] }, width: 65, height: 33, fps: 9, durationInFrames: 9, codec: 'h264',
    });
    for (const [res, expected] of [[social, { width: 48, height: 64, r_frame_rate: '8/1', nb_read_frames: '8', codec_name: 'vp9' }], [lyric, { width: 65, height: 33, r_frame_rate: '9/1', nb_read_frames: '9', codec_name: 'h264' }]] as const) {
      expect(res.status).toBe(200);
      const run = await waitForRun(t, as.nora, res.body.runId, ['COMPLETED', 'FAILED']);
      expect(run.status).toBe('COMPLETED');
      expect(await probe(join(t.config.render.storageDir, new URL(run.output!.url).pathname.split('/').pop()!))).toMatchObject(expected);
    }
    const socialRun = await waitForRun(t, as.nora, social.body.runId, ['COMPLETED']);
    const { stdout } = await promisify(execFile)(ffprobePath(), ['-v', 'error', '-show_entries', 'stream=codec_type', '-of', 'csv=p=0', join(t.config.render.storageDir, `${socialRun.id}.webm`)]);
    expect(stdout.trim().split('\n').sort()).toEqual(['audio', 'video']);
  });

  it('serves the file only at a valid, unexpired signed link, with byte ranges', async () => {
    const res = await t.http().post('/api/video/render').set(as.nora).send({ compositionId: 'title-card', inputProps: { title: 'Link' }, width: 32, height: 32, durationInFrames: 3 });
    const run = await waitForRun(t, as.nora, res.body.runId, ['COMPLETED', 'FAILED']);
    const url = new URL(run.output!.url);
    expect(url.origin).toBe(t.config.publicUrl);
    expect(new Date(run.output!.expiresAt).getTime()).toBeGreaterThan(Date.now());
    const path = `${url.pathname}${url.search}`;
    const ranged = await t.http().get(path).set('range', 'bytes=0-9');
    expect(ranged.status).toBe(206);
    expect(ranged.headers['content-range']).toBe(`bytes 0-9/${run.output!.bytes}`);
    const tampered = await t.http().get(path.replace(/signature=[^&]+/, 'signature=AAAA'));
    expect(tampered.status).toBe(403);
    const expired = t.deps.render.signer.sign(`${run.id}.mp4`, Date.now() - 2 * 3600 * 1000 - t.config.render.urlTtlS * 1000);
    const late = await t.http().get(new URL(expired.url).pathname + new URL(expired.url).search);
    expect(late.status).toBe(403);
    expect(late.body.error).toContain('expired');
    expect((await t.http().get(url.pathname)).status).toBe(403);
  });

  it('cancels an EXECUTING run: ffmpeg stops and its files are removed', async () => {
    const res = await t.http().post('/api/video/render').set(as.nora).send({
      compositionId: 'social-post', inputProps: { caption: 'Cancel me' }, width: 1280, height: 720, fps: 30, durationInFrames: 1800, codec: 'h264',
    });
    const runId = res.body.runId as string;
    const deadline = Date.now() + 20_000;
    for (;;) {
      const run = (await t.http().get('/api/tasks/runs').query({ runId }).set(as.nora)).body.runs[0];
      if (run.status === 'EXECUTING' && run.progress > 0) break;
      if (Date.now() > deadline) throw new Error(`never EXECUTING: ${JSON.stringify(run)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const canceledAt = Date.now();
    const cancel = await t.http().post(`/api/tasks/runs/${runId}/cancel`).set(as.nora);
    expect(cancel.status).toBe(200);
    expect(cancel.body.run).toMatchObject({ id: runId, status: 'CANCELED', output: null });
    // The worker stops ffmpeg and cleans up well before the 60-second render would have ended.
    const scratch = join(t.config.render.storageDir, '.tmp');
    for (;;) {
      const left = [...(await readdir(scratch).catch(() => [])), ...(await readdir(t.config.render.storageDir))].filter((f) => f.startsWith(runId));
      if (left.length === 0) break;
      if (Date.now() - canceledAt > 10_000) throw new Error(`files left: ${left.join(', ')}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const after = await waitForRun(t, as.nora, runId, ['CANCELED']);
    const progressAtCancel = after.progress;
    await new Promise((r) => setTimeout(r, 700));
    const later = await waitForRun(t, as.nora, runId, ['CANCELED', 'EXECUTING', 'COMPLETED']);
    expect(later).toMatchObject({ status: 'CANCELED', progress: progressAtCancel });
  });
});

describe('a render that keeps failing (real PostgreSQL)', () => {
  let t: TestApp;
  let worker: RenderWorker;
  beforeAll(async () => {
    t = await createTestApp({ env: renderEnv({ FFMPEG_PATH: '/nonexistent/ffmpeg', RENDER_RETRY_LIMIT: '1', RENDER_RETRY_DELAY_S: '1' }) });
    worker = await startWorker(t, 1);
  });
  afterAll(async () => {
    await worker?.stop(1000);
    await t?.close();
  });

  it('is retried with backoff, then FAILED with a reason that names no path; its job reaches the dead-letter queue', async () => {
    const res = await t.http().post('/api/video/render').set(as.nora).send({ compositionId: 'title-card', inputProps: { title: 'x' }, width: 8, height: 8, durationInFrames: 2 });
    const run = await waitForRun(t, as.nora, res.body.runId, ['FAILED', 'COMPLETED'], 30_000);
    expect(run).toMatchObject({ status: 'FAILED', attempts: 2, output: null, error: 'ffmpeg could not start (ENOENT)', finishedAt: expect.any(String) });
    const conn = t.orm.em.getConnection();
    for (const deadline = Date.now() + 10_000; ; ) {
      const dead = await conn.execute("select count(*)::int as n from pgboss.job where name = 'render-video-dead' and data->>'runId' = ?", [run.id]);
      if (Number(dead[0].n) === 1) break;
      if (Date.now() > deadline) throw new Error('job never reached the dead-letter queue');
      await new Promise((r) => setTimeout(r, 100));
    }
    // (Read once the job was failed, i.e. after the attempt ended.) Each attempt is counted by how it ended: one retry, then the final failure; no completion.
    const metrics = (await t.http().get('/metrics')).text;
    expect(metrics).toMatch(/render_runs_finished_total\{status="RETRY"\} 1\n/);
    expect(metrics).toMatch(/render_runs_finished_total\{status="FAILED"\} 1\n/);
    expect(metrics).not.toContain('render_runs_finished_total{status="COMPLETED"}');
  });
});
