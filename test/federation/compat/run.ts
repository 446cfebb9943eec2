/**
 * CI step: Apollo's federation subgraph compatibility suite, offline (npm run test:federation-compat).
 *
 * 1. installs @apollo/federation-subgraph-compatibility-tests into .fedcompat/ (git-ignored; no
 *    install scripts: the CLI package's rover binary cannot be downloaded here and is not needed),
 * 2. starts its bundled `users` (:4002) and `inventory` (:4003) subgraphs,
 * 3. serves the `products` fixture (:4001), built with this project's schema helpers,
 * 4. serves a gateway on :4000 at `/` (@apollo/gateway, IntrospectAndCompose over the three),
 * 5. runs the suite's jest tests and requires every assertion, required and optional, to pass.
 * Every process and server it starts is stopped before it exits, also on failure or a signal.
 */
import 'reflect-metadata';
import { ApolloGateway, IntrospectAndCompose } from '@apollo/gateway';
import { ApolloServer } from '@apollo/server';
import { startStandaloneServer } from '@apollo/server/standalone';
import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { buildProductsSchema } from './products';

const ROOT = resolve(__dirname, '..', '..', '..');
const PREFIX = join(ROOT, '.fedcompat');
const PACKAGE = '@apollo/federation-subgraph-compatibility-tests';
const VERSION = '1.2.1';
const PORTS = { gateway: 4000, products: 4001, users: 4002, inventory: 4003 };
const TIMEOUT_MS = 5 * 60_000;

const cleanups: (() => Promise<unknown> | void)[] = [];
let cleaning: Promise<void> | undefined;
function cleanup(): Promise<void> {
  cleaning ??= (async () => {
    for (const stop of cleanups.reverse()) {
      try {
        await stop();
      } catch (error) {
        console.error('cleanup failed:', error);
      }
    }
  })();
  return cleaning;
}

function log(message: string): void {
  console.log(`[federation-compat] ${message}`);
}

function packageDir(): string {
  const dir = join(PREFIX, 'node_modules', ...PACKAGE.split('/'));
  const manifest = join(dir, 'package.json');
  if (!existsSync(manifest) || JSON.parse(readFileSync(manifest, 'utf8')).version !== VERSION) {
    log(`installing ${PACKAGE}@${VERSION} into .fedcompat/`);
    const npm = spawnSync('npm', ['install', '--prefix', PREFIX, '--ignore-scripts', '--no-save', '--no-audit', '--no-fund', `${PACKAGE}@${VERSION}`], {
      cwd: ROOT,
      stdio: 'inherit',
    });
    if (npm.status !== 0) throw new Error(`npm install of ${PACKAGE}@${VERSION} failed`);
  }
  return dir;
}

async function assertPortFree(port: number): Promise<void> {
  await new Promise<void>((ok, fail) => {
    const probe = createServer();
    probe.once('error', () => fail(new Error(`port ${port} is in use: the compatibility suite needs ports 4000-4003`)));
    probe.listen(port, () => probe.close(() => ok()));
  });
}

function startSubgraph(name: 'users' | 'inventory', dir: string): ChildProcess {
  const child = spawn(process.execPath, ['index.js'], { cwd: join(dir, 'dist', 'subgraphs', name), stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  child.stdout?.on('data', (chunk) => output.push(String(chunk)));
  child.stderr?.on('data', (chunk) => output.push(String(chunk)));
  child.on('exit', (code, signal) => {
    if (!cleaning) log(`${name} subgraph exited early (${code ?? signal}):\n${output.join('')}`);
  });
  cleanups.push(
    () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null || child.signalCode !== null) return done();
        child.once('exit', () => done());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 5000).unref();
      }),
  );
  return child;
}

async function waitForGraphQL(name: string, url: string, deadline = Date.now() + 60_000): Promise<void> {
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ __typename }' }) });
      const body = (await res.json()) as { data?: { __typename?: string } };
      if (body.data?.__typename) return;
      last = body;
    } catch (error) {
      last = error;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${name} did not answer at ${url}: ${String(last)}`);
}

async function main(): Promise<boolean> {
  const dir = packageDir();
  for (const port of Object.values(PORTS)) await assertPortFree(port);

  startSubgraph('users', dir);
  startSubgraph('inventory', dir);

  const products = new ApolloServer({ schema: await buildProductsSchema() });
  const { url: productsUrl } = await startStandaloneServer(products, { listen: { port: PORTS.products } });
  cleanups.push(() => products.stop());
  log(`products fixture at ${productsUrl}`);

  await waitForGraphQL('users', `http://localhost:${PORTS.users}/`);
  await waitForGraphQL('inventory', `http://localhost:${PORTS.inventory}/`);

  const gateway = new ApolloServer({
    gateway: new ApolloGateway({
      supergraphSdl: new IntrospectAndCompose({
        subgraphs: [
          { name: 'users', url: `http://localhost:${PORTS.users}/` },
          { name: 'inventory', url: `http://localhost:${PORTS.inventory}/` },
          { name: 'products', url: `http://localhost:${PORTS.products}/` },
        ],
      }),
    }),
  });
  await startStandaloneServer(gateway, { listen: { port: PORTS.gateway } });
  cleanups.push(() => gateway.stop());
  await waitForGraphQL('gateway', `http://localhost:${PORTS.gateway}/`);
  log('gateway composed the supergraph; running the suite');

  const runner = require(join(dir, 'dist', 'testRunner')) as {
    TESTS: { assertion: string; column: string; required: boolean }[];
    runJest(productsUrl: string): Promise<{ assertionPassed(name: string): boolean; assertions: { fullName: string; status: string; failureMessages: string[] }[] }>;
  };
  const result = await runner.runJest(productsUrl);
  let passed = 0;
  for (const test of runner.TESTS) {
    const ok = result.assertionPassed(test.assertion);
    if (ok) passed++;
    console.log(`  ${ok ? 'PASS' : 'FAIL'}  ${test.column.padEnd(20)} ${test.required ? 'required' : 'optional'}`);
  }
  const failures = result.assertions.filter((a) => a.status === 'failed');
  for (const failure of failures) console.log(`\n${failure.fullName}\n${failure.failureMessages.join('\n')}`);
  const ran = result.assertions.length;
  log(`${passed}/${runner.TESTS.length} checks passed (${ran - failures.length}/${ran} jest assertions)`);
  return passed === runner.TESTS.length && failures.length === 0 && ran > 0;
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    log(`${signal}: stopping`);
    void cleanup().then(() => process.exit(130));
  });
}
const timer = setTimeout(() => {
  log(`timed out after ${TIMEOUT_MS / 1000}s`);
  void cleanup().then(() => process.exit(1));
}, TIMEOUT_MS);
timer.unref();

main()
  .then(async (ok) => {
    await cleanup();
    process.exit(ok ? 0 : 1);
  })
  .catch(async (error) => {
    console.error(error);
    await cleanup();
    process.exit(1);
  });
