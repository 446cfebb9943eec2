/**
 * Lets a child process run the TypeScript sources (node -r ./test/support/swc-register.js src/worker.ts),
 * compiled on load with the same swc settings jest uses. Tests use it to run a real worker process.
 */
const fs = require('node:fs');
const path = require('node:path');
const { transformSync } = require('@swc/core');

const swcrc = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', '.swcrc'), 'utf8'));
delete swcrc.$schema;

require.extensions['.ts'] = function compile(module, filename) {
  const { code } = transformSync(fs.readFileSync(filename, 'utf8'), { ...swcrc, filename, swcrc: false, sourceMaps: 'inline' });
  module._compile(code, filename);
};
