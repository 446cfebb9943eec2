import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { printOpenApi } from '../src/emit-schema';
import { buildPlainSchema, printPlainSchema, printSubgraphSchema } from '../src/graphql/schema';
import { buildOpenApiDocument } from '../src/http/rest/openapi';
import { routeTable } from '../src/http/rest/routes';
import { operations, resolvers } from '../src/modules';

const schemaDir = join(__dirname, '..', 'schema');

describe('emitted schema files', () => {
  it('schema/schema.graphql and schema/subgraph.graphql match what the code builds (run `npm run schema:emit`)', async () => {
    const plain = await buildPlainSchema({ resolvers });
    expect(await readFile(join(schemaDir, 'schema.graphql'), 'utf8')).toBe(printPlainSchema(plain));
    expect(await readFile(join(schemaDir, 'subgraph.graphql'), 'utf8')).toBe(printSubgraphSchema(plain));
  });

  it('schema/openapi.json matches the document the code builds (run `npm run schema:emit`)', async () => {
    const plain = await buildPlainSchema({ resolvers });
    const built = printOpenApi(buildOpenApiDocument(plain, routeTable(operations)));
    expect(JSON.parse(await readFile(join(schemaDir, 'openapi.json'), 'utf8'))).toEqual(JSON.parse(built));
    expect(await readFile(join(schemaDir, 'openapi.json'), 'utf8')).toBe(built);
  });
});
