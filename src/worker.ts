import './common/compile-cache';
import 'reflect-metadata';
import { createLogger } from './common/logger';
import { exitGracefullyOnSignals } from './common/shutdown';
import { ConfigError, loadConfig } from './config/config';
import { openDatabase } from './db/database';
import { entities } from './modules';
import { WebhookDelivery } from './modules/webhook';
import { ffmpegStatus, NPM_FFMPEG_WARNING } from './jobs/encoder';
import { RenderWorker } from './modules/render';
import { createRenderRuntime } from './modules/render';

/**
 * `npm run worker`: render workers as their own process. Any number of them, on any machine that
 * reaches the database (and the render storage), take jobs from the same queue.
 */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(78);
    }
    throw error;
  }
  const logger = createLogger(config.logLevel, { role: 'render-worker' });
  if (config.render.workers < 1) {
    logger.error('RENDER_WORKERS is 0: a worker process needs at least 1');
    process.exit(78);
  }
  if (!config.database.url) {
    // No DATABASE_URL: join the embedded PostgreSQL that `npm start` runs (same port, its fixed local credentials).
    config = { ...config, database: { ...config.database, url: `postgres://postgres:embedded@127.0.0.1:${config.database.embeddedPort}/music` } };
    logger.info({ port: config.database.embeddedPort }, 'DATABASE_URL unset: using the embedded PostgreSQL of `npm start`');
  }
  // The API process applies migrations and loads demo data; a worker only works.
  const database = await openDatabase(config, logger, { entities, migrate: false, seed: false });
  const runtime = createRenderRuntime(config, database.listenUrl, logger);
  const worker = new RenderWorker({ ...runtime, orm: database.orm, config: config.render, logger });
  await worker.start();
  const webhooks = config.webhook.workers > 0 ? new WebhookDelivery({ orm: database.orm, queue: runtime.queue, render: runtime, config: config.webhook, renderSettings: config.render, logger }) : undefined;
  await webhooks?.start(config.webhook.workers);
  const ffmpeg = await ffmpegStatus(runtime.ffmpeg);
  logger.info({ workers: config.render.workers, ffmpeg }, 'render worker ready');
  if (ffmpeg.source === 'npm') logger.warn(NPM_FFMPEG_WARNING);

  exitGracefullyOnSignals(logger, config.shutdownTimeoutMs, 'stopping: no new jobs; finishing or releasing the ones in hand', async () => {
    await worker.stop(Math.max(100, config.shutdownTimeoutMs - 3000));
    await webhooks?.stop();
    await runtime.close();
    await database.close();
  });
}

main().catch((error) => {
  console.error('Worker start-up failed:', error instanceof Error ? error.message : error ?? 'unknown error');
  process.exit(1);
});
