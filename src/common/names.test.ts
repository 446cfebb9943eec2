import { buildSchema, GraphQLInputObjectType } from 'graphql';
import { z } from 'zod';
import { AppError, invalidInput } from './errors';
import { validate } from './validation';
import { graphqlName, renameFieldPath, renameFieldWords, renameProblemFields, restName } from './names';

const schema = buildSchema(`
  input Song { catalogId: ID! isrc: String! props: JSONObject }
  input Write { accountId: ID songs: [Song!] artistName: String }
  scalar JSONObject
  type Query { write(input: Write): Int }
`);
const fields = Object.values((schema.getType('Write') as GraphQLInputObjectType).getFields());

describe('field names of the two faces (src/common/names.ts)', () => {
  it('relates camelCase and snake_case both ways, keeping the names REST has always had in camelCase', () => {
    expect(restName('accountId')).toBe('account_id');
    expect(restName('platformATrackId')).toBe('platform_a_track_id');
    expect(restName('spMonthlyListenersMin')).toBe('sp_monthly_listeners_min');
    expect(restName('artistName')).toBe('artistName');
    expect(restName('isrc')).toBe('isrc');
    for (const name of ['account_id', 'platform_a_track_id', 'sp_monthly_listeners_min', 'isrc']) expect(restName(graphqlName(name))).toBe(name);
    expect(graphqlName('__typename')).toBe('__typename');
  });

  it('renames a problem path along the input types, leaving a JSON value and unknown members as they are', () => {
    const graph = (path: string) => renameFieldPath(path, fields, (f) => f.name);
    const rest = (path: string) => renameFieldPath(path, fields, (f) => restName(f.name));
    expect(graph('account_id')).toBe('accountId');
    expect(graph('songs[3].catalog_id')).toBe('songs[3].catalogId');
    expect(rest('songs[3].catalogId')).toBe('songs[3].catalog_id');
    expect(rest('songs[0].props.some_Key')).toBe('songs[0].props.some_Key');
    expect(graph('songs[0].props.some_key')).toBe('songs[0].props.some_key');
    expect(graph('body')).toBe('body');
    expect(rest('artistName')).toBe('artistName');
  });

  it('renames the fields a message names, and the error around them; other errors stay', () => {
    expect(renameFieldWords('give account_id or artistName, not platform_a', fields, (f) => f.name)).toBe('give accountId or artistName, not platform_a');
    const error = invalidInput([{ field: 'songs[0].catalog_id', message: 'must be a UUID' }]);
    const renamed = renameProblemFields(error, (p) => renameFieldPath(p, fields, (f) => f.name)) as AppError;
    expect(renamed.details).toEqual([{ field: 'songs[0].catalogId', message: 'must be a UUID' }]);
    expect(renamed.message).toBe('Invalid input: songs[0].catalogId: must be a UUID');
    expect(renamed.extensions).toEqual({ code: 'BAD_USER_INPUT', details: [{ field: 'songs[0].catalogId', message: 'must be a UUID' }] });
    const other = new AppError('NOT_FOUND', 'account_id not found');
    expect(renameProblemFields(other, () => 'x')).toBe(other);
  });

  it('reads a GraphQL input into a zod schema keyed by REST names, leaving the keys of a JSON value as they are', () => {
    const schema = z.object({
      account_id: z.string(),
      songs: z.array(z.object({ catalog_id: z.string(), props: z.record(z.string(), z.unknown()) })),
      artistName: z.string().optional(),
    });
    const parsed = validate(schema, { accountId: 'a', songs: [{ catalogId: 'c', props: { someKey: 1, other_key: 2 } }], artistName: 'x' });
    expect(parsed).toEqual({ account_id: 'a', songs: [{ catalog_id: 'c', props: { someKey: 1, other_key: 2 } }], artistName: 'x' });
    // Its problems name the schema's keys; the GraphQL face renames them (src/graphql/input-guard.ts).
    expect(() => validate(schema, { accountId: 1, songs: [] })).toThrow(/account_id/);
  });
});
