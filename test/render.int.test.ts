import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { as } from './demo';
import { createTestApp, TestApp } from './app';
import { probe, renderEnv, startWorker, waitForRun } from './support/render';
import type { RenderWorker } from '../src/jobs/render.worker';

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
