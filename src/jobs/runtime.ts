import type { EntityManager } from '@mikro-orm/postgresql';
import { randomBytes } from 'node:crypto';
import type { Logger } from '../common/logger';
import type { Config } from '../config/config';
import { FfmpegBuild, resolveFfmpeg } from './encoder';
import { RenderQueue, SqlExecutor } from './queue';
import { RenderMetrics } from './render.metrics';
import { RunEventBus } from './run-events';
import { UrlSigner } from './signed-url';
import { LocalRenderStorage, RenderStorage } from './storage';

/** The render collaborators one process shares: queue, run events, file storage, link signer, metrics, the ffmpeg build. */
export interface RenderRuntime {
  queue: RenderQueue;
  events: RunEventBus;
  storage: RenderStorage;
  signer: UrlSigner;
  metrics: RenderMetrics;
  /** The ffmpeg this process renders with (FFMPEG_PATH, else the system's, else the npm build). */
  ffmpeg: FfmpegBuild;
  close(): Promise<void>;
}

/** Name of the settings row holding the generated link key when RENDER_URL_SECRET is unset. */
export const URL_SECRET_SETTING = 'render_url_secret';

/** A fresh link key, stored once by the first instance (sharedSetting) and used by all. */
export function newUrlSecret(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * `sessionUrl` is DATABASE_LISTEN_URL (else DATABASE_URL): LISTEN and pg-boss need session connections.
 * Without RENDER_URL_SECRET the signer has no key yet: createApp loads the shared one from the database.
 */
export function createRenderRuntime(config: Config, sessionUrl: string, logger: Logger): RenderRuntime {
  const secret = config.render.urlSecret;
  const queue = new RenderQueue(sessionUrl, config.render, logger, config.database.queuePoolMax);
  const events = new RunEventBus(sessionUrl, logger);
  const { s3, storageDir, urlTtlS } = config.render;
  // The AWS SDK is loaded only when a bucket is configured: a local-storage process keeps its smaller heap.
  const s3Storage = s3 ? new (require('./s3.storage') as typeof import('./s3.storage')).S3RenderStorage(s3, storageDir, urlTtlS) : undefined;
  const storage: RenderStorage = s3Storage ?? new LocalRenderStorage(storageDir);
  return {
    queue,
    events,
    storage,
    signer: new UrlSigner(secret, config.publicUrl, config.render.urlTtlS),
    metrics: new RenderMetrics(),
    ffmpeg: resolveFfmpeg(config.render.ffmpegPath),
    async close() {
      await Promise.allSettled([queue.stop(), events.close()]);
      s3Storage?.close();
    },
  };
}

/** pg-boss writes `$1` placeholders; knex (MikroORM's transaction) takes `?`. */
export function toKnexBindings(text: string, values: unknown[] = []): { sql: string; bindings: unknown[] } {
  const bindings: unknown[] = [];
  const sql = text.replace(/\?/g, '\\?').replace(/\$(\d+)/g, (_match, n: string) => {
    const value = values[Number(n) - 1];
    // knex expands an array binding into a list; pg-boss means a PostgreSQL array (`unnest($2::uuid[])`).
    bindings.push(value === undefined ? null : Array.isArray(value) ? pgArrayLiteral(value) : value);
    return '?';
  });
  return { sql, bindings };
}

function pgArrayLiteral(values: unknown[]): string {
  return `{${values.map((v) => `"${String(v).replace(/["\\]/g, (c) => `\\${c}`)}"`).join(',')}}`;
}

/** pg-boss's SQL run inside `em`'s transaction, so a job is sent or cancelled with the rows written beside it. */
export function sqlExecutorOf(em: EntityManager): SqlExecutor {
  return {
    executeSql: async (text, values) => {
      const { sql, bindings } = toKnexBindings(text, values);
      const rows = await em.getConnection().execute<unknown[]>(sql, bindings, 'all', em.getTransactionContext());
      return { rows };
    },
  };
}
