/**
 * Contender process: PostGraphile v5 (comparison only, a devDependency) over the service's own
 * tables: the Amber preset with the pg adaptor, schema `public` introspected once at start (no
 * watch mode), served by grafserv on node:http at POST /graphql. It does no authentication and no
 * reach check: it is the "generic GraphQL over the same tables" point of comparison of issue #14.
 *
 * PostGraphile 5 declares node >= 22. On Node 20 the one missing API it reaches is
 * Promise.withResolvers (ES2024); it is polyfilled below, in this process only, so every contender
 * runs on the same Node binary. BENCH_POSTGRAPHILE_NODE=/path/to/node22 runs this process on
 * another binary instead (the polyfill then does nothing).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serveUntilParentLeaves } from './child';

type WithResolvers = <T>() => { promise: Promise<T>; resolve: (value: T | PromiseLike<T>) => void; reject: (reason?: unknown) => void };
const promiseCtor = Promise as unknown as { withResolvers?: WithResolvers };
if (typeof promiseCtor.withResolvers !== 'function') {
  promiseCtor.withResolvers = <T>() => {
    let resolve!: (value: T | PromiseLike<T>) => void;
    let reject!: (reason?: unknown) => void;
    const promise = new Promise<T>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    return { promise, resolve, reject };
  };
}

async function main(): Promise<void> {
  const { postgraphile } = await import('postgraphile');
  const { PostGraphileAmberPreset } = await import('postgraphile/presets/amber');
  const { makePgService } = await import('postgraphile/adaptors/pg');
  const { grafserv } = await import('postgraphile/grafserv/node');
  const pgl = postgraphile({
    extends: [PostGraphileAmberPreset],
    pgServices: [
      makePgService({
        connectionString: process.env.DATABASE_URL,
        schemas: ['public'],
        // Same pool shape as the yardstick: ten connections, kept open between bursts.
        poolConfig: { max: 10, idleTimeoutMillis: 0 },
      }),
    ],
    grafserv: { watch: false, graphiql: false },
  });
  const serv = pgl.createServ(grafserv);
  const server = createServer();
  serv.addTo(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  serveUntilParentLeaves((server.address() as AddressInfo).port, async () => {
    server.close();
    await pgl.release();
  });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
