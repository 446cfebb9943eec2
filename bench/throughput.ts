import 'reflect-metadata';
import autocannon from 'autocannon';
import type { AddressInfo } from 'node:net';
import { createApp } from '../src/app';
import { createLogger } from '../src/common/logger';
import { loadConfig } from '../src/config/config';
import { openDatabase } from '../src/db/database';
import { entities } from '../src/modules';
import { DEMO_KEYS } from '../src/db/seeders/demo.data';
import { createDeps } from '../src/deps';
import { scenarios, prepareVolume } from './scenarios';

/**
 * `npm run bench -- --throughput`: closed-loop throughput per scenario (the pre-#14 benchmark). Starts the real app in-process (embedded PostgreSQL under /tmp unless DATABASE_URL is set),
 * loads the demo data set plus a volume data set, and drives each scenario with autocannon.
 * BENCH_DURATION (seconds, default 10) and BENCH_CONNECTIONS (default 10) tune the run.
 */
export async function throughput(): Promise<void> {
  const config = loadConfig({
    EMBEDDED_PG_DIR: '/tmp/mas-bench-pg',
    EMBEDDED_PG_PORT: '54339',
    // One account drives every scenario far past any client's budget: measure throughput, not the limiter's refusals.
    RATE_LIMIT_PER_MINUTE: '100000000',
    RESEARCH_RATE_LIMIT_PER_MINUTE: '100000000',
    ...process.env,
    LOG_LEVEL: 'warn',
    DEMO_SEED: 'true',
  });
  const logger = createLogger(config.logLevel);
  const database = await openDatabase(config, logger, { entities });
  const deps = createDeps(config, database.orm, logger);
  await prepareVolume(database.orm);
  const app = await createApp(deps);
  await new Promise<void>((resolve) => app.server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const duration = Number(process.env.BENCH_DURATION ?? 10);
  const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
  const key = DEMO_KEYS[1].raw;

  const rows: string[] = [];
  for (const scenario of scenarios) {
    const result = await autocannon({
      url: `${base}${scenario.path}`,
      method: scenario.method ?? 'GET',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: scenario.body ? JSON.stringify(scenario.body) : undefined,
      duration,
      connections,
    });
    const bad = result.non2xx + result.errors + result.timeouts;
    rows.push(
      `| ${scenario.name} | ${result.requests.average.toFixed(0)} | ${result.latency.p50} | ${result.latency.p99} | ${bad} |`,
    );
  }
  console.log(`\n${connections} connections, ${duration} s per scenario, node ${process.version}\n`);
  console.log('| scenario | req/s | p50 ms | p99 ms | errors/non-2xx |');
  console.log('|---|---|---|---|---|');
  for (const row of rows) console.log(row);
  // autocannon drops its sockets at the end; let handlers still running finish before the pool closes.
  await new Promise((resolve) => setTimeout(resolve, 1000));
  await app.stop();
  await database.close();
}
