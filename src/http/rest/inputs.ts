import {
  GraphQLArgument,
  GraphQLInputField,
  GraphQLInputType,
  GraphQLSchema,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isScalarType,
} from 'graphql';
import { AppError, FieldProblem, invalidInput } from '../../common/errors';
import { restName } from '../../common/names';
import type { RestRoute } from './route';

const INT_MAX = 2 ** 31 - 1;
const INT_MIN = -(2 ** 31);

type Origin = 'path' | 'query' | 'body';

/** A route's input as the edge received it: path parameters, query parameters (text), the JSON body (non-GET). */
export interface RouteInput {
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  body: unknown;
}

/**
 * Parses raw REST input into the operation's variables: each argument from the path, else a
 * non-empty query value, else the body; checked against its GraphQL type (text is never coerced
 * loosely: "maybe" is no Boolean, decisions §1), then converted (text scalars through the scalar,
 * a lone query value as a one-item list). Any problem is a 400 naming every bad field. Bounds and
 * defaults are the operation's zod schema's, applied by its resolver. REST names each field by its
 * REST name (`account_id` for the GraphQL `accountId`, src/common/names.ts; a path parameter as the
 * route path names it); the variables carry the GraphQL names.
 */
export function parseRestInput(args: readonly (GraphQLArgument | GraphQLInputField)[], route: RestRoute, input: RouteInput): Record<string, unknown> {
  return restInputParser(args, route)(input);
}

/**
 * parseRestInput for one route, with what depends on the route only (its path parameters, each
 * field's REST name and origin, the known query and body members) worked out once: the REST face
 * builds one per route at start-up instead of per request (issue 31).
 */
export function restInputParser(args: readonly (GraphQLArgument | GraphQLInputField)[], route: RestRoute): (input: RouteInput) => Record<string, unknown> {
  const isGet = route.method === 'GET';
  const fields = args.map((arg) => {
    const name = restFieldName(route, arg.name);
    return { arg, name, inPath: isPathParameter(route, name) };
  });
  const refused = Object.entries(route.refusedFields ?? {});
  const required = Object.entries(route.requiredBodyFields ?? {});
  const inPath = new Set([...route.path.matchAll(/:(\w+)/g)].map((m) => m[1]!));
  const known = new Set([...fields.map((f) => f.name), ...refused.map(([field]) => field), ...required.map(([field]) => field)]);
  return (input) => {
    const body = input.body;
    if (body !== undefined && (typeof body !== 'object' || body === null || Array.isArray(body))) {
      throw new AppError('BAD_USER_INPUT', 'The request body must be a JSON object', {
        details: [{ field: 'body', message: 'must be a JSON object' }],
      });
    }
    const bodyObject = (body ?? {}) as Record<string, unknown>;
    const variables: Record<string, unknown> = {};
    const problems = unknownMembers(inPath, known, input.query, bodyObject);
    for (const [field, message] of refused) {
      if (input.query[field] !== undefined || bodyObject[field] !== undefined) problems.push({ field, message });
    }
    for (const [field, message] of required) {
      if (!(field in bodyObject)) problems.push({ field, message });
    }
    for (const { arg, name, inPath: fromPath } of fields) {
      let origin: Origin;
      let value: unknown;
      if (fromPath) {
        origin = 'path';
        value = input.params[name];
      } else if (input.query[name] !== undefined && input.query[name] !== '') {
        origin = 'query';
        value = input.query[name];
      } else {
        origin = isGet ? 'query' : 'body';
        value = isGet ? undefined : bodyObject[name];
        if (isGet && input.query[name] === '') value = '';
      }
      const before = problems.length;
      checkValue(arg.type, value, name, origin === 'body' ? 'json' : 'text', problems);
      // An empty query value means absent; an empty JSON string is a value.
      const absent = value === undefined || value === null || (origin !== 'body' && value === '');
      if (problems.length === before && !absent) variables[arg.name] = coerce(arg.type, value);
    }
    if (problems.length) throw invalidInput(problems);
    return variables;
  };
}

/**
 * Query parameters and body members the operation does not take, each a problem naming it (as
 * GraphQL refuses an unknown field: a typo'd `widht` must not render at the default width). Known:
 * the operation's fields under their REST names, and the route's refused and required keys (which have their own
 * messages). A path parameter is known in the path only: a query or body copy of it would be
 * ignored, so it is refused too. Members inside nested inputs are checked with their type.
 */
function unknownMembers(inPath: ReadonlySet<string>, known: ReadonlySet<string>, query: Record<string, unknown>, body: Record<string, unknown>): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const seen = new Set<string>();
  const check = (key: string, where: 'query' | 'body') => {
    if (seen.has(key)) return;
    if (inPath.has(key)) problems.push({ field: key, message: `is given in the path, not the ${where}` });
    else if (!known.has(key)) problems.push({ field: key, message: where === 'query' ? 'is not a known query parameter' : 'is not a known field' });
    else return;
    seen.add(key);
  };
  for (const key of Object.keys(query)) check(key, 'query');
  for (const key of Object.keys(body)) check(key, 'body');
  return problems;
}

/** Whether a route path has the parameter `:name`. */
export function isPathParameter(route: Pick<RestRoute, 'path'>, name: string): boolean {
  return route.path.split('/').includes(`:${name}`);
}

/** The name a route gives a field of its operation: a path parameter's own, else the field's REST name. */
export function restFieldName(route: Pick<RestRoute, 'path'>, graphqlName: string): string {
  if (isPathParameter(route, graphqlName)) return graphqlName;
  return restName(graphqlName);
}

function coerce(type: GraphQLInputType, value: unknown): unknown {
  if (isNonNullType(type)) return coerce(type.ofType, value);
  if (isListType(type)) return (Array.isArray(value) ? value : [value]).map((item) => coerce(type.ofType, item));
  if (isScalarType(type)) return type.name === 'Boolean' ? value === 'true' || value === true : type.serialize(value);
  if (isInputObjectType(type)) {
    const object = (typeof value === 'string' ? JSON.parse(value) : value) as Record<string, unknown>;
    // REST names → the input type's GraphQL names (a JSON scalar's own keys are left as they are).
    const out: Record<string, unknown> = {};
    for (const field of Object.values(type.getFields())) {
      const member = object[restName(field.name)];
      if (member !== undefined) out[field.name] = member === null ? null : coerce(field.type, member);
    }
    return out;
  }
  return value;
}

function checkValue(type: GraphQLInputType, value: unknown, field: string, mode: 'json' | 'text', problems: FieldProblem[]): void {
  if (isNonNullType(type)) {
    if (value === undefined || value === null || (mode === 'text' && value === '')) {
      problems.push({ field, message: 'is required' });
      return;
    }
    checkValue(type.ofType, value, field, mode, problems);
    return;
  }
  if (value === undefined || value === null) return;
  if (mode === 'text' && value === '') return;
  if (isListType(type)) {
    if (mode === 'text') {
      const items = Array.isArray(value) ? value : [value];
      items.forEach((item, i) => checkValue(type.ofType, item, `${field}[${i}]`, mode, problems));
      return;
    }
    if (!Array.isArray(value)) {
      problems.push({ field, message: 'must be an array' });
      return;
    }
    value.forEach((item, i) => checkValue(type.ofType, item, `${field}[${i}]`, mode, problems));
    return;
  }
  if (isInputObjectType(type)) {
    if (typeof value !== 'object' || Array.isArray(value)) {
      problems.push({ field, message: 'must be an object' });
      return;
    }
    const fields = Object.values(type.getFields());
    const obj = value as Record<string, unknown>;
    const known = new Set(fields.map((def) => restName(def.name)));
    for (const key of Object.keys(obj)) {
      if (!known.has(key)) problems.push({ field: `${field}.${key}`, message: 'is not a known field' });
    }
    for (const def of fields) checkValue(def.type, obj[restName(def.name)], `${field}.${restName(def.name)}`, 'json', problems);
    return;
  }
  if (isEnumType(type)) {
    const allowed = type.getValues().map((v) => v.name);
    if (typeof value !== 'string' || !allowed.includes(value)) {
      problems.push({ field, message: `must be one of: ${allowed.join(', ')}` });
    }
    return;
  }
  if (isScalarType(type)) {
    const message = checkScalar(type.name, value, mode);
    if (message) problems.push({ field, message });
    else if (!['String', 'ID', 'Int', 'Float', 'Boolean'].includes(type.name)) {
      try {
        type.parseValue(value);
      } catch (error) {
        problems.push({ field, message: (error as Error).message || `is not a valid ${type.name}` });
      }
    }
  }
}

function checkScalar(name: string, value: unknown, mode: 'json' | 'text'): string | undefined {
  if (mode === 'text' && typeof value !== 'string') return 'must be given once';
  switch (name) {
    case 'String':
      return typeof value === 'string' ? undefined : 'must be a string';
    case 'ID':
      return typeof value === 'string' || (typeof value === 'number' && Number.isInteger(value)) ? undefined : 'must be a string';
    case 'Int': {
      const n = mode === 'text' ? (/^-?\d{1,10}$/.test(value as string) ? Number(value) : NaN) : value;
      if (typeof n !== 'number' || !Number.isInteger(n)) return 'must be an integer';
      return n > INT_MAX || n < INT_MIN ? 'is out of range' : undefined;
    }
    case 'Float': {
      const n = mode === 'text' ? (/^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(value as string) ? Number(value) : NaN) : value;
      return typeof n === 'number' && Number.isFinite(n) ? undefined : 'must be a number';
    }
    case 'Boolean':
      if (mode === 'text') return value === 'true' || value === 'false' ? undefined : 'must be true or false';
      return typeof value === 'boolean' ? undefined : 'must be true or false';
    default:
      return undefined;
  }
}

export function operationField(schema: GraphQLSchema, operation: RestRoute['operation']) {
  const [typeName, fieldName] = operation.split('.') as ['Query' | 'Mutation', string];
  const type = typeName === 'Query' ? schema.getQueryType() : schema.getMutationType();
  const field = type?.getFields()[fieldName];
  if (!field) throw new Error(`REST route table names ${operation}, which the schema does not have`);
  return field;
}
