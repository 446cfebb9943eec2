import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  S3Client,
  S3ClientConfig,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { AppError } from '../common/errors';
import type { S3Location } from '../config/config';
import { assertKey, LocalRenderStorage, MIME_TYPES, RenderStorage, StagedFile } from './storage';

/** Part size of multipart uploads: S3's minimum is 5 MiB; one part is read from disk at a time. */
export const PART_BYTES = 8 * 1024 * 1024;

/** Seconds a client is told to wait while the bucket cannot be used. */
export const STORAGE_RETRY_AFTER_S = 5;
/** Longest a readiness probe waits for the bucket. */
const READY_TIMEOUT_MS = 3000;

/**
 * Finished videos in an S3-compatible bucket. A file is uploaded as a multipart upload that is
 * completed only at commit, so nothing is visible under the key before (an aborted or failed
 * upload leaves no object); links are presigned GETs, so video bytes never pass through the API.
 * Scratch files stay on the local disk (under `scratchRoot/.tmp`).
 */
export class S3RenderStorage implements RenderStorage {
  readonly client: S3Client;
  /** Signs links for S3_PUBLIC_ENDPOINT (the host is part of the signature); else `client`. */
  private readonly presigner: S3Client;
  private readonly scratch: LocalRenderStorage;

  constructor(
    private readonly location: S3Location,
    scratchRoot: string,
    private readonly urlTtlS: number,
    /** Tests pass credentials; otherwise the SDK's default chain (AWS_* variables, profiles, instance roles). */
    credentials?: S3ClientConfig['credentials'],
  ) {
    this.scratch = new LocalRenderStorage(scratchRoot);
    const settings: S3ClientConfig = {
      region: location.region,
      endpoint: location.endpoint,
      forcePathStyle: location.forcePathStyle,
      credentials,
      // Checksums only where S3 requires them: some S3-compatible servers store aws-chunked trailers as object bytes.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    };
    this.client = new S3Client(settings);
    this.presigner = location.publicEndpoint ? new S3Client({ ...settings, endpoint: location.publicEndpoint }) : this.client;
  }

  objectKey(key: string): string {
    assertKey(key);
    return this.location.prefix ? `${this.location.prefix}/${key}` : key;
  }

  scratchDir(name: string): Promise<string> {
    return this.scratch.scratchDir(name);
  }

  removeScratch(name: string): Promise<void> {
    return this.scratch.removeScratch(name);
  }

  async stage(key: string, sourcePath: string, signal?: AbortSignal): Promise<StagedFile> {
    const Key = this.objectKey(key);
    const Bucket = this.location.bucket;
    const { size } = await stat(sourcePath);
    const { UploadId } = await this.client.send(
      new CreateMultipartUploadCommand({ Bucket, Key, ContentType: MIME_TYPES[key.split('.').pop()!] }),
      { abortSignal: signal },
    );
    if (!UploadId) throw new Error('the object storage started no multipart upload');
    const discard = async () => {
      await this.client.send(new AbortMultipartUploadCommand({ Bucket, Key, UploadId })).catch((error: { name?: string }) => {
        if (error?.name !== 'NoSuchUpload') throw error;
      });
    };
    try {
      const parts: { PartNumber: number; ETag?: string }[] = [];
      // Parts are streamed from the file one after another: memory stays one socket buffer, not a video.
      for (let start = 0, PartNumber = 1; start < size || PartNumber === 1; start += PART_BYTES, PartNumber += 1) {
        const end = Math.min(size, start + PART_BYTES) - 1;
        const ContentLength = Math.max(0, end - start + 1);
        const Body = ContentLength ? createReadStream(sourcePath, { start, end }) : Buffer.alloc(0);
        const { ETag } = await this.client.send(new UploadPartCommand({ Bucket, Key, UploadId, PartNumber, Body, ContentLength }), { abortSignal: signal });
        parts.push({ PartNumber, ETag });
      }
      return {
        bytes: size,
        commit: async () => {
          await this.client.send(new CompleteMultipartUploadCommand({ Bucket, Key, UploadId, MultipartUpload: { Parts: parts } }));
        },
        discard,
      };
    } catch (error) {
      await discard().catch(() => undefined);
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.location.bucket, Key: this.objectKey(key) }));
  }

  async presign(key: string, now = Date.now()): Promise<{ url: string; expiresAt: Date }> {
    const command = new GetObjectCommand({ Bucket: this.location.bucket, Key: this.objectKey(key) });
    let url: string;
    try {
      url = await getSignedUrl(this.presigner, command, { expiresIn: this.urlTtlS, signingDate: new Date(now) });
    } catch (error) {
      // Signing is local: it fails only when no credentials can be loaded, an operator's problem, not the caller's.
      throw new AppError('PROVIDER_UNAVAILABLE', 'The video storage is unavailable; try again shortly', { retryAfter: STORAGE_RETRY_AFTER_S, cause: error });
    }
    return { url, expiresAt: new Date(Math.floor(now / 1000) * 1000 + this.urlTtlS * 1000) };
  }

  /** Readiness: the bucket exists and these credentials may use it (HeadBucket). Throws why not. */
  async ready(): Promise<void> {
    await this.client.send(new HeadBucketCommand({ Bucket: this.location.bucket }), { abortSignal: AbortSignal.timeout(READY_TIMEOUT_MS) });
  }

  close(): void {
    this.client.destroy();
    if (this.presigner !== this.client) this.presigner.destroy();
  }
}
