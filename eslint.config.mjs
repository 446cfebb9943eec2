import js from '@eslint/js';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import tseslint from 'typescript-eslint';
import { noImportCycle } from './scripts/import-graph.mjs';

const root = dirname(fileURLToPath(import.meta.url));

const moduleBoundary = [
  { regex: '^(\\.\\./)+http(/|$)', message: 'Modules do not import http/: the REST edge takes what it needs from the composition root.' },
  { regex: '^\\.\\./[a-z][\\w-]*/.+', message: "Another module is reached only through its index.ts (import from '../<module>')." },
];
const moduleNotRegistry = {
  regex: '^\\.\\.(/index)?$|^(\\.\\./)+modules(/index)?$',
  message: 'A module does not import the registry of modules (src/modules/index.ts): that is the composition root.',
};

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', '.data/', '.fedcompat/', 'coverage/', 'test/generated/', 'sdk/dist/', 'cli/dist/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { console: 'readonly', process: 'readonly', require: 'readonly', module: 'writable', __dirname: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      '@typescript-eslint/no-require-imports': 'off',
      // `interface Loaders extends …Loaders {}`: how a module adds its loaders to the request (declaration merging, src/request/context.ts).
      '@typescript-eslint/no-empty-object-type': ['error', { allowInterfaces: 'with-single-extends' }],
      'no-console': 'off',
    },
  },
  // Layers (docs/architecture.md): a module reaches another only through its index.ts and never
  // imports http/ (types included); infrastructure never imports a module at runtime, since the
  // composition root (main, worker, app, deps, emit-schema, the modules' registry) hands it their parts.
  {
    files: ['src/modules/*/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [...moduleBoundary, moduleNotRegistry] }] },
  },
  {
    // A module's tests may build the whole app (the root, the registry), like test/app.ts does.
    files: ['src/modules/*/**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: moduleBoundary }] },
  },
  {
    files: ['src/modules/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        { regex: '^\\.\\./http(/|$)', message: 'Modules do not import http/.' },
        { regex: '^\\./[a-z][\\w-]*/.+', message: "The registry takes each module from its index.ts (import from './<module>')." },
      ] }],
    },
  },
  {
    files: ['src/{auth,common,config,db,graphql,http,jobs,mcp,providers,request}/**/*.ts'],
    ignores: ['**/*.test.ts', 'src/db/seeders/**', 'src/db/cli.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        { regex: '^(\\.\\./)+modules(/|$)', allowTypeImports: true, message: 'Infrastructure imports modules for types only: the composition root hands it their parts at runtime.' },
      ] }],
    },
  },
  {
    // The request's room (src/request/) imports no module, not the composition root (deps.ts, app.ts,
    // main.ts) and no face (graphql, http, mcp): modules and faces add to the request by declaration
    // merging (its Loaders, RequestDeps), so the request sits below all of them.
    files: ['src/request/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        { regex: '^(\\.\\./)+modules(/|$)', message: 'The request names no module (types included): a module adds its loaders to `Loaders` by declaration merging.' },
        { regex: '^(\\.\\./)+(deps|app|main|worker)$', message: 'The request does not import the composition root: what it needs of deps is RequestDeps, declared here.' },
        { regex: '^(\\.\\./)+(graphql|http|mcp)(/|$)', message: 'The request sits below the faces (GraphQL, REST, MCP): they import it, not the other way.' },
      ] }],
    },
  },
  {
    // A request's code builds no zod schema: building one costs tens of microseconds and many
    // objects, and paging keeps each cursor key's schema while the key lives (issue 31: a cursor
    // key made per call was a few MB a second on the composed roster). Schemas are module constants.
    files: ['src/modules/*/**/*.{service,resolver,repository,prefetch,loaders}.ts', 'src/graphql/**/*.ts', 'src/http/**/*.ts', 'src/request/**/*.ts'],
    ignores: ['**/*.test.ts', 'src/http/rest/openapi.ts'],
    rules: {
      'no-restricted-syntax': ['error', {
        selector: ':function CallExpression[callee.object.name="z"]',
        message: 'A zod schema built inside a function is built again on every call: make it a module constant (or cache it, as cursorArgsOf does).',
      }],
    },
  },
  {
    // No circle of imports, type imports included (scripts/import-graph.mjs; `npm run check:cycles` runs the same graph in CI).
    files: ['**/*.ts'],
    plugins: { layers: { rules: { 'no-import-cycle': noImportCycle } } },
    rules: { 'layers/no-import-cycle': ['error', { root }] },
  },
  {
    // The dashboard's plain browser script (public/dashboard): browser globals and graphql-ws's UMD build.
    files: ['public/**/*.js'],
    languageOptions: {
      sourceType: 'script',
      globals: { window: 'readonly', document: 'readonly', fetch: 'readonly', sessionStorage: 'readonly', URL: 'readonly', setInterval: 'readonly', clearInterval: 'readonly', graphqlWs: 'readonly' },
    },
  },
);
