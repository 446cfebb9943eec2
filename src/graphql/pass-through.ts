import { randomBytes } from 'node:crypto';
import { getNamedType, Kind, type FieldNode, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';

/**
 * JSON that PostgreSQL built in the answer's shape, passed through to the response as it is: the
 * rows are not parsed, walked by the executor, nor serialized again (issue 31, the data path's
 * pass-through). A list field answers one when its operation runs with `passThrough` (the REST face,
 * src/http/rest/rest.router.ts, and GraphQL over HTTP, src/graphql/executor.ts) and its selection
 * is one the repository can build (see `passThroughSelection`); otherwise the field answers its
 * rows as before (graphql-js runs, graphql-ws, SSE, MCP tools).
 *
 * The executor sees an empty list (it iterates as one) and the list is put in place in the answer
 * afterwards (`placePassedThrough`); the answer is then serialized by `stringifyJson`, which writes
 * the JSON text where the list stands. Serialized any other way it throws, so a pass-through can
 * never reach a client as anything but its JSON.
 */
export class SerializedList {
  constructor(
    /** The list's JSON text: an array, compact, as `JSON.stringify` would write the same items. */
    readonly json: string,
    /** How many items the text holds. */
    readonly length: number,
    /**
     * How many objects it holds at every depth (items, and objects inside them: a song's credits),
     * which the cost model counts where it would count the objects of the list (src/graphql/cost.ts).
     */
    readonly objects: number = length,
  ) {}

  *[Symbol.iterator](): Iterator<never> {}

  toJSON(): string {
    if (!writing) throw new Error('A passed-through list was serialized outside stringifyJson');
    writing.push(this.json);
    return `${PLACEHOLDER}${writing.length - 1}`;
  }
}

/**
 * What `toJSON` leaves where a list goes: a string no stored value can hold (it starts with NUL,
 * which no input may carry, and a random part drawn at start-up), serialized by JSON.stringify as
 * `"\u0000…"`.
 */
const PLACEHOLDER = `\u0000${randomBytes(12).toString('hex')}:`;
let writing: string[] | undefined;

/** `JSON.stringify(value)`, with each passed-through list written as its JSON text. */
export function stringifyJson(value: unknown): string {
  const outer = writing;
  const lists: string[] = [];
  writing = lists;
  let text: string;
  try {
    text = JSON.stringify(value);
  } finally {
    writing = outer;
  }
  if (lists.length === 0) return text;
  let out = '';
  let from = 0;
  for (let i = 0; i < lists.length; i++) {
    const mark = JSON.stringify(`${PLACEHOLDER}${i}`);
    const at = text.indexOf(mark, from);
    if (at === -1) throw new Error('A passed-through list lost its place');
    out += text.slice(from, at) + lists[i];
    from = at + mark.length;
  }
  return out + text.slice(from);
}

/** What a run with `passThrough` carries in its root value: the root it stands for, and the lists its fields passed through, by path. */
interface Run {
  readonly root: unknown;
  readonly placed: { path: (string | number)[]; list: SerializedList }[];
}
const RUN = Symbol('pass-through run');

/**
 * The root value of an operation run that may pass lists through (src/graphql/compile.ts): an
 * object of its own, so the run's fields find their run by `info.rootValue` (two runs on one
 * context, or one after another, never mix their lists), standing for `root` (`rootOf`).
 */
export function passThroughRoot(root: unknown): object {
  return Object.freeze({ [RUN]: { root, placed: [] } satisfies Run });
}

const runOf = (value: unknown): Run | undefined => (typeof value === 'object' && value !== null && RUN in value ? (value as { [RUN]: Run })[RUN] : undefined);

/** The root value a run's root stands for (any other value: itself). */
export function rootOf(value: unknown): unknown {
  const run = runOf(value);
  return run ? run.root : value;
}

/** Puts a run's passed-through lists in place in its answer's data. */
export function placePassedThrough(runRoot: object, data: unknown): void {
  for (const { path, list } of runOf(runRoot)?.placed ?? []) {
    let parent = data as Record<string | number, unknown> | null | undefined;
    for (const key of path.slice(0, -1)) parent = parent?.[key] as Record<string | number, unknown> | null | undefined;
    const key = path[path.length - 1];
    const current = parent?.[key];
    // The executor completed it as the empty list it iterates as; anything else (null after an error) stays.
    if (Array.isArray(current) && current.length === 0) parent![key] = list;
  }
}

/** A field of the selection under a passed-through list, fragments flattened. */
export interface SelectedField {
  /** The name it answers under (its alias, or its name). */
  key: string;
  field: FieldNode;
}

/**
 * The selection of `listField` under the field being resolved, when the list may be passed
 * through: the run passes lists through (its root is a `passThroughRoot`), the field is selected
 * once (one node, no alias twice), and the list's selection holds only fields, inline fragments and fragment spreads on
 * `itemType` without directives, each response key once. Undefined: answer the rows as usual.
 */
export function passThroughSelection(info: GraphQLResolveInfo, listField: string, itemType: string): { key: string; fields: SelectedField[] } | undefined {
  if (!runOf(info.rootValue) || info.fieldNodes.length !== 1) return undefined;
  const under = info.fieldNodes[0].selectionSet;
  if (!under) return undefined;
  const outer = flatten(under, info, getNamedType(info.returnType).name);
  if (!outer) return undefined;
  const lists = outer.filter((f) => f.field.name.value === listField);
  if (lists.length !== 1 || !lists[0].field.selectionSet || lists[0].field.arguments?.length) return undefined;
  const fields = flatten(lists[0].field.selectionSet, info, itemType);
  return fields ? { key: lists[0].key, fields } : undefined;
}

/** A selection's fields (fragments on `typeName` flattened), or undefined when it has a directive, another type's fragment or a key twice. */
export function flatten(set: SelectionSetNode, info: Pick<GraphQLResolveInfo, 'fragments'>, typeName: string): SelectedField[] | undefined {
  const out: SelectedField[] = [];
  const keys = new Set<string>();
  const walk = (selections: SelectionSetNode): boolean => {
    for (const selection of selections.selections) {
      if (selection.directives?.length) return false;
      if (selection.kind === Kind.FIELD) {
        const key = selection.alias?.value ?? selection.name.value;
        if (keys.has(key)) return false;
        keys.add(key);
        out.push({ key, field: selection });
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        if (selection.typeCondition && selection.typeCondition.name.value !== typeName) return false;
        if (!walk(selection.selectionSet)) return false;
      } else {
        const fragment = info.fragments[selection.name.value];
        if (!fragment || fragment.typeCondition.name.value !== typeName || fragment.directives?.length) return false;
        if (!walk(fragment.selectionSet)) return false;
      }
    }
    return true;
  };
  return walk(set) ? out : undefined;
}

/** Records a passed-through list as the answer of `key` under the field being resolved. */
export function passThrough(info: GraphQLResolveInfo, key: string, list: SerializedList): void {
  const run = runOf(info.rootValue);
  if (!run) throw new Error('A list was passed through outside a run that passes lists through');
  const path: (string | number)[] = [key];
  for (let at: GraphQLResolveInfo['path'] | undefined = info.path; at; at = at.prev) path.unshift(at.key);
  run.placed.push({ path, list });
}
