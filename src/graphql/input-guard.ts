import type { ApolloServerPlugin } from '@apollo/server';
import { defaultFieldResolver, GraphQLArgument, GraphQLError, GraphQLField, GraphQLFieldResolver, GraphQLInputField, GraphQLSchema, isInputObjectType, isNonNullType, isObjectType } from 'graphql';
import { AppError } from '../common/errors';
import { guardInput, inputProblems } from '../common/input-guard';
import { renameFieldPath, renameFieldWords, renameProblemFields } from '../common/names';
import { rootOf } from './pass-through';

const GUARDED = Symbol('arguments guarded');

/**
 * The root value of an operation whose variables were already guarded whole, raw, by its face
 * (the REST router and the MCP tools through it, `inputProblems` over the path, query and body
 * before anything parses them): its root field's arguments are made from those values only, so
 * the root field's guard does not walk them again (it still names the field's problems). Any other
 * field, and every operation run with another root value, is guarded as usual (a run that passes
 * lists through has a root of its own standing for this one: `rootOf` sees through it).
 */
export const INPUT_GUARDED: object = Object.freeze({});
type Guarded = GraphQLFieldResolver<unknown, unknown> & { [GUARDED]?: true };

/**
 * Every field that takes arguments checks them (after coercion, so variables and literals alike,
 * named as the argument, or as the member of an `input` argument: `title`, `songs[0].name`) for characters PostgreSQL cannot store before
 * it resolves. It sits in the schema, so HTTP, websockets and the REST face (sofa) all run it.
 * Idempotent: a schema built from an already guarded one keeps one guard per field.
 *
 * The guard also names the fields of the BAD_USER_INPUT a field answers by their GraphQL names
 * (`songs[0].catalogId`): the operations' zod schemas and services name them by their REST names
 * (src/common/names.ts), the one rule relating both.
 */
export function guardArguments(schema: GraphQLSchema): GraphQLSchema {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) {
      if (!field.args.length) continue;
      const fields = inputFields(field);
      field.resolve = guard(field.resolve ?? defaultFieldResolver, fields);
      if (field.subscribe) field.subscribe = guard(field.subscribe, fields);
    }
  }
  return schema;
}

/** What a field's problems are named after: the members of its one `input` argument, else its arguments. */
function inputFields(field: GraphQLField<unknown, unknown>): readonly (GraphQLArgument | GraphQLInputField)[] {
  const [only] = field.args;
  if (field.args.length === 1 && only!.name === 'input') {
    const type = isNonNullType(only!.type) ? only!.type.ofType : only!.type;
    if (isInputObjectType(type)) return Object.values(type.getFields());
  }
  return field.args;
}

function guard(inner: Guarded, fields: readonly (GraphQLArgument | GraphQLInputField)[]): Guarded {
  if (inner[GUARDED]) return inner;
  const named = (error: unknown): never => {
    throw renameProblemFields(
      error,
      (path) => renameFieldPath(path, fields, (f) => f.name),
      (message) => renameFieldWords(message, fields, (f) => f.name),
    );
  };
  const guarded: Guarded = (source, args, context, info) => {
    // An operation's one `input` object is named by its members (`songs[0].name`), as its validation names them.
    const keys = Object.keys(args);
    try {
      if (rootOf(source) === INPUT_GUARDED) {
        // Guarded before parsing (see INPUT_GUARDED).
      } else if (keys.length === 1 && keys[0] === 'input' && args.input && typeof args.input === 'object') guardInput(args.input, '');
      else guardInput(args, '');
      const result = inner(source, args, context, info) as unknown;
      if (result && typeof (result as Promise<unknown>).then === 'function') return (result as Promise<unknown>).then(undefined, named);
      return result;
    } catch (error) {
      return named(error);
    }
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
