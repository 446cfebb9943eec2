import { GraphQLSchema, parse } from 'graphql';
import { operationCost, ProviderFields, providerFieldsOf } from '../../src/graphql/cost';
import { buildPlainSchema } from '../../src/graphql/schema';
import { resolvers } from '../../src/modules';

/** The cost model counts cursor paging's `first` as it counts `limit` (issue 27). */
describe('the weight of a page asked for by first', () => {
  let schema: GraphQLSchema;
  let providers: ProviderFields;
  const cost = (query: string) => operationCost(schema, parse(query), undefined, undefined, providers).cost;
  beforeAll(async () => {
    schema = await buildPlainSchema({ resolvers });
    providers = providerFieldsOf(schema);
  });

  it('is the weight of the same page asked for by limit, on nested pages and on root inputs', () => {
    const nested = (size: string) => `{ catalog(id: "c") { songs(${size}) { items { isrc credits { name } } pageInfo { endCursor } } } }`;
    expect(cost(nested('first: 100'))).toBe(cost(nested('limit: 100')));
    expect(cost(nested('first: 100'))).toBeGreaterThan(cost(nested('first: 1')));
    const root = (size: string) => `{ catalogSongs(input: { catalogId: "c", ${size} }) { items { isrc credits { name } } } }`;
    expect(cost(root('first: 100'))).toBe(cost(root('limit: 100')));
    expect(cost(root('first: 100'))).toBeGreaterThan(cost(root('first: 1')));
    const runs = (size: string) => `{ runs(input: { ${size} }) { items { id output { url } } } }`;
    expect(cost(runs('first: 100'))).toBe(cost(runs('limit: 100')));
  });
});
