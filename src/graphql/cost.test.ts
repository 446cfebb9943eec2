import { GraphQLSchema, parse } from 'graphql';
import { operationCost, providerFieldsOf } from './cost';
import { buildPlainSchema } from './schema';

describe('operationCost', () => {
  let schema: GraphQLSchema;
  let providers: Set<string>;
  const cost = (query: string, variables?: Record<string, unknown>) => operationCost(schema, parse(query), undefined, variables, providers);

  beforeAll(async () => {
    schema = await buildPlainSchema();
    providers = providerFieldsOf(schema);
  });

  it('knows the provider-backed fields from their @Extensions', () => {
    expect([...providers].sort()).toEqual([
      'Artist.research', 'Artist.research_link',
      'Query.curator', 'Query.discover', 'Query.platformASearch', 'Query.researchGenres', 'Query.researchPlaylists',
      'Query.researchSearch', 'Query.researchTracks', 'Query.trackStats',
      'ResearchArtist.playlists', 'ResearchArtist.profile', 'ResearchArtist.tracks', 'ResearchPlaylist.curator', 'ResearchTrack.stats', 'Song.stats',
    ]);
  });

  it('weighs `me` 1 and a page of 100 songs with their artists more, from the limit argument or its variable', () => {
    expect(cost('{ me { account { id name organizations { name } } } }')).toEqual({ cost: 1, providerCalls: 0 });
    const songs = 'query($id: ID!, $limit: Int) { catalogSongs(catalog_id: $id, limit: $limit) { songs { isrc artists { id name } } } }';
    // 100 songs + 5 artists each (a list without a limit counts 5) = 600 objects: 1 + 6.
    expect(cost(songs, { id: 'x', limit: 100 })).toEqual({ cost: 7, providerCalls: 0 });
    // Without a limit the list counts 5 (5 songs, 25 artists): under 100 objects, 1.
    expect(cost(songs, { id: 'x' })).toEqual({ cost: 1, providerCalls: 0 });
  });

  it('counts every root field, aliases and fragments included', () => {
    expect(cost('{ a: me { status } b: me { status } ...F } fragment F on Query { c: me { status } }').cost).toBe(3);
  });

  it('weighs provider calls 10 each and counts them for the research budget, multiplied by the lists above them', () => {
    expect(cost('{ trackStats(isrc: "GBNWR2400001", source: "all") { result } }')).toEqual({ cost: 10, providerCalls: 1 });
    // researchArtist (no provider call) → tracks (1 call, 5 tracks) → stats (5 calls): 1 + 6 × 10.
    expect(cost('{ researchArtist(id: "1") { tracks { stats(source: "all") { result } } } }')).toEqual({ cost: 61, providerCalls: 6 });
    // 50 tracks and 50 stats objects (1 point) + 51 calls.
    expect(cost('{ researchArtist(id: "1") { tracks(limit: 50) { stats(source: "all") { result } } } }')).toEqual({ cost: 512, providerCalls: 51 });
    // Song.stats weighs as a provider call per song: a catalog page of 50 songs is 50 calls (+ 1 root, 1 for 100 objects).
    expect(cost('{ catalog(id: "x") { songs(limit: 50) { stats(source: "all") { result } } } }')).toEqual({ cost: 502, providerCalls: 50 });
  });

  it('ignores introspection and weighs an unknown operation name as 1', () => {
    expect(cost('{ __schema { types { name fields { name } } } me { status } }').cost).toBe(1);
    expect(operationCost(schema, parse('query A { me { status } }'), 'B', undefined, providers)).toEqual({ cost: 1, providerCalls: 0 });
  });
});
