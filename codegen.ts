import type { CodegenConfig } from '@graphql-codegen/cli';

/** Typed documents for the test operations in test/operations, from the emitted schema. */
const config: CodegenConfig = {
  schema: 'schema/schema.graphql',
  documents: ['test/operations/**/*.graphql'],
  generates: {
    'test/generated/graphql.ts': {
      plugins: ['typescript-operations', 'typed-document-node'],
      config: { scalars: { DateTimeISO: 'string', JSONObject: 'Record<string, unknown>' }, avoidOptionals: false, enumsAsTypes: true },
    },
  },
};

export default config;
