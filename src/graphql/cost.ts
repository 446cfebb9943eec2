import {
  DocumentNode,
  FragmentDefinitionNode,
  getArgumentValues,
  getNamedType,
  getNullableType,
  getOperationAST,
  GraphQLCompositeType,
  GraphQLField,
  GraphQLSchema,
  isCompositeType,
  isInterfaceType,
  isListType,
  isObjectType,
  Kind,
  SelectionSetNode,
} from 'graphql';

/** Field extension (type-graphql `@Extensions(PROVIDER_CALL)`) of a field whose resolver may call a paid provider, once per parent. */
export const PROVIDER_CALL = { providerCall: true } as const;

/**
 * Field extension of a provider-backed field resolved through one batch per request (a DataLoader):
 * one read of stored answers for every parent, then an upstream call per parent without a fresh
 * answer, each charged to the research budget as it is made (so the estimate charges none).
 */
export const PROVIDER_BATCH = { providerCall: true, providerBatch: true } as const;

/** Every root field costs 1; a provider-backed field costs this much per call instead, and a batched one per batch. */
export const PROVIDER_WEIGHT = 10;
/** Nested objects an operation may return cost 1 point per this many (DataLoaders batch each level into one statement). */
export const OBJECTS_PER_POINT = 100;
/** Parents of a batched provider field cost 1 point per this many, besides PROVIDER_WEIGHT for the batch. */
export const BATCH_ITEMS_PER_POINT = 10;
/**
 * Items counted for a list field with no `limit`/`first` argument and no declared bound
 * (`@Extensions(maxItems(n))`, src/common/bounds.ts). cost.test.ts lists the few fields without
 * one (membership lists, provider-shaped lists of one record); anything else declares its bound.
 */
export const UNBOUNDED_LIST_SIZE = 50;

const SIZE_ARGUMENTS = ['limit', 'first', 'last'];

export interface OperationCost {
  /** Points charged to the account's general budget. */
  cost: number;
  /** Provider calls of PROVIDER_CALL fields the operation may make: points charged to the research budget before it runs. */
  providerCalls: number;
}

/** `Type.field` names of the provider-backed fields of a schema, by how they reach the provider. */
export interface ProviderFields {
  /** Marked PROVIDER_CALL: a call per parent. */
  calls: Set<string>;
  /** Marked PROVIDER_BATCH: one batch per request. */
  batches: Set<string>;
}

export const noProviderFields = (): ProviderFields => ({ calls: new Set(), batches: new Set() });

/** The fields marked with PROVIDER_CALL or PROVIDER_BATCH in a type-graphql schema. */
export function providerFieldsOf(schema: GraphQLSchema): ProviderFields {
  const found = noProviderFields();
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) {
      if (field.extensions?.providerCall !== true) continue;
      (field.extensions.providerBatch === true ? found.batches : found.calls).add(`${type.name}.${field.name}`);
    }
  }
  return found;
}

/**
 * The weight of an operation, from its document alone (before it runs): root fields cost 1 each
 * (provider-backed ones PROVIDER_WEIGHT); nested objects cost 1 per OBJECTS_PER_POINT, a list
 * counting as many items as its `limit` (or its parent envelope's `limit`, else its declared bound)
 * for each item of the lists above it; each nested provider call costs PROVIDER_WEIGHT; each
 * selection of a batched provider field costs PROVIDER_WEIGHT once, plus 1 per BATCH_ITEMS_PER_POINT parents.
 */
export function operationCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null | undefined,
  variables: Record<string, unknown> | undefined,
  providerFields: ProviderFields,
): OperationCost {
  const operation = getOperationAST(document, operationName ?? undefined);
  const root = operation && schema.getRootType(operation.operation);
  if (!operation || !root) return { cost: 1, providerCalls: 0 };
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const def of document.definitions) if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);

  let rootPoints = 0;
  let objects = 0;
  let nestedCalls = 0;
  let providerCalls = 0;
  let batches = 0;
  let batchItems = 0;

  const visit = (set: SelectionSetNode, parent: GraphQLCompositeType, items: number, envelopeSize: number | undefined, isRoot: boolean, seen: Set<string>) => {
    for (const selection of set.selections) {
      if (selection.kind === Kind.INLINE_FRAGMENT) {
        const type = selection.typeCondition ? schema.getType(selection.typeCondition.name.value) : parent;
        if (type && isCompositeType(type)) visit(selection.selectionSet, type, items, envelopeSize, isRoot, seen);
        continue;
      }
      if (selection.kind === Kind.FRAGMENT_SPREAD) {
        const fragment = fragments.get(selection.name.value);
        const type = fragment && schema.getType(fragment.typeCondition.name.value);
        if (fragment && type && isCompositeType(type) && !seen.has(fragment.name.value)) {
          visit(fragment.selectionSet, type, items, envelopeSize, isRoot, new Set([...seen, fragment.name.value]));
        }
        continue;
      }
      // Introspection is governed by GRAPHQL_INTROSPECTION and the token limit.
      if (selection.name.value.startsWith('__')) continue;
      const field = isObjectType(parent) || isInterfaceType(parent) ? parent.getFields()[selection.name.value] : undefined;
      if (!field) continue;
      const coordinate = `${parent.name}.${field.name}`;
      const batched = providerFields.batches.has(coordinate);
      const provider = batched || providerFields.calls.has(coordinate);
      if (batched) {
        // The batch's calls are charged to the research budget as they are made (research.batch.ts).
        batches += 1;
        batchItems += items;
      } else {
        if (provider) providerCalls += items;
        if (isRoot) rootPoints += provider ? PROVIDER_WEIGHT : 1;
        else if (provider) nestedCalls += items;
      }
      const named = getNamedType(field.type);
      if (!isCompositeType(named) || !selection.selectionSet) continue;
      const args = argumentsOf(field, selection, variables);
      const own = sizeArgument(args);
      const list = isListType(getNullableType(field.type));
      const size = list ? (own ?? listSizeOf(field, args) ?? envelopeSize ?? declaredBound(field) ?? UNBOUNDED_LIST_SIZE) : 1;
      const produced = items * size;
      if (!isRoot) objects += produced;
      visit(selection.selectionSet, named, produced, list ? undefined : own, false, seen);
    }
  };
  visit(operation.selectionSet, root, 1, undefined, true, new Set());
  const batchPoints = batches * PROVIDER_WEIGHT + Math.ceil(batchItems / BATCH_ITEMS_PER_POINT);
  const cost = rootPoints + Math.floor(objects / OBJECTS_PER_POINT) + nestedCalls * PROVIDER_WEIGHT + batchPoints;
  return { cost: Math.max(1, cost), providerCalls };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function argumentsOf(field: GraphQLField<any, any>, node: Parameters<typeof getArgumentValues>[1], variables: Record<string, unknown> | undefined): Record<string, unknown> {
  try {
    return getArgumentValues(field, node, variables ?? {});
  } catch {
    // Invalid arguments fail validation or execution with their own error; weigh with defaults.
    return {};
  }
}

function sizeArgument(args: Record<string, unknown>): number | undefined {
  // An operation's one input object carries its page size as a member (`catalogSongs(input: {limit})`).
  const input = args.input && typeof args.input === 'object' ? (args.input as Record<string, unknown>) : {};
  for (const name of SIZE_ARGUMENTS) {
    const value = args[name] ?? input[name];
    if (typeof value === 'number' && Number.isFinite(value)) return Math.max(0, Math.floor(value));
  }
  return undefined;
}

/** Lists sized by an argument list rather than a number: federation's `_entities(representations)`. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function listSizeOf(field: GraphQLField<any, any>, args: Record<string, unknown>): number | undefined {
  if (field.name === '_entities' && Array.isArray(args.representations)) return args.representations.length;
  // A mutation answering one item per input item (`itemsPerInput`, src/common/bounds.ts).
  const member = field.extensions?.itemsPerInput;
  const input = args.input && typeof args.input === 'object' ? (args.input as Record<string, unknown>) : undefined;
  return typeof member === 'string' && Array.isArray(input?.[member]) ? (input[member] as unknown[]).length : undefined;
}

/** The most items a list field ever returns, as its type declares it (`maxItems` extension). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function declaredBound(field: GraphQLField<any, any>): number | undefined {
  const bound = field.extensions?.maxItems;
  return typeof bound === 'number' && Number.isInteger(bound) && bound >= 0 ? bound : undefined;
}
