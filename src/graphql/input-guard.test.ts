import { graphql, GraphQLSchema, GraphQLObjectType, GraphQLString, GraphQLNonNull } from 'graphql';
import { guardArguments, INPUT_GUARDED } from './input-guard';
import { passThroughRoot } from './pass-through';

const schema = guardArguments(
  new GraphQLSchema({
    query: new GraphQLObjectType({
      name: 'Query',
      fields: {
        echo: { type: GraphQLString, args: { text: { type: new GraphQLNonNull(GraphQLString) } }, resolve: (_source, args: { text: string }) => args.text.length.toString() },
      },
    }),
  }),
);

const ask = (rootValue: unknown) => graphql({ schema, source: 'query($t: String!) { echo(text: $t) }', variableValues: { t: 'a\u0000b' }, rootValue });

describe('the argument guard', () => {
  it('refuses an unstorable argument, naming it', async () => {
    const result = await ask(undefined);
    expect(result.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', details: [{ field: 'text', message: 'must not contain a NUL character (\\u0000)' }] });
  });

  it('does not walk again the arguments of an operation whose face guarded its raw input whole (the REST router)', async () => {
    const result = await ask(INPUT_GUARDED);
    expect(result.errors).toBeUndefined();
    expect(result.data).toEqual({ echo: '3' });
  });

  it('sees the same through the root of a run that passes lists through (src/graphql/pass-through.ts), and only that', async () => {
    expect((await ask(passThroughRoot(INPUT_GUARDED))).data).toEqual({ echo: '3' });
    const unguarded = await ask(passThroughRoot(undefined));
    expect(unguarded.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', details: [{ field: 'text' }] });
  });
});
