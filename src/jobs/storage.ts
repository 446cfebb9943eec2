import { createReadStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Readable } from 'node:stream';

/** Where finished videos live. Keys are flat file names made by the worker (`<runId>.<ext>`). */
export interface RenderStorage {
  /** A private scratch directory for one job's frames, assets and partial file. */
  scratchDir(name: string): Promise<string>;
  removeScratch(name: string): Promise<void>;
  /** Moves a finished file in under `key`, replacing an earlier one (a retried run overwrites). */
  put(key: string, sourcePath: string): Promise<{ bytes: number }>;
  stat(key: string): Promise<{ bytes: number } | null>;
  read(key: string, range?: { start: number; end: number }): Readable;
  delete(key: string): Promise<void>;
}

const KEY = /^[0-9a-f-]{36}\.(mp4|webm)$/;

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

  async put(key: string, sourcePath: string): Promise<{ bytes: number }> {
    assertKey(key);
    await mkdir(this.root, { recursive: true });
    const target = join(this.root, key);
    await rename(sourcePath, target);
    return { bytes: (await stat(target)).size };
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
