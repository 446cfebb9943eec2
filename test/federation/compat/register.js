/**
 * Lets plain `node` run this project's TypeScript (decorators and all) with the same swc settings
 * jest uses (.swcrc): `node -r ./test/federation/compat/register.js <file.ts>`.
 */
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const swc = require('@swc/core');

const options = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', '.swcrc'), 'utf8'));
delete options.$schema;

require.extensions['.ts'] = (module, filename) => {
  const { code } = swc.transformSync(readFileSync(filename, 'utf8'), { ...options, filename, swcrc: false });
  module._compile(code, filename);
};
