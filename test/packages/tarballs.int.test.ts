import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestApp, TestApp } from '../app';
import { as } from '../demo';
import { listen } from '../sdk/listen';

/**
 * The SDK and CLI as a user gets them: `npm pack` of each package (its prepack builds dist/),
 * the tarballs' contents, then both installed into a scratch project outside the repository that
 * type-checks a TypeScript file importing the SDK, runs a query with it (ESM and CommonJS), and
 * runs the installed `mas` bin against a started service.
 *
 * The packages are packed from copies (their build empties dist/, which other tests of the
 * repository run); the copies build against the repository's node_modules, the scratch project
 * resolves nothing from it.
 */

const ROOT = join(__dirname, '..', '..');
const STEP_MS = 240_000;

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

const run = (file: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<Ran> =>
  new Promise((resolve) => {
    execFile(file, args, { cwd, env, timeout: STEP_MS, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout: String(stdout), stderr: String(stderr) + (error && typeof error.code !== 'number' ? error.message : '') });
    });
  });

const npm = (args: string[], cwd: string) => run('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], cwd, { ...process.env, npm_config_update_notifier: 'false' });

interface Packed {
  filename: string;
  files: { path: string }[];
}

/** A file no tarball may carry: tests, local settings and credentials, build state. */
const FORBIDDEN = /(^|\/)(\.env|\.npmrc|\.git|node_modules)(\/|$)|\.(test|spec)\.[cm]?[jt]s$|\.(pem|key|p12)$|id_rsa|tsbuildinfo$|(^|\/)scripts\//;

describe('the SDK and CLI tarballs, installed into a scratch project (real PostgreSQL)', () => {
  let t: TestApp;
  let url: string;
  let work: string;
  let project: string;
  const packed = new Map<string, Packed>();

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'mas-packages-'));
    // Copies of the two packages beside a node_modules of links to the repository's, @mas/sdk the copy.
    const modules = join(work, 'node_modules');
    mkdirSync(join(modules, '@mas'), { recursive: true });
    for (const name of readdirSync(join(ROOT, 'node_modules'))) {
      if (name !== '@mas') symlinkSync(join(ROOT, 'node_modules', name), join(modules, name));
    }
    for (const pkg of ['sdk', 'cli']) {
      cpSync(join(ROOT, pkg), join(work, pkg), { recursive: true, filter: (src) => !/(^|\/)(dist|node_modules)$/.test(src) });
    }
    symlinkSync(join(work, 'sdk'), join(modules, '@mas', 'sdk'));
    const out = join(work, 'tarballs');
    mkdirSync(out);
    for (const pkg of ['sdk', 'cli']) {
      const result = await npm(['pack', '--json', '--pack-destination', out], join(work, pkg));
      expect({ pkg, code: result.code, stderr: result.code ? result.stderr : '' }).toEqual({ pkg, code: 0, stderr: '' });
      const [info] = JSON.parse(result.stdout.slice(result.stdout.indexOf('['))) as Packed[];
      packed.set(pkg, { ...info, filename: join(out, info.filename) });
    }

    project = mkdtempSync(join(tmpdir(), 'mas-scratch-'));
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'scratch', private: true, type: 'module' }));
    const installed = await npm(['install', '--prefer-offline', packed.get('sdk')!.filename, packed.get('cli')!.filename, 'graphql@16'], project);
    expect({ code: installed.code, stderr: installed.code ? installed.stderr : '' }).toEqual({ code: 0, stderr: '' });

    t = await createTestApp();
    url = await listen(t);
  }, 3 * STEP_MS);

  afterAll(async () => {
    await t?.close();
    for (const dir of [work, project]) if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('packs the SDK with ESM and CommonJS builds and their types, README, LICENSE and package.json, and nothing private', () => {
    const files = packed.get('sdk')!.files.map((f) => f.path);
    for (const file of ['package.json', 'README.md', 'LICENSE', 'dist/esm/index.js', 'dist/esm/index.d.ts', 'dist/esm/package.json', 'dist/cjs/index.js', 'dist/cjs/index.d.ts', 'dist/esm/mas.client.js', 'dist/cjs/mas.client.d.ts']) {
      expect(files).toContain(file);
    }
    expect(files.filter((f) => FORBIDDEN.test(f))).toEqual([]);
    const manifest = JSON.parse(readFileSync(join(ROOT, 'sdk', 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest).toMatchObject({ name: '@mas/sdk', license: 'MIT', sideEffects: false, types: expect.any(String), engines: { node: expect.any(String) } });
  });

  it('packs the CLI with its executable and README, depending on the SDK by the version it has', () => {
    const files = packed.get('cli')!.files.map((f) => f.path);
    for (const file of ['package.json', 'README.md', 'LICENSE', 'dist/main.js', 'dist/cli.commands.js']) expect(files).toContain(file);
    expect(files.filter((f) => FORBIDDEN.test(f) || f.startsWith('src/'))).toEqual([]);
    const cli = JSON.parse(readFileSync(join(ROOT, 'cli', 'package.json'), 'utf8')) as { version: string; license: string; bin: Record<string, string>; dependencies: Record<string, string> };
    const sdk = JSON.parse(readFileSync(join(ROOT, 'sdk', 'package.json'), 'utf8')) as { version: string; license: string };
    expect(cli.bin).toEqual({ mas: 'dist/main.js' });
    expect(cli.dependencies['@mas/sdk']).toBe(`^${sdk.version}`);
    expect(cli.license).toBe(sdk.license);
  });

  it('installs on its own: every package of the SDK and CLI resolves inside the scratch project', async () => {
    const inside = realpathSync(project);
    const probe = await run(process.execPath, ['-e', `
      const { createRequire } = require('node:module');
      const { realpathSync } = require('node:fs');
      const here = createRequire(${JSON.stringify(join(project, 'package.json'))});
      const sdk = createRequire(realpathSync(here.resolve('@mas/sdk')));
      const cli = createRequire(realpathSync(here.resolve('@mas/cli/package.json')));
      const paths = [here.resolve('@mas/sdk'), sdk.resolve('graphql-ws'), sdk.resolve('ws'), sdk.resolve('graphql'), cli.resolve('@mas/sdk'), cli.resolve('@modelcontextprotocol/sdk/client/index.js'), cli.resolve('leven')];
      console.log(JSON.stringify(paths.map((p) => realpathSync(p))));
    `], project);
    expect(probe.stderr).toBe('');
    const paths = JSON.parse(probe.stdout) as string[];
    expect(paths).toHaveLength(7);
    for (const path of paths) expect(path.startsWith(`${inside}/node_modules/`)).toBe(true);
  });

  it('type-checks a TypeScript file importing the SDK (ES module and CommonJS consumers), and catches a wrong call', async () => {
    writeFileSync(join(project, 'check.ts'), `import { MasClient, MasError, type RenderRun } from '@mas/sdk';
const mas = new MasClient({ url: 'http://localhost:4000', apiKey: 'key' });
export const ids: Promise<string[]> = mas.compositions().then((all) => all.map((c) => c.id));
export const watch: AsyncGenerator<RenderRun> = mas.watchRun('run');
export const code: string = new MasError('NOT_FOUND', 'gone').code;
// @ts-expect-error compositionId is a string
void mas.render({ compositionId: 1 });
`);
    writeFileSync(join(project, 'check-cjs.cts'), `import sdk = require('@mas/sdk');
export const client: sdk.MasClient = new sdk.MasClient({ url: 'http://localhost:4000' });
export const status: number = sdk.statusOfCode('RATE_LIMITED');
`);
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', lib: ['es2023'], strict: true, noEmit: true, types: [] },
      files: ['check.ts', 'check-cjs.cts'],
    }));
    const tsc = await run(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], project);
    expect({ code: tsc.code, out: tsc.stdout }).toEqual({ code: 0, out: '' });
    // The same file with the expected error removed fails: the types are the SDK's, not any.
    writeFileSync(join(project, 'check.ts'), readFileSync(join(project, 'check.ts'), 'utf8').replace('// @ts-expect-error compositionId is a string\n', ''));
    const wrong = await run(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], project);
    expect(wrong.code).not.toBe(0);
    expect(wrong.stdout).toContain('check.ts');
  });

  it('runs a query with the installed SDK, imported as an ES module and required as CommonJS', async () => {
    const env = { ...process.env, MAS_URL: url, MAS_API_KEY: as.nora['x-api-key'] };
    writeFileSync(join(project, 'query.mjs'), `import { MasClient } from '@mas/sdk';
const mas = new MasClient({ url: process.env.MAS_URL, apiKey: process.env.MAS_API_KEY });
const data = await mas.request('{ me { name } compositions { id } }');
console.log(JSON.stringify(data));
`);
    const esm = await run(process.execPath, ['query.mjs'], project, env);
    expect(esm.stderr).toBe('');
    expect(JSON.parse(esm.stdout)).toMatchObject({ me: { name: expect.any(String) }, compositions: expect.arrayContaining([{ id: 'title-card' }]) });
    const cjs = await run(process.execPath, ['-e', `const { MasClient } = require('@mas/sdk');
new MasClient({ url: process.env.MAS_URL, apiKey: process.env.MAS_API_KEY }).compositions().then((all) => console.log(all.map((c) => c.id).join(',')));`], project, env);
    expect(cjs.stderr).toBe('');
    expect(cjs.stdout.trim().split(',')).toContain('title-card');
  });

  it('runs the installed mas: --version, and a query against the service', async () => {
    const mas = join(project, 'node_modules', '.bin', 'mas');
    const env = { PATH: process.env.PATH ?? '', HOME: project, XDG_CONFIG_HOME: join(project, 'config'), MAS_URL: url, MAS_API_KEY: as.nora['x-api-key'] };
    const version = await run(mas, ['--version'], project, env);
    expect(version).toEqual({ code: 0, stdout: `${JSON.parse(readFileSync(join(ROOT, 'cli', 'package.json'), 'utf8')).version}\n`, stderr: '' });
    const queried = await run(mas, ['query', '{ me { name } }', '--json'], project, env);
    expect({ code: queried.code, stderr: queried.stderr }).toEqual({ code: 0, stderr: '' });
    expect(JSON.parse(queried.stdout)).toEqual({ me: { name: expect.any(String) } });
  });
});
