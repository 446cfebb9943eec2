/** Two tiers: unit (*.test.ts, no database, no network) and int (*.int.test.ts, real PostgreSQL). */
const fs = require('node:fs');
const swcrc = JSON.parse(fs.readFileSync(`${__dirname}/.swcrc`, 'utf8'));
delete swcrc.$schema;
const transform = { '^.+\\.ts$': ['@swc/jest', { ...swcrc, swcrc: false }] };
const common = {
  transform,
  testEnvironment: 'node',
  setupFiles: ['reflect-metadata', '<rootDir>/test/isolate-globals.ts'],
  moduleFileExtensions: ['ts', 'js', 'json'],
  moduleNameMapper: {
    // The SDK and CLI packages run from their sources here: @mas/sdk is sdk/src, and the SDK's
    // ESM-style relative imports (./mas.client.js) name the .ts beside them.
    '^@mas/sdk$': '<rootDir>/sdk/src/index.ts',
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
};

module.exports = {
  testTimeout: 60000,
  reporters: ['default', '<rootDir>/test/summary-reporter.js'],
  projects: [
    {
      ...common,
      displayName: 'unit',
      testMatch: ['<rootDir>/{src,test}/**/*.test.ts'],
      testPathIgnorePatterns: ['\\.int\\.test\\.ts$', '/node_modules/', '/dist/'],
    },
    {
      ...common,
      displayName: 'int',
      testMatch: ['<rootDir>/{src,test}/**/*.int.test.ts'],
      testPathIgnorePatterns: ['/node_modules/', '/dist/'],
      globalSetup: '<rootDir>/test/global-setup.ts',
      globalTeardown: '<rootDir>/test/global-teardown.ts',
    },
  ],
};
