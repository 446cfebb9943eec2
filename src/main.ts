import './common/compile-cache';
import 'reflect-metadata';
import { App, createApp } from './app';
import { assertPortFree, listen } from './common/listen';
import { createLogger } from './common/logger';
import { ConfigError, loadConfig } from './config/config';
import { openDatabase } from './db/database';
import { entities } from './modules';
import { WebhookDelivery } from './modules/webhook';
import { DEMO_KEYS } from './db/seeders/demo.data';
import { createDeps } from './deps';
import { exitGracefullyOnSignals } from './common/shutdown';
import { ffmpegStatus, NPM_FFMPEG_WARNING } from './jobs/encoder';
import { RenderWorker } from './modules/render';
import { startProviderMode } from './providers/provider-mode';

const FFMPEG_SOURCES = { FFMPEG_PATH: 'FFMPEG_PATH', system: 'the system\'s', npm: 'the npm build of 2018: install Debian\'s ffmpeg or set FFMPEG_PATH' };

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
  const logger = createLogger(config.logLevel, {}, config.logPretty);
  // A taken port is known before the sandbox, the embedded database, queue or worker start.
  await assertPortFree(config.port, config.host);
  // Before the clients are built: in sandbox mode they must point at the local upstreams.
  const providerMode = await startProviderMode(config, logger);
  config = providerMode.config;
  const database = await openDatabase(config, logger, { entities });

  const deps = createDeps(config, database.orm, logger);
  let app: App | undefined;
  let worker: RenderWorker | undefined;
  let webhooks: WebhookDelivery | undefined;
  try {
    app = await createApp(deps);
    // Fail fast when the queue cannot start; the in-process worker (RENDER_WORKERS, default 1) makes the demo complete.
    await deps.render.queue.start();
    worker = config.render.workers > 0 ? new RenderWorker({ ...deps.render, orm: deps.orm, config: config.render, logger }) : undefined;
    await worker?.start();
    webhooks = config.webhook.workers > 0 ? new WebhookDelivery({ orm: deps.orm, queue: deps.render.queue, render: deps.render, config: config.webhook, renderSettings: config.render, logger }) : undefined;
    await webhooks?.start(config.webhook.workers);
    await listen(app.server, config.port, config.host);
  } catch (error) {
    // Whatever started is stopped (worker, queue, embedded PostgreSQL) so the process can exit now.
    await worker?.stop(0).catch(() => undefined);
    await webhooks?.stop().catch(() => undefined);
    await (app ? app.stop() : deps.render.close()).catch(() => undefined);
    await database.close().catch(() => undefined);
    await providerMode.close().catch(() => undefined);
    throw error;
  }

  const base = config.publicUrl;
  const ffmpeg = await ffmpegStatus(deps.render.ffmpeg);
  logger.info({ port: config.port, ffmpeg }, 'listening');
  if (ffmpeg.source === 'npm') logger.warn(NPM_FFMPEG_WARNING);
  const lines = [
    '',
    `  GraphQL   ${base}/graphql  (queries, mutations; subscriptions over graphql-ws and SSE on the same path)`,
    `  REST      ${base}/api       (e.g. curl -H 'x-api-key: <key>' ${base}/api/accounts/me)`,
    `  Docs      ${base}/api/docs  ${base}/api/openapi.json   GraphiQL: ${base}/graphql in a browser`,
    `  Dashboard ${base}/dashboard  (live render runs; start at ${base}/welcome)`,
    `  MCP       ${base}/mcp        (AI agents: Streamable HTTP, or \`mas mcp\` over stdio)`,
    `  Health    ${base}/healthz   ${base}/readyz   ${base}/metrics`,
    `  Renders   ${worker ? `${config.render.workers} in-process render worker(s)` : 'no in-process worker (RENDER_WORKERS=0): run `npm run worker`'}, files in ${config.render.s3 ? `s3://${config.render.s3.bucket}/${config.render.s3.prefix}` : config.render.storageDir}`,
    `  ffmpeg    ${ffmpeg.version} (${FFMPEG_SOURCES[ffmpeg.source]})`,
    providerMode.banner,
    `  Database  ${database.embedded ? `embedded PostgreSQL (${config.database.embeddedDir})` : 'DATABASE_URL'}`,
  ];
  if (database.embedded || config.database.demoSeed === 'true') {
    lines.push('', '  Demo API keys (x-api-key header):');
    for (const key of DEMO_KEYS) lines.push(`    ${key.label.padEnd(34)} ${key.raw}`);
  }
  console.log(`${lines.join('\n')}\n`);

  const started = app;
  exitGracefullyOnSignals(logger, config.shutdownTimeoutMs, 'shutting down: draining requests', async () => {
    // Workers first: stop taking jobs, finish or release the ones in hand, then drain HTTP.
    await worker?.stop(Math.max(100, config.shutdownTimeoutMs - 3000));
    await webhooks?.stop();
    await started.stop();
    await providerMode.close();
    await database.close();
  });
}

main().catch((error) => {
  console.error('Start-up failed:', error instanceof Error ? error.message : error ?? 'unknown error');
  process.exit(1);
});
