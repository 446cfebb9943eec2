import type { ApolloServerPlugin } from '@apollo/server';
import { defaultFieldResolver, GraphQLError, GraphQLFieldResolver, GraphQLSchema, isObjectType } from 'graphql';
import { AppError } from '../common/errors';
import { guardInput, inputProblems } from '../common/input-guard';

const GUARDED = Symbol('arguments guarded');
type Guarded = GraphQLFieldResolver<unknown, unknown> & { [GUARDED]?: true };

/**
 * Every field that takes arguments checks them (after coercion, so variables and literals alike,
 * named as the argument, or as the member of an `input` argument: `title`, `songs[0].name`) for characters PostgreSQL cannot store before
 * it resolves. It sits in the schema, so HTTP, websockets and the REST face (sofa) all run it.
 * Idempotent: a schema built from an already guarded one keeps one guard per field.
 */
export function guardArguments(schema: GraphQLSchema): GraphQLSchema {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) {
      if (!field.args.length) continue;
      field.resolve = guard(field.resolve ?? defaultFieldResolver);
      if (field.subscribe) field.subscribe = guard(field.subscribe);
    }
  }
  return schema;
}

function guard(inner: Guarded): Guarded {
  if (inner[GUARDED]) return inner;
  const guarded: Guarded = (source, args, context, info) => {
    // An operation's one `input` object is named by its members (`songs[0].name`), as its validation names them.
    const keys = Object.keys(args);
    if (keys.length === 1 && keys[0] === 'input' && args.input && typeof args.input === 'object') guardInput(args.input, '');
    else guardInput(args, '');
    return inner(source, args, context, info);
  };
  guarded[GUARDED] = true;
  return guarded;
}

/**
 * Depth problems of GraphQL variables (nothing recursive has walked them yet) as a BAD_USER_INPUT
 * error; `httpStatus` adds the status Apollo answers it with.
 */
export function variablesError(variables: unknown, maxDepth: number, httpStatus?: number): GraphQLError | undefined {
  const problems = inputProblems(variables ?? {}, '', { maxDepth, depthField: 'variables', strings: false });
  if (!problems.length) return undefined;
  const error = new AppError('BAD_USER_INPUT', `Invalid input: variables: ${problems[0].message}`, { details: problems });
  return new GraphQLError(error.message, { originalError: error, extensions: { ...error.extensions, ...(httpStatus ? { http: { status: httpStatus } } : {}) } });
}

/** Refuses GraphQL variables nested deeper than REQUEST_MAX_DEPTH before the operation executes. */
export function variablesDepthPlugin<C extends object>(maxDepth: number): ApolloServerPlugin<C> {
  return {
    async requestDidStart() {
      return {
        // Apollo answers an error thrown here with its extensions.http status.
        async didResolveOperation({ request }) {
          const error = variablesError(request.variables, maxDepth, 400);
          if (error) throw error;
        },
      };
    },
  };
}
