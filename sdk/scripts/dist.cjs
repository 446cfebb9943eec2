/**
 * Build steps tsc does not do: `clean` empties dist/ (no stale files in a tarball), `mark` tells
 * Node that dist/esm holds ES modules (the package itself is CommonJS by default, for dist/cjs).
 */
const { mkdirSync, rmSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const dist = join(__dirname, '..', 'dist');
const step = process.argv[2];
if (step === 'clean') {
  rmSync(dist, { recursive: true, force: true });
} else if (step === 'mark') {
  mkdirSync(join(dist, 'esm'), { recursive: true });
  writeFileSync(join(dist, 'esm', 'package.json'), `${JSON.stringify({ type: 'module' })}\n`);
} else {
  process.stderr.write(`usage: node scripts/dist.cjs clean|mark (got ${JSON.stringify(step)})\n`);
  process.exitCode = 2;
}
