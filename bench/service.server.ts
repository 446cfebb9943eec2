import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import { createApp } from '../src/app';
import { createLogger } from '../src/common/logger';
import { loadConfig } from '../src/config/config';
import { openDatabase } from '../src/db/database';
import { createDeps } from '../src/deps';
import { entities } from '../src/modules';
import { serveUntilParentLeaves } from './child';

/**
 * Contender process: this service, exactly as src/app.ts builds it (REST through sofa-api and
 * GraphQL through Apollo, same process), on DATABASE_URL, listening on 127.0.0.1 at a free port.
 * The database is migrated and seeded by the harness; no render queue or worker is started.
 */
async function main(): Promise<void> {
  const config = loadConfig({
    ...process.env,
    // Far above the fixed rate: the limiter still runs (its statement is counted), it never refuses.
    RATE_LIMIT_PER_MINUTE: '100000000',
    RESEARCH_RATE_LIMIT_PER_MINUTE: '100000000',
    DEMO_SEED: 'false',
    RENDER_WORKERS: '0',
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
  });
  const logger = createLogger(config.logLevel);
  const database = await openDatabase(config, logger, { entities, migrate: false, seed: false });
  const app = await createApp(createDeps(config, database.orm, logger));
  await new Promise<void>((resolve) => app.server.listen(0, '127.0.0.1', resolve));
  serveUntilParentLeaves((app.server.address() as AddressInfo).port, async () => {
    await app.stop();
    await database.close();
  });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
