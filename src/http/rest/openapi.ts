import {
  DocumentNode,
  FragmentDefinitionNode,
  GraphQLArgument,
  GraphQLInputField,
  GraphQLInputType,
  GraphQLOutputType,
  GraphQLSchema,
  isEnumType,
  isInterfaceType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  GraphQLNonNull,
  GraphQLInterfaceType,
  GraphQLObjectType,
  Kind,
  OperationDefinitionNode,
  SelectionSetNode,
} from 'graphql';
import { OpenAPI } from 'sofa-api';
import { z } from 'zod';
import { ERROR_CODES } from '../../common/errors';
import { ERROR_STATUS, ErrorBody } from '../../common/error-status';
import { restFields, routeDocument } from './documents';
import { isPathParameter, operationField, restFieldName } from './inputs';
import { restName } from '../../common/names';
import type { RestRoute } from './route';

type JsonObject = Record<string, unknown>;
type Schema = JsonObject;
type Operation = JsonObject;

/** The OpenAPI 3.1 document as plain JSON (the parts this module and its tests read are typed). */
export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  servers?: { url: string }[];
  tags?: { name: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema>; securitySchemes: Record<string, JsonObject> };
}

export const API_BASE = '/api';
export const SECURITY_SCHEMES = { apiKey: 'ApiKeyAuth', bearer: 'BearerAuth' } as const;
const ERROR_SCHEMA = 'ErrorResponse';

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid input: a field missing, of the wrong type, out of bounds, an unknown enum value, or bad JSON (`details` names each field)',
  401: 'No credentials, invalid, expired or revoked credentials, or both x-api-key and Authorization',
  403: 'Valid credentials without access to the requested account_id, organization_id or resource',
  404: 'Absent, or not visible to the caller',
  409: 'Uniqueness clash, or (on a POST) a request with this Idempotency-Key is still being processed: retry after `Retry-After` seconds',
  422: 'This Idempotency-Key was used with another request body or route (UNPROCESSABLE_CONTENT)',
  415: 'The request has a body that is not `application/json` (UTF-8)',
  429: 'Rate limit exceeded (RATE_LIMITED: the per-minute budget of the account, or of the client address without credentials); retry after `Retry-After` seconds',
  500: 'Unexpected error (the message is masked; the request id is in x-request-id)',
  502: 'An upstream provider answered with an error',
  503: 'Provider not configured, circuit open, or database unavailable; retry after `Retry-After` seconds',
  504: 'An upstream provider did not answer in time',
};

/** The example body of each error status: its own code (the one the status table maps to it). */
const ERROR_EXAMPLES: Record<number, ErrorBody> = {
  400: { status: 'error', error: 'Invalid input', code: 'BAD_USER_INPUT', details: [{ field: 'limit', message: 'must be at most 100' }] },
  401: { status: 'error', error: 'Authentication required: send x-api-key or Authorization: Bearer', code: 'UNAUTHENTICATED' },
  403: { status: 'error', error: 'No access to this account', code: 'FORBIDDEN' },
  404: { status: 'error', error: 'Not found', code: 'NOT_FOUND' },
  409: { status: 'error', error: 'A template with this title exists', code: 'CONFLICT' },
  422: { status: 'error', error: 'This Idempotency-Key was used with another request body or route; use a new key for a new request', code: 'UNPROCESSABLE_CONTENT', details: [{ field: 'Idempotency-Key', message: 'was used with another request body or route' }] },
  415: { status: 'error', error: 'The body must be application/json', code: 'UNSUPPORTED_MEDIA_TYPE' },
  429: { status: 'error', error: 'Rate limit exceeded: retry after 12 seconds', code: 'RATE_LIMITED' },
  500: { status: 'error', error: 'Internal server error', code: 'INTERNAL_SERVER_ERROR' },
  502: { status: 'error', error: 'The provider answered with an error', code: 'PROVIDER_ERROR' },
  503: { status: 'error', error: 'The provider is unavailable: retry later', code: 'PROVIDER_UNAVAILABLE' },
  504: { status: 'error', error: 'The provider did not answer in time', code: 'PROVIDER_TIMEOUT' },
};

export interface OpenApiOptions {
  title?: string;
  version?: string;
}

/**
 * The OpenAPI 3.1 document of the REST route table. sofa-api generates each route's operation and
 * the components of the input types from the route's document; the route table adds what sofa
 * cannot know: path ({param}) and method, path/query parameters (body fields only in requestBody),
 * bounds, defaults and enums from the route's zod `input`, the 200 schema from the route's
 * selection in its envelope (REST shapes as components), the error body (decisions §1) for each
 * error status the route can answer, operationId and description, and both security schemes on
 * every route that needs credentials.
 */
export function buildOpenApiDocument(schema: GraphQLSchema, routes: RestRoute[], options: OpenApiOptions = {}): OpenApiDocument {
  const customScalars = scalarSchemas(schema);
  const generator = OpenAPI({ schema, info: { title: '', version: '' }, customScalars });
  const documents = new Map(routes.map((route) => [route, routeDocument(schema, route)]));
  for (const route of routes) {
    generator.addRoute(
      { document: documents.get(route)!, path: route.path, method: route.method, tags: route.tags, description: route.description },
      { basePath: API_BASE },
    );
  }
  // Each route's answer, documented from its selection and envelope (REST shapes as components).
  const answers: Record<string, Schema> = {};
  const generated = generator.get() as unknown as { paths: Record<string, Record<string, JsonObject>>; components: { schemas: Record<string, JsonObject> } };

  const paths: OpenApiDocument['paths'] = {};
  const operationIds = new Set<string>();
  for (const route of routes) {
    const path = openApiPath(route.path);
    const method = route.method.toLowerCase();
    const key = `${route.method} ${path}`;
    const sofaOperation = generated.paths[path]?.[method];
    if (!sofaOperation) throw new Error(`sofa generated no operation for ${key}`);
    paths[path] ??= {};
    if (paths[path]![method]) throw new Error(`The route table lists ${key} twice`);
    const answer = answerSchema(schema, route, documents.get(route)!, answers, customScalars);
    paths[path]![method] = operationFor(schema, route, sofaOperation, operationIds, customScalars, answer);
  }

  const schemas: Record<string, Schema> = {};
  // sofa's components: the input types request bodies refer to (its answer components are not referred to),
  // their members under their REST names.
  Object.assign(schemas, restNamedInputs(schema, generated.components.schemas), answers);
  // Input objects are closed, in the body as in the graph: an unknown member is a 400 naming it.
  for (const [name, component] of Object.entries(schemas)) {
    if (isInputObjectType(schema.getType(name))) schemas[name] = closedObjects(component as JsonObject) as Schema;
  }
  schemas[ERROR_SCHEMA] = errorSchema();

  const tags = [...new Set(routes.flatMap((r) => r.tags ?? []))].sort().map((name) => ({ name }));
  const document: OpenApiDocument = {
    openapi: '3.1.0',
    info: {
      title: options.title ?? 'Music Agent Service REST API',
      version: options.version ?? '0.1.0',
      description: [
        'REST face of the music agent service; the same operations are served as GraphQL at /graphql.',
        'Every route except the public ones needs exactly one credential: the `x-api-key` header or `Authorization: Bearer <JWT>` (both at once is a 401).',
        'Every failure answers `{ status: "error", error, code, details? }` with the status of its code.',
        'Input is closed: a query parameter or body member (at any depth) that an operation does not document is a 400 `BAD_USER_INPUT` naming it in `details`.',
      ].join('\n\n'),
    },
    servers: [{ url: '/' }],
    tags,
    paths,
    components: {
      schemas,
      securitySchemes: {
        [SECURITY_SCHEMES.apiKey]: { type: 'apiKey', in: 'header', name: 'x-api-key', description: 'A personal API key (POST /api/keys, or agent onboarding)' },
        [SECURITY_SCHEMES.bearer]: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: "The user's access token from the identity provider" },
      },
    },
  };
  return pruneComponents(document);
}

/** sofa documents input object types by their GraphQL field names: REST names their members by their REST names. */
function restNamedInputs(schema: GraphQLSchema, components: Record<string, JsonObject>): Record<string, JsonObject> {
  const out: Record<string, JsonObject> = {};
  for (const [name, component] of Object.entries(components)) {
    const properties = component.properties as Record<string, JsonObject> | undefined;
    if (!isInputObjectType(schema.getType(name)) || !properties) {
      out[name] = component;
      continue;
    }
    const required = component.required as string[] | undefined;
    out[name] = {
      ...component,
      ...(required ? { required: required.map(restName) } : {}),
      properties: Object.fromEntries(Object.entries(properties).map(([key, value]) => [restName(key), value])),
    };
  }
  return out;
}

/** `/things/:id` → `/api/things/{id}`. */
export function openApiPath(routePath: string): string {
  return API_BASE + routePath.replace(/:(\w+)/g, '{$1}');
}

function operationFor(
  schema: GraphQLSchema,
  route: RestRoute,
  sofaOperation: JsonObject,
  operationIds: Set<string>,
  customScalars: Record<string, JsonObject>,
  answer: JsonObject | undefined,
): Operation {
  const field = operationField(schema, route.operation);
  const { fields } = restFields(field);
  const fieldName = route.operation.split('.')[1]!;
  let operationId = fieldName;
  for (let i = 2; operationIds.has(operationId); i++) operationId = `${fieldName}${i}`;
  operationIds.add(operationId);

  const input = zodInput(route);
  const parameters: JsonObject[] = [];
  const bodyProperties: Record<string, Schema> = {};
  const bodyRequired: string[] = [];
  for (const arg of fields) {
    // The field as REST names it (src/common/names.ts); the zod schema keys it by that name or its GraphQL one.
    const name = restFieldName(route, arg.name);
    const zodKey = name in input.properties ? name : arg.name;
    const argSchema = mergeSchemas(inputSchema(arg.type, customScalars), input.properties[zodKey]);
    const description = arg.description ?? (input.properties[zodKey]?.description as string | undefined);
    const required = isNonNullType(arg.type) || input.required.includes(zodKey);
    if (isPathParameter(route, name)) {
      parameters.push({ name, in: 'path', required: true, schema: argSchema, ...(description ? { description } : {}) });
    } else if (route.method === 'GET') {
      parameters.push({ name, in: 'query', required, schema: argSchema, ...(description ? { description } : {}) });
    } else {
      bodyProperties[name] = description ? { ...argSchema, description } : argSchema;
      if (required) bodyRequired.push(name);
    }
  }

  // Every POST takes an Idempotency-Key (src/http/idempotency.ts; docs/api/idempotency.md).
  if (route.method === 'POST') parameters.push(IDEMPOTENCY_KEY_PARAMETER(route.public === true));

  const success = String(route.responseStatus ?? 200);
  const sofaResponse = (sofaOperation.responses as Record<string, JsonObject>)['200'];
  const description = route.description ?? field.description ?? `${route.method} ${openApiPath(route.path)}`;
  const responses: Record<string, JsonObject> = {
    [success]: { description: field.description ?? 'Success', content: answer ? { 'application/json': { schema: answer } } : (sofaResponse?.content ?? {}) },
  };
  for (const status of errorStatuses(route, fields)) {
    responses[String(status)] = {
      description: ERROR_DESCRIPTIONS[status] ?? 'Error',
      content: { 'application/json': { schema: { $ref: `#/components/schemas/${ERROR_SCHEMA}` }, ...(ERROR_EXAMPLES[status] ? { example: ERROR_EXAMPLES[status] } : {}) } },
      ...(status === 429 || status === 503 || (status === 409 && route.method === 'POST') ? { headers: { 'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'integer' } } } } : {}),
    };
  }

  return {
    operationId,
    summary: field.description ?? description,
    description,
    tags: route.tags ?? [],
    ...(parameters.length ? { parameters } : {}),
    ...(Object.keys(bodyProperties).length
      ? {
          requestBody: {
            required: bodyRequired.length > 0,
            content: {
              'application/json': {
                // A member the operation does not take is a 400 naming it (src/http/rest/inputs.ts), at any depth.
                schema: closedObjects({ type: 'object', properties: bodyProperties, ...(bodyRequired.length ? { required: bodyRequired } : {}) }),
                ...(route.example ? { example: route.example } : {}),
              },
            },
          },
        }
      : {}),
    responses,
    security: route.public ? [] : [{ [SECURITY_SCHEMES.apiKey]: [] }, { [SECURITY_SCHEMES.bearer]: [] }],
  };
}

/** The Idempotency-Key header parameter of a POST (IETF draft "The Idempotency-Key HTTP Header Field"). */
const IDEMPOTENCY_KEY_PARAMETER = (isPublic: boolean): JsonObject => ({
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]([\\x20-\\x7e]*[\\x21-\\x7e])?$' },
  description: isPublic
    ? 'Honoured only with credentials (keys belong to an account): without them this route runs every request.'
    : 'A unique key (a UUID) for this request: a repeat with the same key and body within IDEMPOTENCY_TTL_HOURS (24) answers the first answer again, status and body, with `Idempotency-Replayed: true`, and does nothing twice. The same key with another body is a 422; a repeat while the first is running is a 409 with Retry-After. Keys are per account.',
});

/**
 * The error statuses a route can answer: 400 when it takes input, 415 when it reads a body, 401 and
 * (with input) 403 when it needs credentials, 404 with path parameters or id arguments, 429 (every
 * route is rate limited), 500 and 503 always, plus what the route declares in `errors`.
 */
const ID_ARG = /(^id$|_id$|[a-z]Id$)/;

export function errorStatuses(route: RestRoute, args: readonly (GraphQLArgument | GraphQLInputField)[]): number[] {
  const statuses = new Set<number>([429, 500, 503]);
  if (args.length) statuses.add(400);
  if (route.method !== 'GET') statuses.add(415);
  // An Idempotency-Key of an account: 409 while its first request runs, 422 with another body.
  if (route.method === 'POST' && !route.public) {
    statuses.add(409);
    statuses.add(422);
  }
  if (!route.public) {
    statuses.add(401);
    if (args.length) statuses.add(403);
  }
  // A path parameter, or an argument naming a row (id, *_id, *Id), may name one that is absent or hidden.
  if (/:\w+/.test(route.path) || args.some((a) => ID_ARG.test(a.name))) statuses.add(404);
  for (const code of route.errors ?? []) statuses.add(ERROR_STATUS[code]);
  return [...statuses].sort((a, b) => a - b);
}

function errorSchema(): Schema {
  return {
    type: 'object',
    description: 'The one error body of every REST failure (decisions §1)',
    required: ['status', 'error', 'code'],
    properties: {
      status: { type: 'string', enum: ['error'] },
      error: { type: 'string', description: 'Human-readable message; never a stack, SQL or a secret' },
      code: { type: 'string', enum: [...ERROR_CODES] },
      details: {
        type: 'array',
        description: 'On a 400: each invalid or missing field',
        items: { type: 'object', required: ['field', 'message'], properties: { field: { type: 'string' }, message: { type: 'string' } } },
      },
    },
  };
}

function zodInput(route: RestRoute): { properties: Record<string, JsonObject>; required: string[] } {
  if (!route.input) return { properties: {}, required: [] };
  const json = z.toJSONSchema(route.input, { io: 'input', unrepresentable: 'any' }) as { properties?: Record<string, JsonObject>; required?: string[] };
  return { properties: json.properties ?? {}, required: json.required ?? [] };
}

/** GraphQL's type of an argument, overlaid with the zod schema's bounds, defaults, enums and formats. */
function mergeSchemas(graphql: JsonObject, zod: JsonObject | undefined): Schema {
  if (!zod || !Object.keys(zod).length) return graphql as Schema;
  const { $schema: _schema, ...given } = zod;
  // zod writes an optional nullable value as anyOf [schema, null]: keep one schema, nullable.
  let overlay: JsonObject = given;
  let nullable = false;
  const branches = given.anyOf as JsonObject[] | undefined;
  if (Array.isArray(branches) && branches.length === 2 && branches.some((b) => b.type === 'null')) {
    const { anyOf: _anyOf, ...rest } = given;
    overlay = { ...branches.find((b) => b.type !== 'null')!, ...rest };
    nullable = true;
  }
  const merged: JsonObject = { ...graphql, ...overlay };
  if (nullable && typeof merged.type === 'string') merged.type = [merged.type, 'null'];
  if ('$ref' in graphql && !('$ref' in overlay) && ['type', 'anyOf', 'oneOf', 'allOf', 'enum', 'properties', 'items'].some((k) => k in overlay)) delete merged.$ref;
  if (graphql.type === 'integer' && overlay.type === 'number') merged.type = 'integer';
  if (graphql.type === 'integer' && overlay.type === 'integer' && graphql.format) merged.format = graphql.format;
  // zod's int() bounds are the safe-integer range; a GraphQL Int is 32 bits.
  if (merged.format === 'int32') {
    if (typeof merged.maximum !== 'number' || merged.maximum > INT32_MAX) merged.maximum = INT32_MAX;
    if (typeof merged.minimum === 'number' && merged.minimum < -INT32_MAX - 1) merged.minimum = -INT32_MAX - 1;
  }
  return merged as Schema;
}

function inputSchema(type: GraphQLInputType, scalars: Record<string, JsonObject>): JsonObject {
  if (isNonNullType(type)) return inputSchema(type.ofType, scalars);
  if (isListType(type)) return { type: 'array', items: inputSchema(type.ofType, scalars) };
  if (isEnumType(type)) return { type: 'string', enum: type.getValues().map((v) => v.name) };
  if (isInputObjectType(type)) return { $ref: `#/components/schemas/${type.name}` };
  if (isScalarType(type)) return { ...(PRIMITIVES[type.name] ?? scalars[type.name] ?? {}) };
  return {};
}

const INT32_MAX = 2 ** 31 - 1;

/**
 * A copy of an input schema whose objects with declared properties admit no others (REST input is
 * closed: src/http/rest/inputs.ts). An object that says what its other members may be (a render's
 * `inputProps`, free-form here and checked by its composition's own schema) keeps saying so.
 */
function closedObjects(node: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'properties' && value && typeof value === 'object') {
      out[key] = Object.fromEntries(Object.entries(value as Record<string, JsonObject>).map(([name, member]) => [name, closedObjects(member)]));
    } else if ((key === 'items' || key === 'additionalProperties') && value && typeof value === 'object' && !Array.isArray(value)) {
      out[key] = closedObjects(value as JsonObject);
    } else if ((key === 'anyOf' || key === 'oneOf' || key === 'allOf') && Array.isArray(value)) {
      out[key] = (value as JsonObject[]).map(closedObjects);
    } else out[key] = value;
  }
  if (out.properties && !('additionalProperties' in out)) out.additionalProperties = false;
  return out;
}

const PRIMITIVES: Record<string, JsonObject> = {
  Int: { type: 'integer', format: 'int32' },
  Float: { type: 'number', format: 'float' },
  String: { type: 'string' },
  Boolean: { type: 'boolean' },
  ID: { type: 'string' },
};

/**
 * The 200 schema of a route with a `select`: what the selection takes of the operation's type, each
 * REST shape it spreads a component of that name, wrapped in the route's envelope (a component too).
 */
function answerSchema(schema: GraphQLSchema, route: RestRoute, document: DocumentNode, components: Record<string, Schema>, scalars: Record<string, JsonObject>): JsonObject {
  const operation = document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;
  const fragments = new Map(
    document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((f) => [f.name.value, f]),
  );
  const rootField = operation.selectionSet.selections[0]!;
  if (rootField.kind !== Kind.FIELD) throw new Error(`${route.operation}: the REST document must select its root field`);
  const field = operationField(schema, route.operation);

  const objectSchema = (type: GraphQLObjectType | GraphQLInterfaceType, set: SelectionSetNode): JsonObject => {
    const only = set.selections.length === 1 ? set.selections[0]! : undefined;
    if (only?.kind === Kind.FRAGMENT_SPREAD) {
      const name = only.name.value;
      if (!components[name]) {
        components[name] = {}; // a shape that (indirectly) contains itself refers to its own component
        components[name] = { ...objectSchema(type, fragments.get(name)!.selectionSet), ...(type.description ? { description: type.description } : {}) };
      }
      return { $ref: `#/components/schemas/${name}` };
    }
    const properties: Record<string, JsonObject> = {};
    const required: string[] = [];
    const add = (selections: SelectionSetNode): void => {
      for (const selection of selections.selections) {
        if (selection.kind === Kind.FRAGMENT_SPREAD) add(fragments.get(selection.name.value)!.selectionSet);
        else if (selection.kind === Kind.INLINE_FRAGMENT) add(selection.selectionSet);
        else if (selection.name.value !== '__typename') {
          const def = type.getFields()[selection.name.value]!;
          const key = selection.alias?.value ?? selection.name.value;
          const member = typeSchema(def.type, selection.selectionSet);
          properties[key] = def.description && !('$ref' in member) ? { ...member, description: def.description } : member;
          if (isNonNullType(def.type)) required.push(key);
        }
      }
    };
    add(set);
    return { type: 'object', ...(required.length ? { required } : {}), properties };
  };
  const typeSchema = (type: GraphQLOutputType, set: SelectionSetNode | undefined): JsonObject => {
    if (!isNonNullType(type)) return nullable(typeSchema(new GraphQLNonNull(type), set));
    const inner = type.ofType;
    if (isListType(inner)) return { type: 'array', items: typeSchema(inner.ofType, set) };
    if (isEnumType(inner)) return { type: 'string', enum: inner.getValues().map((v) => v.name) };
    if (isScalarType(inner)) return { ...(PRIMITIVES[inner.name] ?? scalars[inner.name] ?? {}) };
    if ((isObjectType(inner) || isInterfaceType(inner)) && set) return objectSchema(inner, set);
    throw new Error(`${route.operation}: a REST answer cannot carry ${String(inner)} without a selection`);
  };

  // A query's root field is nullable in the graph (a failure is its null and error); a REST route answers 200 only with a
  // result: the failure is answered as its error.
  const result = typeSchema(isNonNullType(field.type) ? field.type : new GraphQLNonNull(field.type), rootField.selectionSet);
  const envelope = route.answer;
  if (!envelope) return result;
  const resolved = (s: JsonObject): JsonObject => ('$ref' in s ? components[String(s.$ref).replace('#/components/schemas/', '')]! : s);
  const body = resolved(result) as { properties: Record<string, JsonObject>; required?: string[] };
  const status = { type: 'string', enum: [envelope.status ?? 'success'] };
  let wrapped: JsonObject;
  if ('spread' in envelope) {
    wrapped = { type: 'object', required: ['status', ...(body.required ?? [])], properties: { status, ...body.properties } };
  } else if (envelope.page) {
    wrapped = {
      type: 'object',
      // A page type may leave its pagination null (one item asked for by id): then it is not required.
      required: ['status', envelope.key, ...(body.required?.includes('pagination') ? ['pagination'] : [])],
      properties: { status, [envelope.key]: body.properties.items!, pagination: body.properties.pagination! },
    };
  } else if (envelope.items) {
    wrapped = { type: 'object', required: ['status', envelope.key], properties: { status, [envelope.key]: body.properties.items! } };
  } else {
    wrapped = { type: 'object', required: ['status', envelope.key], properties: { status, [envelope.key]: result } };
  }
  components[envelope.name] = { ...wrapped, description: envelope.description ?? `Answer of ${route.method} ${openApiPath(route.path)}` };
  return { $ref: `#/components/schemas/${envelope.name}` };
}

/** JSON schemas of the custom scalars: graphql-scalars carry one (`extensions.jsonSchema`); JSON is any value. */
function scalarSchemas(schema: GraphQLSchema): Record<string, JsonObject> {
  const out: Record<string, JsonObject> = {};
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isScalarType(type) || PRIMITIVES[type.name] || type.name.startsWith('__')) continue;
    const given = (type.extensions as { jsonSchema?: JsonObject } | undefined)?.jsonSchema;
    const { title: _title, ...jsonSchema } = given ?? {};
    out[type.name] = given ? jsonSchema : type.name === 'JSON' ? {} : { type: 'string' };
    if (type.description && !out[type.name]!.description) out[type.name] = { ...out[type.name], description: type.description.split('\n')[0] };
  }
  return out;
}

function nullable(s: JsonObject): JsonObject {
  if ('$ref' in s) {
    const { description, ...ref } = s;
    return { anyOf: [ref, { type: 'null' }], ...(description ? { description } : {}) };
  }
  const out: JsonObject = { ...s };
  if (typeof s.type === 'string') out.type = [s.type, 'null'];
  else if (!s.type) return out;
  if (Array.isArray(s.enum)) out.enum = [...s.enum, null];
  return out;
}

/** Keeps only the component schemas the operations reach, sorted by name (stable output). */
function pruneComponents(document: OpenApiDocument): OpenApiDocument {
  const all = document.components.schemas;
  const used = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith('#/components/schemas/')) {
        const name = value.slice('#/components/schemas/'.length);
        if (!used.has(name)) {
          used.add(name);
          visit(all[name]);
        }
      } else visit(value);
    }
  };
  visit(document.paths);
  document.components.schemas = Object.fromEntries([...used].sort().map((name) => [name, all[name]!]));
  return document;
}
