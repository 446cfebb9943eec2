import fc from 'fast-check';
import {
  DocumentNode,
  FragmentDefinitionNode,
  getArgumentValues,
  getIntrospectionQuery,
  getNamedType,
  getNullableType,
  getOperationAST,
  GraphQLCompositeType,
  GraphQLSchema,
  isCompositeType,
  isListType,
  isObjectType,
  Kind,
  parse,
  SelectionSetNode,
} from 'graphql';
import { answerCost, declaredBound, listItems, noProviderFields, operationCost, ProviderFields, providerFieldsOf, settledCost, UNBOUNDED_LIST_SIZE } from './cost';
import { buildPlainSchema } from './schema';
import { SerializedList } from './pass-through';
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
      'Artist.research', 'Artist.researchLink',
      'Query.curator', 'Query.discover', 'Query.platformASearch', 'Query.researchGenres', 'Query.researchPlaylists',
      'Query.researchSearch', 'Query.researchTracks', 'Query.trackStats',
      'ResearchArtist.playlists', 'ResearchArtist.profile', 'ResearchArtist.tracks', 'ResearchPlaylist.curator',
    ]);
    expect([...providers.batches].sort()).toEqual(['ResearchTrack.stats', 'Song.stats']);
  });

  it('weighs `me` 1 and a page of 100 songs with their artists more, from the limit argument or its variable', () => {
    expect(cost('{ me { id name organizations { name } } }')).toEqual({ cost: 1, providerCalls: 0 });
    const songs = 'query($id: ID!, $limit: Int) { catalogSongs(input: { catalogId: $id, limit: $limit }) { items { isrc artists { id name } } } }';
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
    const composed = '{ artists { items { name catalogs { items { name songs(limit: 100) { items { isrc stats(source: "platform_a") { result stats { source data_source: dataSource data } } } } } } } } }';
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
    const posted = (n: number) => ({ s: Array.from({ length: n }, () => ({ catalogId: 'x', isrc: 'GBNWR2400001' })) });
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
    // Left as they are (docs/api/resources.md, Bounds on growth; test/schema/lists.test.ts UNBOUNDED): membership lists (the members area caps
    // invitations), and the mutation answers that list what is left after a removal or what a removal ended.
    expect(unbounded.sort()).toEqual([
      'AccountProfile.invitations', 'AccountProfile.organizations',
      'MembershipRevocation.catalogLinks',
      'Mutation.removeCatalogSongs', 'Mutation.removeCatalogs',
      'OrganizationDeletion.catalogLinks',
      'OrganizationMembership.invitations', 'OrganizationMembership.members',
    ]);
    expect(UNBOUNDED_LIST_SIZE).toBe(50);
  });

  it('weighs an unknown operation name as 1', () => {
    expect(operationCost(schema, parse('query A { me { id } }'), 'B', undefined, providers)).toEqual({ cost: 1, providerCalls: 0 });
  });

  it('weighs a fragment the same wherever it is spread, in an envelope with a limit or not', () => {
    const inline = cost('{ catalogSongs(input: { catalogId: "x", limit: 100 }) { items { isrc artists { id name } } } }');
    const spread = cost('{ catalogSongs(input: { catalogId: "x", limit: 100 }) { ...Page } } fragment Page on SongPage { items { isrc artists { id name } } }');
    expect(spread).toEqual(inline);
    // 100 songs, each with up to 50 credited artists (Song.artists' declared bound): 1 + (100 × 51) / 100.
    expect(inline.cost).toBe(1 + Math.floor((100 * 51) / 100));
    // The same fragment in a second envelope of 300: 2 + (100 × 51 + 300 × 51) / 100.
    expect(
      cost('{ a: catalogSongs(input: { catalogId: "x", limit: 100 }) { ...Page } b: catalogSongs(input: { catalogId: "x", limit: 300 }) { ...Page } } fragment Page on SongPage { items { isrc artists { id name } } }').cost,
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

  /**
   * An answer the service could give to `document`: every list at most as long as the estimate counts it (its `limit`,
   * its envelope's, else its declared bound), each object or list possibly null (a failed field), sizes drawn by `draw`.
   */
  function answerFor(document: DocumentNode, draw: (max: number) => number): Record<string, unknown> {
    const fragments = new Map<string, FragmentDefinitionNode>();
    for (const def of document.definitions) if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);
    const build = (set: SelectionSetNode, parent: GraphQLCompositeType, envelope: number | undefined, into: Record<string, unknown> = {}): Record<string, unknown> => {
      for (const selection of set.selections) {
        if (selection.kind === Kind.FRAGMENT_SPREAD) {
          const fragment = fragments.get(selection.name.value)!;
          build(fragment.selectionSet, schema.getType(fragment.typeCondition.name.value) as GraphQLCompositeType, envelope, into);
          continue;
        }
        if (selection.kind === Kind.INLINE_FRAGMENT) {
          build(selection.selectionSet, parent, envelope, into);
          continue;
        }
        const key = selection.alias?.value ?? selection.name.value;
        if (!isObjectType(parent)) continue;
        const field = parent.getFields()[selection.name.value];
        const named = getNamedType(field.type);
        if (!isCompositeType(named) || !selection.selectionSet) {
          into[key] = 'x';
          continue;
        }
        const args = getArgumentValues(field, selection, {});
        const input = (args.input ?? {}) as Record<string, unknown>;
        const own = [args.limit, args.first, input.limit].find((v): v is number => typeof v === 'number');
        if (draw(9) === 0) {
          into[key] = null;
          continue;
        }
        if (!isListType(getNullableType(field.type))) {
          into[key] = build(selection.selectionSet, named, own);
          continue;
        }
        const counted = listItems(schema, parent, field, args);
        const max = 'items' in counted ? counted.items : (envelope ?? counted.withoutEnvelope);
        into[key] = Array.from({ length: draw(max) }, () => build(selection.selectionSet!, named, undefined));
      }
      return into;
    };
    const operation = getOperationAST(document)!;
    return build(operation.selectionSet, schema.getRootType(operation.operation)!, undefined);
  }

  /** How many PROVIDER_CALL fields an answer resolved: the most upstream calls it can have made. */
  function providerFieldsAnswered(value: unknown, names: Set<string>): number {
    if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + providerFieldsAnswered(item, names), 0);
    if (!value || typeof value !== 'object') return 0;
    return Object.entries(value).reduce((sum, [key, child]) => sum + (names.has(key) && child !== undefined ? 1 : 0) + providerFieldsAnswered(child, names), 0);
  }

  it('weighs an answer at most as much as its upper bound, whatever the page sizes and what the lists hold (property)', () => {
    const roster = (artists: number, catalogs: number, songs: number) => `{
      artists(limit: ${artists}) { items { name research { id profile { name } }
        catalogs(limit: ${catalogs}) { items { ...C } } } }
    }
    fragment C on Catalog { name songs(limit: ${songs}) { items { isrc artists { name } stats(source: "platform_a") { stats { source } } } pagination { totalCount } } }`;
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 6 }), fc.integer({ min: 0, max: 6 }), fc.integer({ min: 0, max: 40 }), fc.gen(), fc.nat(), (artists, catalogs, songs, g, callShare) => {
        const document = parse(roster(artists, catalogs, songs));
        const requested = operationCost(schema, document, undefined, undefined, providers);
        const data = answerFor(document, (max) => g(fc.integer, { min: 0, max }));
        // research and profile are the PROVIDER_CALL fields here: each answered one made at most one upstream call.
        const made = callShare % (providerFieldsAnswered(data, new Set(['research', 'profile'])) + 1);
        const actual = answerCost(schema, document, undefined, data, providers, made);
        expect(actual).toBeGreaterThanOrEqual(1);
        expect(actual).toBeLessThanOrEqual(requested.cost);
        expect(made).toBeLessThanOrEqual(requested.providerCalls);
        // The refund is the difference: never negative, never more than the charge.
        const refund = requested.cost - settledCost(requested.cost, actual);
        expect(refund).toBeGreaterThanOrEqual(0);
        expect(refund).toBeLessThanOrEqual(requested.cost - 1);
      }),
      { numRuns: 60 },
    );
  });

  it('weighs a document it has weighed before by each request\'s own variables, operation and answer (plans are kept per document)', () => {
    // Apollo hands the same parsed document to every request that sends the same query text: what is kept must not freeze a request's values.
    const roster = (limit: (name: string) => string) => `query Roster($artists: Int, $catalogs: Int, $songs: Int) {
      artists(limit: ${limit('artists')}) { items { name research { id profile { name } }
        catalogs(limit: ${limit('catalogs')}) { items { ...C } } } }
    }
    query Me { me { id } }
    fragment C on Catalog { name songs(limit: ${limit('songs')}) { items { isrc artists { name } stats(source: "platform_a") { stats { source } } } pagination { totalCount } } }`;
    const shared = parse(roster((name) => `$${name}`));
    const literals = new Map<string, DocumentNode>();
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 6 }), fc.integer({ min: 0, max: 6 }), fc.integer({ min: 0, max: 40 }), fc.gen(), (artists, catalogs, songs, g) => {
        const sizes: Record<string, number> = { artists, catalogs, songs };
        const text = roster((name) => String(sizes[name]));
        const fresh = parse(text);
        // The same literal document weighed again and again, as a REST route's is.
        const literal = literals.get(text) ?? literals.set(text, parse(text)).get(text)!;
        const expected = operationCost(schema, fresh, 'Roster', undefined, providers);
        expect(operationCost(schema, shared, 'Roster', sizes, providers)).toEqual(expected);
        expect(operationCost(schema, literal, 'Roster', undefined, providers)).toEqual(expected);
        // The document's other operation is weighed as itself.
        expect(operationCost(schema, shared, 'Me', sizes, providers)).toEqual({ cost: 1, providerCalls: 0 });
        const data = answerFor(parse(text.replace(/query Me \{ me \{ id \} \}/, '')), (max) => g(fc.integer, { min: 0, max }));
        const actual = answerCost(schema, fresh, 'Roster', data, providers, 0);
        expect(answerCost(schema, shared, 'Roster', data, providers, 0)).toBe(actual);
        expect(answerCost(schema, literal, 'Roster', data, providers, 0)).toBe(actual);
      }),
      { numRuns: 60 },
    );
    // Kept per schema and provider fields too: the same document with no provider fields weighs its provider calls as plain fields.
    const plain = operationCost(schema, shared, 'Roster', { artists: 2, catalogs: 2, songs: 10 }, noProviderFields());
    expect(plain.providerCalls).toBe(0);
    expect(operationCost(schema, shared, 'Roster', { artists: 2, catalogs: 2, songs: 10 }, providers).providerCalls).toBeGreaterThan(0);
    // A name the document has no operation for weighs 1, and is not kept.
    expect(operationCost(schema, shared, 'Nope', undefined, providers)).toEqual({ cost: 1, providerCalls: 0 });
    expect(answerCost(schema, shared, 'Nope', { me: { id: '1' } }, providers, 0)).toBe(1);
  });

  it('weighs an answer by what it holds: an empty roster its root field, a full page of songs like the estimate', () => {
    const document = parse('{ catalogSongs(input: { catalogId: "x", limit: 100 }) { items { isrc artists { id name } } } }');
    expect(answerCost(schema, document, undefined, { catalogSongs: { items: [] } }, providers, 0)).toBe(1);
    // 100 songs with 50 artists each: exactly what the estimate counts (52).
    const full = { catalogSongs: { items: Array.from({ length: 100 }, () => ({ isrc: 'x', artists: Array.from({ length: 50 }, () => ({ id: 'a', name: 'b' })) })) } };
    expect(answerCost(schema, document, undefined, full, providers, 0)).toBe(operationCost(schema, document, undefined, undefined, providers).cost);
    // 100 songs with 2 artists each: 1 + 300 objects.
    const two = { catalogSongs: { items: Array.from({ length: 100 }, () => ({ isrc: 'x', artists: [{ id: 'a' }, { id: 'b' }] })) } };
    expect(answerCost(schema, document, undefined, two, providers, 0)).toBe(4);
    // The same page passed through as the database wrote it (src/graphql/pass-through.ts): the objects it says it holds, counted as theirs.
    const written = { catalogSongs: { items: new SerializedList('[]', 100, 300) } };
    expect(answerCost(schema, document, undefined, written, providers, 0)).toBe(4);
    expect(answerCost(schema, document, undefined, { catalogSongs: { items: new SerializedList('[]', 100, 100) } }, providers, 0)).toBe(2);
    // A provider call made costs 10; a batch 10 per selection that answered a parent, plus 1 per 10 parents.
    const stats = parse('{ catalog(id: "x") { songs(limit: 50) { items { stats(source: "all") { result } } } } }');
    const answered = (n: number) => ({ catalog: { songs: { items: Array.from({ length: n }, () => ({ stats: { result: 'success' } })) } } });
    expect(answerCost(schema, stats, undefined, answered(0), providers, 0)).toBe(1);
    expect(answerCost(schema, stats, undefined, answered(12), providers, 0)).toBe(1 + 10 + 2);
    expect(answerCost(schema, parse('{ artists(limit: 2) { research { id } } }'), undefined, { artists: [{ research: { id: '1' } }, { research: null }] }, providers, 1)).toBe(11);
  });

  it('walks an answer in time linear in it: 30 fragments each spreading the next twice visit each selection once per object', () => {
    const stats: WalkStats = { visited: 0 };
    const document = parse(doublingFragments(30, 'me { id }'));
    const actual = answerCost(schema, document, undefined, { me: { id: '1' } }, providers, 0, stats);
    expect(stats.visited).toBeLessThanOrEqual(2 * 30 + 2 + 1 + 1);
    // Weighed as written, like the estimate (2^30 root fields), and never more than it.
    expect(actual).toBe(2 ** 30);
  });

  it('walks an answer by the keys it holds: selections it does not hold cost no work per object', () => {
    const skipped = Array.from({ length: 500 }, (_, i) => `s${i}: artists @skip(if: true) { name }`).join(' ');
    const document = parse(`{ catalogSongs(input: { catalogId: "x", limit: 100 }) { items { isrc artists { name } ${skipped} } } }`);
    const data = { catalogSongs: { items: Array.from({ length: 100 }, () => ({ isrc: 'x', artists: [{ name: 'a' }] })) } };
    const stats: WalkStats = { visited: 0 };
    expect(answerCost(schema, document, undefined, data, providers, 0, stats)).toBe(3);
    // The document once (about 500 selections), then a visit per answered object: not 100 items × 500 selections.
    expect(stats.visited).toBeLessThan(502 + 10 + 2 * 100);
  });
});
