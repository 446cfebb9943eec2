import { getIntrospectionQuery, getNamedType, getNullableType, GraphQLSchema, isCompositeType, isListType, isObjectType, parse } from 'graphql';
import { declaredBound, operationCost, ProviderFields, providerFieldsOf, UNBOUNDED_LIST_SIZE } from './cost';
import { buildPlainSchema } from './schema';
import { doublingFragments } from '../../test/support/documents';
import type { WalkStats } from './limits';
import { resolvers } from '../modules';

describe('operationCost', () => {
  let schema: GraphQLSchema;
  let providers: ProviderFields;
  const cost = (query: string, variables?: Record<string, unknown>) => operationCost(schema, parse(query), undefined, variables, providers);

  beforeAll(async () => {
    schema = await buildPlainSchema({ resolvers });
    providers = providerFieldsOf(schema);
  });

  it('knows the provider-backed fields from their @Extensions, and which of them are batched', () => {
    expect([...providers.calls].sort()).toEqual([
      'Artist.research', 'Artist.research_link',
      'Query.curator', 'Query.discover', 'Query.platformASearch', 'Query.researchGenres', 'Query.researchPlaylists',
      'Query.researchSearch', 'Query.researchTracks', 'Query.trackStats',
      'ResearchArtist.playlists', 'ResearchArtist.profile', 'ResearchArtist.tracks', 'ResearchPlaylist.curator',
    ]);
    expect([...providers.batches].sort()).toEqual(['ResearchTrack.stats', 'Song.stats']);
  });

  it('weighs `me` 1 and a page of 100 songs with their artists more, from the limit argument or its variable', () => {
    expect(cost('{ me { id name organizations { name } } }')).toEqual({ cost: 1, providerCalls: 0 });
    const songs = 'query($id: ID!, $limit: Int) { catalogSongs(input: { catalog_id: $id, limit: $limit }) { items { isrc artists { id name } } } }';
    // 100 songs + 50 artists each (Song.artists declares its bound, 50 credits a song) = 5 100 objects: 1 + 51.
    expect(cost(songs, { id: 'x', limit: 100 })).toEqual({ cost: 52, providerCalls: 0 });
    // Without a limit the page counts its default, 20 (20 songs, 1 000 artists): 1 + 10.
    expect(cost(songs, { id: 'x' })).toEqual({ cost: 11, providerCalls: 0 });
  });

  it('counts every root field, aliases and fragments included', () => {
    expect(cost('{ a: me { id } b: me { id } ...F } fragment F on Query { c: me { id } }').cost).toBe(3);
  });

  it('weighs provider calls 10 each and counts them for the research budget, multiplied by the lists above them', () => {
    expect(cost('{ trackStats(input: { isrc: "GBNWR2400001", source: "all" }) { result } }')).toEqual({ cost: 10, providerCalls: 1 });
    // researchArtist (no provider call) → profile (1 call) and playlists (1 call, 20 items, its default) → curator (20 calls): 1 + 22 × 10.
    expect(cost('{ researchArtist(id: "1") { profile { name } playlists { curator { name } } } }')).toEqual({ cost: 221, providerCalls: 22 });
    // Under a roster of 5 artists each artist's research is its own call.
    expect(cost('{ artists(limit: 5) { items { research { id } } } }')).toEqual({ cost: 51, providerCalls: 5 });
    // Without a limit the roster counts its default page, 100 artists (and the page itself): over the default maximum (600).
    expect(cost('{ artists { items { research { id } } } }')).toEqual({ cost: 1003, providerCalls: 100 });
  });

  // Changed with batching (issue 15): Song.stats and ResearchTrack.stats used to weigh 10 per parent (50 songs: 502, 50
  // research points), which refused every roster-wide query. They resolve through one batch per request whose upstream
  // calls are charged to the research budget as they are made, so the estimate weighs the batch, not the parents' product.
  it('weighs a batched provider field 10 per batch plus 1 per 10 parents, and leaves its research points to the batch', () => {
    // researchArtist → tracks (1 call, 20 tracks by default) → stats (1 batch of 20): 1 + 10 + 10 + 2.
    expect(cost('{ researchArtist(id: "1") { tracks { stats(source: "all") { result } } } }')).toEqual({ cost: 23, providerCalls: 1 });
    // 1 root + 50 tracks and 50 stats objects (1) + the tracks call (10) + 1 batch of 50 (10 + 5).
    expect(cost('{ researchArtist(id: "1") { tracks(limit: 50) { stats(source: "all") { result } } } }')).toEqual({ cost: 27, providerCalls: 1 });
    // A catalog page of 50 songs: 1 root + 1 for 100 objects + 1 batch of 50 (10 + 5).
    expect(cost('{ catalog(id: "x") { songs(limit: 50) { items { stats(source: "all") { result } } } } }')).toEqual({ cost: 17, providerCalls: 0 });
    // Each selection of the field is a batch of its own: 1 root + 150 objects (1) + 2 batches (20) + 100 parents (10).
    expect(cost('{ catalog(id: "x") { songs(limit: 50) { items { a: stats(source: "all") { result } b: stats(source: "platform_a") { result } } } } }')).toEqual({ cost: 32, providerCalls: 0 });
  });

  // Changed with the bounds of issue 30: a list without a limit used to count 5, so the roster query below weighed 436
  // however large the roster, its catalogs or their credits were. Each list now counts its limit, else its declared bound.
  it('weighs the composed roster query by the bounds of its lists: refused without limits, admitted with them', () => {
    const composed = '{ artists { items { name catalogs { items { name songs(limit: 100) { items { isrc stats(source: "platform_a") { result stats { source data_source data } } } } } } } } }';
    // 100 artists (the roster's default page) × 20 catalogs (Artist.catalogs' default) × 100 songs: refused.
    expect(cost(composed).cost).toBeGreaterThan(600);
    const limited = composed.replace('artists {', 'artists(limit: 5) {').replace('catalogs {', 'catalogs(limit: 5) {');
    // 5 artists × 5 catalogs × 100 songs: 5 + 25 + 2 500 songs + 2 500 results + 10 000 records (4 sources at most) = 15 030
    // objects (150), 1 batch of 2 500 songs (10 + 250), 1 root.
    expect(cost(limited)).toEqual({ cost: 411, providerCalls: 0 });
    // 500 songs a catalog is refused by the default maximum.
    expect(cost(limited.replace('limit: 100', 'limit: 500')).cost).toBeGreaterThan(600);
  });

  it('weighs the roster → catalogs → songs → credits query of the bench by every declared bound', () => {
    const roster = (args: string) => `{ artists${args} { items { name catalogs${args ? '(limit: 3)' : ''} { items { name songs(limit: 50) { items { isrc name artists { name } } } } } } } }`;
    // 5 + 15 catalogs + 750 songs + 37 500 credits (50 a song at most) = 38 270 objects: 1 + 382.
    expect(cost(roster('(limit: 5)'))).toEqual({ cost: 383, providerCalls: 0 });
    // Unlimited: 100 artists × 20 catalogs × 50 songs × 50 credits, refused (it counted 5 × 5 × 50 × 5 before).
    expect(cost(roster('')).cost).toBe(51043);
    // Hard bounds count in full: Catalog.accounts (50 a catalog), Song.credits (50), Song.catalogs (its default 20).
    expect(cost('{ catalog(id: "x") { accounts { items { name } } songs(limit: 10) { items { credits { name } catalogs { items { name } } } } } }')).toEqual({ cost: 8, providerCalls: 0 });
    // A write answers one song per song posted: 2 songs with their artists (50 each) weigh 1 + 1, 500 of them 1 + 250.
    const add = 'mutation($s: [CatalogSongInput!]!) { addCatalogSongs(input: { songs: $s }) { isrc artists { name } } }';
    const posted = (n: number) => ({ s: Array.from({ length: n }, () => ({ catalog_id: 'x', isrc: 'GBNWR2400001' })) });
    expect(cost(add, posted(2))).toEqual({ cost: 2, providerCalls: 0 });
    expect(cost(add, posted(500))).toEqual({ cost: 251, providerCalls: 0 });
  });

  it('declares a bound on every list of objects the graph returns (else it weighs UNBOUNDED_LIST_SIZE)', () => {
    const unbounded: string[] = [];
    for (const type of Object.values(schema.getTypeMap())) {
      if (!isObjectType(type) || type.name.startsWith('__')) continue;
      for (const field of Object.values(type.getFields())) {
        if (!isListType(getNullableType(field.type)) || !isCompositeType(getNamedType(field.type))) continue;
        if (declaredBound(field) === undefined) unbounded.push(`${type.name}.${field.name}`);
      }
    }
    // Left as they are (README, Bounds on growth; test/schema/lists.test.ts UNBOUNDED): membership lists (the members area caps
    // invitations), and the mutation answers that list what is left after a removal or what a removal ended.
    expect(unbounded.sort()).toEqual([
      'AccountProfile.invitations', 'AccountProfile.organizations',
      'MembershipRevocation.catalog_links',
      'Mutation.removeCatalogSongs', 'Mutation.removeCatalogs',
      'OrganizationDeletion.catalog_links',
      'OrganizationMembership.invitations', 'OrganizationMembership.members',
    ]);
    expect(UNBOUNDED_LIST_SIZE).toBe(50);
  });

  it('weighs an unknown operation name as 1', () => {
    expect(operationCost(schema, parse('query A { me { id } }'), 'B', undefined, providers)).toEqual({ cost: 1, providerCalls: 0 });
  });

  it('weighs a fragment the same wherever it is spread, in an envelope with a limit or not', () => {
    const inline = cost('{ catalogSongs(input: { catalog_id: "x", limit: 100 }) { items { isrc artists { id name } } } }');
    const spread = cost('{ catalogSongs(input: { catalog_id: "x", limit: 100 }) { ...Page } } fragment Page on SongPage { items { isrc artists { id name } } }');
    expect(spread).toEqual(inline);
    // 100 songs, each with up to 50 credited artists (Song.artists' declared bound): 1 + (100 × 51) / 100.
    expect(inline.cost).toBe(1 + Math.floor((100 * 51) / 100));
    // The same fragment in a second envelope of 300: 2 + (100 × 51 + 300 × 51) / 100.
    expect(
      cost('{ a: catalogSongs(input: { catalog_id: "x", limit: 100 }) { ...Page } b: catalogSongs(input: { catalog_id: "x", limit: 300 }) { ...Page } } fragment Page on SongPage { items { isrc artists { id name } } }').cost,
    ).toBe(2 + Math.floor((100 * 51 + 300 * 51) / 100));
    expect(cost('{ artists { items { catalogs { items { ...C } } } } } fragment C on Catalog { songs { ...Page } } fragment Page on SongPage { items { isrc } }').cost).toBe(
      cost('{ artists { items { catalogs { items { songs { items { isrc } } } } } } }').cost,
    );
  });

  it('weighs each fragment once: 30 fragments each spreading the next twice cost a visit per selection, and 2^30 leaves', () => {
    const visits = (n: number) => {
      const stats: WalkStats = { visited: 0 };
      const weighed = operationCost(schema, parse(doublingFragments(n, 'me { id }')), undefined, undefined, providers, stats);
      return { visited: stats.visited, cost: weighed.cost };
    };
    const thirty = visits(30);
    expect(thirty.visited).toBe(2 * 30 + 2 + 1);
    expect(visits(60).visited - thirty.visited).toBe(2 * 30);
    // The answer would hold 2^30 `me` (merged by graphql-js into one, but weighed as written).
    expect(thirty.cost).toBe(2 ** 30);
  });

  it('weighs introspection: __schema and __type are root fields and their lists hold what the schema holds', () => {
    expect(cost('{ __typename me { id } }').cost).toBe(1);
    expect(cost('{ __type(name: "Song") { name } me { id } }').cost).toBe(2);
    // The whole introspection query an IDE sends: a few hundred types with their fields and arguments.
    const full = cost(getIntrospectionQuery()).cost;
    expect(full).toBeGreaterThan(50);
    expect(full).toBeLessThanOrEqual(600);
    // k aliases of it weigh k times as much; nested aliases multiply.
    const aliased = (k: number) => `{ __schema { ${Array.from({ length: k }, (_, i) => `t${i}: types { ...T }`).join(' ')} } } fragment T on __Type { ${Array.from({ length: k }, (_, i) => `f${i}: fields { name args { name } type { name } }`).join(' ')} }`;
    expect(cost(aliased(1)).cost).toBeGreaterThan(1);
    expect(cost(aliased(4)).cost).toBeGreaterThanOrEqual(12 * (cost(aliased(1)).cost - 1));
    expect(cost(aliased(9)).cost).toBeGreaterThan(600);
  });
});
