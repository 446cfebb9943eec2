import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

// `npm run check:cycles` (scripts/import-cycles.mjs, run by CI after lint): type imports close a circle too.
const script = resolve(__dirname, '../scripts/import-cycles.mjs');

function check(files: Record<string, string>): { status: number; out: string } {
  const dir = mkdtempSync(join(tmpdir(), 'import-cycles-'));
  try {
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(join(dir, name, '..'), { recursive: true });
      writeFileSync(join(dir, name), text);
    }
    try {
      return { status: 0, out: execFileSync(process.execPath, [script, dir], { encoding: 'utf8' }) };
    } catch (error) {
      const failed = error as { status: number; stdout: string };
      return { status: failed.status, out: failed.stdout };
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('import-cycles', () => {
  it('finds a circle closed by a type import alone, and names its files and the way round', () => {
    const { status, out } = check({
      'request/context.ts': "import type { Registry } from '../deps';\nexport interface Context { deps: Registry }\n",
      'deps.ts': "import { catalog } from './modules/catalog';\nexport type Registry = typeof catalog;\n",
      'modules/catalog.ts': "import type { Context } from '../request/context';\nexport const catalog = (ctx: Context) => ctx;\n",
      'common/names.ts': 'export const camel = (s: string) => s;\n',
    });
    expect(status).toBe(1);
    expect(out).toMatch(/1 circle\(s\) through 3 of 4 files/);
    expect(out).toMatch(/deps\.ts\n\s+→ .*modules\/catalog\.ts\n\s+→ .*request\/context\.ts\n\s+→ .*deps\.ts/);
    expect(out).not.toMatch(/common\/names\.ts/);
  });

  it('counts export-from, import(), import types and declaration merging as imports', () => {
    const circles = [
      { 'a.ts': "export * from './b';\n", 'b.ts': "export type A = import('./a').X;\nexport interface X { x: 1 }\n" },
      { 'a.ts': "export const load = () => import('./b');\n", 'b.ts': "import './a';\n" },
      { 'a.ts': "export interface Loaders {}\nimport type { L } from './b';\nexport type Both = L;\n", 'b.ts': "export type L = 1;\ndeclare module './a' { interface Loaders { l: L } }\n" },
    ];
    for (const files of circles) expect(check(files).status).toBe(1);
  });

  it('passes a graph without a circle, naming what it read', () => {
    const { status, out } = check({
      'request/context.ts': "export interface Loaders {}\nexport interface Context { loaders: Loaders }\n",
      'modules/catalog.ts': "import type { Context } from '../request/context';\nexport const catalog = (ctx: Context) => ctx;\ndeclare module '../request/context' { interface Loaders { songs: 1 } }\n",
      'deps.ts': "import { catalog } from './modules/catalog';\nimport type { Context } from './request/context';\nexport const deps = (ctx: Context) => catalog(ctx);\n",
    });
    expect(status).toBe(0);
    expect(out).toMatch(/no circle among 3 files \(3 imports, type imports included\)/);
  });
});
