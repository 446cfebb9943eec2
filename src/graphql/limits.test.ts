import { buildSchema, getIntrospectionQuery, parse, validate } from 'graphql';
import { depthLimit } from './limits';

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

  it('lets IDE introspection through (it is governed by GRAPHQL_INTROSPECTION and the token limit)', () => {
    expect(errorsOf(getIntrospectionQuery(), 3)).toEqual([]);
  });
});
