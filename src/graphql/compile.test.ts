import { GraphQLObjectType, GraphQLSchema, GraphQLString, parse } from 'graphql';
import { compileOperation, isCompiled } from './compile';

const schema = new GraphQLSchema({
  query: new GraphQLObjectType({
    name: 'Query',
    fields: {
      ok: { type: GraphQLString, resolve: () => 'fine' },
      later: { type: GraphQLString, resolve: async () => 'later' },
      // An error that is no GraphQLError and carries no extensions (a bug, a driver's error).
      boom: { type: GraphQLString, resolve: () => { throw new TypeError('cannot read properties of undefined'); } },
    },
  }),
});

describe('compileOperation: the one graphql-jit compile both faces run', () => {
  it('compiles an operation and runs it with a context and variables, synchronous and asynchronous resolvers alike', async () => {
    const operation = compileOperation(schema, parse('query Q { ok later }'), 'Q');
    if (!isCompiled(operation)) throw new Error(operation.refused);
    expect(await operation.run({}, {})).toEqual({ data: { ok: 'fine', later: 'later' } });
  });

  it('answers a resolver error that carries no extensions as graphql-js does (extensions {}, path, locations, original error)', async () => {
    const operation = compileOperation(schema, parse('{ ok boom }'));
    if (!isCompiled(operation)) throw new Error(operation.refused);
    const answer = await operation.run({}, {});
    expect(answer.data).toEqual({ ok: 'fine', boom: null });
    expect(answer.errors?.map((error) => ({ message: error.message, path: error.path, locations: error.locations, extensions: error.extensions, original: error.originalError?.constructor.name }))).toEqual([
      { message: 'cannot read properties of undefined', path: ['boom'], locations: [{ line: 1, column: 6 }], extensions: {}, original: 'TypeError' },
    ]);
  });

  it('refuses a document whose response keys are properties of every object (graphql-jit would lose `__proto__`)', () => {
    for (const source of ['{ __proto__: ok }', '{ constructor: ok }', '{ ok toString: ok }']) {
      expect(compileOperation(schema, parse(source))).toEqual({ refused: 'a response key is a property of every object' });
    }
  });

  it("refuses what graphql-jit cannot compile, with graphql-jit's reason", () => {
    expect(compileOperation(schema, parse('{ ok }'), 'Missing')).toEqual({ refused: expect.stringContaining('Missing') });
  });
});
