import {
  DocumentNode,
  FragmentDefinitionNode,
  GraphQLArgument,
  GraphQLField,
  GraphQLInputField,
  GraphQLSchema,
  isInputObjectType,
  isNonNullType,
  Kind,
  parse,
  visit,
} from 'graphql';
import type { RestRoute } from './route';
import { REST_SHAPES } from './shapes';

/**
 * Members of a paged operation's input that REST does not take: cursor paging (`first`, `after`).
 * A REST page answers `pagination`, not `pageInfo`, so it carries no cursor to page on with; REST
 * pages by `page` and `limit` (src/common/paging.ts).
 */
export const GRAPHQL_ONLY_MEMBERS: ReadonlySet<string> = new Set(['first', 'after']);

/**
 * The fields a REST route takes (path, query or body): the members of the operation's one `input`
 * argument when it has one (a mutation's input type, a complex query's), else its arguments;
 * cursor paging's members left out (GRAPHQL_ONLY_MEMBERS).
 */
export function restFields(field: GraphQLField<unknown, unknown>): { fields: readonly (GraphQLArgument | GraphQLInputField)[]; inputArg?: string } {
  const [only] = field.args;
  if (field.args.length === 1 && only!.name === 'input') {
    const type = isNonNullType(only!.type) ? only!.type.ofType : only!.type;
    if (isInputObjectType(type)) return { fields: Object.values(type.getFields()).filter((f) => !GRAPHQL_ONLY_MEMBERS.has(f.name)), inputArg: 'input' };
  }
  return { fields: field.args.filter((a) => !GRAPHQL_ONLY_MEMBERS.has(a.name)) };
}

/** The REST shapes (named fragments) a selection uses, with those they use in turn. */
function fragmentsOf(selection: string): FragmentDefinitionNode[] {
  const wanted = new Map<string, FragmentDefinitionNode>();
  const pending = [...selection.matchAll(/\.\.\.\s*([A-Za-z_]\w*)/g)].map((m) => m[1]!);
  while (pending.length) {
    const name = pending.pop()!;
    if (wanted.has(name)) continue;
    const source = REST_SHAPES[name];
    if (!source) throw new Error(`No REST shape named ${name} (src/http/rest/shapes.ts)`);
    const node = parse(source).definitions[0] as FragmentDefinitionNode;
    wanted.set(name, node);
    visit(node.selectionSet, { FragmentSpread: (spread) => void pending.push(spread.name.value) });
  }
  return [...wanted.values()];
}

/**
 * The document a REST route runs and documents: its operation with the route's selection, REST
 * shapes spread in as named fragments (validated against the schema at start-up).
 */
export function routeDocument(schema: GraphQLSchema, route: Pick<RestRoute, 'operation' | 'select'>): DocumentNode {
  // Built once per schema and route: the REST executor and the OpenAPI document read the same one.
  let built = documentsBySchema.get(schema);
  if (!built) documentsBySchema.set(schema, (built = new WeakMap()));
  let document = built.get(route);
  if (!document) built.set(route, (document = buildRouteDocument(schema, route)));
  return document;
}

const documentsBySchema = new WeakMap<GraphQLSchema, WeakMap<Pick<RestRoute, 'operation' | 'select'>, DocumentNode>>();

function buildRouteDocument(schema: GraphQLSchema, route: Pick<RestRoute, 'operation' | 'select'>): DocumentNode {
  const [kind, fieldName] = route.operation.split('.') as ['Query' | 'Mutation', string];
  const root = kind === 'Query' ? schema.getQueryType() : schema.getMutationType();
  const field = root?.getFields()[fieldName];
  if (!field) throw new Error(`REST route table names ${route.operation}, which the schema does not have`);
  const variables = field.args.map((arg) => `$${arg.name}: ${String(arg.type)}`).join(', ');
  const args = field.args.map((arg) => `${arg.name}: $${arg.name}`).join(', ');
  const selection = route.select.trim() ? ` { ${route.select} }` : '';
  const text = `${kind === 'Query' ? 'query' : 'mutation'} ${fieldName}${variables ? `(${variables})` : ''} { ${fieldName}${args ? `(${args})` : ''}${selection} }`;
  return { kind: Kind.DOCUMENT, definitions: [...parse(text).definitions, ...fragmentsOf(route.select)] };
}
