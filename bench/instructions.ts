import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createLogger } from '../src/common/logger';
import { openBenchDatabase } from './database';
import { Client } from './load';
import { CONTENDERS, prepareBefore, scenarios, seedBenchDatabase, type ContenderSpec, type Scenario } from './side-by-side';

/**
 * `npm run bench -- --instructions`: the instructions one request costs the service, counted by
 * valgrind's callgrind, for levers too small for CPU time on a shared machine to resolve.
 *
 * Each contender process runs under callgrind with instrumentation off (near full speed), takes
 * BENCH_INSTR_WARM closed-loop requests (every hot function past V8's tiers), then instrumentation is
 * switched on (`callgrind_control -i on`), 20 requests fill valgrind's translation cache, the counters
 * are zeroed and BENCH_INSTR_REQUESTS requests are counted. The figure is the main thread's
 * instructions per request: the JavaScript, the HTTP parser, libuv, the garbage collector's pauses.
 * V8's worker threads (optimizing compilers, concurrent marking) are reported apart: how much of their
 * work falls in the window depends on timing. With BENCH_BEFORE the before tree runs the same scenario at
 * the same time (the two cores), and the ratio after ÷ before is the lever.
 *
 * Resolution (bench/results/2026-11-27-instructions.md): the same commit on both sides, after 8,000
 * warm-up requests, read 1.006× (REST page 50), 0.959× (GraphQL) and 0.974× (status read); V8's tiers
 * were still settling (12,000 read 5–9 % fewer instructions), hence the default of 12,000.
 *
 * Instructions are not time: valgrind runs on a simulated CPU without the SHA extensions (OpenSSL
 * takes its AVX2 path there), and cache misses, branch mispredictions and the kernel are not counted.
 */
const settings = {
  scenarios: (process.env.BENCH_INSTR_SCENARIOS ?? 'rest-50,graphql-50,runs').split(',').map((s) => s.trim()),
  warm: Number(process.env.BENCH_INSTR_WARM ?? 12000),
  requests: Number(process.env.BENCH_INSTR_REQUESTS ?? 2000),
  connections: Number(process.env.BENCH_INSTR_CONNECTIONS ?? 4),
  before: process.env.BENCH_BEFORE ? resolve(process.env.BENCH_BEFORE) : undefined,
};

interface Count {
  /** Instructions per request, main thread / every thread, in millions. */
  main: number;
  all: number;
}

function requireValgrind(): void {
  for (const tool of ['valgrind', 'callgrind_control']) {
    try {
      execFileSync(tool, ['--version'], { stdio: 'ignore' });
    } catch {
      throw new Error(`${tool} is not on PATH: install valgrind (Debian: apt-get install valgrind)`);
    }
  }
}

/** Sums one dump's per-thread files (`<base>.<dump>-<thread>`): thread 01 is the main thread. */
function readDump(dir: string): { main: number; all: number } {
  let main = 0;
  let all = 0;
  for (const file of readdirSync(dir)) {
    const total = /^(?:summary|totals): (\d+)/m.exec(readFileSync(join(dir, file), 'utf8'));
    if (!total) continue;
    all += Number(total[1]);
    if (/-01$/.test(file)) main = Number(total[1]);
  }
  return { main, all };
}

async function countOne(spec: ContenderSpec, scenario: Scenario, databaseUrl: string): Promise<Count> {
  const dir = mkdtempSync(join(tmpdir(), 'mas-callgrind-'));
  const node = spec.execPath ?? process.execPath;
  const script = resolve(__dirname, spec.script);
  const child = spawn(
    'valgrind',
    ['--tool=callgrind', `--callgrind-out-file=${join(dir, 'cg')}`, '--smc-check=all-non-file', '--cache-sim=no', '--instr-atstart=no', '--dump-instr=no', '--separate-threads=yes', node, ...(spec.execArgv ?? []), script],
    {
      cwd: spec.cwd,
      env: { ...process.env, DATABASE_URL: databaseUrl, PGAPPNAME: spec.appName, NODE_ENV: 'production', ...spec.env },
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    },
  );
  let output = '';
  child.stderr?.on('data', (chunk: Buffer) => (output = (output + chunk.toString('utf8')).slice(-4000)));
  try {
    const port = await new Promise<number>((resolvePort, reject) => {
      const timer = setTimeout(() => reject(new Error(`${spec.key} did not start under valgrind within 300 s\n${output}`)), 300_000);
      child.once('message', (message: { port?: number }) => {
        clearTimeout(timer);
        if (message.port) resolvePort(message.port);
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`${spec.key} exited with code ${code} under valgrind\n${output}`));
      });
    });
    const client = new Client(port);
    const run = async (requests: number) => {
      const result = await client.closedLoop(scenario.call, requests, settings.connections);
      if (result.errors) throw new Error(`${scenario.id} on ${spec.key}: ${result.errors} of ${requests} requests failed: ${JSON.stringify(result.failures)}`);
    };
    const control = (...args: string[]) => execFileSync('callgrind_control', [...args, String(child.pid)], { stdio: 'ignore' });
    await run(settings.warm);
    control('-i', 'on');
    await run(20);
    control('-z');
    await run(settings.requests);
    control('-d');
    client.close();
    // callgrind_control returns once the dump is asked for; the files are complete when every thread's is there.
    let dump = readDump(dir);
    for (let i = 0; i < 50 && dump.main === 0; i += 1) {
      await new Promise((r) => setTimeout(r, 200));
      dump = readDump(dir);
    }
    if (dump.main === 0) throw new Error(`${spec.key}: no callgrind dump in ${dir}`);
    return { main: dump.main / settings.requests / 1e6, all: dump.all / settings.requests / 1e6 };
  } finally {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function instructions(): Promise<void> {
  requireValgrind();
  const service = CONTENDERS.find((c) => c.key === 'service')!;
  const before = settings.before ? prepareBefore(settings.before) : undefined;
  const list = scenarios().filter((s) => s.contender === 'service');
  const chosen = settings.scenarios.map((id) => {
    const scenario = list.find((s) => s.id === id);
    if (!scenario) throw new Error(`BENCH_INSTR_SCENARIOS: no service scenario "${id}" (there are ${list.map((s) => s.id).join(', ')})`);
    return scenario;
  });
  const logger = createLogger('warn');
  const db = await openBenchDatabase(logger);
  try {
    await seedBenchDatabase(db.url, logger);
    console.log(`callgrind: ${settings.warm} requests to warm, ${settings.requests} counted, ${settings.connections} connections; ${db.source}`);
    if (before) console.log(`before: ${before.tree.dir} (${before.tree.commit}); after: this tree (${before.tree.afterCommit})`);
    const rows: string[] = [];
    for (const scenario of chosen) {
      const [after, was] = await Promise.all([countOne(service, scenario, db.url), before ? countOne(before.spec, scenario, db.url) : undefined]);
      const m = (c: Count) => `${c.main.toFixed(3)} M (${c.all.toFixed(3)} M)`;
      rows.push(`| ${scenario.name}${scenario.page ? ` page ${scenario.page}` : ''} | ${m(after)} |${was ? ` ${m(was)} | ${(after.main / was.main).toFixed(4)}× |` : ''}`);
      console.log(rows[rows.length - 1]);
    }
    const head = before ? '| scenario | after: main thread (all threads) | before | after ÷ before, main thread |\n|---|---|---|---|' : '| scenario | instructions a request: main thread (all threads) |\n|---|---|';
    console.log(`\n${head}\n${rows.join('\n')}`);
  } finally {
    await db.close();
  }
}
