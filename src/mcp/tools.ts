import type { GraphQLSchema } from 'graphql';
import type { RouteCall, RouteInput } from '../http/rest/rest.router';
import type { RestRoute } from '../http/rest/route';
import { isPathParameter, operationField } from '../http/rest/inputs';
import { openApiPath, OpenApiDocument } from '../http/rest/openapi';

type JsonObject = Record<string, unknown>;

/** What an MCP client is told about a tool (tools/list), and how a call reaches its route. */
export interface McpTool {
  name: string;
  title: string;
  description: string;
  inputSchema: JsonObject & { type: 'object' };
  outputSchema: JsonObject & { type: 'object' };
  annotations: { title: string; readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: boolean };
  route: RestRoute;
  call: RouteCall;
}

/** A route's stable tool name: its operation's root field in snake_case (`Query.catalogSongs` → `catalog_songs`). */
export function toolName(route: Pick<RestRoute, 'operation'>): string {
  return route.operation.split('.')[1]!.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** Routes that overwrite or remove what exists (beyond DELETE, PATCH and PUT): cancelling a run stops its work. */
const DESTRUCTIVE_POSTS = new Set(['Mutation.cancelRun']);

/**
 * One tool per documented REST route that needs credentials (the public onboarding routes stay on
 * REST: an agent gets its key there first). Each tool's input and output JSON Schemas are the
 * route's own in the OpenAPI document (built from the operation's zod schema and the route's
 * selection), made self-contained: its parameters and body members as one closed object, the
 * components it refers to under `$defs`.
 */
export function mcpTools(schema: GraphQLSchema, calls: Map<RestRoute, RouteCall>, openapi: OpenApiDocument): McpTool[] {
  const tools: McpTool[] = [];
  const names = new Set<string>();
  for (const [route, call] of calls) {
    if (route.public) continue;
    const name = toolName(route);
    if (names.has(name)) throw new Error(`Two REST routes make the MCP tool ${name}`);
    names.add(name);
    const operation = openapi.paths[openApiPath(route.path)]?.[route.method.toLowerCase()] as unknown as JsonObject | undefined;
    if (!operation) throw new Error(`The OpenAPI document has no ${route.method} ${route.path}`);
    const field = operationField(schema, route.operation);

    const properties: Record<string, unknown> = {};
    const required: string[] = [];
    for (const parameter of (operation.parameters ?? []) as { name: string; required?: boolean; schema: JsonObject; description?: string }[]) {
      properties[parameter.name] = parameter.description ? { ...parameter.schema, description: parameter.description } : parameter.schema;
      if (parameter.required) required.push(parameter.name);
    }
    const body = (operation.requestBody as { content: Record<string, { schema: JsonObject }> } | undefined)?.content['application/json']?.schema;
    if (body) {
      Object.assign(properties, body.properties as JsonObject);
      required.push(...((body.required as string[] | undefined) ?? []));
    }
    const inputSchema = selfContained(openapi, { type: 'object', properties, ...(required.length ? { required } : {}), additionalProperties: false });

    const status = String(route.responseStatus ?? 200);
    const answer = ((operation.responses as Record<string, { content?: Record<string, { schema?: JsonObject }> }>)[status]?.content?.['application/json']?.schema ?? {}) as JsonObject;
    const root = typeof answer.$ref === 'string' ? (openapi.components.schemas[answer.$ref.slice('#/components/schemas/'.length)] as unknown as JsonObject) : answer;
    if (root.type !== 'object') throw new Error(`${route.operation}: a tool's answer must be an object`);
    const outputSchema = selfContained(openapi, root);

    const readOnly = route.method === 'GET';
    const destructive = route.method === 'DELETE' || route.method === 'PATCH' || route.method === 'PUT' || DESTRUCTIVE_POSTS.has(route.operation);
    const title = String(operation.summary ?? name).split('\n')[0]!;
    tools.push({
      name,
      title,
      description: `${String(operation.description ?? title)}\n\nSame as REST ${route.method} ${openApiPath(route.path)}; the arguments are its path, query and body fields by their REST names.`,
      inputSchema: inputSchema as McpTool['inputSchema'],
      outputSchema: outputSchema as McpTool['outputSchema'],
      annotations: {
        title,
        readOnlyHint: readOnly,
        destructiveHint: !readOnly && destructive,
        // GET reads, PUT/PATCH set a state, DELETE of what is gone changes nothing more; POST creates anew.
        idempotentHint: route.method !== 'POST',
        // A paid research provider may be called.
        openWorldHint: field.extensions?.providerCall === true,
      },
      route,
      call,
    });
  }
  return tools;
}

/** A schema with the components it refers to (transitively) under `$defs`, and its references pointing there. */
function selfContained(openapi: OpenApiDocument, schema: JsonObject): JsonObject {
  const defs: Record<string, unknown> = {};
  const rewrite = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(rewrite);
    if (!node || typeof node !== 'object') return node;
    const out: JsonObject = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith('#/components/schemas/')) {
        const name = value.slice('#/components/schemas/'.length);
        if (!(name in defs)) {
          defs[name] = {};
          defs[name] = rewrite(openapi.components.schemas[name]);
        }
        out.$ref = `#/$defs/${name}`;
      } else out[key] = rewrite(value);
    }
    return out;
  };
  const root = rewrite(schema) as JsonObject;
  return Object.keys(defs).length ? { ...root, $defs: defs } : root;
}

/**
 * A tool's arguments as the REST route receives them: path parameters as text, the other
 * arguments as query text (GET: a number or boolean as its text, a list item by item, an object as
 * JSON) or as the JSON body members (every other method).
 */
export function routeInput(route: RestRoute, args: Record<string, unknown>): RouteInput {
  const params: Record<string, unknown> = {};
  const query: Record<string, unknown> = {};
  const body: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(args)) {
    if (isPathParameter(route, name)) params[name] = asText(value);
    else if (route.method === 'GET') query[name] = Array.isArray(value) ? value.map(asText) : asText(value);
    else body[name] = value;
  }
  return { params, query, body: route.method === 'GET' ? undefined : body };
}

function asText(value: unknown): unknown {
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value && typeof value === 'object') return JSON.stringify(value);
  return value;
}
