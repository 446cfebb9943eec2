import { buildSchema, getIntrospectionQuery, parse, validate } from 'graphql';
import { depthLimit, INTROSPECTION_QUERY_DEPTH, WalkStats } from './limits';
import { doublingFragments } from '../../test/support/documents';

const schema = buildSchema(`
  type Node { child: Node name: String }
  type Query { root: Node }
`);

const errorsOf = (query: string, max = 3) => validate(schema, parse(query), [depthLimit(max)]).map((e) => e.message);

describe('depthLimit', () => {
  it('accepts operations up to the limit and rejects deeper ones', () => {
    expect(errorsOf('{ root { child { name } } }')).toEqual([]);
    expect(errorsOf('{ root { child { child { name } } } }')).toEqual(['Query depth 4 exceeds the limit of 3']);
  });

  it('follows fragments', () => {
    expect(errorsOf('{ root { ...F } } fragment F on Node { child { child { name } } }')).toEqual([
      'Query depth 4 exceeds the limit of 3',
    ]);
  });

  it('visits each fragment once: 30 fragments each spreading the next twice cost a visit per selection, not 2^30', () => {
    const visits = (n: number) => {
      const stats: WalkStats = { visited: 0 };
      validate(schema, parse(doublingFragments(n, 'root { name }')), [depthLimit(3, stats)]);
      return stats.visited;
    };
    // One visit per selection of the document: 2 spreads per fragment, the leaf's field and its child, the operation's spread.
    expect(visits(30)).toBe(2 * 30 + 2 + 1);
    expect(visits(60) - visits(30)).toBe(2 * 30);
    // Still the right depth through the chain.
    expect(validate(schema, parse(doublingFragments(30, 'root { child { child { child { name } } } }')), [depthLimit(3)]).map((e) => e.message)).toEqual([
      'Query depth 5 exceeds the limit of 3',
    ]);
  });

  it('counts a fragment spread inside itself (a cycle graphql-js reports) as nothing, without looping', () => {
    const errors = validate(schema, parse('{ root { ...A } } fragment A on Node { child { ...B } } fragment B on Node { child { ...A } }'), [depthLimit(2)]);
    expect(errors.map((e) => e.message)).toEqual(['Query depth 3 exceeds the limit of 2']);
  });

  it('lets IDE introspection through, and refuses introspection nested deeper than graphql-js’s own query', () => {
    expect(INTROSPECTION_QUERY_DEPTH).toBeGreaterThan(3);
    expect(errorsOf(getIntrospectionQuery(), 3)).toEqual([]);
    const ofTypes = (n: number) => `${'ofType { '.repeat(n)}name${' }'.repeat(n)}`;
    const within = `{ __schema { types { fields { type { ${ofTypes(INTROSPECTION_QUERY_DEPTH - 5)} } } } } }`;
    expect(errorsOf(within, 3)).toEqual([]);
    const deeper = `{ __schema { types { fields { type { fields { type { fields { type { ${ofTypes(INTROSPECTION_QUERY_DEPTH)} } } } } } } } } }`;
    expect(errorsOf(deeper, 3)).toEqual([`Introspection depth ${INTROSPECTION_QUERY_DEPTH + 9} exceeds the limit of ${INTROSPECTION_QUERY_DEPTH}`]);
    // Through fragments too.
    expect(errorsOf(`{ __schema { ...S } } fragment S on __Schema { types { fields { type { fields { type { fields { type { ${ofTypes(INTROSPECTION_QUERY_DEPTH)} } } } } } } } }`, 3)).toHaveLength(1);
  });
});
