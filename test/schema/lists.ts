import {
  getNamedType,
  getNullableType,
  GraphQLArgument,
  GraphQLField,
  GraphQLInputField,
  GraphQLSchema,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
} from 'graphql';

/**
 * The list rules of the graph (issue 27), checked over a schema:
 * - a page type (a type named `…Page`, or any type with an `items` list and a `pagination`) has
 *   exactly the one shape `{ items: [X!]!, pagination: Pagination, pageInfo: PageInfo! }`;
 * - a field answering a page takes both paging styles: `limit` and `page` (offset paging) and
 *   `first` and `after` (cursor paging), as arguments or as members of its `input`;
 * - every other list field declares its bound (`maxItems`, src/common/bounds.ts) and is listed
 *   among the fixed lists with the reason it is not a page.
 * Fixed lists are keyed `Type.field` with the field name in camelCase, so a rename to camelCase
 * keeps its entry.
 */
export type FixedLists = Record<string, string>;

const camel = (name: string) => name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

const PAGING: Record<string, string> = { limit: 'Int', page: 'Int', first: 'Int', after: 'String' };

function isPageType(name: string, fields: Record<string, unknown>): boolean {
  return name.endsWith('Page') || ('items' in fields && 'pagination' in fields);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function pagingMembers(field: GraphQLField<any, any>): Map<string, GraphQLArgument | GraphQLInputField> {
  const members = new Map<string, GraphQLArgument | GraphQLInputField>(field.args.map((a) => [a.name, a]));
  const input = field.args.find((a) => a.name === 'input');
  const inputType = input && getNullableType(input.type);
  if (inputType && isInputObjectType(inputType)) for (const member of Object.values(inputType.getFields())) members.set(member.name, member);
  return members;
}

/**
 * Every breach of the list rules in `schema`, one line each (empty when it keeps them). `unbounded`
 * names plain lists known to have no bound yet, each with why: they are not reported as unbounded
 * (they must still be listed as fixed), and an entry that is bounded now is reported as stale.
 */
export function listProblems(schema: GraphQLSchema, fixed: FixedLists, unbounded: FixedLists = {}): string[] {
  const problems: string[] = [];
  const seenFixed = new Set<string>();
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    const fields = type.getFields();
    const page = isPageType(type.name, fields);
    if (page) {
      const names = Object.keys(fields).sort().join(', ');
      if (names !== 'items, pageInfo, pagination') problems.push(`${type.name} is a page type but has the fields ${names}, not exactly items, pagination, pageInfo`);
      const items = fields.items?.type;
      if (items && !(isNonNullType(items) && isListType(items.ofType) && isNonNullType(items.ofType.ofType))) problems.push(`${type.name}.items is ${String(items)}, not a non-null list of non-null items`);
      if (fields.pagination && getNamedType(fields.pagination.type).name !== 'Pagination') problems.push(`${type.name}.pagination is not a Pagination`);
      if (fields.pageInfo && String(fields.pageInfo.type) !== 'PageInfo!') problems.push(`${type.name}.pageInfo is ${String(fields.pageInfo.type)}, not PageInfo!`);
    }
    for (const field of Object.values(fields)) {
      const key = `${type.name}.${camel(field.name)}`;
      const named = getNamedType(field.type);
      if (isObjectType(named) && isPageType(named.name, named.getFields())) {
        const members = pagingMembers(field);
        for (const [name, scalar] of Object.entries(PAGING)) {
          const member = members.get(name);
          if (!member) problems.push(`${type.name}.${field.name} answers a page but takes no ${name}`);
          else if (String(member.type) !== scalar) problems.push(`${type.name}.${field.name}'s ${name} is ${String(member.type)}, not ${scalar}`);
        }
        continue;
      }
      if (!isListType(getNullableType(field.type))) continue;
      if (page && field.name === 'items') continue;
      const bound = field.extensions?.maxItems;
      if (typeof bound === 'number' && unbounded[key] !== undefined) problems.push(`${key} declares a bound now: remove it from the unbounded lists`);
      if (typeof bound !== 'number' && unbounded[key] === undefined) problems.push(`${type.name}.${field.name} is a list with no declared bound (maxItems)`);
      if (fixed[key] === undefined) problems.push(`${type.name}.${field.name} is a plain list: make it a page, or list it as fixed with the reason`);
      else seenFixed.add(key);
    }
  }
  for (const key of Object.keys(fixed)) if (!seenFixed.has(key)) problems.push(`${key} is listed as a fixed list but is no plain list of the schema`);
  for (const key of Object.keys(unbounded)) if (!seenFixed.has(key)) problems.push(`${key} is listed as unbounded but is no fixed list of the schema`);
  return problems;
}
