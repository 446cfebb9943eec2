/**
 * How much the old generation grows while Apollo answers 3,000 operations one after another through
 * the service's executor (src/graphql/executor.ts, Apollo's gateway interface), each with a context
 * holding about 8 KB of its own objects, as a request's entity manager, loaders and rows do: printed
 * as JSON `{ grown, answered }`. Run as a plain node process by src/graphql/executor.test.ts, with
 * its own heap (jest's module sandbox changes what survives a young-generation collection).
 *
 * Apollo hands the executor a request context it builds for the gateway interface
 * (makeGatewayGraphQLRequestContext). Upstream, its `response.http` is an object literal with its own
 * `get status()` and `set status()`, closures over Apollo's request context: young-generation
 * collections kept every request's context alive until a full collection, about 11 KB a request on
 * `{ me { id name } }` in the service. patches/@apollo+server+*.patch puts the accessors on a class.
 *
 * `node -r test/support/swc-register.js test/support/gateway-promotion-probe.ts`
 */
import { ApolloServer } from '@apollo/server';
import { GraphQLID, GraphQLObjectType, GraphQLSchema, GraphQLString } from 'graphql';
import { compiledExecution } from '../../src/graphql/executor';
import { oldGenerationGrowth } from './old-generation';

const OPERATIONS = 3000;

interface ProbeContext {
  viewer: { id: string; name: string };
  rows: { id: number; text: string }[];
}

const Viewer = new GraphQLObjectType({ name: 'Viewer', fields: { id: { type: GraphQLID }, name: { type: GraphQLString } } });
const schema = new GraphQLSchema({
  query: new GraphQLObjectType<unknown, ProbeContext>({
    name: 'Query',
    fields: { me: { type: Viewer, resolve: (_root, _args, context) => context.viewer } },
  }),
});

function requestContext(i: number): ProbeContext {
  return {
    viewer: { id: String(i), name: `Viewer ${i}` },
    rows: Array.from({ length: 64 }, (_, id) => ({ id, text: `row ${id} of request ${i} `.padEnd(100, '.') })),
  };
}

async function main(): Promise<void> {
  const server = new ApolloServer<ProbeContext>({ gateway: compiledExecution(schema, { compileAfter: 1, compiledMax: 10 }) });
  await server.start();
  const answer = async (i: number) => {
    const response = await server.executeOperation({ query: '{ me { id name } }' }, { contextValue: requestContext(i) });
    if (response.body.kind !== 'single' || (response.body.singleResult.data as { me?: { id?: string } } | undefined)?.me?.id !== String(i)) {
      throw new Error(`operation ${i}: unexpected answer ${JSON.stringify(response.body)}`);
    }
  };
  for (let i = 0; i < 200; i += 1) await answer(i);
  let answered = 0;
  const grown = await oldGenerationGrowth(OPERATIONS, async (i) => {
    await answer(i);
    answered += 1;
  });
  await server.stop();
  process.stdout.write(`${JSON.stringify({ grown, answered })}\n`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
