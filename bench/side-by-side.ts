import 'reflect-metadata';
import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { Client as PgClient } from 'pg';
import { createLogger, type Logger } from '../src/common/logger';
import { loadConfig } from '../src/config/config';
import { openDatabase } from '../src/db/database';
import { DEMO_KEYS } from '../src/db/seeders/demo.data';
import { entities } from '../src/modules';
import { API_NODE_FLAGS } from '../src/node-flags';
import { cpuDelta, snapshot } from './cpu';
import { openBenchDatabase, viaPort } from './database';
import { Client, median, quantile, type HttpCall } from './load';
import { BENCH_CATALOG, BENCH_RUN, prepareVolume } from './scenarios';
import { startCountingProxy } from './statement-counter';
import { saturationCore, saturationRounds, type SaturationSummary } from './saturation';
import { tailRounds, type TailSummary } from './tail';
import { wsMemory, type MemoryUsage, type WsMemorySummary } from './ws-memory';

/*
 * `npm run bench`: issue #14's side-by-side harness. See README (Performance) for the method.
 * Contenders run as child processes; the load generator (this process) drives one scenario at a
 * time at a fixed rate, in interleaved rounds, and reads each contender's CPU and that of its
 * PostgreSQL backends from /proc before and after each burst.
 */

const env = (name: string, quick: number, full: number) => Number(process.env[name] ?? (process.env.BENCH_QUICK === '1' ? quick : full));

const settings = {
  quick: process.env.BENCH_QUICK === '1',
  rate: env('BENCH_RATE', 30, 30),
  rounds: env('BENCH_ROUNDS', 2, 5),
  seconds: env('BENCH_SECONDS', 1.5, 4),
  /** Unmeasured lead-in of each burst, at the same rate (pools reconnect, caches settle). */
  preRollSeconds: env('BENCH_PREROLL_SECONDS', 0.3, 0.5),
  /**
   * Closed-loop requests per scenario before anything is measured at a fixed rate (0: none), on
   * `warmConnections` connections: a young process runs much of its code in V8's lower tiers and
   * compiles on its worker threads, so without it the rounds measure the warm-up (issue 31's
   * targets are steady state; bench/README.md, "Warm-up").
   */
  warmRequests: env('BENCH_WARM_REQUESTS', 300, 2000),
  warmConnections: env('BENCH_WARM_CONNECTIONS', 4, 4),
  /** Once per scenario before the rounds, at the same rate. */
  warmupSeconds: env('BENCH_WARMUP_SECONDS', 0.5, 2),
  /** Sequential requests per scenario whose statements are counted (after 10 unmeasured). */
  countRequests: env('BENCH_COUNT_REQUESTS', 15, 40),
  pages: (process.env.BENCH_PAGES ?? '20,50,100').split(',').map(Number),
  postgraphile: process.env.BENCH_SKIP_POSTGRAPHILE !== '1',
  /** BENCH_BEFORE: root of another checkout of this repository, measured as the contender "service (before)". */
  before: process.env.BENCH_BEFORE ? resolve(process.env.BENCH_BEFORE) : undefined,
  /** The Node binary the before tree runs on (default: the harness's): a runtime's effect, the same commit on both sides. */
  beforeNode: process.env.BENCH_BEFORE_NODE ? resolve(process.env.BENCH_BEFORE_NODE) : undefined,
  out: process.env.BENCH_OUT ?? join(process.cwd(), 'bench', 'results', 'latest.json'),
  /**
   * Issue 31's tail after a pause: rounds (0: skipped), the pause, requests measured after it. The
   * pause outlasts the pool's 30 s idle timeout counted from the last background statement (the
   * usage flush runs up to 5 s after the traffic), so a pool without a warm minimum starts empty.
   */
  tail: {
    rounds: env('BENCH_TAIL_ROUNDS', 2, 3),
    pauseSeconds: env('BENCH_TAIL_PAUSE_SECONDS', 40, 40),
    warmSeconds: env('BENCH_TAIL_WARM_SECONDS', 2, 3),
    requests: env('BENCH_TAIL_REQUESTS', 200, 200),
  },
  /** Issue 31's throughput at saturation: rounds (0: skipped), seconds per run, connections in flight. */
  saturation: {
    rounds: env('BENCH_SATURATION_ROUNDS', 2, 3),
    seconds: env('BENCH_SATURATION_SECONDS', 3, 5),
    connections: env('BENCH_SATURATION_CONNECTIONS', 8, 8),
  },
  /** Idle graphql-ws connections (one subscription each) whose memory is measured (0: skipped). */
  wsConnections: env('BENCH_WS_CONNECTIONS', 100, 300),
};

type ContenderKey = 'baseline' | 'service' | 'serviceBefore' | 'postgraphile';

export interface ContenderSpec {
  key: ContenderKey;
  label: string;
  /** Absolute, or relative to this directory (dist/bench). */
  script: string;
  appName: string;
  execPath?: string;
  /** Working directory of the process (default: the harness's). */
  cwd?: string;
  /** More environment for the process, and Node flags. */
  env?: Record<string, string>;
  execArgv?: string[];
}

export const CONTENDERS: ContenderSpec[] = [
  { key: 'baseline', label: 'hand-written node:http + pg, one statement (yardstick, bench/baseline.server.ts)', script: 'baseline.server.js', appName: 'mas_bench_baseline' },
  // Started with the node flags production starts it with (src/node-flags.ts).
  { key: 'service', label: 'this service (REST and GraphQL, one process)', script: 'service.server.js', appName: 'mas_bench_service', execArgv: [...API_NODE_FLAGS] },
  {
    key: 'postgraphile',
    label: `PostGraphile ${packageVersion('postgraphile')} (Amber preset, pg adaptor)`,
    script: 'postgraphile.server.js',
    appName: 'mas_bench_postgraphile',
    execPath: process.env.BENCH_POSTGRAPHILE_NODE,
  },
];

/** The Node major production runs (deploy/Dockerfile's image): a run on another one says so. */
const PRODUCTION_NODE_MAJOR = 24;

/** Scenario id of the "before" twin of a service scenario. */
const beforeId = (id: string) => `${id}-before`;

export interface Scenario {
  id: string;
  contender: ContenderKey;
  /** Column "contender" of the table. */
  name: string;
  page?: number;
  call: HttpCall;
  /** The answer as the REST body it must equal (songs scenarios only). */
  comparable?: (body: string) => unknown;
  /** Byte-for-byte check against REST's body as well: of the body as answered, or of the comparable value serialized. */
  sameBytes?: 'body' | 'value';
}

const KEY = DEMO_KEYS[1].raw; // Nora, member of Northwind Records (the bench catalog's owner)
const songsPath = (limit: number) => `/api/catalogs/songs?catalog_id=${BENCH_CATALOG}&limit=${limit}`;
const json = (body: unknown) => JSON.stringify(body);

/** The GraphQL twin of the REST route, selecting its fields in the order (and under the names) REST answers them. */
const SERVICE_QUERY = `query CatalogSongs($input: CatalogSongsInput!) {
  catalogSongs(input: $input) {
    items { isrc name album lyrics updated_at: updatedAt catalog_id: catalogId artists: credits { id name timestamp } }
    pagination { total_count: totalCount page limit total_pages: totalPages }
  }
}`;

/**
 * The composed roster query of issue #31: Nora's roster (Luna Waves, whose catalogs hold the bench catalog, and The Midnight
 * Owls), each artist's socials, catalogs with their accounts and a page of songs with their credits. Two artists keep it
 * under the default GRAPHQL_MAX_COST at a page of 100 (credits weigh their bound per song).
 */
const COMPOSED_QUERY = `query Composed($limit: Int) {
  artists(limit: 2) { items { name
    socials(limit: 5) { items { username profileUrl } pagination { totalCount } }
    catalogs(limit: 3) { items { name accounts(limit: 5) { items { name kind } } songs(limit: $limit) { items { isrc name credits { name timestamp } } pageInfo { hasNextPage } } } }
  } }
}`;

/** The GraphQL page in the REST envelope, to compare with REST's answer. */
function asRestPage(page: unknown): unknown {
  const { items, pagination } = page as { items: unknown[]; pagination: unknown };
  return { status: 'success', songs: items, pagination };
}

/**
 * The same data from PostGraphile's generated schema: the catalog's songs by ISRC with each
 * entry's credited artists. Amber only orders by indexed columns, so credits come by their primary
 * key; in the volume set credit ids ascend with credit time (the service's order), which the
 * equality check confirms.
 */
const POSTGRAPHILE_QUERY = `query CatalogSongs($catalogId: UUID!, $first: Int!) {
  allCatalogSongs(condition: { catalogId: $catalogId }, orderBy: ISRC_ASC, first: $first) {
    totalCount
    nodes {
      isrc name album lyrics updatedAt catalogId
      catalogSongArtistsByCatalogSongId(orderBy: ROW_ID_ASC) { nodes { createdAt accountByArtistId { rowId name } } }
    }
  }
}`;

interface PgSong {
  isrc: string;
  name: string;
  album: string | null;
  lyrics: string | null;
  updatedAt: string;
  catalogId: string;
  catalogSongArtistsByCatalogSongId: { nodes: { createdAt: string; accountByArtistId: { rowId: string; name: string } }[] };
}

function graphqlData(body: string, field: string): unknown {
  const parsed = JSON.parse(body) as { data?: Record<string, unknown>; errors?: unknown[] };
  if (parsed.errors?.length || !parsed.data) throw new Error(`GraphQL errors: ${json(parsed.errors)}`);
  return parsed.data[field];
}

export function scenarios(): Scenario[] {
  const list: Scenario[] = [];
  const rest = (limit: number): HttpCall => ({ method: 'GET', path: songsPath(limit), headers: { 'x-api-key': KEY } });
  for (const page of settings.pages) {
    list.push({ id: `baseline-${page}`, contender: 'baseline', name: 'hand-written (yardstick)', page, call: rest(page), comparable: (b) => JSON.parse(b), sameBytes: 'body' });
    list.push({ id: `rest-${page}`, contender: 'service', name: 'REST', page, call: rest(page), comparable: (b) => JSON.parse(b), sameBytes: 'body' });
    list.push({
      id: `graphql-${page}`,
      contender: 'service',
      name: 'GraphQL',
      page,
      call: {
        method: 'POST',
        path: '/graphql',
        headers: { 'x-api-key': KEY, 'content-type': 'application/json' },
        body: json({ query: SERVICE_QUERY, variables: { input: { catalogId: BENCH_CATALOG, limit: page } } }),
      },
      comparable: (b) => asRestPage(graphqlData(b, 'catalogSongs')),
      sameBytes: 'value',
    });
    if (settings.postgraphile) {
      list.push({
        id: `postgraphile-${page}`,
        contender: 'postgraphile',
        name: 'PostGraphile v5',
        page,
        call: {
          method: 'POST',
          path: '/graphql',
          headers: { 'content-type': 'application/json' },
          body: json({ query: POSTGRAPHILE_QUERY, variables: { catalogId: BENCH_CATALOG, first: page } }),
        },
        comparable: (b) => {
          const data = graphqlData(b, 'allCatalogSongs') as { totalCount: number; nodes: PgSong[] };
          return {
            status: 'success',
            songs: data.nodes.map((s) => ({
              isrc: s.isrc,
              name: s.name,
              album: s.album,
              lyrics: s.lyrics,
              updated_at: new Date(s.updatedAt).toISOString(),
              catalog_id: s.catalogId,
              artists: s.catalogSongArtistsByCatalogSongId.nodes.map((c) => ({
                id: c.accountByArtistId.rowId,
                name: c.accountByArtistId.name,
                timestamp: Math.floor(Date.parse(c.createdAt) / 1000),
              })),
            })),
            pagination: { total_count: data.totalCount, page: 1, limit: page, total_pages: Math.ceil(data.totalCount / page) },
          };
        },
      });
    }
  }
  // Issue #31: a composed query (roster → socials, catalogs → accounts, songs page → credits) reads its rows in one statement.
  for (const page of settings.pages) {
    list.push({
      id: `composed-${page}`,
      contender: 'service',
      name: 'GraphQL composed roster',
      page,
      call: { method: 'POST', path: '/graphql', headers: { 'x-api-key': KEY, 'content-type': 'application/json' }, body: json({ query: COMPOSED_QUERY, variables: { limit: page } }) },
    });
  }
  list.push({ id: 'runs', contender: 'service', name: 'REST runs status read', call: { method: 'GET', path: `/api/tasks/runs?runId=${BENCH_RUN}`, headers: { 'x-api-key': KEY } } });
  if (!settings.before) return list;
  // BENCH_BEFORE: each service scenario gets its twin on the "before" tree, right after it (same call, same rounds).
  return list.flatMap((s) => (s.contender === 'service' ? [s, { ...s, id: beforeId(s.id), contender: 'serviceBefore' as const, name: `${s.name} (before)` }] : [s]));
}

// ───────────────────────────── BENCH_BEFORE ─────────────────────────────

/** Root of this checkout (the harness runs from <root>/dist/bench). */
const OWN_ROOT = resolve(__dirname, '..', '..');

export interface BeforeTree {
  dir: string;
  commit: string;
  afterCommit: string;
}

function gitDescribe(dir: string): string {
  try {
    const commit = execFileSync('git', ['-C', dir, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const dirty = execFileSync('git', ['-C', dir, 'status', '--porcelain', '--untracked-files=no'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    return dirty ? `${commit} + uncommitted changes` : commit;
  } catch {
    return 'unknown commit';
  }
}

/**
 * The "before" contender: <dir>/dist/bench/service.server.js of another checkout of this repository
 * (built here with `npx tsc -p tsconfig.bench.json` when missing), run with <dir> as its working
 * directory so it loads <dir>'s compiled code and <dir>/node_modules (own or a symlink). It shares the
 * bench database, which the harness migrates and seeds once with THIS tree (the newer one): the
 * before process must neither migrate nor seed — an older migrator would not know the newer
 * migrations — so its service.server must open the database with `migrate: false, seed: false`.
 */
export function prepareBefore(dir: string): { spec: ContenderSpec; tree: BeforeTree } {
  const where = `BENCH_BEFORE=${dir}`;
  const ownName = (JSON.parse(readFileSync(join(OWN_ROOT, 'package.json'), 'utf8')) as { name?: string }).name;
  let name: string | undefined;
  try {
    name = (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string }).name;
  } catch {
    throw new Error(`${where}: no package.json there; give the root of another checkout of this repository (git worktree add <dir> <commit>)`);
  }
  if (name !== ownName) throw new Error(`${where}: its package.json names "${name}", not "${ownName}": not a checkout of this repository`);
  // existsSync follows the symlink: a dangling node_modules link counts as missing.
  if (!existsSync(join(dir, 'node_modules'))) {
    throw new Error(`${where} has no node_modules: link this checkout's (ln -s ${join(OWN_ROOT, 'node_modules')} ${join(dir, 'node_modules')}) or install there`);
  }
  const script = join(dir, 'dist', 'bench', 'service.server.js');
  if (!existsSync(script)) {
    // What `npx tsc` runs there, called directly: npx could reach for the registry (and, under
    // `npm run`, reads `-p` as its own --package).
    const tsc = join(dir, 'node_modules', 'typescript', 'bin', 'tsc');
    if (!existsSync(tsc)) throw new Error(`${where}: ${script} is missing and ${tsc} is not there to build it`);
    console.log(`building the before tree: tsc -p tsconfig.bench.json in ${dir}`);
    try {
      execFileSync(process.execPath, [tsc, '-p', 'tsconfig.bench.json'], { cwd: dir, stdio: 'inherit', timeout: 600_000 });
    } catch (error) {
      throw new Error(`${where}: tsc -p tsconfig.bench.json failed there: ${firstLine(error)}`);
    }
    if (!existsSync(script)) throw new Error(`${where}: built, but ${script} is still missing (does that commit have bench/service.server.ts?)`);
  }
  const source = readFileSync(script, 'utf8');
  if (!/migrate:\s*false/.test(source) || !/seed:\s*false/.test(source)) {
    throw new Error(`${where}: ${script} does not open the database with { migrate: false, seed: false }; it would run its (older) migrator on the shared bench database`);
  }
  const node = settings.beforeNode ? nodeVersion(settings.beforeNode, 'BENCH_BEFORE_NODE') : process.version;
  const commit = `${gitDescribe(dir)}, Node ${node}`;
  return {
    spec: {
      key: 'serviceBefore',
      label: `this service before the change (${dir}, ${commit})`,
      script,
      appName: 'mas_bench_service_before',
      cwd: dir,
      execArgv: nodeFlagsOf(dir),
      execPath: settings.beforeNode,
    },
    tree: { dir, commit, afterCommit: `${gitDescribe(OWN_ROOT)}, Node ${process.version}` },
  };
}

// ───────────────────────────── contender processes ─────────────────────────────

interface Running {
  spec: ContenderSpec;
  pid: number;
  port: number;
  client: Client;
  /** The process's memory (after a full GC when it runs with --expose-gc). */
  memory(): Promise<MemoryUsage>;
  stop(): Promise<void>;
}

function packageVersion(name: string): string {
  try {
    let dir = dirname(require.resolve(name));
    for (let i = 0; i < 5; i += 1, dir = dirname(dir)) {
      try {
        const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
        if (pkg.name === name) return pkg.version ?? '?';
      } catch {
        // keep climbing
      }
    }
  } catch {
    // not installed
  }
  return '(not installed)';
}

/** The version a Node binary prints (`node -v`); a binary that does not run stops the harness. */
function nodeVersion(binary: string, where: string): string {
  try {
    return execFileSync(binary, ['-v'], { encoding: 'utf8', timeout: 30_000 }).trim();
  } catch (error) {
    throw new Error(`${where}=${binary}: not a Node binary that runs here: ${firstLine(error)}`);
  }
}

/** The node flags the other tree starts its API process with (its src/node-flags.ts; none before it had one). */
function nodeFlagsOf(dir: string): string[] {
  const built = join(dir, 'dist', 'src', 'node-flags.js');
  if (!existsSync(built)) return [];
  return [...(require(built) as { API_NODE_FLAGS: readonly string[] }).API_NODE_FLAGS];
}

async function start(spec: ContenderSpec, databaseUrl: string): Promise<Running> {
  const child: ChildProcess = fork(resolve(__dirname, spec.script), [], {
    env: { ...process.env, DATABASE_URL: databaseUrl, PGAPPNAME: spec.appName, NODE_ENV: 'production', GRAPHILE_ENV: 'production', ...spec.env },
    execPath: spec.execPath,
    execArgv: spec.execArgv,
    cwd: spec.cwd,
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-4000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const port = await new Promise<number>((resolvePort, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${spec.key} did not start within 90 s\n${output}`));
    }, 90_000);
    child.once('message', (message: { port?: number }) => {
      clearTimeout(timer);
      if (message.port) resolvePort(message.port);
      else reject(new Error(`${spec.key}: unexpected message ${json(message)}`));
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${spec.key} exited with code ${code} before listening\n${output}`));
    });
  });
  const client = new Client(port);
  return {
    spec,
    pid: child.pid!,
    port,
    client,
    memory: () =>
      new Promise<MemoryUsage>((resolveMemory, reject) => {
        const timer = setTimeout(() => reject(new Error(`${spec.key} did not report its memory`)), 10_000);
        const onMessage = (message: { memory?: MemoryUsage }) => {
          if (!message.memory) return;
          clearTimeout(timer);
          child.off('message', onMessage);
          resolveMemory(message.memory);
        };
        child.on('message', onMessage);
        child.send('memory');
      }),
    stop: async () => {
      client.close();
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((done) => child.once('exit', () => done()));
      child.send('stop');
      const timer = setTimeout(() => child.kill('SIGKILL'), 8000);
      await exited;
      clearTimeout(timer);
    },
  };
}

// ───────────────────────────── measurements ─────────────────────────────

interface Round {
  requests: number;
  errors: number;
  serverMs: number;
  postgresMs: number;
  backends: number;
  backendsLost: number;
}

interface ScenarioResult {
  id: string;
  contender: ContenderKey;
  name: string;
  page?: number;
  statementsPerRequest?: number;
  sampleStatements?: string[];
  rounds: Round[];
  latencies: number[];
  skipped?: string;
}

async function backendPids(admin: PgClient, appName: string): Promise<number[]> {
  const { rows } = await admin.query<{ pid: number }>(
    `select pid from pg_stat_activity where application_name = $1 and datname = current_database() and pid <> pg_backend_pid()`,
    [appName],
  );
  return rows.map((r) => r.pid);
}

async function sequential(client: Client, call: HttpCall, n: number): Promise<void> {
  for (let i = 0; i < n; i += 1) {
    const answer = await client.call(call);
    if (answer.status !== 200) throw new Error(`${call.method} ${call.path} answered ${answer.status}: ${answer.body.slice(0, 500)}`);
  }
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** Every songs answer of a page must equal the REST one (deeply); baseline and GraphQL also byte for byte. */
async function checkSameJson(running: Map<ContenderKey, Running>, list: Scenario[], results: Map<string, ScenarioResult>, notes: Set<string>): Promise<void> {
  for (const page of settings.pages) {
    const rest = list.find((s) => s.id === `rest-${page}`)!;
    const restBody = (await running.get('service')!.client.call(rest.call)).body;
    const expected = JSON.parse(restBody) as { songs?: unknown[] };
    if (!expected.songs || expected.songs.length !== Math.min(page, 150)) throw new Error(`REST page ${page} is not a full page: ${restBody.slice(0, 300)}`);
    for (const scenario of list.filter((s) => s.page === page && s.comparable && s.id !== rest.id)) {
      const contender = running.get(scenario.contender);
      if (!contender || results.get(scenario.id)!.skipped) continue;
      const answer = await contender.client.call(scenario.call);
      let actual: unknown;
      try {
        actual = scenario.comparable!(answer.body);
      } catch (error) {
        actual = `unreadable answer (${answer.status}): ${error instanceof Error ? error.message : error}`;
      }
      if (!isDeepStrictEqual(actual, expected)) {
        const whose = scenario.contender === 'serviceBefore' ? "REST's (this tree): the before tree answers differently" : "REST's";
        const message = `${scenario.id}: the answer differs from ${whose} (page ${page}): ${json(actual).slice(0, 300)} …`;
        if (scenario.contender === 'postgraphile') {
          markSkipped(list, results, 'postgraphile', `not run: its answer differs from REST's (${message})`);
          continue;
        }
        throw new Error(message);
      }
      const bytes = scenario.sameBytes === 'body' ? answer.body : scenario.sameBytes === 'value' ? json(actual) : undefined;
      if (bytes !== undefined && bytes !== restBody) notes.add(`${scenario.id}: same JSON value as REST but not the same bytes`);
    }
  }
  const before = running.get('serviceBefore');
  if (before) {
    // The status read has no other contender: the before tree's answer must equal this tree's.
    const runs = list.find((s) => s.id === 'runs')!;
    const after = await running.get('service')!.client.call(runs.call);
    const answer = await before.client.call(runs.call);
    const parse = (body: string) => {
      try {
        return JSON.parse(body) as unknown;
      } catch {
        return body;
      }
    };
    if (after.status !== 200 || answer.status !== after.status || !isDeepStrictEqual(parse(answer.body), parse(after.body))) {
      throw new Error(`${beforeId('runs')}: the before tree's status read differs from this tree's: ${answer.status} ${answer.body.slice(0, 300)} … vs ${after.status} ${after.body.slice(0, 300)} …`);
    }
    if (answer.body !== after.body) notes.add(`${beforeId('runs')}: same JSON value as this tree's status read but not the same bytes`);
  }
  notes.add(
    `Before measuring: baseline, REST, GraphQL (data.catalogSongs)${before ? ', REST and GraphQL of the before tree' : ''} and PostGraphile (mapped to the REST shape) answers were checked equal at every page; baseline and GraphQL${before ? ' (both trees) and REST (before)' : ''} byte for byte with REST unless noted${before ? "; the before tree's runs status read equal to this tree's" : ''}.`,
  );
}

function markSkipped(list: Scenario[], results: Map<string, ScenarioResult>, contender: ContenderKey, reason: string): void {
  for (const s of list.filter((x) => x.contender === contender)) results.get(s.id)!.skipped = reason;
}

/** Phase 1: statements per request through a counting proxy (contenders started for it, then stopped). */
async function countStatements(databaseUrl: string, list: Scenario[], results: Map<string, ScenarioResult>, notes: Set<string>): Promise<void> {
  const target = new URL(databaseUrl);
  for (const spec of CONTENDERS) {
    const own = list.filter((s) => s.contender === spec.key && !results.get(s.id)!.skipped);
    if (!own.length) continue;
    const proxy = await startCountingProxy({ host: target.hostname, port: Number(target.port || 5432) });
    let running: Running | undefined;
    try {
      running = await start(spec, viaPort(databaseUrl, '127.0.0.1', proxy.port));
      for (const scenario of own) {
        await sequential(running.client, scenario.call, 10);
        await sleep(100);
        proxy.reset();
        await sequential(running.client, scenario.call, settings.countRequests);
        await sleep(200);
        const result = results.get(scenario.id)!;
        result.statementsPerRequest = proxy.count / settings.countRequests;
        proxy.reset();
        await sequential(running.client, scenario.call, 1);
        await sleep(200);
        result.sampleStatements = proxy.queries.map((q) => q.replace(/\s+/g, ' ').trim().slice(0, 240));
      }
    } catch (error) {
      if (spec.key !== 'postgraphile') throw error;
      markSkipped(list, results, 'postgraphile', `not run: ${firstLine(error)}`);
    } finally {
      await running?.stop();
      await proxy.close();
    }
  }
  notes.add(`Statements: counted by a TCP proxy parsing the PostgreSQL wire protocol (Query and Execute messages), ${settings.countRequests} sequential requests per scenario after 10 unmeasured; authentication and rate-limit statements included.`);
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0];
}

/** One fixed-rate burst of a scenario: CPU of the contender process and of its backends, latencies. */
async function burst(admin: PgClient, running: Running, scenario: Scenario, result: ScenarioResult): Promise<void> {
  await running.client.fixedRate(scenario.call, settings.rate, settings.preRollSeconds);
  const appName = running.spec.appName;
  const before = snapshot([running.pid, ...(await backendPids(admin, appName))]);
  const load = await running.client.fixedRate(scenario.call, settings.rate, settings.seconds);
  const afterBackends = await backendPids(admin, appName);
  const after = snapshot([running.pid, ...afterBackends]);
  const server = (after.get(running.pid) ?? 0) - (before.get(running.pid) ?? 0);
  before.delete(running.pid);
  after.delete(running.pid);
  const pg = cpuDelta(before, after);
  const n = Math.max(1, load.ok + load.errors);
  result.rounds.push({
    requests: load.ok,
    errors: load.errors,
    serverMs: server / 1e6 / n,
    postgresMs: pg.ns / 1e6 / n,
    backends: afterBackends.length,
    backendsLost: pg.lost,
  });
  result.latencies.push(...load.latencies);
}

// ───────────────────────────── report ─────────────────────────────

interface Summary {
  id: string;
  contender: ContenderKey;
  name: string;
  page?: number;
  serverMs?: number;
  postgresMs?: number;
  totalMs?: number;
  statementsPerRequest?: number;
  p50Ms?: number;
  p99Ms?: number;
  requests: number;
  errors: number;
  skipped?: string;
  sampleStatements?: string[];
  rounds: Round[];
}

function summarize(result: ScenarioResult): Summary {
  const r = result.rounds;
  return {
    id: result.id,
    contender: result.contender,
    name: result.name,
    page: result.page,
    serverMs: r.length ? median(r.map((x) => x.serverMs)) : undefined,
    postgresMs: r.length ? median(r.map((x) => x.postgresMs)) : undefined,
    totalMs: r.length ? median(r.map((x) => x.serverMs + x.postgresMs)) : undefined,
    statementsPerRequest: result.statementsPerRequest,
    p50Ms: result.latencies.length ? quantile(result.latencies, 0.5) : undefined,
    p99Ms: result.latencies.length ? quantile(result.latencies, 0.99) : undefined,
    requests: r.reduce((a, x) => a + x.requests, 0),
    errors: r.reduce((a, x) => a + x.errors, 0),
    skipped: result.skipped,
    sampleStatements: result.sampleStatements,
    rounds: r,
  };
}

interface Check {
  check: string;
  value: string;
  must: string;
  target: string;
  verdict: string;
}

const fmt = (n: number | undefined, digits = 2) => (n === undefined || Number.isNaN(n) ? '–' : n.toFixed(digits));

function verdict(value: number | undefined, must: (v: number) => boolean, target: (v: number) => boolean): string {
  if (value === undefined || Number.isNaN(value)) return 'not measured';
  if (target(value)) return '✓ target';
  if (must(value)) return '✓ must, ✗ target';
  return '✗ must';
}

/** The page the ratios are read at: 50 when measured, else the second page given (or the only one). */
const midPage = () => (settings.pages.includes(50) ? 50 : (settings.pages[1] ?? settings.pages[0]));

function checks(byId: Map<string, Summary>): Check[] {
  const list: Check[] = [];
  const get = (id: string) => byId.get(id);
  const [lo, mid, hi] = [settings.pages[0], midPage(), settings.pages[settings.pages.length - 1]];
  for (const kind of ['rest', 'graphql'] as const) {
    const counts = settings.pages.map((p) => get(`${kind}-${p}`)?.statementsPerRequest);
    const known = counts.every((c) => c !== undefined);
    // Equal up to the periodic statements any page's sample may catch: a rate-limit lease reservation
    // (one per ~50 charges) and the key's once-a-minute last use, so up to 3 in 40 requests; a statement
    // per level or per row would differ by a whole statement a request.
    const equal = known && counts.every((c) => Math.abs(c! - counts[0]!) <= 0.1);
    const max = known ? Math.max(...(counts as number[])) : undefined;
    list.push({
      check: `SQL statements per request, ${kind === 'rest' ? 'REST' : 'GraphQL'}, pages ${settings.pages.join('/')}`,
      value: counts.map((c) => fmt(c)).join(' / '),
      must: 'equal across pages, ≤ 3',
      target: '≤ 2',
      verdict: !known ? 'not measured' : !equal ? '✗ must (differ across pages)' : verdict(max, (v) => v <= 3.005, (v) => v <= 2.005),
    });
  }
  const ratio = (a?: number, b?: number) => (a !== undefined && b !== undefined && b > 0 ? a / b : undefined);
  const vsHand = ratio(get(`baseline-${mid}`)?.totalMs, get(`rest-${mid}`)?.totalMs);
  list.push({ check: `REST CPU vs hand-written, page ${mid} (hand-written ÷ REST, server + PostgreSQL)`, value: `${fmt(vsHand)}×`, must: '≥ 0.40×', target: '≥ 0.65×', verdict: verdict(vsHand, (v) => v >= 0.4, (v) => v >= 0.65) });
  const pgl = get(`postgraphile-${mid}`);
  const vsPgl = pgl?.skipped ? undefined : ratio(pgl?.totalMs, get(`graphql-${mid}`)?.totalMs);
  list.push({
    check: `GraphQL CPU vs PostGraphile v5, page ${mid} (PostGraphile ÷ GraphQL)`,
    value: pgl?.skipped ? pgl.skipped : `${fmt(vsPgl)}×`,
    must: '≥ 1.0×',
    target: '≥ 1.6×',
    verdict: pgl?.skipped ? 'not measured' : verdict(vsPgl, (v) => v >= 1.0, (v) => v >= 1.6),
  });
  for (const kind of ['rest', 'graphql'] as const) {
    const p99 = ratio(get(`${kind}-${mid}`)?.p99Ms, get(`baseline-${mid}`)?.p99Ms);
    list.push({ check: `p99 at ${settings.rate} req/s, ${kind === 'rest' ? 'REST' : 'GraphQL'} ÷ hand-written, page ${mid}`, value: `${fmt(p99)}×`, must: '≤ 2×', target: '≤ 1.5×', verdict: verdict(p99, (v) => v <= 2, (v) => v <= 1.5) });
  }
  for (const kind of ['rest', 'graphql'] as const) {
    const growth = ratio(get(`${kind}-${hi}`)?.totalMs, get(`${kind}-${lo}`)?.totalMs);
    list.push({ check: `CPU page ${hi} ÷ page ${lo}, ${kind === 'rest' ? 'REST' : 'GraphQL'}`, value: `${fmt(growth)}×`, must: '≤ 3.5×', target: '≤ 2.75×', verdict: verdict(growth, (v) => v <= 3.5, (v) => v <= 2.75) });
  }
  const runs = get('runs')?.totalMs;
  list.push({ check: 'Fixed cost: GET /api/tasks/runs?runId= CPU per request (server + PostgreSQL)', value: `${fmt(runs)} ms`, must: '≤ 2.5 ms', target: '≤ 1.5 ms', verdict: verdict(runs, (v) => v <= 2.5, (v) => v <= 1.5) });
  return list;
}

/** Issue 31: p99 after a pause against the hand-written handler's; saturation throughput against the peers'. */
function issue31Checks(tail: TailSummary[] | undefined, saturation: SaturationSummary[] | undefined): Check[] {
  const mid = midPage();
  const list: Check[] = [];
  const ratio = (a?: number, b?: number) => (a !== undefined && b !== undefined && b > 0 ? a / b : undefined);
  if (tail) {
    const of = (id: string) => tail.find((t) => t.id === id);
    for (const kind of ['rest', 'graphql'] as const) {
      const p99 = ratio(of(`${kind}-${mid}`)?.p99Ms, of(`baseline-${mid}`)?.p99Ms);
      list.push({
        check: `p99 of the first ${settings.tail.requests} requests after a ${settings.tail.pauseSeconds} s pause, ${kind === 'rest' ? 'REST' : 'GraphQL'} ÷ hand-written, page ${mid}`,
        value: `${fmt(p99)}×`,
        must: '≤ 2×',
        target: '≤ 1.5×',
        verdict: verdict(p99, (v) => v <= 2, (v) => v <= 1.5),
      });
    }
  }
  if (saturation) {
    const of = (id: string) => saturation.find((t) => t.id === id);
    const rest = ratio(of(`rest-${mid}`)?.requestsPerSecond, of(`baseline-${mid}`)?.requestsPerSecond);
    list.push({ check: `Requests/s at saturation, one core, REST ÷ hand-written, page ${mid}`, value: `${fmt(rest)}×`, must: '≥ 0.40×', target: '≥ 0.60×', verdict: verdict(rest, (v) => v >= 0.4, (v) => v >= 0.6) });
    const pgl = of(`postgraphile-${mid}`);
    const graphql = ratio(of(`graphql-${mid}`)?.requestsPerSecond, pgl?.requestsPerSecond);
    list.push({
      check: `Requests/s at saturation, one core, GraphQL ÷ PostGraphile v5, page ${mid}`,
      value: pgl ? `${fmt(graphql)}×` : 'PostGraphile not run',
      must: '≥ 1.0×',
      target: '≥ 1.5×',
      verdict: pgl ? verdict(graphql, (v) => v >= 1.0, (v) => v >= 1.5) : 'not measured',
    });
  }
  return list;
}

function issue31Markdown(tail: TailSummary[] | undefined, saturation: SaturationSummary[] | undefined, websockets: WsMemorySummary | undefined): string {
  const lines: string[] = [];
  if (tail) {
    lines.push(
      '',
      `After a pause: ${settings.tail.rounds} rounds of traffic, ${settings.tail.pauseSeconds} s without any, then the first ${settings.tail.requests} requests at ${settings.rate} req/s to each contender in turn (another first each round).`,
      '',
      '| contender | page | p50 ms | p99 ms | max ms | p99 per round (ms) | max per round (ms) | PostgreSQL connections open after each pause | requests (errors) |',
      '|---|---|---|---|---|---|---|---|---|',
    );
    for (const t of tail) {
      lines.push(
        `| ${t.name} | ${midPage()} | ${fmt(t.p50Ms, 1)} | ${fmt(t.p99Ms, 1)} | ${fmt(t.maxMs, 1)} | ${t.rounds.map((r) => fmt(r.p99Ms, 1)).join(' / ')} | ${t.rounds.map((r) => fmt(r.maxMs, 1)).join(' / ')} | ${t.rounds.map((r) => r.backendsAfterPause ?? '–').join(' / ')} | ${t.requests} (${t.errors}) |`,
      );
    }
  }
  if (saturation) {
    lines.push('', '| contender at saturation | page | requests/s (median) | per round | server CPU ms/req | p99 ms | errors |', '|---|---|---|---|---|---|---|');
    for (const t of saturation) {
      lines.push(`| ${t.name} | ${midPage()} | ${fmt(t.requestsPerSecond, 0)} | ${t.rounds.map((r) => fmt(r.requestsPerSecond, 0)).join(' / ')} | ${fmt(t.serverCpuMsPerRequest)} | ${fmt(t.p99Ms, 0)} | ${t.errors} |`);
    }
  }
  if (websockets) {
    const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
    lines.push(
      '',
      `Websockets (the service, ${websockets.connections} graphql-ws connections, one renderRuns subscription each): per idle connection ${kib(websockets.heapPerConnection)} heap (after a full GC, external included), ${kib(websockets.rssPerConnection)} RSS; per subscription ${kib(websockets.heapPerSubscription)} heap, ${kib(websockets.rssPerSubscription)} RSS.`,
    );
  }
  return lines.join('\n');
}

/** One service scenario measured on both trees in the same rounds. Ratios are after ÷ before (< 1: the change saves). */
interface BeforeAfter {
  id: string;
  name: string;
  page?: number;
  cpuTotalMsBefore?: number;
  cpuTotalMsAfter?: number;
  cpuRatio?: number;
  /** after ÷ before of each round's own pair (both bursts in the same round): the spread the noise leaves. */
  cpuRoundRatios: number[];
  statementsBefore?: number;
  statementsAfter?: number;
  statementsRatio?: number;
}

function beforeAfter(summaries: Summary[], byId: Map<string, Summary>): BeforeAfter[] {
  const ratio = (a?: number, b?: number) => (a !== undefined && b !== undefined && b > 0 ? a / b : undefined);
  return summaries
    .filter((s) => s.contender === 'service' && byId.has(beforeId(s.id)))
    .map((after) => {
      const before = byId.get(beforeId(after.id))!;
      const rounds = Math.min(after.rounds.length, before.rounds.length);
      const cpuRoundRatios: number[] = [];
      for (let i = 0; i < rounds; i += 1) {
        const r = ratio(after.rounds[i].serverMs + after.rounds[i].postgresMs, before.rounds[i].serverMs + before.rounds[i].postgresMs);
        if (r !== undefined) cpuRoundRatios.push(r);
      }
      return {
        id: after.id,
        name: after.name,
        page: after.page,
        cpuTotalMsBefore: before.totalMs,
        cpuTotalMsAfter: after.totalMs,
        cpuRatio: ratio(after.totalMs, before.totalMs),
        cpuRoundRatios,
        statementsBefore: before.statementsPerRequest,
        statementsAfter: after.statementsPerRequest,
        statementsRatio: ratio(after.statementsPerRequest, before.statementsPerRequest),
      };
    });
}

function beforeAfterMarkdown(rows: BeforeAfter[], tree: BeforeTree): string {
  const lines = [
    `before → after: the service at ${tree.dir} (${tree.commit}) → this tree (${tree.afterCommit}), measured in the same interleaved rounds; ratio = after ÷ before (< 1: the change saves).`,
    '',
    '| scenario | page | CPU total ms/req before | after | after ÷ before | per-round after ÷ before (min–max) | SQL statements/req before | after | after ÷ before |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  for (const r of rows) {
    const spread = r.cpuRoundRatios.length ? `${fmt(Math.min(...r.cpuRoundRatios))}–${fmt(Math.max(...r.cpuRoundRatios))}×` : '–';
    lines.push(
      `| ${r.name} | ${r.page ?? '–'} | ${fmt(r.cpuTotalMsBefore)} | ${fmt(r.cpuTotalMsAfter)} | ${fmt(r.cpuRatio)}× | ${spread} | ${fmt(r.statementsBefore)} | ${fmt(r.statementsAfter)} | ${fmt(r.statementsRatio)}× |`,
    );
  }
  return lines.join('\n');
}

function markdown(summaries: Summary[], checkList: Check[], header: string): string {
  const lines = [header, '', '| contender | page | CPU server ms/req | CPU PostgreSQL ms/req | CPU total ms/req | SQL statements/req | p50 ms | p99 ms | requests (errors) |', '|---|---|---|---|---|---|---|---|---|'];
  for (const s of summaries) {
    if (s.skipped) {
      lines.push(`| ${s.name} | ${s.page ?? '–'} | ${s.skipped} | | | | | | |`);
      continue;
    }
    lines.push(
      `| ${s.name} | ${s.page ?? '–'} | ${fmt(s.serverMs)} | ${fmt(s.postgresMs)} | ${fmt(s.totalMs)} | ${fmt(s.statementsPerRequest)} | ${fmt(s.p50Ms, 1)} | ${fmt(s.p99Ms, 1)} | ${s.requests} (${s.errors}) |`,
    );
  }
  lines.push('', '| check | measured | must | target | verdict |', '|---|---|---|---|---|');
  for (const c of checkList) lines.push(`| ${c.check} | ${c.value} | ${c.must} | ${c.target} | ${c.verdict} |`);
  return lines.join('\n');
}

// ───────────────────────────── main ─────────────────────────────

/** Migrates the bench database and loads the demo data set and the volume set (bench/scenarios.ts), with this (the newest) tree. */
export async function seedBenchDatabase(url: string, logger: Logger): Promise<void> {
  const config = loadConfig({ ...process.env, DATABASE_URL: url, DEMO_SEED: 'true', LOG_LEVEL: 'warn' });
  const database = await openDatabase(config, logger, { entities });
  try {
    await prepareVolume(database.orm);
  } finally {
    await database.close();
  }
}

export async function sideBySide(): Promise<void> {
  const started = Date.now();
  const logger = createLogger('warn');
  const list = scenarios();
  const results = new Map<string, ScenarioResult>(list.map((s) => [s.id, { id: s.id, contender: s.contender, name: s.name, page: s.page, rounds: [], latencies: [] }]));
  const notes = new Set<string>();
  let beforeTree: BeforeTree | undefined;
  if (settings.before) {
    // Checked (and built) before anything else starts: a wrong BENCH_BEFORE fails in seconds.
    const prepared = prepareBefore(settings.before);
    beforeTree = prepared.tree;
    CONTENDERS.splice(CONTENDERS.findIndex((c) => c.key === 'service') + 1, 0, prepared.spec);
    console.log(`before: ${beforeTree.dir} (${beforeTree.commit}); after: this tree (${beforeTree.afterCommit})`);
  }
  const loadBefore = loadavg();
  const db = await openBenchDatabase(logger);
  console.log(`bench database: ${db.source}`);
  const running = new Map<ContenderKey, Running>();
  let admin: PgClient | undefined;
  try {
    // Migrated and seeded once, by this (the newest) tree; no contender migrates or seeds.
    await seedBenchDatabase(db.url, logger);
    admin = new PgClient({ connectionString: db.url, application_name: 'mas_bench_harness' });
    await admin.connect();
    const postgresVersion = (await admin.query<{ v: string }>(`select current_setting('server_version') as v`)).rows[0].v;

    console.log('phase 1/2: SQL statements per request (counting proxy)');
    await countStatements(db.url, list, results, notes);

    console.log('phase 2/2: CPU and latency at a fixed rate, interleaved rounds');
    for (const spec of CONTENDERS) {
      if (list.every((s) => s.contender !== spec.key || results.get(s.id)!.skipped)) continue;
      try {
        running.set(spec.key, await start(spec, db.url));
      } catch (error) {
        if (spec.key !== 'postgraphile') throw error;
        markSkipped(list, results, 'postgraphile', `not run: ${firstLine(error)}`);
      }
    }
    await checkSameJson(running, list, results, notes);
    const active = list.filter((s) => !results.get(s.id)!.skipped);
    if (settings.warmRequests > 0) {
      process.stdout.write(`  warm-up: ${settings.warmRequests} closed-loop requests per scenario on ${settings.warmConnections} connections `);
      for (const scenario of active) {
        const warm = await running.get(scenario.contender)!.client.closedLoop(scenario.call, settings.warmRequests, settings.warmConnections);
        if (warm.errors) throw new Error(`warm-up of ${scenario.id}: ${warm.errors} of ${warm.sent} requests failed: ${JSON.stringify(warm.failures)}`);
        process.stdout.write('.');
      }
      process.stdout.write('\n');
    }
    for (const scenario of active) await running.get(scenario.contender)!.client.fixedRate(scenario.call, settings.rate, settings.warmupSeconds);
    for (let round = 0; round < settings.rounds; round += 1) {
      // Each round starts at another scenario: none is always first (or last) after the others.
      const shift = Math.floor((round * active.length) / settings.rounds);
      const order = [...active.slice(shift), ...active.slice(0, shift)];
      // BENCH_BEFORE: a scenario and its before twin run back to back, after first in even rounds,
      // before first in odd ones, so neither tree always follows the same neighbour.
      if (round % 2 === 1) {
        for (let i = 0; i + 1 < order.length; i += 1) {
          if (order[i].contender === 'service' && order[i + 1].id === beforeId(order[i].id)) {
            [order[i], order[i + 1]] = [order[i + 1], order[i]];
            i += 1;
          }
        }
      }
      process.stdout.write(`  round ${round + 1}/${settings.rounds} `);
      for (const scenario of order) {
        await burst(admin, running.get(scenario.contender)!, scenario, results.get(scenario.id)!);
        process.stdout.write('.');
      }
      process.stdout.write('\n');
    }
    const mid = midPage();
    // The same songs page on every contender, for the tail and the saturation phases.
    const pageTargets = list.filter((s) => s.page === mid && !results.get(s.id)!.skipped && running.has(s.contender));
    let tail: TailSummary[] | undefined;
    if (settings.tail.rounds > 0) {
      console.log(`phase 3: the tail after a ${settings.tail.pauseSeconds} s pause (first ${settings.tail.requests} requests at ${settings.rate} req/s), page ${mid}`);
      tail = await tailRounds(
        pageTargets.map((s) => ({
          id: s.id,
          name: s.name,
          client: running.get(s.contender)!.client,
          call: s.call,
          backends: async () => (await backendPids(admin!, running.get(s.contender)!.spec.appName)).length,
        })),
        { ...settings.tail, rate: settings.rate },
        (text) => process.stdout.write(text),
      );
      for (const t of tail) for (const [kind, n] of Object.entries(t.failures)) notes.add(`After the pause, ${t.name}: ${n} request(s) failed: ${kind}`);
    }
    let saturation: SaturationSummary[] | undefined;
    const core = saturationCore(cpus().length);
    if (settings.saturation.rounds > 0) {
      console.log(`phase 4: throughput at saturation (${settings.saturation.connections} connections, closed loop${core === undefined ? ', not pinned' : `, each contender alone on core ${core}`}), page ${mid}`);
      saturation = await saturationRounds(
        pageTargets.map((s) => ({ id: s.id, name: s.name, port: running.get(s.contender)!.port, pid: running.get(s.contender)!.pid, call: s.call })),
        { ...settings.saturation, core },
        cpus().length,
        (text) => process.stdout.write(text),
      );
      notes.add(`Saturation: autocannon, ${settings.saturation.connections} connections, ${settings.saturation.seconds} s per run, ${settings.saturation.rounds} interleaved rounds (medians); ${core === undefined ? 'contenders not pinned' : `each contender pinned to core ${core} (taskset) while measured, the load generator to the other cores`}; PostgreSQL not pinned.`);
    }
    for (const r of running.values()) await r.stop();
    running.clear();
    let websockets: WsMemorySummary | undefined;
    if (settings.wsConnections > 0) {
      console.log(`phase 5: memory per idle websocket connection and per subscription (${settings.wsConnections} connections, the service alone)`);
      const service = CONTENDERS.find((c) => c.key === 'service')!;
      const n = settings.wsConnections;
      const probe = await start(
        { ...service, appName: 'mas_bench_service_ws', execArgv: [...API_NODE_FLAGS, '--expose-gc'], env: { GRAPHQL_WS_MAX_CONNECTIONS_PER_ACCOUNT: String(n + 10) } },
        db.url,
      );
      try {
        websockets = await wsMemory(probe.port, KEY, n, () => probe.memory());
      } finally {
        await probe.stop();
      }
    }

    const summaries = list.map((s) => summarize(results.get(s.id)!));
    const byId = new Map(summaries.map((s) => [s.id, s]));
    const checkList = [...checks(byId), ...issue31Checks(tail, saturation)];
    const lost = summaries.reduce((a, s) => a + s.rounds.reduce((b, r) => b + r.backendsLost, 0), 0);
    if (lost) notes.add(`${lost} PostgreSQL backend(s) exited during a measured burst: their CPU in that burst is missing.`);
    const errors = summaries.reduce((a, s) => a + s.errors, 0);
    if (errors) notes.add(`${errors} request(s) failed or answered another status than 200 during the rounds (see requests (errors)).`);
    const machine = {
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model ?? 'unknown',
      node: process.version,
      postgres: postgresVersion,
      loadAverageBefore: loadBefore.map((l) => Number(l.toFixed(2))),
      loadAverageAfter: loadavg().map((l) => Number(l.toFixed(2))),
    };
    const date = new Date().toISOString();
    const header = [
      `Measured ${date.slice(0, 10)} on ${machine.cpus} × ${machine.cpuModel}, Node ${machine.node}, PostgreSQL ${machine.postgres} (${db.source}); load average before/after ${machine.loadAverageBefore[0]} / ${machine.loadAverageAfter[0]}.`,
      `${settings.rate} req/s open loop, ${settings.rounds} interleaved rounds × ${settings.seconds} s per scenario${settings.quick ? ' (BENCH_QUICK)' : ''}, after ${settings.warmRequests ? `a warm-up of ${settings.warmRequests} closed-loop requests per scenario` : 'no closed-loop warm-up (BENCH_WARM_REQUESTS=0)'}; CPU: median over rounds; p50/p99: all rounds' requests.`,
    ].join('\n');
    const comparison = beforeTree ? beforeAfter(summaries, byId) : undefined;
    const table =
      markdown(summaries, checkList, header) +
      (comparison && beforeTree ? `\n\n${beforeAfterMarkdown(comparison, beforeTree)}` : '') +
      issue31Markdown(tail, saturation, websockets);
    if (Number(process.versions.node.split('.')[0]) !== PRODUCTION_NODE_MAJOR) {
      notes.add(`Every contender ran on Node ${process.version}; production runs Node ${PRODUCTION_NODE_MAJOR} (deploy/Dockerfile), on which the service's figures differ (bench/README.md, "Which Node").`);
    }
    if (beforeTree) notes.add(`The checks compare this tree only; the "(before)" rows are the same scenarios on ${beforeTree.dir} (${beforeTree.commit}), its own process (PGAPPNAME mas_bench_service_before), the same database, the same rounds.`);
    console.log(`\n${table}\n`);
    for (const note of notes) console.log(`- ${note}`);
    const out = resolve(settings.out);
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(
      out,
      `${JSON.stringify(
        {
          date,
          durationS: Math.round((Date.now() - started) / 1000),
          machine,
          database: db.source,
          settings,
          contenders: CONTENDERS.map(({ key, label }) => ({ key, label })),
          before: beforeTree,
          scenarios: summaries,
          checks: checkList,
          tail,
          saturation,
          websockets,
          beforeAfter: comparison,
          notes: [...notes],
          markdown: table,
        },
        null,
        2,
      )}\n`,
    );
    console.log(`\nJSON: ${out} (${Math.round((Date.now() - started) / 1000)} s)`);
  } finally {
    for (const r of running.values()) await r.stop().catch(() => undefined);
    await admin?.end().catch(() => undefined);
    await db.close();
  }
}
