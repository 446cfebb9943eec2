import { GraphQLArgument, GraphQLInputField, GraphQLInputType, GraphQLSchema, isEnumType, isInputObjectType, isListType, isNonNullType, isScalarType } from 'graphql';
import type { z } from 'zod';
import { restName } from '../../src/common/names';

/**
 * Whether an operation's GraphQL input and the zod schema it is parsed with say the same thing:
 * the same fields (a GraphQL field fills the zod key of its name or of its REST name), each as
 * optional (GraphQL nullable ⇔ zod accepts it absent or null), as much a list, of the same kind
 * (number, string, boolean, object, JSON), through nested input objects. Answers the disagreements,
 * each naming its field.
 */
export function inputDisagreements(fields: readonly (GraphQLArgument | GraphQLInputField)[], schema: z.core.$ZodType, options: { settledElsewhere?: readonly string[] } = {}, path = ''): string[] {
  const object = core(schema);
  const shape = (object._zod.def as { shape?: Record<string, z.core.$ZodType> }).shape;
  if (!shape) return [`${path || 'input'}: the zod schema is not an object`];
  const problems: string[] = [];
  const named = new Set<string>();
  for (const field of fields) {
    const at = path ? `${path}.${field.name}` : field.name;
    if (!path && options.settledElsewhere?.includes(field.name)) continue;
    const key = field.name in shape ? field.name : restName(field.name) in shape ? restName(field.name) : undefined;
    if (key === undefined) {
      problems.push(`${at}: in GraphQL, not in the zod schema`);
      continue;
    }
    named.add(key);
    problems.push(...fieldDisagreements(at, field.type, shape[key]!));
  }
  for (const key of Object.keys(shape)) if (!named.has(key)) problems.push(`${path ? `${path}.` : ''}${key}: in the zod schema, not in GraphQL`);
  return problems;
}

function fieldDisagreements(at: string, type: GraphQLInputType, schema: z.core.$ZodType): string[] {
  const optional = acceptsAbsence(schema);
  if (isNonNullType(type) === optional) return [`${at}: ${isNonNullType(type) ? 'required in GraphQL, optional in zod' : 'optional in GraphQL, required in zod'}`];
  const inner = isNonNullType(type) ? type.ofType : type;
  const zodInner = core(schema);
  const zodKind = kindOf(zodInner);
  if (isListType(inner) !== (zodKind === 'list')) return [`${at}: ${isListType(inner) ? 'a list in GraphQL, not in zod' : 'a list in zod, not in GraphQL'}`];
  if (isListType(inner)) {
    const element = (zodInner._zod.def as unknown as { element: z.core.$ZodType }).element;
    // The items: non-null in GraphQL, never absent in zod (an item cannot be left out of a list).
    const itemType = isNonNullType(inner.ofType) ? inner.ofType.ofType : inner.ofType;
    return itemDisagreements(`${at}[]`, itemType, element);
  }
  return itemDisagreements(at, inner, schema);
}

function itemDisagreements(at: string, type: GraphQLInputType, schema: z.core.$ZodType): string[] {
  const zodInner = core(schema);
  const want = graphqlKind(type);
  const have = kindOf(zodInner);
  if (have !== 'any' && want !== have) return [`${at}: ${want} in GraphQL, ${have} in zod`];
  if (isInputObjectType(type) && have === 'object') return inputDisagreements(Object.values(type.getFields()), zodInner, {}, at);
  return [];
}

type Kind = 'number' | 'string' | 'boolean' | 'object' | 'json' | 'list' | 'any';

function graphqlKind(type: GraphQLInputType): Kind {
  if (isListType(type)) return 'list';
  if (isInputObjectType(type)) return 'object';
  if (isEnumType(type)) return 'string';
  if (isScalarType(type)) {
    if (type.name === 'Int' || type.name === 'Float') return 'number';
    if (type.name === 'Boolean') return 'boolean';
    if (type.name === 'String' || type.name === 'ID' || type.name === 'DateTimeISO') return 'string';
    return 'json';
  }
  return 'any';
}

function kindOf(schema: z.core.$ZodType): Kind {
  const def = schema._zod.def as { type: string; options?: z.core.$ZodType[]; values?: unknown[] };
  switch (def.type) {
    case 'number':
    case 'int':
      return 'number';
    case 'string':
    case 'enum':
      return 'string';
    case 'literal':
      return typeof def.values?.[0] === 'string' ? 'string' : typeof def.values?.[0] === 'number' ? 'number' : 'any';
    case 'boolean':
      return 'boolean';
    case 'object':
      return 'object';
    case 'record':
      return 'json';
    case 'array':
      return 'list';
    case 'union': {
      const kinds = new Set((def.options ?? []).map((o) => kindOf(core(o))));
      return kinds.size === 1 ? [...kinds][0]! : 'any';
    }
    default:
      return 'any';
  }
}

/** Whether zod takes the field absent (or null: GraphQL's nulls are absent values to the schemas): an optional, nullable or defaulted schema, through pipes. */
function acceptsAbsence(schema: z.core.$ZodType): boolean {
  let current = schema;
  for (let i = 0; i < 20; i++) {
    const def = current._zod.def as { type: string; innerType?: z.core.$ZodType; in?: z.core.$ZodType; getter?: () => z.core.$ZodType };
    if (['optional', 'nullable', 'default', 'prefault'].includes(def.type)) return true;
    if (def.innerType) current = def.innerType;
    else if (def.type === 'pipe' && def.in) current = def.in;
    else if (def.type === 'lazy' && def.getter) current = def.getter();
    else break;
  }
  return (schema as z.ZodType).safeParse(undefined).success;
}

/** The schema inside optional, nullable, default, pipe and the like. */
function core(schema: z.core.$ZodType): z.core.$ZodType {
  let current = schema;
  for (let i = 0; i < 20; i++) {
    const def = current._zod.def as { type: string; innerType?: z.core.$ZodType; in?: z.core.$ZodType; getter?: () => z.core.$ZodType };
    if (def.innerType) current = def.innerType;
    else if (def.type === 'pipe' && def.in) current = def.in;
    else if (def.type === 'lazy' && def.getter) current = def.getter();
    else break;
  }
  return current;
}

/** An operation's input fields: the members of its one `input` argument, else its arguments. */
export function operationFields(schema: GraphQLSchema, operation: string): readonly (GraphQLArgument | GraphQLInputField)[] {
  const [root, name] = operation.split('.') as [string, string];
  const type = root === 'Query' ? schema.getQueryType() : root === 'Mutation' ? schema.getMutationType() : schema.getSubscriptionType();
  const field = type?.getFields()[name];
  if (!field) throw new Error(`${operation}: no such field`);
  const [only] = field.args;
  if (field.args.length === 1 && only!.name === 'input') {
    const input = isNonNullType(only!.type) ? only!.type.ofType : only!.type;
    if (isInputObjectType(input)) return Object.values(input.getFields());
  }
  return field.args;
}
