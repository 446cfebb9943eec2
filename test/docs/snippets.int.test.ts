import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSchema, DefinitionNode, GraphQLSchema, Kind, OperationDefinitionNode, parse, validate } from 'graphql';
import { createTestApp, TestApp } from '../app';
import { as } from '../demo';
import { renderEnv, startWorker } from '../support/render';
import type { RenderWorker } from '../../src/modules/render/render.worker';
import { freePort, listen } from '../sdk/listen';
import { Block, blocks, docFiles, ROOT } from './markdown';

/**
 * Every fenced block of README.md, docs/ and bench/ either runs here, against a started service
 * with the demo data set (as `npm start` serves it), or carries `<!-- snippet: not run — <reason> -->`.
 * Shell blocks run in bash (-e, pipefail) with `localhost:4000` pointing at the test service; every
 * curl they make must answer 2xx/3xx (or a status the block's `expect` directive names) and no
 * GraphQL errors (unless `expect errors`). GraphQL blocks are posted to /graphql as Nora (with the
 * `variables` directive's variables); subscriptions are validated against the emitted schema.
 * JavaScript and TypeScript blocks run in a child node process (jiti, a devDependency for this test:
 * TypeScript and top-level await on every supported Node), with `@mas/sdk` resolving to sdk/src;
 * shell blocks may run `mas`, the CLI from cli/src.
 */

/** Commands a test cannot run: they install, start a second service, need Docker, or run for minutes. */
const UNRUNNABLE = /\b(npm (install|ci|start|test)|npm run (bench|worker|build|db:|test)|npx jest|docker|kubectl|git worktree|apt-get|cd \.\.)\b/;
const SHELL = new Set(['bash', 'sh', 'shell', 'console']);
const SCRIPT: Record<string, string> = { js: '.mjs', javascript: '.mjs', mjs: '.mjs', ts: '.ts', typescript: '.ts' };
const NORA_KEY = as.nora['x-api-key'];
const BLOCK_TIMEOUT_MS = 120_000;

type Plan =
  | { kind: 'skip'; reason: string }
  | { kind: 'reference' }
  | { kind: 'shell' }
  | { kind: 'graphql'; subscription: boolean }
  | { kind: 'script'; ext: string }
  | { kind: 'unmarked'; why: string };

const isOperation = (d: DefinitionNode): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION;
const isTypeSystem = (d: DefinitionNode) => d.kind !== Kind.OPERATION_DEFINITION && d.kind !== Kind.FRAGMENT_DEFINITION;

function plan(block: Block): Plan {
  if (block.directives.notRun !== undefined) return { kind: 'skip', reason: block.directives.notRun };
  if (SHELL.has(block.lang)) {
    const unrunnable = UNRUNNABLE.exec(block.code);
    return unrunnable ? { kind: 'unmarked', why: `it runs \`${unrunnable[0]}\`` } : { kind: 'shell' };
  }
  if (block.lang === 'graphql') {
    const document = parse(block.code);
    // A schema excerpt (type definitions) is reference text, not a request.
    if (document.definitions.every(isTypeSystem)) return { kind: 'reference' };
    const operations = document.definitions.filter(isOperation);
    return { kind: 'graphql', subscription: operations.some((o) => o.operation === 'subscription') };
  }
  if (SCRIPT[block.lang]) return { kind: 'script', ext: SCRIPT[block.lang] };
  // A diagram or an output: text, unless it holds commands (then it needs its language, or a marker).
  if (block.lang === '' || block.lang === 'text') {
    return /(^|\n)\s*(\$ |curl |npm |npx |node )/.test(block.code) ? { kind: 'unmarked', why: 'a plain block holding commands: give it its language' } : { kind: 'reference' };
  }
  return { kind: 'unmarked', why: `a \`${block.lang || 'plain'}\` block is not run by this test` };
}

const run = (file: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(file, args, { ...options, timeout: BLOCK_TIMEOUT_MS, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, stdout: String(stdout), stderr: String(stderr) + (error && typeof error.code !== 'number' ? `\n${error.message}` : '') });
    });
  });

/** Errors of a JSON answer carrying GraphQL `errors`, or undefined. */
function graphqlErrors(text: string): unknown[] | undefined {
  try {
    const body = JSON.parse(text) as { errors?: unknown[] };
    return Array.isArray(body?.errors) && body.errors.length ? body.errors : undefined;
  } catch {
    return undefined;
  }
}

describe('documentation snippets run against the service', () => {
  const files = docFiles();
  const apps = new Map<string, { t: TestApp; base: string; worker: RenderWorker }>();
  let work: string;
  let schema: GraphQLSchema;

  /** The service a block runs against: the demo one, or one started with the block's `env`. */
  const service = async (env: Record<string, string> = {}) => {
    const name = JSON.stringify(env);
    let found = apps.get(name);
    if (!found) {
      const port = await freePort();
      const t = await createTestApp({ env: renderEnv({ PUBLIC_URL: `http://127.0.0.1:${port}`, ...env }) });
      const base = await listen(t, port);
      found = { t, base, worker: await startWorker(t, 1) };
      apps.set(name, found);
    }
    return found;
  };
  /** The block's code with localhost:4000 pointing at the service. */
  const localize = (code: string, base: string) => code.replace(/(https?|wss?):\/\/localhost:4000/g, (_, scheme: string) => `${scheme}://${base.slice('http://'.length)}`).replace(/\blocalhost:4000\b/g, base.slice('http://'.length));

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'mas-snippets-'));
    symlinkSync(join(ROOT, 'node_modules'), join(work, 'node_modules'));
    // curl, as the blocks call it, recording each answer's status and body for the checks below.
    const shims = join(work, 'bin');
    const realCurl = ['/usr/bin/curl', '/usr/local/bin/curl', '/bin/curl'].find(existsSync) ?? 'curl';
    mkdirSync(shims);
    writeFileSync(
      join(shims, 'curl'),
      `#!/bin/bash
body=$(mktemp "$SNIPPET_WORK/body.XXXXXX")
meta=$(mktemp "$SNIPPET_WORK/meta.XXXXXX")
"${realCurl}" "$@" -o "$body" -w '%{http_code}' > "$meta"
rc=$?
code=$(tail -n 1 "$meta")
head -c -\${#code} "$meta"
cat "$body"
printf '%s %s\\n' "$code" "$body" >> "$SNIPPET_CALLS"
exit $rc
`,
    );
    chmodSync(join(shims, 'curl'), 0o755);
    // mas, as the CLI's README runs it: the CLI from its sources (no build needed), each run recorded.
    writeFileSync(
      join(shims, 'mas'),
      `#!/bin/bash
printf '%s\\n' "$*" >> "$SNIPPET_MAS"
exec "${process.execPath}" -r "${join(ROOT, 'test', 'support', 'swc-register.js')}" "${join(ROOT, 'cli', 'src', 'main.ts')}" "$@"
`,
    );
    chmodSync(join(shims, 'mas'), 0o755);
    writeFileSync(
      join(work, 'run-script.mjs'),
      `import { existsSync } from 'node:fs';
import { createJiti } from 'jiti';
const sdk = ${JSON.stringify(join(ROOT, 'sdk/src/index.ts'))};
const jiti = createJiti(${JSON.stringify(join(work, 'package.json'))}, { alias: existsSync(sdk) ? { '@mas/sdk': sdk } : {}, moduleCache: false, fsCache: false });
await jiti.import(process.argv[2]);
process.exit(0);
`,
    );
    writeFileSync(join(work, 'package.json'), JSON.stringify({ name: 'snippets', private: true, type: 'module' }));
    schema = buildSchema(readFileSync(join(ROOT, 'schema/schema.graphql'), 'utf8'));
    await service();
  });

  afterAll(async () => {
    for (const { t, worker } of apps.values()) {
      await worker.stop(1000);
      await t.close();
    }
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('finds the snippets of README.md and docs/', () => {
    const all = files.flatMap(blocks);
    expect(all.filter((b) => b.file === 'README.md').length).toBeGreaterThan(3);
    expect(all.filter((b) => b.file.startsWith('docs/')).length).toBeGreaterThan(10);
  });

  let counter = 0;
  describe.each(files)('%s', (file) => {
    const found = blocks(file);
    if (!found.length) {
      it('has no fenced blocks', () => expect(found).toEqual([]));
      return;
    }
    it.each(found.map((b) => [`line ${b.line} (${b.lang || 'plain'})`, b] as const))('%s', async (_name, block) => {
      const where = `${block.file}:${block.line}`;
      const p = plan(block);
      if (p.kind === 'unmarked') throw new Error(`${where}: ${p.why}; run it or put <!-- snippet: not run — <reason> --> right before it`);
      if (p.kind === 'skip') {
        expect(p.reason.length).toBeGreaterThan(3);
        return;
      }
      if (p.kind === 'reference') return;
      const { base } = await service(block.directives.env);
      counter += 1;

      if (p.kind === 'graphql') {
        if (p.subscription) {
          expect({ where, errors: validate(schema, parse(block.code)).map((e) => e.message) }).toEqual({ where, errors: [] });
          return;
        }
        const res = await fetch(`${base}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': NORA_KEY },
          body: JSON.stringify({ query: block.code, variables: block.directives.variables }),
        });
        const text = await res.text();
        expect({ where, status: res.status }).toEqual({ where, status: 200 });
        if (!block.directives.expectErrors) expect({ where, errors: graphqlErrors(text) }).toEqual({ where, errors: undefined });
        else expect(graphqlErrors(text)).toBeDefined();
        return;
      }

      if (p.kind === 'script') {
        const path = join(work, `snippet-${counter}${p.ext}`);
        writeFileSync(path, localize(block.code, base));
        const out = await run(process.execPath, [join(work, 'run-script.mjs'), path], {
          cwd: work,
          env: { ...process.env, MAS_URL: base, MAS_API_KEY: NORA_KEY },
        });
        expect({ where, code: out.code, stderr: out.code ? out.stderr : '' }).toEqual({ where, code: 0, stderr: '' });
        return;
      }

      const calls = join(work, `calls-${counter}`);
      const masRuns = join(work, `mas-${counter}`);
      writeFileSync(calls, '');
      writeFileSync(masRuns, '');
      const out = await run('bash', ['-e', '-o', 'pipefail', '-c', localize(block.code, base)], {
        cwd: work,
        env: { ...process.env, PATH: `${join(work, 'bin')}:${process.env.PATH}`, SNIPPET_WORK: work, SNIPPET_CALLS: calls, SNIPPET_MAS: masRuns },
      });
      expect({ where, code: out.code, stderr: out.code ? out.stderr : '' }).toEqual({ where, code: 0, stderr: '' });
      const answers = readFileSync(calls, 'utf8').trim().split('\n').filter(Boolean).map((line) => {
        const [status, body] = line.split(' ', 2);
        return { status: Number(status), body: readFileSync(body, 'utf8') };
      });
      // A block talks to the service: with curl, or with the CLI (whose failures fail the block by its exit code).
      const clis = readFileSync(masRuns, 'utf8').trim();
      expect({ where, requests: answers.length > 0 || clis.length > 0 }).toEqual({ where, requests: true });
      const allowed = block.directives.expectStatuses ?? [];
      for (const answer of answers) {
        const ok = (answer.status >= 200 && answer.status < 400) || allowed.includes(answer.status);
        expect({ where, status: answer.status, body: ok ? undefined : answer.body.slice(0, 500) }).toEqual({ where, status: answer.status, body: undefined });
        if (!block.directives.expectErrors) expect({ where, errors: graphqlErrors(answer.body) }).toEqual({ where, errors: undefined });
      }
      if (block.directives.expectErrors) expect(answers.some((a) => graphqlErrors(a.body))).toBe(true);
    }, BLOCK_TIMEOUT_MS);
  });
});
