import { GraphQLArgument, GraphQLInputField, GraphQLInputType, isInputObjectType, isListType, isNonNullType } from 'graphql';
import { AppError, FieldProblem } from './errors';

/**
 * The one rule for a field's names on the two faces. GraphQL names are camelCase; the REST contract
 * (docs/api/rest.md) names the same field in snake_case (`accountId` ↔ `account_id`), except the fields
 * below, which the contract has always named in camelCase. A REST path parameter is named by the
 * route path itself (`/organizations/:id/members/:accountId`).
 *
 * The operations' zod schemas (`<domain>.inputs.ts`) key each field by its REST name (or its GraphQL
 * name, where both are the same); `validate` reads a GraphQL input into them by these names.
 */
const REST_KEEPS_CAMEL_CASE = new Set(['artistName', 'chatId', 'sessionId', 'runId', 'modelId', 'compositionId', 'durationInFrames', 'inputProps']);

/** The REST name of a GraphQL field or argument: `platformATrackId` → `platform_a_track_id`. */
export function restName(graphqlName: string): string {
  if (REST_KEEPS_CAMEL_CASE.has(graphqlName)) return graphqlName;
  return graphqlName.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** The GraphQL name of a REST (or zod) field name: `platform_a_track_id` → `platformATrackId`; camelCase stays. */
export function graphqlName(name: string): string {
  return name.replace(/(?<=[a-z0-9])_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

type InputFieldLike = GraphQLArgument | GraphQLInputField;

function fieldsOf(type: GraphQLInputType): readonly InputFieldLike[] | undefined {
  let inner = type;
  while (isNonNullType(inner) || isListType(inner)) inner = inner.ofType;
  return isInputObjectType(inner) ? Object.values(inner.getFields()) : undefined;
}

/**
 * Renames the members of a problem's field path (`songs[0].catalog_id`), walking the GraphQL input
 * fields it names: a segment that is one of them (by its GraphQL or REST name) is named by `name`;
 * past a scalar (a JSON object's own keys) and for anything else (`body`, `query`) the path stays.
 */
export function renameFieldPath(
  path: string,
  fields: readonly InputFieldLike[],
  name: (field: InputFieldLike, depth: number) => string,
): string {
  let current: readonly InputFieldLike[] | undefined = fields;
  const segments = path.split('.');
  return segments
    .map((segment, depth) => {
      const match = /^([^[]*)(.*)$/.exec(segment)!;
      const [, key = '', indexes = ''] = match;
      const field: InputFieldLike | undefined = current?.find((f) => f.name === key || restName(f.name) === key);
      if (!field) {
        current = undefined;
        return segment;
      }
      current = fieldsOf(field.type);
      return `${name(field, depth)}${indexes}`;
    })
    .join('.');
}

/**
 * A problem's message with the operation's own fields it names (`one of isrc, stats_track_id`)
 * renamed as its field path is: words that are a top-level field's GraphQL or REST name.
 */
export function renameFieldWords(message: string, fields: readonly InputFieldLike[], name: (field: InputFieldLike, depth: number) => string): string {
  return message.replace(/\b[a-z][A-Za-z0-9_]*\b/g, (word) => {
    const field = fields.find((f) => f.name === word || restName(f.name) === word);
    return field && (word.includes('_') || /[A-Z]/.test(word)) ? name(field, 0) : word;
  });
}

/**
 * The same error with each `details` field renamed (and the message naming it): how a face names
 * the fields of a BAD_USER_INPUT its operation answered. Any other error is returned as it is.
 * `words`, when given, renames the fields a problem's message names.
 */
export function renameProblemFields(error: unknown, rename: (field: string) => string, words?: (message: string) => string): unknown {
  if (!(error instanceof AppError) || error.code !== 'BAD_USER_INPUT' || !error.details?.length) return error;
  let changed = false;
  let message = error.message;
  const details: FieldProblem[] = error.details.map((problem) => {
    const field = rename(problem.field);
    const text = words ? words(problem.message) : problem.message;
    if (field === problem.field && text === problem.message) return problem;
    changed = true;
    message = message.replace(`${problem.field}: ${problem.message}`, `${field}: ${text}`).replace(`${problem.field}: `, `${field}: `);
    return { ...problem, field, message: text };
  });
  if (!changed) return error;
  return new AppError(error.code, message, { details, retryAfter: error.retryAfter, cause: error.cause });
}
