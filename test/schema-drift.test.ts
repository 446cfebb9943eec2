import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildPlainSchema, printPlainSchema, printSubgraphSchema } from '../src/graphql/schema';

const schemaDir = join(__dirname, '..', 'schema');

describe('emitted schema files', () => {
  it('schema/schema.graphql and schema/subgraph.graphql match what the code builds (run `npm run schema:emit`)', async () => {
    const plain = await buildPlainSchema();
    expect(await readFile(join(schemaDir, 'schema.graphql'), 'utf8')).toBe(printPlainSchema(plain));
    expect(await readFile(join(schemaDir, 'subgraph.graphql'), 'utf8')).toBe(printSubgraphSchema(plain));
  });
});
