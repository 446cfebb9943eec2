import { HeadObjectCommand } from '@aws-sdk/client-s3';
import express from 'express';
import supertest from 'supertest';
import { readdir, writeFile } from 'node:fs/promises';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { as } from './demo';
import { createTestApp, TestApp } from './app';
import { probe, renderEnv, startWorker, waitForRun } from './support/render';
import { S3_TEST_CREDENTIALS, startS3, TestS3 } from './support/s3';
import { RenderMaintenance } from '../src/modules/render/render.maintenance';
import { RenderWorker } from '../src/modules/render/render.worker';
import { S3RenderStorage } from '../src/jobs/s3.storage';
import { healthRouter } from '../src/http/health';

const tiny = { compositionId: 'title-card', inputProps: { title: 'In a bucket' }, width: 64, height: 48, fps: 10, durationInFrames: 12 };

/** Renders with RENDER_STORAGE=s3://… against a real S3 server (s3rver on loopback): links are presigned GETs. */
describe('video renders in object storage (real PostgreSQL, real ffmpeg, s3rver)', () => {
  let s3: TestS3;
  let t: TestApp;
  let worker: RenderWorker | undefined;
  const savedEnv = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };
  beforeAll(async () => {
    s3 = await startS3('mas-videos');
    // The storage takes credentials from the standard AWS environment, as in production.
    process.env.AWS_ACCESS_KEY_ID = S3_TEST_CREDENTIALS.accessKeyId;
    process.env.AWS_SECRET_ACCESS_KEY = S3_TEST_CREDENTIALS.secretAccessKey;
    t = await createTestApp({
      env: renderEnv({ RENDER_STORAGE: `s3://${s3.bucket}/renders/`, S3_ENDPOINT: s3.endpoint, S3_FORCE_PATH_STYLE: 'true', S3_REGION: 'us-east-1', RENDER_URL_TTL: '900' }),
    });
    worker = await startWorker(t);
  });
  afterAll(async () => {
    await worker?.stop(1000);
    await t?.close();
    await s3?.close();
    process.env.AWS_ACCESS_KEY_ID = savedEnv.id;
    process.env.AWS_SECRET_ACCESS_KEY = savedEnv.secret;
    if (savedEnv.id === undefined) delete process.env.AWS_ACCESS_KEY_ID;
    if (savedEnv.secret === undefined) delete process.env.AWS_SECRET_ACCESS_KEY;
  });

  const storage = () => t.deps.render.storage as S3RenderStorage;
  const objectExists = (key: string) =>
    storage().client.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: `renders/${key}` })).then(() => true, (e: { name?: string }) => {
      if (e.name === 'NotFound') return false;
      throw e;
    });
  const localFiles = async (runId: string) => {
    const root = t.config.render.storageDir;
    return [...(await readdir(root)), ...(await readdir(join(root, '.tmp')).catch(() => []))].filter((f) => f.startsWith(runId));
  };
  const rendered = async () => {
    const res = await t.http().post('/api/video/render').set(as.nora).send(tiny);
    expect(res.status).toBe(200);
    return waitForRun(t, as.nora, res.body.runId as string, ['COMPLETED', 'FAILED']);
  };

  it('completes a real render into the bucket; output.url is a presigned GET that serves the video and its byte ranges', async () => {
    expect(t.deps.render.storage).toBeInstanceOf(S3RenderStorage);
    const run = await rendered();
    expect(run).toMatchObject({ status: 'COMPLETED', error: null });
    const url = new URL(run.output!.url);
    // The link points at the storage, not at this API: video bytes never pass through it.
    expect(url.origin).toBe(s3.endpoint);
    expect(url.pathname).toBe(`/${s3.bucket}/renders/${run.id}.mp4`);
    expect(url.searchParams.get('X-Amz-Expires')).toBe('900');
    expect(Math.abs(new Date(run.output!.expiresAt).getTime() - (Date.now() + 900_000))).toBeLessThan(30_000);
    expect(await objectExists(`${run.id}.mp4`)).toBe(true);

    const whole = await fetch(run.output!.url);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('video/mp4');
    const bytes = Buffer.from(await whole.arrayBuffer());
    expect(bytes.length).toBe(run.output!.bytes);
    const file = join(mkdtempSync(join(tmpdir(), 'mas-s3-probe-')), 'video.mp4');
    await writeFile(file, bytes);
    expect(await probe(file)).toMatchObject({ codec_name: 'h264', width: 64, height: 48, r_frame_rate: '10/1', nb_read_frames: '12' });

    const ranged = await fetch(run.output!.url, { headers: { range: 'bytes=4-11' } });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get('content-range')).toBe(`bytes 4-11/${run.output!.bytes}`);
    expect(Buffer.from(await ranged.arrayBuffer())).toEqual(bytes.subarray(4, 12));

    // Nothing stays on the worker's disk; the API's own /media/renders serves nothing, even with a valid signature.
    expect(await localFiles(run.id)).toEqual([]);
    const local = new URL(t.deps.render.signer.sign(`${run.id}.mp4`).url);
    const media = await t.http().get(`${local.pathname}${local.search}`);
    expect(media.status).toBe(404);
    expect(media.body).toMatchObject({ status: 'error', code: 'NOT_FOUND' });

    // GraphQL hands out the same kind of link.
    const gql = await t.graphql('query($id: String) { runs(input: { runId: $id }) { items { output { url bytes } } } }', { id: run.id }, as.nora);
    const gqlUrl = new URL(gql.body.data.runs.items[0].output.url);
    expect(`${gqlUrl.origin}${gqlUrl.pathname}`).toBe(`${s3.endpoint}/${s3.bucket}/renders/${run.id}.mp4`);
  });

  it('/readyz checks the bucket: ready while it answers, 503 when it is missing or refuses the credentials', async () => {
    const ready = await t.http().get('/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ok', database: 'up', migrations: 'applied', storage: 'up', ffmpeg: expect.any(Object) });
    const location = { bucket: s3.bucket, prefix: '', endpoint: s3.endpoint, region: 'us-east-1', forcePathStyle: true };
    for (const broken of [
      new S3RenderStorage({ ...location, bucket: 'no-such-bucket' }, t.config.render.storageDir, 60),
      new S3RenderStorage(location, t.config.render.storageDir, 60, { accessKeyId: 'WRONG', secretAccessKey: 'WRONG' }),
    ]) {
      try {
        const res = await supertest(express().use(healthRouter(t.orm, broken))).get('/readyz');
        expect(res.status).toBe(503);
        expect(res.headers['retry-after']).toBe('5');
        expect(res.body).toEqual({ status: 'error', database: 'up', migrations: 'applied', storage: 'down' });
      } finally {
        broken.close();
      }
    }
  });

  it('cancels an EXECUTING run: the render stops and neither the bucket nor the disk keeps anything of it', async () => {
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
    const cancel = await t.http().post(`/api/tasks/runs/${runId}/cancel`).set(as.nora);
    expect(cancel.status).toBe(200);
    expect(cancel.body.run).toMatchObject({ id: runId, status: 'CANCELED', output: null });
    const canceledAt = Date.now();
    while ((await localFiles(runId)).length) {
      if (Date.now() - canceledAt > 10_000) throw new Error(`files left: ${(await localFiles(runId)).join(', ')}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(await objectExists(`${runId}.mp4`)).toBe(false);
    expect(await waitForRun(t, as.nora, runId, ['CANCELED'])).toMatchObject({ status: 'CANCELED', output: null });
  });

  it('the retention sweep deletes the object; links handed out before then answer 404 from the storage', async () => {
    const run = await rendered();
    expect(await objectExists(`${run.id}.mp4`)).toBe(true);
    await t.orm.em.getConnection().execute(`update render_runs set finished_at = now() - make_interval(hours => 169) where id = ?`, [run.id]);
    const sweeper = new RenderMaintenance({ ...t.deps.render, orm: t.orm, config: t.config.render, logger: t.deps.logger });
    expect(await sweeper.expireOutputs()).toBe(1);
    expect(await objectExists(`${run.id}.mp4`)).toBe(false);
    expect((await fetch(run.output!.url)).status).toBe(404);
    const after = (await t.http().get('/api/tasks/runs').query({ runId: run.id }).set(as.nora)).body.runs[0];
    expect(after).toMatchObject({ status: 'COMPLETED', output: null, outputExpiredAt: expect.any(String) });
  });

  it('publishes a late attempt\'s upload only while the run is still that attempt\'s, even when taken over mid-upload', async () => {
    // No running worker here: this test plays the attempts itself.
    await worker?.stop(1000);
    worker = undefined;
    const attempts = new RenderWorker({ ...t.deps.render, orm: t.orm, config: t.config.render, logger: t.deps.logger });
    const runId = (await t.http().post('/api/video/render').set(as.nora).send({ ...tiny, durationInFrames: 1 })).body.runId as string;
    const key = `${runId}.mp4`;
    const conn = t.orm.em.getConnection();
    const partialFor = async (attempt: number, content: string) => {
      const path = join(await storage().scratchDir(`${runId}-${attempt}`), 'video.mp4');
      await writeFile(path, content);
      return path;
    };
    const describeOutput = (bytes: number) => ({ key, mimeType: 'video/mp4', bytes, width: 8, height: 8, fps: 1, durationInFrames: 1, codec: 'h264' as const });
    const content = async () => Buffer.from(await (await fetch((await storage().presign(key)).url)).arrayBuffer()).toString();
    await conn.execute("update render_runs set status = 'EXECUTING', attempts = 1, job_id = null where id = ?", [runId]);

    // Attempt 1 passes the ownership check and uploads; the run is taken over (attempt 2) before it can publish.
    const name = 'take-over-mid-upload';
    storage().client.middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName === 'UploadPartCommand') await conn.execute('update render_runs set attempts = 2 where id = ?', [runId]);
        return next(args);
      },
      { step: 'initialize', name },
    );
    try {
      expect(await attempts.complete(runId, 1, key, await partialFor(1, 'late'), describeOutput)).toBeUndefined();
    } finally {
      storage().client.middlewareStack.remove(name);
    }
    expect(await objectExists(key)).toBe(false);

    // Attempt 2 publishes its video; attempt 1 trying again later changes nothing.
    expect(await attempts.complete(runId, 2, key, await partialFor(2, 'current'), describeOutput)).toMatchObject({ key, bytes: 7 });
    expect(await content()).toBe('current');
    expect(await attempts.complete(runId, 1, key, await partialFor(1, 'late again'), describeOutput)).toBeUndefined();
    expect(await content()).toBe('current');
    expect(await conn.execute('select status, attempts from render_runs where id = ?', [runId])).toEqual([{ status: 'COMPLETED', attempts: 2 }]);
  });

  it('cancels a run even when the storage cannot be reached (a canceled run has no object to delete)', async () => {
    // Still no running worker: the run stays QUEUED until canceled.
    const runId = (await t.http().post('/api/video/render').set(as.nora).send(tiny)).body.runId as string;
    const name = 'storage-down';
    storage().client.middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName === 'DeleteObjectCommand') throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { name: 'Error' });
        return next(args);
      },
      { step: 'initialize', name },
    );
    try {
      const cancel = await t.http().post(`/api/tasks/runs/${runId}/cancel`).set(as.nora);
      expect(cancel.status).toBe(200);
      expect(cancel.body.run).toMatchObject({ id: runId, status: 'CANCELED', output: null });
    } finally {
      storage().client.middlewareStack.remove(name);
    }
  });
});
