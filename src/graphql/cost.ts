import {
  ArgumentNode,
  BREAK,
  DocumentNode,
  FieldNode,
  FragmentDefinitionNode,
  getArgumentValues,
  getNamedType,
  getNullableType,
  getOperationAST,
  GraphQLCompositeType,
  GraphQLField,
  GraphQLObjectType,
  GraphQLSchema,
  isAbstractType,
  isCompositeType,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isListType,
  isObjectType,
  Kind,
  OperationDefinitionNode,
  SchemaMetaFieldDef,
  SelectionSetNode,
  TypeMetaFieldDef,
  visit,
} from 'graphql';
import type { WalkStats } from './limits';
import { SerializedList } from './pass-through';

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

/** What a selection costs, per item of its parent. */
interface Tally {
  rootPoints: number;
  objects: number;
  nestedCalls: number;
  providerCalls: number;
  /** Selections of a batched provider field: one batch per request each, however many parents. */
  batches: number;
  batchItems: number;
}

const emptyTally = (): Tally => ({ rootPoints: 0, objects: 0, nestedCalls: 0, providerCalls: 0, batches: 0, batchItems: 0 });

/** Adds `from` for `items` parents: everything scales with the parents but batches (one per selection). */
function addTally(into: Tally, from: Tally, items: number): void {
  into.rootPoints += from.rootPoints * items;
  into.objects += from.objects * items;
  into.nestedCalls += from.nestedCalls * items;
  into.providerCalls += from.providerCalls * items;
  into.batches += from.batches;
  into.batchItems += from.batchItems * items;
}

/**
 * The weight of a selection set for one parent item. Lists sized by their envelope's `limit`
 * (`catalogSongs(input: {limit}) { items }`) depend on where the selection is: the weight is
 * `fixed`, plus `perEnvelopeItem` times the envelope's size when there is one, else `unenveloped`.
 * Kept apart, a fragment is weighed once wherever it is spread.
 */
interface Weight {
  fixed: Tally;
  perEnvelopeItem: Tally;
  unenveloped: Tally;
}

const emptyWeight = (): Weight => ({ fixed: emptyTally(), perEnvelopeItem: emptyTally(), unenveloped: emptyTally() });

function addWeight(into: Weight, from: Weight): void {
  addTally(into.fixed, from.fixed, 1);
  addTally(into.perEnvelopeItem, from.perEnvelopeItem, 1);
  addTally(into.unenveloped, from.unenveloped, 1);
}

/** The tally of a weight in an envelope of `size` items, or in none. */
function inEnvelope(weight: Weight, size: number | undefined): Tally {
  const tally = emptyTally();
  addTally(tally, weight.fixed, 1);
  if (size === undefined) addTally(tally, weight.unenveloped, 1);
  else addTally(tally, weight.perEnvelopeItem, size);
  return tally;
}

/**
 * The weight of an operation, from its document alone (before it runs): root fields cost 1 each
 * (provider-backed ones PROVIDER_WEIGHT, `__schema`/`__type` too); nested objects cost 1 per
 * OBJECTS_PER_POINT, a list counting as many items as `listItems` says for each item of the lists
 * above it (introspection lists included: `__schema { types { fields } }` weighs what the schema
 * holds); each nested provider call costs PROVIDER_WEIGHT; each selection of a batched provider
 * field costs PROVIDER_WEIGHT once, plus 1 per BATCH_ITEMS_PER_POINT parents.
 *
 * Each fragment is weighed once (per root or nested position) and then scaled by the items of
 * wherever it is spread, so the work is linear in the document however fragments nest.
 */
export function operationCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null | undefined,
  variables: Record<string, unknown> | undefined,
  providerFields: ProviderFields,
  stats?: WalkStats,
): OperationCost {
  const plan = operationPlan(schema, document, operationName, providerFields);
  if (!plan) return { cost: 1, providerCalls: 0 };
  plan.weights ??= planWeights(schema, plan, providerFields);
  // Each fragment's weight is worked out once for this operation (it depends on the variables), then scaled wherever it is spread.
  const memo = new Map<SetPlan, Weight>();

  const weigh = (set: SetPlan): Weight => {
    if (stats) stats.visited += set.selections;
    const weight = emptyWeight();
    for (const entry of set.entries) {
      if (entry.kind === 'inline') {
        addWeight(weight, weigh(entry.plan));
        continue;
      }
      if (entry.kind === 'spread') {
        let fragmentWeight = memo.get(entry.plan);
        if (!fragmentWeight) memo.set(entry.plan, (fragmentWeight = weigh(entry.plan)));
        addWeight(weight, fragmentWeight);
        continue;
      }
      const own = weight.fixed;
      if (entry.batched) {
        // The batch's calls are charged to the research budget as they are made (research.batch.ts).
        own.batches += 1;
        own.batchItems += 1;
      } else {
        if (entry.provider) own.providerCalls += 1;
        if (entry.isRoot) own.rootPoints += entry.provider ? PROVIDER_WEIGHT : 1;
        else if (entry.provider) own.nestedCalls += 1;
      }
      if (!entry.below) continue;
      const args = entry.args ?? argumentsOf(entry.field, entry.node, variables);
      const below = weigh(entry.below);
      const object = entry.isRoot ? 0 : 1;
      if (!entry.isList) {
        // An object: its lists may take their size from this field's own `limit` (an envelope).
        own.objects += object;
        addTally(own, inEnvelope(below, sizeArgument(args)), 1);
        continue;
      }
      // A list: each item is an object with what is below it, in no envelope.
      const item = inEnvelope(below, undefined);
      item.objects += object;
      const items = listItems(schema, entry.parent, entry.field, args);
      if ('items' in items) {
        addTally(own, item, items.items);
      } else {
        addTally(weight.perEnvelopeItem, item, 1);
        addTally(weight.unenveloped, item, items.withoutEnvelope);
      }
    }
    return weight;
  };
  const total = inEnvelope(weigh(plan.weights), undefined);
  const batchPoints = total.batches * PROVIDER_WEIGHT + Math.ceil(total.batchItems / BATCH_ITEMS_PER_POINT);
  const cost = total.rootPoints + Math.floor(total.objects / OBJECTS_PER_POINT) + total.nestedCalls * PROVIDER_WEIGHT + batchPoints;
  return { cost: Math.max(1, cost), providerCalls: total.providerCalls };
}

/**
 * What weighing an operation needs from its document, schema and provider fields alone, worked
 * out the first time the operation is weighed and kept with its document (Apollo keeps a parsed
 * document in its store and hands the same one to every request that sends that query; a REST
 * route runs one document): the operation's selection sets with each field's definition, whether
 * it calls a provider, and its arguments when they name no variable. A request then only reads the
 * arguments that take variables and adds up.
 */
interface OperationPlan {
  operation: OperationDefinitionNode;
  root: GraphQLObjectType;
  /** The document's fragments by name (both walks follow spreads through them). */
  fragments: Map<string, FragmentDefinitionNode>;
  /** For operationCost, made on its first call. */
  weights?: SetPlan;
  /** For answerCost, made on its first call. */
  answers?: AnswerPlan;
}

/** A selection set under a type: its selections' entries (fields the schema does not have, `__typename` included, have none). */
interface SetPlan {
  /** How many selections the set has (WalkStats counts them each time the set is weighed). */
  selections: number;
  entries: PlanEntry[];
}

type PlanEntry =
  | { kind: 'inline'; plan: SetPlan }
  /** A fragment spread: `plan` is the fragment's, one per fragment (and per root or nested position) for the whole document. */
  | { kind: 'spread'; plan: SetPlan }
  | FieldEntry;

interface FieldEntry {
  kind: 'field';
  node: FieldNode;
  parent: GraphQLCompositeType;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  field: GraphQLField<any, any>;
  isRoot: boolean;
  batched: boolean;
  provider: boolean;
  isList: boolean;
  /** The selection below an object or list field; undefined for a leaf. */
  below?: SetPlan;
  /** Its arguments when they name no variable (the same for every request); else read per request. */
  args?: Record<string, unknown>;
}

/** Per schema and provider fields, each document's operation plans, by operation name; kept as long as the document is. */
const plans = new WeakMap<GraphQLSchema, WeakMap<ProviderFields, WeakMap<DocumentNode, Map<string | null | undefined, OperationPlan>>>>();

function operationPlan(schema: GraphQLSchema, document: DocumentNode, operationName: string | null | undefined, providerFields: ProviderFields): OperationPlan | undefined {
  let bySchema = plans.get(schema);
  if (!bySchema) plans.set(schema, (bySchema = new WeakMap()));
  let byDocument = bySchema.get(providerFields);
  if (!byDocument) bySchema.set(providerFields, (byDocument = new WeakMap()));
  let byName = byDocument.get(document);
  const known = byName?.get(operationName);
  if (known) return known;
  const operation = getOperationAST(document, operationName ?? undefined);
  const root = operation && schema.getRootType(operation.operation);
  // Nothing is kept for a name the document has no operation for: what is kept is bounded by the document.
  if (!operation || !root) return undefined;
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const def of document.definitions) if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);
  const plan: OperationPlan = { operation, root, fragments };
  if (!byName) byDocument.set(document, (byName = new Map()));
  byName.set(operationName, plan);
  return plan;
}

/** The selection sets of an operation as operationCost weighs them: each fragment planned once (per root or nested position). */
function planWeights(schema: GraphQLSchema, plan: OperationPlan, providerFields: ProviderFields): SetPlan {
  const { fragments } = plan;
  const fragmentPlans = new Map<string, SetPlan>();
  const inProgress = new Set<string>();

  const planSet = (set: SelectionSetNode, parent: GraphQLCompositeType, isRoot: boolean): SetPlan => {
    const entries: PlanEntry[] = [];
    for (const selection of set.selections) {
      if (selection.kind === Kind.INLINE_FRAGMENT) {
        const type = selection.typeCondition ? schema.getType(selection.typeCondition.name.value) : parent;
        if (type && isCompositeType(type)) entries.push({ kind: 'inline', plan: planSet(selection.selectionSet, type, isRoot) });
        continue;
      }
      if (selection.kind === Kind.FRAGMENT_SPREAD) {
        const key = `${selection.name.value}${isRoot ? ' (root)' : ''}`;
        let fragmentPlan = fragmentPlans.get(key);
        if (!fragmentPlan) {
          const fragment = fragments.get(selection.name.value);
          const type = fragment && schema.getType(fragment.typeCondition.name.value);
          // A fragment inside itself (a cycle, which validation refuses) weighs nothing the second time.
          if (!fragment || !type || !isCompositeType(type) || inProgress.has(key)) continue;
          inProgress.add(key);
          fragmentPlan = planSet(fragment.selectionSet, type, isRoot);
          inProgress.delete(key);
          fragmentPlans.set(key, fragmentPlan);
        }
        entries.push({ kind: 'spread', plan: fragmentPlan });
        continue;
      }
      const field = fieldOf(schema, parent, selection.name.value, isRoot);
      if (!field) continue;
      const coordinate = `${parent.name}.${field.name}`;
      const batched = providerFields.batches.has(coordinate);
      const named = getNamedType(field.type);
      const entry: FieldEntry = {
        kind: 'field',
        node: selection,
        parent,
        field,
        isRoot,
        batched,
        provider: batched || providerFields.calls.has(coordinate),
        isList: isListType(getNullableType(field.type)),
      };
      if (isCompositeType(named) && selection.selectionSet) {
        entry.below = planSet(selection.selectionSet, named, false);
        if (!namesVariable(selection.arguments ?? [])) entry.args = argumentsOf(field, selection, undefined);
      }
      entries.push(entry);
    }
    return { selections: set.selections.length, entries };
  };
  return planSet(plan.operation.selectionSet, plan.root, true);
}

/** Whether an argument list uses a variable anywhere in its values (then its values differ from request to request). */
function namesVariable(nodes: readonly ArgumentNode[]): boolean {
  let found = false;
  for (const node of nodes) {
    visit(node.value, {
      Variable() {
        found = true;
        return BREAK;
      },
    });
    if (found) return true;
  }
  return false;
}

/**
 * The weight of an operation from its answer (after it ran), by the same model as `operationCost`
 * but with what was actually read: each list counts the items it answered, each object present
 * counts, a batched provider field counts 10 per selection that answered any parent plus 1 per 10
 * parents it answered, and provider calls count `PROVIDER_WEIGHT` per upstream call actually made
 * (`providerCallsMade`, counted by the research service; answers served from storage cost none).
 * Root fields cost 1 each as written, provider-backed ones too. Absent keys (a field skipped by
 * `@skip`/`@include`, a fragment on another type) cost nothing, and a null (an error) nothing below it.
 *
 * Walks the document once (each selection set flattened once per type: the fields that can weigh,
 * by response key, fragments spread in with their multiplicity) and then the answer by its keys:
 * a selection the answer does not hold (skipped, another type's) and leaves below the root cost
 * no work per answer object, so the work is linear in the document plus the answer, and for
 * fields a document repeats, in what the estimate counted for them.
 * For an answer within the bounds the estimate counts (a list no longer than its `limit` or declared
 * bound), the result is at most `operationCost(...).cost` for the same document; the charge settles
 * on the smaller of the two anyway (`settledCost`).
 */
export function answerCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null | undefined,
  data: unknown,
  providerFields: ProviderFields,
  providerCallsMade: number,
  stats?: WalkStats,
): number {
  const plan = operationPlan(schema, document, operationName, providerFields);
  if (!plan || !isRecord(data)) return 1;
  plan.answers ??= new AnswerPlan(schema, plan.fragments, plan.root, providerFields);
  const answers = plan.answers;
  // Selections of a batched provider field that answered at least one parent: a batch each.
  const batches = new Set<FieldNode>();
  /** Adds to `tally` the weight of an answered value (an object, a list of them, nested lists) of a field with `below` under it. */
  const visitAnswer = (tally: Tally, item: unknown, below: Flat, count: number, isRoot: boolean): void => {
    // A list passed through as the database wrote it: the objects it holds, counted by the database.
    if (item instanceof SerializedList) {
      tally.objects += item.objects * count;
      return;
    }
    if (Array.isArray(item)) {
      for (const each of item) visitAnswer(tally, each, below, count, isRoot);
      return;
    }
    if (!isRecord(item)) return;
    if (!isRoot) tally.objects += count;
    // Nothing below weighs (a list of credits, say): the object counts, its keys need no look.
    if (below.size > 0) addTally(tally, walk(item, below, false), count);
  };
  /** An answer object's tally under the fields that weigh: only the keys it holds are looked at. */
  const walk = (value: Record<string, unknown>, flat: Flat, isRoot: boolean): Tally => {
    const tally = emptyTally();
    for (const key of Object.keys(value)) {
      const nodes = flat.get(key);
      if (!nodes) continue;
      const child = value[key];
      for (const [node, { parent, count }] of nodes) {
        if (stats) stats.visited += 1;
        const facts = answers.factsOf(node, parent, stats);
        if (facts.batched) {
          batches.add(node);
          tally.batchItems += count;
        } else if (isRoot) {
          tally.rootPoints += count;
        }
        if (facts.below) visitAnswer(tally, child, facts.below, count, isRoot);
      }
    }
    return tally;
  };
  const total = walk(data, answers.flatten(plan.operation.selectionSet, plan.root, stats), true);
  const batchPoints = batches.size * PROVIDER_WEIGHT + Math.ceil(total.batchItems / BATCH_ITEMS_PER_POINT);
  const cost = total.rootPoints + Math.floor(total.objects / OBJECTS_PER_POINT) + Math.max(0, providerCallsMade) * PROVIDER_WEIGHT + batchPoints;
  return Math.max(1, cost);
}

/** What a field node under a parent type weighs by in an answer. */
interface Facts {
  batched: boolean;
  /** The fields that weigh below it; undefined for a leaf. */
  below: Flat | undefined;
}

/**
 * What answerCost needs from a document (with its schema and provider fields) whatever the answer:
 * each selection set flattened per type, and each field node's facts. Worked out as answers reach
 * them and kept with the operation's plan, so a document's later answers only walk their keys.
 */
class AnswerPlan {
  private readonly flats = new WeakMap<SelectionSetNode, Map<string, Flat>>();
  private readonly fragmentFlats = new Map<string, Flat>();
  private readonly inProgress = new Set<string>();
  private readonly factsByNode = new Map<FieldNode, Map<GraphQLCompositeType, Facts>>();

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly fragments: ReadonlyMap<string, FragmentDefinitionNode>,
    private readonly root: GraphQLObjectType,
    private readonly providerFields: ProviderFields,
  ) {}

  /**
   * The fields of a selection set that can weigh anything (objects, root fields, batched provider
   * fields; leaves below the root weigh nothing), by response key, fragments spread in with their
   * multiplicity: computed once per selection set and type, so the document is walked once
   * (`stats` counts the selections walked).
   */
  flatten(set: SelectionSetNode, parent: GraphQLCompositeType, stats?: WalkStats): Flat {
    let byType = this.flats.get(set);
    const known = byType?.get(parent.name);
    if (known) return known;
    const flat: Flat = new Map();
    const merge = (from: Flat) => {
      for (const [key, nodes] of from) for (const [node, entry] of nodes) addFlat(flat, key, node, entry.parent, entry.count);
    };
    for (const selection of set.selections) {
      if (stats) stats.visited += 1;
      if (selection.kind === Kind.INLINE_FRAGMENT) {
        const type = selection.typeCondition ? this.schema.getType(selection.typeCondition.name.value) : parent;
        if (type && isCompositeType(type)) merge(this.flatten(selection.selectionSet, type, stats));
        continue;
      }
      if (selection.kind === Kind.FRAGMENT_SPREAD) {
        const name = selection.name.value;
        // Fragments on the root type are flattened for the root; others anywhere (the root type appears only there).
        let fragmentFlat = this.fragmentFlats.get(name);
        if (!fragmentFlat) {
          const fragment = this.fragments.get(name);
          const type = fragment && this.schema.getType(fragment.typeCondition.name.value);
          // A fragment inside itself (a cycle, which validation refuses) weighs nothing the second time.
          if (!fragment || !type || !isCompositeType(type) || this.inProgress.has(name)) continue;
          this.inProgress.add(name);
          fragmentFlat = this.flatten(fragment.selectionSet, type, stats);
          this.inProgress.delete(name);
          this.fragmentFlats.set(name, fragmentFlat);
        }
        merge(fragmentFlat);
        continue;
      }
      const isRoot = parent === this.root;
      const field = fieldOf(this.schema, parent, selection.name.value, isRoot);
      if (!field) continue;
      const weighs = isRoot || this.providerFields.batches.has(`${parent.name}.${field.name}`) || (isCompositeType(getNamedType(field.type)) && selection.selectionSet);
      if (weighs) addFlat(flat, selection.alias?.value ?? selection.name.value, selection, parent, 1);
    }
    if (!byType) this.flats.set(set, (byType = new Map()));
    byType.set(parent.name, flat);
    return flat;
  }

  /** What a field node under a parent type weighs by, worked out once per node and type (not per answer object). */
  factsOf(node: FieldNode, parent: GraphQLCompositeType, stats?: WalkStats): Facts {
    let byParent = this.factsByNode.get(node);
    const known = byParent?.get(parent);
    if (known) return known;
    // As flatten found it (by node and type alone, which is what the cache is keyed by).
    const field = fieldOf(this.schema, parent, node.name.value, parent === this.root)!;
    const named = getNamedType(field.type);
    const facts: Facts = {
      batched: this.providerFields.batches.has(`${parent.name}.${field.name}`),
      below: isCompositeType(named) && node.selectionSet ? this.flatten(node.selectionSet, named, stats) : undefined,
    };
    if (!byParent) this.factsByNode.set(node, (byParent = new Map()));
    byParent.set(parent, facts);
    return facts;
  }
}

/** Fields that weigh, by response key: each field node with its parent type and how many times the document spreads it there. */
type Flat = Map<string, Map<FieldNode, { parent: GraphQLCompositeType; count: number }>>;

function addFlat(flat: Flat, key: string, node: FieldNode, parent: GraphQLCompositeType, count: number): void {
  let nodes = flat.get(key);
  if (!nodes) flat.set(key, (nodes = new Map()));
  const entry = nodes.get(node);
  if (entry) entry.count += count;
  else nodes.set(node, { parent, count });
}

/** What an operation that ran is charged in the end: its weight from the answer, never more than what it was charged up front. */
export function settledCost(requested: number, actual: number): number {
  return Math.max(0, Math.min(requested, actual));
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The field a selection names, `__schema`/`__type` at the root included (`__typename` is free). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function fieldOf(schema: GraphQLSchema, parent: GraphQLCompositeType, name: string, isRoot: boolean): GraphQLField<any, any> | undefined {
  if (isRoot && parent === schema.getQueryType()) {
    if (name === SchemaMetaFieldDef.name) return SchemaMetaFieldDef;
    if (name === TypeMetaFieldDef.name) return TypeMetaFieldDef;
  }
  if (name.startsWith('__')) return undefined;
  return isObjectType(parent) || isInterfaceType(parent) ? parent.getFields()[name] : undefined;
}

/** How many items a list field counts as: `items`, or its envelope's `limit` when it has one and `withoutEnvelope` when not. */
export type ListItems = { items: number } | { withoutEnvelope: number };

/**
 * Items a list field counts as, the one place the cost model sizes a list: its own size argument
 * (`limit`, `first`, `last`, or its input's), the length of a list argument (federation's
 * `_entities(representations)`), what the schema holds for an introspection list, else its
 * envelope's `limit` (`catalogSongs(input: {limit}) { items }`), else its declared bound (`maxItems`), else UNBOUNDED_LIST_SIZE.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function listItems(schema: GraphQLSchema, parent: GraphQLCompositeType, field: GraphQLField<any, any>, args: Record<string, unknown>): ListItems {
  const own = sizeArgument(args) ?? listSizeOf(field, args) ?? introspectionListSizes(schema).get(`${parent.name}.${field.name}`);
  return own !== undefined ? { items: own } : { withoutEnvelope: declaredBound(field) ?? UNBOUNDED_LIST_SIZE };
}

const introspectionSizes = new WeakMap<GraphQLSchema, Map<string, number>>();

/**
 * Items of each introspection list, from the schema: `__Schema.types` counts its types, a type's
 * `fields` (and `inputFields`, `enumValues`, `interfaces`, `possibleTypes`) the schema's average
 * per type, a field's `args` the average per field. `__schema { types { fields { args } } }` then
 * weighs what the answer holds, and k aliases of it k times as much.
 */
function introspectionListSizes(schema: GraphQLSchema): Map<string, number> {
  let sizes = introspectionSizes.get(schema);
  if (sizes) return sizes;
  const types = Object.values(schema.getTypeMap());
  const directives = schema.getDirectives();
  let fields = 0;
  let args = 0;
  let inputFields = 0;
  let enumValues = 0;
  let interfaces = 0;
  let possibleTypes = 0;
  for (const type of types) {
    if (isObjectType(type) || isInterfaceType(type)) {
      const own = Object.values(type.getFields());
      fields += own.length;
      for (const field of own) args += field.args.length;
      interfaces += type.getInterfaces().length;
    }
    if (isAbstractType(type)) possibleTypes += schema.getPossibleTypes(type).length;
    if (isInputObjectType(type)) inputFields += Object.keys(type.getFields()).length;
    if (isEnumType(type)) enumValues += type.getValues().length;
  }
  const perType = (total: number) => Math.max(1, Math.ceil(total / Math.max(1, types.length)));
  sizes = new Map([
    ['__Schema.types', types.length],
    ['__Schema.directives', directives.length],
    ['__Type.fields', perType(fields)],
    ['__Type.inputFields', perType(inputFields)],
    ['__Type.enumValues', perType(enumValues)],
    ['__Type.interfaces', perType(interfaces)],
    ['__Type.possibleTypes', perType(possibleTypes)],
    ['__Field.args', Math.max(1, Math.ceil(args / Math.max(1, fields)))],
    ['__Directive.args', Math.max(1, Math.ceil(directives.reduce((sum, directive) => sum + directive.args.length, 0) / Math.max(1, directives.length)))],
  ]);
  introspectionSizes.set(schema, sizes);
  return sizes;
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
