import { createReadStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Readable } from 'node:stream';

/** A finished file uploaded but not yet visible under its key; `commit` publishes it, `discard` drops it. */
export interface StagedFile {
  bytes: number;
  commit(): Promise<void>;
  discard(): Promise<void>;
}

/** Where finished videos live. Keys are flat file names made by the worker (`<runId>.<ext>`). */
export interface RenderStorage {
  /** A private scratch directory for one job's frames, assets and partial file. */
  scratchDir(name: string): Promise<string>;
  removeScratch(name: string): Promise<void>;
  /**
   * Uploads a finished file for `key` without publishing it: the worker commits it under the run's
   * row lock only while its attempt still owns the run, so a late attempt never replaces the winner's.
   */
  stage(key: string, sourcePath: string, signal?: AbortSignal): Promise<StagedFile>;
  delete(key: string): Promise<void>;
  /** A download link served by the storage itself (S3 presigned GET); absent: the API serves /media/renders. */
  presign?(key: string): Promise<{ url: string; expiresAt: Date }>;
  /** Readiness of a remote storage (/readyz); throws when it cannot be used. Absent: nothing to check. */
  ready?(): Promise<void>;
}

const KEY = /^[0-9a-f-]{36}\.(mp4|webm)$/;

export const MIME_TYPES: Record<string, string> = { mp4: 'video/mp4', webm: 'video/webm' };

export function assertKey(key: string): void {
  if (!KEY.test(key)) throw new Error(`invalid storage key ${key}`);
}

/** A local directory (RENDER_STORAGE_DIR); scratch files under its `.tmp/` so a move is a rename. */
export class LocalRenderStorage implements RenderStorage {
  readonly root: string;

  constructor(dir: string) {
    this.root = resolve(dir);
  }

  async scratchDir(name: string): Promise<string> {
    const dir = join(this.root, '.tmp', name);
    await mkdir(dir, { recursive: true });
    return dir;
  }

  /** The scratch file is the staged copy: committing is one rename, which replaces an earlier file atomically. */
  async stage(key: string, sourcePath: string): Promise<StagedFile> {
    assertKey(key);
    const { size } = await stat(sourcePath);
    return {
      bytes: size,
      commit: async () => {
        await mkdir(this.root, { recursive: true });
        await rename(sourcePath, join(this.root, key));
      },
      discard: async () => undefined,
    };
  }

  async stat(key: string): Promise<{ bytes: number } | null> {
    assertKey(key);
    try {
      const s = await stat(join(this.root, key));
      return s.isFile() ? { bytes: s.size } : null;
    } catch {
      return null;
    }
  }

  read(key: string, range?: { start: number; end: number }): Readable {
    assertKey(key);
    return createReadStream(join(this.root, key), range);
  }

  async delete(key: string): Promise<void> {
    assertKey(key);
    await rm(join(this.root, key), { force: true });
  }

  async removeScratch(name: string): Promise<void> {
    await rm(join(this.root, '.tmp', name), { recursive: true, force: true });
  }
}
