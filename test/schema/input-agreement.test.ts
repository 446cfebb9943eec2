import { buildSchema } from 'graphql';
import { z } from 'zod';
import { buildPlainSchema } from '../../src/graphql/schema';
import { operations, resolvers } from '../../src/modules';
import { inputDisagreements, operationFields } from './input-agreement';

/** Page arguments the operation's schema leaves to `pageRequest` (src/common/paging.ts), which parses them for every page. */
const SETTLED_ELSEWHERE = ['first', 'after'];

describe("each operation's input is declared once: its GraphQL input and its zod schema agree", () => {
  it('for every registered operation: the same fields, optionality, list-ness and kind', async () => {
    const schema = await buildPlainSchema({ resolvers });
    const names = Object.keys(operations);
    expect(names.length).toBeGreaterThan(40);
    const problems = names.flatMap((name) => inputDisagreements(operationFields(schema, name), operations[name as keyof typeof operations]!.input, { settledElsewhere: SETTLED_ELSEWHERE }).map((p) => `${name}: ${p}`));
    expect(problems).toEqual([]);
  });

  it('finds a disagreement in each respect, naming the field', () => {
    const schema = buildSchema(`
      input Song { isrc: String!, title: String }
      input Input { catalogId: ID!, limit: Int, tags: [String!], songs: [Song!]!, extra: Boolean, first: Int }
      type Query { op(input: Input!): Int }
    `);
    const zod = z.object({
      catalog_id: z.string().optional(), // optional in zod, required in GraphQL
      limit: z.string().optional(), // a string in zod, Int in GraphQL
      tags: z.string().optional(), // not a list in zod
      songs: z.array(z.object({ isrc: z.string(), title: z.number().optional() })), // nested: a number in zod
      missing: z.string(), // not in GraphQL
    });
    expect(inputDisagreements(operationFields(schema, 'Query.op'), zod, { settledElsewhere: ['first'] }).sort()).toEqual(
      [
        'catalogId: required in GraphQL, optional in zod',
        'limit: number in GraphQL, string in zod',
        'tags: a list in GraphQL, not in zod',
        'songs[].title: string in GraphQL, number in zod',
        'extra: in GraphQL, not in the zod schema',
        'missing: in the zod schema, not in GraphQL',
      ].sort(),
    );
    // The same pair put right agrees.
    const right = z.object({ catalog_id: z.string(), limit: z.number().optional(), tags: z.array(z.string()).optional(), songs: z.array(z.object({ isrc: z.string(), title: z.string().optional() })), extra: z.boolean().default(false) });
    expect(inputDisagreements(operationFields(schema, 'Query.op'), right, { settledElsewhere: ['first'] })).toEqual([]);
  });
});
