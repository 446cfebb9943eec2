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
