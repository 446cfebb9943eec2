import {
  FieldNode,
  getArgumentValues,
  getNamedType,
  GraphQLObjectType,
  GraphQLResolveInfo,
  isObjectType,
  Kind,
  SelectionSetNode,
} from 'graphql';
import type { SqlCondition } from '../auth/access';
import type { Context } from '../request/context';

/** One selection of a field, read ahead: its node, its argument values, and its (named) result type. */
export interface PrefetchField {
  node: FieldNode;
  args: Record<string, unknown>;
  /** The field's named result type, when it is an object type (a page, a list's item type). */
  type: GraphQLObjectType | undefined;
  info: GraphQLResolveInfo;
}

/**
 * How a module reads a relation ahead, inside its parent's statement: `sql` is a SQL expression
 * giving the relation's JSON for the parent whose id is the SQL expression `parentId` (null: this
 * selection is not read ahead, its resolver reads it as usual), and `prime` hands that JSON to the
 * request's loaders, where the field's resolver then finds it without a statement of its own.
 */
export interface RelationPrefetch {
  sql(ctx: Context, field: PrefetchField, parentId: string): SqlCondition | null;
  prime(ctx: Context, field: PrefetchField, parentId: string, value: unknown): void;
}

/** Relations modules can read ahead, by `Type.field` (contributed through AppModule.prefetch). */
export type Prefetches = Record<string, RelationPrefetch>;

declare module '../request/context' {
  interface RequestDeps {
    /** Relations the modules read ahead inside a parent list's statement (the registry's, handed in by src/deps.ts). */
    prefetches?: Prefetches;
  }
}

/** The fields selected on `type` by these selection sets (fragments and inline fragments followed). */
export function childFields(info: GraphQLResolveInfo, sets: readonly (SelectionSetNode | undefined)[], type: GraphQLObjectType): PrefetchField[] {
  const found: PrefetchField[] = [];
  const visit = (set: SelectionSetNode | undefined): void => {
    for (const selection of set?.selections ?? []) {
      if (selection.kind === Kind.FIELD) {
        const def = type.getFields()[selection.name.value];
        if (!def) continue;
        const named = getNamedType(def.type);
        found.push({ node: selection, args: getArgumentValues(def, selection, info.variableValues), type: isObjectType(named) ? named : undefined, info });
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        if (!selection.typeCondition || selection.typeCondition.name.value === type.name) visit(selection.selectionSet);
      } else {
        const fragment = info.fragments[selection.name.value];
        if (fragment && fragment.typeCondition.name.value === type.name) visit(fragment.selectionSet);
      }
    }
  };
  sets.forEach(visit);
  return found;
}

/** The one field named `name` among `fields` (undefined when absent, or selected twice: aliases with their own arguments are left to their resolvers). */
export function onlyField(fields: PrefetchField[], name: string): PrefetchField | undefined {
  const matching = fields.filter((f) => f.node.name.value === name);
  return matching.length === 1 ? matching[0] : undefined;
}

/** What a list read adds to its statement for the relations selected on its items, and how it hands them over. */
export interface PrefetchPlan {
  /** Extra select-list expressions (`(…) as "prefetch_0"`), with their bindings in order. */
  columns: SqlCondition[];
  /** After the read: hands each row's relations to the loaders and removes the extra columns. */
  prime<R extends Record<string, unknown>>(rows: R[], idOf: (row: R) => string): R[];
}

/**
 * Plans reading ahead, in the statement that reads the current field's items (of type `itemType`,
 * whose id is the SQL expression `parentId`), every selected relation a module can read ahead.
 * `sets` are the selections on the items: the field's own (a list), or its `items` (a page: see pageItemSets).
 */
export function planPrefetch(
  ctx: Context,
  info: GraphQLResolveInfo,
  itemType: string,
  parentId: string,
  sets: readonly (SelectionSetNode | undefined)[] = info.fieldNodes.map((n) => n.selectionSet),
): PrefetchPlan {
  const type = info.schema.getType(itemType);
  const prefetches = ctx.deps.prefetches ?? {};
  const planned: { column: string; field: PrefetchField; prefetch: RelationPrefetch }[] = [];
  const columns: SqlCondition[] = [];
  if (isObjectType(type)) {
    const fields = childFields(info, sets, type);
    for (const name of new Set(fields.map((f) => f.node.name.value))) {
      const prefetch = prefetches[`${itemType}.${name}`];
      const field = prefetch && onlyField(fields, name);
      const part = field && prefetch.sql(ctx, field, parentId);
      if (!field || !part) continue;
      const column = `prefetch_${planned.length}`;
      planned.push({ column, field, prefetch });
      columns.push({ sql: `(${part.sql}) as "${column}"`, bindings: part.bindings });
    }
  }
  return {
    columns,
    prime(rows, idOf) {
      for (const row of rows) {
        for (const { column, field, prefetch } of planned) {
          prefetch.prime(ctx, field, idOf(row), row[column]);
          delete row[column];
        }
      }
      return rows;
    },
  };
}

/** The selections on a page field's items: its `items` selections (fragments followed), for planPrefetch. */
export function pageItemSets(info: GraphQLResolveInfo): (SelectionSetNode | undefined)[] {
  const pageType = getNamedType(info.returnType);
  if (!isObjectType(pageType)) return [];
  return childFields(info, info.fieldNodes.map((n) => n.selectionSet), pageType)
    .filter((f) => f.node.name.value === 'items')
    .map((f) => f.node.selectionSet);
}
