import { defaultFieldResolver, GraphQLFieldResolver, GraphQLSchema } from 'graphql';
import type { Context } from '../request/context';

const SETTLED = Symbol('settles viewer changes');
type Settled = GraphQLFieldResolver<unknown, Context> & { [SETTLED]?: true };

/**
 * Every mutation answers only after the viewer cache has heard of the changes it committed (a
 * revoked key, a membership), so the caller's next request on this instance already sees them.
 * It sits in the schema, so both faces run it. Idempotent, like guardArguments.
 */
export function settleMutations(schema: GraphQLSchema): GraphQLSchema {
  const mutation = schema.getMutationType();
  for (const field of Object.values(mutation?.getFields() ?? {})) field.resolve = settled((field.resolve ?? defaultFieldResolver) as Settled);
  return schema;
}

function settled(inner: Settled): Settled {
  if (inner[SETTLED]) return inner;
  const wrapped: Settled = async (source, args, context, info) => {
    try {
      return await inner(source, args, context, info);
    } finally {
      await context.deps?.authenticator.settle();
    }
  };
  wrapped[SETTLED] = true;
  return wrapped;
}
