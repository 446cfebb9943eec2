import { ChildProcess, execFile, fork } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ffprobePath } from '../../src/jobs/encoder';
import { RenderWorker } from '../../src/modules/render/render.worker';
import type { TestApp } from '../app';
import { App, createApp } from '../../src/app';
import { createLogger } from '../../src/common/logger';
import { initOrm } from '../../src/db/orm';
import { entities } from '../../src/modules';
import { createDeps } from '../../src/deps';

/** Environment of a render test app: its own storage directory, a fixed link secret, fast polling. */
export function renderEnv(extra: Record<string, string> = {}): Record<string, string> {
  return {
    RENDER_STORAGE_DIR: mkdtempSync(join(tmpdir(), 'mas-renders-')),
    RENDER_URL_SECRET: 'test-secret-test-secret-0123456789',
    RENDER_POLL_INTERVAL_MS: '500',
    RENDER_PROGRESS_INTERVAL_MS: '0',
    RENDER_RETRY_DELAY_S: '1',
    // Tests of other render features queue many runs per demo account; the cap has its own tests.
    RENDER_MAX_ACTIVE_PER_ACCOUNT: '100',
    ...extra,
  };
}

/** An in-process render worker on the test app's queue. */
export async function startWorker(t: TestApp, concurrency = 1): Promise<RenderWorker> {
  const worker = new RenderWorker({ ...t.deps.render, orm: t.orm, config: t.config.render, logger: t.deps.logger });
  await worker.start(concurrency);
  return worker;
}

export interface RunJson {
  id: string;
  status: string;
  progress: number;
  attempts: number;
  error: string | null;
  output: { url: string; expiresAt: string; retainedUntil: string | null; mimeType: string; bytes: number; width: number; height: number; fps: number; durationInFrames: number; codec: string } | null;
  outputExpiredAt?: string | null;
  [key: string]: unknown;
}

/** Polls GET /api/tasks/runs?runId= until the run reaches one of `statuses`. */
export async function waitForRun(t: TestApp, headers: Record<string, string>, runId: string, statuses: string[], timeoutMs = 30_000, app = t): Promise<RunJson> {
  const deadline = Date.now() + timeoutMs;
  let last: RunJson | undefined;
  while (Date.now() < deadline) {
    const res = await app.http().get('/api/tasks/runs').query({ runId }).set(headers);
    if (res.status !== 200) throw new Error(`GET /api/tasks/runs answered ${res.status}: ${JSON.stringify(res.body)}`);
    last = res.body.runs[0] as RunJson;
    if (statuses.includes(last.status)) return last;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`run ${runId} did not reach ${statuses.join('/')} in time; last: ${JSON.stringify(last)}`);
}

export interface Probe {
  codec_name: string;
  width: number;
  height: number;
  r_frame_rate: string;
  nb_read_frames: string;
  format_name: string;
}

/** ffprobe (from @ffprobe-installer/ffprobe) of a file: first video stream, frames counted by decoding. */
export async function probe(file: string): Promise<Probe> {
  const { stdout } = await promisify(execFile)(ffprobePath(), [
    '-v', 'error', '-count_frames', '-select_streams', 'v:0',
    '-show_entries', 'stream=codec_name,width,height,r_frame_rate,nb_read_frames:format=format_name', '-of', 'json', file,
  ]);
  const parsed = JSON.parse(stdout) as { streams: Probe[]; format: { format_name: string } };
  return { ...parsed.streams[0], format_name: parsed.format.format_name };
}

/** A second API instance on the same database (as another machine would run), listening on a free port. */
export async function secondInstance(t: TestApp): Promise<{ app: App; port: number; close(): Promise<void> }> {
  const orm = await initOrm({ url: t.db.url, poolMax: 3, entities });
  const deps = createDeps(t.config, orm, createLogger(process.env.TEST_LOG_LEVEL ?? 'silent'));
  const app = await createApp(deps);
  await new Promise<void>((resolve) => app.server.listen(0, '127.0.0.1', resolve));
  const port = (app.server.address() as AddressInfo).port;
  return {
    app,
    port,
    async close() {
      await app.stop();
      await orm.close(true);
    },
  };
}

/** `npm run worker` as a real child process (TypeScript compiled on load), on the test database. */
export function spawnWorker(t: TestApp, env: Record<string, string> = {}): ChildProcess {
  const root = join(__dirname, '..', '..');
  return fork(join(root, 'src', 'worker.ts'), [], {
    cwd: root,
    execArgv: ['-r', join(root, 'test', 'support', 'swc-register.js')],
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'test',
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
      DATABASE_URL: t.db.url,
      RENDER_WORKERS: '1',
      RENDER_STORAGE_DIR: t.config.render.storageDir,
      RENDER_URL_SECRET: t.config.render.urlSecret ?? '',
      RENDER_POLL_INTERVAL_MS: String(t.config.render.pollIntervalMs),
      RENDER_PROGRESS_INTERVAL_MS: String(t.config.render.progressIntervalMs),
      RENDER_MAINTENANCE_INTERVAL_S: String(t.config.render.maintenanceIntervalS),
      RENDER_HEARTBEAT_INTERVAL_S: String(t.config.render.heartbeatIntervalS),
      RENDER_HEARTBEAT_TIMEOUT_S: String(t.config.render.heartbeatTimeoutS),
      RENDER_JOB_EXPIRE_S: String(t.config.render.jobExpireS),
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
}
