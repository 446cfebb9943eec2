import 'reflect-metadata';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildOpenApiDocument } from './http/rest/openapi';
import { routeTable } from './http/rest/routes';
import { buildPlainSchema, printPlainSchema, printSubgraphSchema } from './graphql/schema';
import { operations, resolvers } from './modules';

/** The emitted form of the OpenAPI document (what GET /api/openapi.json serves, pretty-printed). */
export function printOpenApi(document: object): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}

/** `npm run schema:emit`: writes schema/schema.graphql, schema/subgraph.graphql and schema/openapi.json from the code. */
export async function emitSchemas(dir: string): Promise<void> {
  const plain = await buildPlainSchema({ resolvers });
  await writeFile(join(dir, 'schema.graphql'), printPlainSchema(plain));
  await writeFile(join(dir, 'subgraph.graphql'), printSubgraphSchema(plain));
  await writeFile(join(dir, 'openapi.json'), printOpenApi(buildOpenApiDocument(plain, routeTable(operations))));
}

if (require.main === module) {
  emitSchemas(join(__dirname, '..', '..', 'schema'))
    .then(() => console.log('schema/schema.graphql, schema/subgraph.graphql and schema/openapi.json written'))
    .catch((error) => {
      console.error(error);
      process.exit(1);
    });
}
