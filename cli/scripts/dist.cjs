/** Build steps tsc does not do: `clean` empties dist/ (no stale files in a tarball), `bin` makes dist/main.js executable. */
const { chmodSync, rmSync } = require('node:fs');
const { join } = require('node:path');

const dist = join(__dirname, '..', 'dist');
const step = process.argv[2];
if (step === 'clean') {
  rmSync(dist, { recursive: true, force: true });
} else if (step === 'bin') {
  chmodSync(join(dist, 'main.js'), 0o755);
} else {
  process.stderr.write(`usage: node scripts/dist.cjs clean|bin (got ${JSON.stringify(step)})\n`);
  process.exitCode = 2;
}
