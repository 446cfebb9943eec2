import type { CodegenConfig } from '@graphql-codegen/cli';

const typed = {
  plugins: ['typescript-operations', 'typed-document-node'],
  config: { scalars: { DateTimeISO: 'string', JSONObject: 'Record<string, unknown>' }, avoidOptionals: false, enumsAsTypes: true },
};

/** Typed documents from the emitted schema: the test operations, and the SDK's documented ones. */
const config: CodegenConfig = {
  schema: 'schema/schema.graphql',
  generates: {
    'test/generated/graphql.ts': { documents: ['test/operations/**/*.graphql'], ...typed },
    'sdk/src/generated.ts': { documents: ['sdk/operations/**/*.graphql'], ...typed },
  },
};

export default config;
