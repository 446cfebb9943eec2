import type { Logger } from '../../common/logger';
import type { Config } from '../../config/config';
import { FfmpegBuild, resolveFfmpeg } from '../../jobs/encoder';
import { RenderQueue } from '../../jobs/queue';
import { UrlSigner } from '../../jobs/signed-url';
import { LocalRenderStorage, RenderStorage } from '../../jobs/storage';
import { RenderMetrics } from './render.metrics';
import { RunEventBus } from './run-events';

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
  const s3Storage = s3 ? new (require('../../jobs/s3.storage') as typeof import('../../jobs/s3.storage')).S3RenderStorage(s3, storageDir, urlTtlS) : undefined;
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

// The request reaches the render runtime (src/request/context.ts): the context names no module.
declare module '../../request/context' {
  interface RequestDeps {
    /** Render queue, run events, video storage and link signer; closed by App.stop(). */
    render: RenderRuntime;
  }
}
