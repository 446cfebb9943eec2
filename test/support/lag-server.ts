import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createApp } from '../../src/app';
import { createLogger } from '../../src/common/logger';
import { loadConfig } from '../../src/config/config';
import { initOrm } from '../../src/db/orm';
import { entities } from '../../src/modules';
import { createDeps } from '../../src/deps';

/**
 * An API instance as a process of its own (no test runner in its heap), measuring its own
 * event-loop delay on request over IPC: "start" resets and enables the monitor, "stop" answers
 * the figures, "exit" stops the app. Sends {port} once listening.
 */
async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const orm = await initOrm({ url: config.database.url!, poolMax: 5, entities });
  const app = await createApp(createDeps(config, orm, createLogger('silent')));
  await new Promise<void>((resolve) => app.server.listen(0, '127.0.0.1', resolve));
  const lag = monitorEventLoopDelay({ resolution: 10 });
  let cpu = process.cpuUsage();
  process.on('message', async (message: string) => {
    if (message === 'start') {
      lag.reset();
      lag.enable();
      cpu = process.cpuUsage();
      process.send!({ started: true });
    } else if (message === 'stop') {
      lag.disable();
      const used = process.cpuUsage(cpu);
      process.send!({ maxLagMs: lag.max / 1e6, p99Ms: lag.percentile(99) / 1e6, cpuMs: Math.round((used.user + used.system) / 1000) });
    } else if (message === 'exit') {
      await app.stop();
      await orm.close(true);
      process.exit(0);
    }
  });
  process.send!({ port: (app.server.address() as AddressInfo).port });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
