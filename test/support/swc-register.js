/**
 * Lets a child process run the TypeScript sources (node -r ./test/support/swc-register.js src/worker.ts),
 * compiled on load with the same swc settings jest uses. Tests use it to run a real worker process.
 */
const fs = require('node:fs');
const path = require('node:path');
const { transformSync } = require('@swc/core');

const swcrc = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', '.swcrc'), 'utf8'));
delete swcrc.$schema;

// The packages run from their sources too: @mas/sdk is sdk/src, and an ESM-style relative import
// (./mas.client.js) names the .ts beside it when there is no .js.
const Module = require('node:module');
const sdkSource = path.join(__dirname, '..', '..', 'sdk', 'src', 'index.ts');
const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function resolve(request, parent, ...rest) {
  if (request === '@mas/sdk') return sdkSource;
  if (/^\.{1,2}\/.*\.js$/.test(request) && parent?.filename?.endsWith('.ts')) {
    const ts = path.resolve(path.dirname(parent.filename), request.replace(/\.js$/, '.ts'));
    if (fs.existsSync(ts)) return ts;
  }
  return resolveFilename.call(this, request, parent, ...rest);
};

require.extensions['.ts'] = function compile(module, filename) {
  const { code } = transformSync(fs.readFileSync(filename, 'utf8'), { ...swcrc, filename, swcrc: false, sourceMaps: 'inline' });
  module._compile(code, filename);
};
