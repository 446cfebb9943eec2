import 'reflect-metadata';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildPlainSchema, printPlainSchema, printSubgraphSchema } from './schema';

/** `npm run schema:emit`: writes schema/schema.graphql and schema/subgraph.graphql from the code. */
export async function emitSchemas(dir: string): Promise<void> {
  const plain = await buildPlainSchema();
  await writeFile(join(dir, 'schema.graphql'), printPlainSchema(plain));
  await writeFile(join(dir, 'subgraph.graphql'), printSubgraphSchema(plain));
}

if (require.main === module) {
  emitSchemas(join(__dirname, '..', '..', '..', 'schema'))
    .then(() => console.log('schema/schema.graphql and schema/subgraph.graphql written'))
    .catch((error) => {
      console.error(error);
      process.exit(1);
    });
}
