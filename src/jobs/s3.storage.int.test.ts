import { HeadObjectCommand } from '@aws-sdk/client-s3';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { S3_TEST_CREDENTIALS, startS3, TestS3 } from '../../test/support/s3';
import { startTcpProxy } from '../../test/support/tcp-proxy';
import { AppError } from '../common/errors';
import { PART_BYTES, S3RenderStorage } from './s3.storage';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** The storage against a real S3 server (s3rver on loopback): upload, presigned ranges, expiry, delete, failed uploads. */
describe('S3RenderStorage (s3rver)', () => {
  let s3: TestS3;
  let storage: S3RenderStorage;
  let dir: string;
  beforeAll(async () => {
    s3 = await startS3();
    dir = mkdtempSync(join(tmpdir(), 'mas-s3-src-'));
    storage = new S3RenderStorage({ bucket: s3.bucket, prefix: 'videos/v1', endpoint: s3.endpoint, region: 'us-east-1', forcePathStyle: true }, dir, 600, S3_TEST_CREDENTIALS);
  });
  afterAll(async () => {
    storage?.close();
    await s3?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const file = (bytes: number) => {
    const content = randomBytes(bytes);
    const path = join(dir, `${randomUUID()}.bin`);
    writeFileSync(path, content);
    return { path, content };
  };
  const exists = (key: string) =>
    storage.client.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: storage.objectKey(key) })).then(() => true, (e: { name?: string }) => {
      if (e.name === 'NotFound') return false;
      throw e;
    });
  /**
   * UploadIds of the AbortMultipartUpload requests sent, and what s3rver answered. s3rver implements
   * neither AbortMultipartUpload nor ListMultipartUploads (it answers MethodNotAllowed), so the test
   * checks the storage asks to abort the right upload; AWS S3, MinIO, R2 and GCS then drop its parts.
   */
  const abortsSent = () => {
    const sent: string[] = [];
    const name = `spy-${randomUUID()}`;
    storage.client.middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName === 'AbortMultipartUploadCommand') sent.push((args.input as { UploadId: string }).UploadId);
        return next(args);
      },
      { step: 'initialize', name },
    );
    return { sent, stop: () => storage.client.middlewareStack.remove(name) };
  };
  const uploadsStarted = () => {
    const started: string[] = [];
    const name = `spy-${randomUUID()}`;
    storage.client.middlewareStack.add(
      (next, context) => async (args) => {
        const result = await next(args);
        if (context.commandName === 'CreateMultipartUploadCommand') started.push((result.output as { UploadId: string }).UploadId);
        return result;
      },
      { step: 'initialize', name },
    );
    return { started, stop: () => storage.client.middlewareStack.remove(name) };
  };

  it('uploads in parts from the file, publishes only on commit, and a presigned GET serves byte ranges', async () => {
    const key = `${randomUUID()}.mp4`;
    const { path, content } = file(PART_BYTES + 123_457);
    const staged = await storage.stage(key, path);
    expect(staged.bytes).toBe(content.length);
    // Uploaded but not committed: nothing under the key yet.
    expect(await exists(key)).toBe(false);
    await staged.commit();
    expect(await exists(key)).toBe(true);
    expect(storage.objectKey(key)).toBe(`videos/v1/${key}`);

    const { url, expiresAt } = await storage.presign(key);
    expect(url.startsWith(`${s3.endpoint}/${s3.bucket}/videos/v1/${key}?`)).toBe(true);
    expect(new URL(url).searchParams.get('X-Amz-Expires')).toBe('600');
    expect(Math.abs(expiresAt.getTime() - (Date.now() + 600_000))).toBeLessThan(2000);

    const whole = await fetch(url);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('video/mp4');
    expect(sha(Buffer.from(await whole.arrayBuffer()))).toBe(sha(content));

    // A range across the part boundary: 206 with exactly those bytes.
    const start = PART_BYTES - 5;
    const ranged = await fetch(url, { headers: { range: `bytes=${start}-${start + 9}` } });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get('content-range')).toBe(`bytes ${start}-${start + 9}/${content.length}`);
    expect(Buffer.from(await ranged.arrayBuffer())).toEqual(content.subarray(start, start + 10));
  });

  it('refuses a presigned URL after it expired', async () => {
    const key = `${randomUUID()}.webm`;
    const staged = await storage.stage(key, file(1000).path);
    await staged.commit();
    const fresh = await storage.presign(key);
    expect((await fetch(fresh.url)).status).toBe(200);
    // Signed 601 s ago with a 600 s lifetime.
    const old = await storage.presign(key, Date.now() - 601_000);
    expect(old.expiresAt.getTime()).toBeLessThan(Date.now());
    const refused = await fetch(old.url);
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain('expired');
  });

  it('deletes an object (its links then answer 404); deleting a missing one is no error', async () => {
    const key = `${randomUUID()}.mp4`;
    await (await storage.stage(key, file(2000).path)).commit();
    const { url } = await storage.presign(key);
    await storage.delete(key);
    expect(await exists(key)).toBe(false);
    expect((await fetch(url)).status).toBe(404);
    await expect(storage.delete(key)).resolves.toBeUndefined();
  });

  it('a failed upload (aborted mid-stream) leaves no object and aborts its upload; a retry then succeeds', async () => {
    const key = `${randomUUID()}.mp4`;
    const { path, content } = file(PART_BYTES * 2 + 10);
    const abort = new AbortController();
    // Abort as the second part starts: the first part is already on the server.
    const name = 'abort-at-part-2';
    storage.client.middlewareStack.add(
      (next) => async (args) => {
        if ((args.input as { PartNumber?: number }).PartNumber === 2) abort.abort(new Error('worker stopped'));
        return next(args);
      },
      { step: 'initialize', name },
    );
    const aborts = abortsSent();
    const uploads = uploadsStarted();
    try {
      await expect(storage.stage(key, path, abort.signal)).rejects.toThrow();
    } finally {
      storage.client.middlewareStack.remove(name);
      aborts.stop();
      uploads.stop();
    }
    expect(await exists(key)).toBe(false);
    expect(uploads.started).toHaveLength(1);
    expect(aborts.sent).toEqual(uploads.started);

    const retry = await storage.stage(key, path);
    await retry.commit();
    const body = Buffer.from(await (await fetch((await storage.presign(key)).url)).arrayBuffer());
    expect(body.length).toBe(content.length);
    expect(sha(body)).toBe(sha(content));
  });

  it('a discarded upload (a late attempt) never replaces the committed object', async () => {
    const key = `${randomUUID()}.mp4`;
    const uploads = uploadsStarted();
    const late = await storage.stage(key, file(3000).path);
    uploads.stop();
    const winner = file(4000);
    await (await storage.stage(key, winner.path)).commit();
    const aborts = abortsSent();
    // s3rver answers MethodNotAllowed to the abort (see abortsSent); the worker ignores a failed discard too.
    await late.discard().catch(() => undefined);
    aborts.stop();
    expect(aborts.sent).toEqual(uploads.started);
    const body = Buffer.from(await (await fetch((await storage.presign(key)).url)).arrayBuffer());
    expect(sha(body)).toBe(sha(winner.content));
  });

  it('accepts only run file names as keys (no path out of the prefix)', async () => {
    for (const bad of ['../secret.mp4', 'a/b.mp4', `${randomUUID()}.exe`, '']) {
      expect(() => storage.objectKey(bad)).toThrow('invalid storage key');
    }
    await expect(storage.delete('../../other-prefix/x.mp4')).rejects.toThrow('invalid storage key');
  });

  it('signs links for S3_PUBLIC_ENDPOINT when clients reach the storage by another address', async () => {
    // The "public" address: another port forwarding to the same server, as a load balancer or ingress would.
    const front = await startTcpProxy('127.0.0.1', Number(new URL(s3.endpoint).port));
    const location = { bucket: s3.bucket, prefix: 'videos/v1', endpoint: s3.endpoint, region: 'us-east-1', forcePathStyle: true };
    const publicStorage = new S3RenderStorage({ ...location, publicEndpoint: `http://127.0.0.1:${front.port}` }, dir, 600, S3_TEST_CREDENTIALS);
    try {
      const key = `${randomUUID()}.mp4`;
      const { path, content } = file(3000);
      // Uploads still go to S3_ENDPOINT; only the link names the public host.
      await (await publicStorage.stage(key, path)).commit();
      const now = Date.now();
      const link = new URL((await publicStorage.presign(key, now)).url);
      expect(link.origin).toBe(`http://127.0.0.1:${front.port}`);
      const res = await fetch(link);
      expect(res.status).toBe(200);
      expect(sha(Buffer.from(await res.arrayBuffer()))).toBe(sha(content));
      // The host is part of the signature (AWS S3, MinIO, R2 check it; s3rver does not): signed for the public host, not re-pointed.
      const internal = new URL((await storage.presign(key, now)).url);
      expect(link.searchParams.get('X-Amz-SignedHeaders')).toBe('host');
      expect(link.pathname).toBe(internal.pathname);
      expect(link.searchParams.get('X-Amz-Signature')).not.toBe(internal.searchParams.get('X-Amz-Signature'));
    } finally {
      publicStorage.close();
      await front.close();
    }
  });

  it('ready() checks the bucket with these credentials; presigning without credentials is a 503, not a 500', async () => {
    await expect(storage.ready()).resolves.toBeUndefined();
    const location = { bucket: s3.bucket, prefix: '', endpoint: s3.endpoint, region: 'us-east-1', forcePathStyle: true };
    const missing = new S3RenderStorage({ ...location, bucket: 'no-such-bucket' }, dir, 600, S3_TEST_CREDENTIALS);
    const wrongKey = new S3RenderStorage(location, dir, 600, { accessKeyId: 'WRONG', secretAccessKey: 'WRONG' });
    const noCredentials = new S3RenderStorage(location, dir, 600, async () => {
      throw new Error('Could not load credentials from any providers');
    });
    try {
      await expect(missing.ready()).rejects.toMatchObject({ name: 'NotFound' });
      await expect(wrongKey.ready()).rejects.toMatchObject({ $metadata: { httpStatusCode: 403 } });
      const refused = await noCredentials.presign(`${randomUUID()}.mp4`).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(AppError);
      expect(refused).toMatchObject({ code: 'PROVIDER_UNAVAILABLE', retryAfter: 5, message: 'The video storage is unavailable; try again shortly' });
    } finally {
      for (const s of [missing, wrongKey, noCredentials]) s.close();
    }
  });
});
