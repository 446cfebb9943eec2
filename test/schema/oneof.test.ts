import { composeServices } from '@apollo/composition';
import { buildSubgraphSchema } from '@apollo/subgraph';
import { buildSchema, execute, GraphQLInputObjectType, parse } from 'graphql';
import { compileQuery, isCompiledQuery } from 'graphql-jit';
import { FEDERATION_LINK } from '../../src/graphql/schema';

/**
 * Why TrackStatsInput's "exactly one track identifier" is its zod rule (and description) rather than
 * `@oneOf` (docs/api/graphql.md, Names, descriptions and nulls). If a release of the federation
 * packages changes an answer below, the decision can be revisited.
 */
const ONE_OF_INPUT = `
  """A track, by exactly one identifier"""
  input TrackRef @oneOf {
    """ISRC"""
    isrc: String
    """stats track id"""
    statsTrackId: String
  }
  type Query {
    """statistics of a track"""
    trackName(track: TrackRef!): String
  }
`;

describe('@oneOf across graphql-js, @apollo/subgraph and composition', () => {
  it('graphql 16 knows @oneOf: an input object built with it is isOneOf', () => {
    const schema = buildSchema(ONE_OF_INPUT);
    expect((schema.getType('TrackRef') as GraphQLInputObjectType).isOneOf).toBe(true);
  });

  it('@apollo/subgraph refuses @oneOf unless the subgraph declares the directive itself', () => {
    expect(() => buildSubgraphSchema({ typeDefs: parse(`${FEDERATION_LINK}\n${ONE_OF_INPUT}`) })).toThrow(/Unknown directive "@oneOf"/);
    const declared = buildSubgraphSchema({ typeDefs: parse(`${FEDERATION_LINK}\ndirective @oneOf on INPUT_OBJECT\n${ONE_OF_INPUT}`) });
    expect((declared.getType('TrackRef') as GraphQLInputObjectType).isOneOf).toBe(true);
  });

  it('composition drops a declared @oneOf from the supergraph (the router would not show or check it) unless composed as a custom directive', () => {
    const composed = composeServices([{ name: 'mas', url: 'http://mas.test/graphql', typeDefs: parse(`${FEDERATION_LINK}\ndirective @oneOf on INPUT_OBJECT\n${ONE_OF_INPUT}`) }]);
    expect(composed.errors).toBeUndefined();
    expect(composed.supergraphSdl).toMatch(/^input TrackRef$/m);
    expect(composed.supergraphSdl).not.toMatch(/@oneOf/);
  });

  it('graphql-jit, which runs every REST route and every repeated document, does not check @oneOf: graphql-js refuses two keys, the compiled query takes them', async () => {
    const schema = buildSchema(ONE_OF_INPUT);
    schema.getQueryType()!.getFields().trackName!.resolve = () => 'x';
    const document = parse('query ($t: TrackRef!) { trackName(track: $t) }');
    const variables = { t: { isrc: 'GBNWR2400001', statsTrackId: '42' } };
    const interpreted = await execute({ schema, document, variableValues: variables });
    expect(interpreted.errors?.[0]?.message).toMatch(/Exactly one key must be specified/);
    const compiled = compileQuery(schema, document);
    if (!isCompiledQuery(compiled)) throw new Error('does not compile');
    const answer = await compiled.query(undefined, {}, variables);
    expect(answer.errors).toBeUndefined();
    expect(answer.data).toEqual({ trackName: 'x' });
  });
});
