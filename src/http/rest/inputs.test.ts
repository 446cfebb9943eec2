import { GraphQLBoolean, GraphQLInt, GraphQLList, GraphQLNonNull, GraphQLString, GraphQLArgument, GraphQLInputType } from 'graphql';
import { AppError } from '../../common/errors';
import { parseRestInput } from './inputs';
import type { RestRoute } from './route';

const arg = (name: string, type: GraphQLInputType): GraphQLArgument =>
  ({ name, type, description: null, defaultValue: undefined, deprecationReason: null, extensions: {}, astNode: undefined }) as GraphQLArgument;

function problems(route: RestRoute, args: GraphQLArgument[], input: { params?: object; query?: object; body?: unknown }) {
  try {
    parseRestInput(args, route, { params: {}, query: {}, ...input } as never);
    return [];
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return (error as AppError).details;
  }
}

const put: RestRoute = { operation: 'Mutation.x', method: 'PUT', path: '/things/:id', select: '' };
const get: RestRoute = { operation: 'Query.x', method: 'GET', path: '/things', select: '' };

describe('parseRestInput', () => {
  it('answers the variables, typed: path first, then a non-empty query value, then the body', () => {
    const args = [arg('id', new GraphQLNonNull(GraphQLString)), arg('limit', GraphQLInt), arg('on', GraphQLBoolean), arg('tags', new GraphQLList(GraphQLString)), arg('note', GraphQLString)];
    const input = (query: object, body: object) => parseRestInput(args, put, { params: { id: 'a1' }, query, body } as never);
    expect(input({ limit: '20', on: 'false', tags: 'solo' }, {})).toEqual({ id: 'a1', limit: 20, on: false, tags: ['solo'] });
    // An empty query value is absent (the body's value counts); an empty JSON string is a value.
    expect(input({ limit: '' }, { limit: 5, note: '' })).toEqual({ id: 'a1', limit: 5, note: '' });
    expect(parseRestInput(args.slice(1), get, { params: {}, query: { limit: '' }, body: undefined })).toEqual({});
  });

  it('validates booleans instead of coercing them', () => {
    const args = [arg('is_favourite', new GraphQLNonNull(GraphQLBoolean))];
    expect(problems(put, args, { body: { is_favourite: 'maybe' } })).toEqual([{ field: 'is_favourite', message: 'must be true or false' }]);
    expect(problems(put, args, { body: { is_favourite: true } })).toEqual([]);
    expect(problems(put, args, { body: {} })).toEqual([{ field: 'is_favourite', message: 'is required' }]);
    expect(problems(get, args, { query: { is_favourite: 'yes' } })).toEqual([{ field: 'is_favourite', message: 'must be true or false' }]);
    expect(problems(get, args, { query: { is_favourite: 'false' } })).toEqual([]);
  });

  it('accepts integers only in integer form', () => {
    const args = [arg('limit', GraphQLInt)];
    expect(problems(get, args, { query: { limit: '20' } })).toEqual([]);
    expect(problems(get, args, { query: { limit: '2.5' } })).toEqual([{ field: 'limit', message: 'must be an integer' }]);
    expect(problems(get, args, { query: { limit: 'ten' } })).toEqual([{ field: 'limit', message: 'must be an integer' }]);
    expect(problems(get, args, { query: { limit: '99999999999' } })).toEqual([{ field: 'limit', message: 'must be an integer' }]);
    expect(problems(put, args, { body: { limit: '20' } })).toEqual([{ field: 'limit', message: 'must be an integer' }]);
  });

  it('reads path parameters and names nested fields', () => {
    const args = [arg('id', new GraphQLNonNull(GraphQLString)), arg('tags', new GraphQLList(new GraphQLNonNull(GraphQLString)))];
    expect(problems(put, args, { params: { id: 'abc' }, body: { tags: ['a', 3] } })).toEqual([{ field: 'tags[1]', message: 'must be a string' }]);
    expect(problems(put, args, { params: { id: 'abc' }, body: { tags: 'a' } })).toEqual([{ field: 'tags', message: 'must be an array' }]);
  });

  it('rejects repeated query parameters for single values', () => {
    const args = [arg('q', GraphQLString)];
    expect(problems(get, args, { query: { q: ['a', 'b'] } })).toEqual([{ field: 'q', message: 'must be given once' }]);
  });

  it('refuses the fields a route must never receive, in the body or the query', () => {
    const keys: RestRoute = { ...put, refusedFields: { account_id: 'must not be sent' } };
    const args = [arg('name', new GraphQLNonNull(GraphQLString))];
    expect(problems(keys, args, { body: { name: 'a', account_id: 'x' } })).toEqual([{ field: 'account_id', message: 'must not be sent' }]);
    expect(problems(keys, args, { query: { account_id: 'x' }, body: { name: 'a' } })).toEqual([{ field: 'account_id', message: 'must not be sent' }]);
    expect(problems(keys, args, { body: { name: 'a' } })).toEqual([]);
  });

  it('refuses query parameters and body members the operation does not take, naming each', () => {
    const args = [arg('id', new GraphQLNonNull(GraphQLString)), arg('width', GraphQLInt)];
    expect(problems(put, args, { params: { id: 'a1' }, body: { widht: 1080 } })).toEqual([{ field: 'widht', message: 'is not a known field' }]);
    expect(problems(put, args, { params: { id: 'a1' }, query: { widht: '1080' } })).toEqual([{ field: 'widht', message: 'is not a known query parameter' }]);
    // Empty is still named: a typo'd flag with no value is not silently dropped.
    expect(problems(get, args.slice(1), { query: { widht: '' } })).toEqual([{ field: 'widht', message: 'is not a known query parameter' }]);
    // A path parameter's copy in the body or query would be ignored: refused, not trusted.
    expect(problems(put, args, { params: { id: 'a1' }, body: { id: 'b2' } })).toEqual([{ field: 'id', message: 'is given in the path, not the body' }]);
    expect(problems(put, args, { params: { id: 'a1' }, query: { id: 'b2' } })).toEqual([{ field: 'id', message: 'is given in the path, not the query' }]);
    // Named once, even when sent in both places.
    expect(problems(put, args, { params: { id: 'a1' }, query: { x: '1' }, body: { x: 1 } })).toEqual([{ field: 'x', message: 'is not a known query parameter' }]);
    expect(problems(put, args, { params: { id: 'a1' }, query: { width: '20' }, body: { width: 30 } })).toEqual([]);
  });

  it('keeps the messages of refused and required keys', () => {
    const route: RestRoute = { ...put, refusedFields: { account_id: 'must not be sent' }, requiredBodyFields: { research_id: 'is required' } };
    const args = [arg('id', new GraphQLNonNull(GraphQLString)), arg('research_id', GraphQLString)];
    expect(problems(route, args, { params: { id: 'a1' }, body: { account_id: 'x', research_id: null } })).toEqual([{ field: 'account_id', message: 'must not be sent' }]);
  });
});
