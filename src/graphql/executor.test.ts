import { ApolloServer } from '@apollo/server';
import { GraphQLObjectType, GraphQLSchema, GraphQLString } from 'graphql';
import { compiledExecution } from './executor';

const schema = new GraphQLSchema({
  query: new GraphQLObjectType({
    name: 'Query',
    fields: {
      ok: { type: GraphQLString, resolve: () => 'fine' },
      // An error that is no GraphQLError and carries no extensions (a bug, a driver's error).
      boom: { type: GraphQLString, resolve: () => { throw new TypeError('cannot read properties of undefined'); } },
    },
  }),
});

/** One answer of `query` from an Apollo server running the executor; compileAfter 0: compiled from the first run. */
async function answer(compileAfter: number, query: string) {
  const server = new ApolloServer({ gateway: compiledExecution(schema, { compileAfter, compiledMax: 10 }), includeStacktraceInErrorResponses: false });
  await server.start();
  try {
    const response = await server.executeOperation({ query });
    if (response.body.kind !== 'single') throw new Error('expected a single answer');
    return JSON.parse(JSON.stringify(response.body.singleResult));
  } finally {
    await server.stop();
  }
}

describe('compiled execution', () => {
  it('answers a resolver error that carries no extensions as graphql-js does', async () => {
    const interpreted = await answer(1000, '{ ok boom }');
    const compiled = await answer(0, '{ ok boom }');
    expect(interpreted.data).toEqual({ ok: 'fine', boom: null });
    expect(interpreted.errors[0]).toMatchObject({ message: 'cannot read properties of undefined', path: ['boom'], extensions: { code: 'INTERNAL_SERVER_ERROR' } });
    expect(compiled).toEqual(interpreted);
  });
});
