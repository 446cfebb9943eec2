import { ClassType, Directive, Extensions, Field, Int, ObjectType, registerEnumType } from 'type-graphql';
import type { z } from 'zod';
import { LIST_BOUNDS, maxItems } from '../common/bounds';
import { cursorOf, PageRequest, positionOf } from '../common/paging';

/** The `status` member of REST envelopes. */
export enum SuccessStatus {
  success = 'success',
}
registerEnumType(SuccessStatus, { name: 'SuccessStatus', description: 'Always `success` on a successful answer' });

export enum ResultStatus {
  success = 'success',
  error = 'error',
}
registerEnumType(ResultStatus, { name: 'ResultStatus', description: '`success`, or `error` with an `error` message' });

/** A value type other subgraphs define too: @shareable lets the router compose both. */
@ObjectType({ description: 'Position of a page in its list, for offset paging (limit and page)' })
@Directive('@shareable')
export class Pagination {
  @Field(() => Int, { description: 'Items in the whole list' })
  totalCount!: number;

  @Field(() => Int, { description: 'The number of this page, from 1; under cursor paging, the page of offset paging at this limit that holds its first item' })
  page!: number;

  @Field(() => Int, { description: 'Items per page' })
  limit!: number;

  @Field(() => Int, { description: 'Pages of limit items in the whole list' })
  totalPages!: number;
}

/** Cursor paging's view of a page (the Relay connection convention's pageInfo). */
@ObjectType({ description: 'Where cursor paging goes on from this page' })
@Directive('@shareable')
export class PageInfo {
  @Field(() => String, { nullable: true, description: "The cursor of this page's last item: pass it as after for the next page; null on an empty page" })
  endCursor!: string | null;

  @Field(() => Boolean, { description: 'Whether items follow this page' })
  hasNextPage!: boolean;
}

export function pagination(totalCount: number, page: number, limit: number): Pagination {
  return { totalCount, page, limit, totalPages: Math.ceil(totalCount / limit) };
}

/** A page of a list: the one page shape of the graph. */
export interface PageOf<T> {
  items: T[];
  pagination: Pagination;
  pageInfo: PageInfo;
}

/** Where a page sits in its list: the list's total, the items before the page, the page size. */
export interface PagePlace {
  total: number;
  skipped: number;
  limit: number;
}

/**
 * A page of `items`, found after `skipped` items of a list of `total` at page size `limit`;
 * `cursor` makes the cursor following an item (see src/common/paging.ts).
 */
export function pageOf<T>(items: T[], { total, skipped, limit }: PagePlace, cursor: (item: T) => string): PageOf<T> {
  return {
    items,
    pagination: pagination(total, Math.floor(skipped / limit) + 1, limit),
    pageInfo: { endCursor: items.length ? cursor(items[items.length - 1]) : null, hasNextPage: skipped + items.length < total },
  };
}

/** How a whole list read into memory is ordered and named in cursors (see pageOfList). */
export interface ListOrder<T, K extends readonly string[]> {
  /** The list in cursors (`Catalog.accounts`) and its parent's id. */
  list: string;
  scope: string;
  /** The schema of its sort key (checks a cursor's key part by part). */
  key: z.ZodType<K>;
  /** An item's sort key, ending with a unique tie-breaker (the id). */
  keyOf(item: T): K;
  /** The list's order over sort keys, as near as JavaScript can tell it (the database's collation may order names its own way). */
  compare(a: K, b: K): number;
}

/**
 * A page of a list read whole (a list capped at write, read in one statement, in its order):
 * offset paging slices it; after a cursor, the page starts after the cursor's item, found by its
 * id (the key's last part), so items added or removed before it shift nothing. When that item is
 * gone, the page starts at the first item whose key orders after the cursor's (`compare`).
 */
export function pageOfList<T, K extends readonly string[]>(all: T[], request: PageRequest, order: ListOrder<T, K>): PageOf<T> {
  const position = positionOf(request, order.list, order.scope, order.key);
  let skipped: number;
  if ('offset' in position) skipped = position.offset;
  else {
    const id = position.after[position.after.length - 1];
    const at = all.findIndex((item) => order.keyOf(item)[position.after.length - 1] === id);
    const next = at !== -1 ? at + 1 : all.findIndex((item) => order.compare(order.keyOf(item), position.after) > 0);
    skipped = next === -1 ? all.length : next;
  }
  return pageOf(all.slice(skipped, skipped + request.limit), { total: all.length, skipped, limit: request.limit }, (item) => cursorOf(order.list, order.scope, order.keyOf(item)));
}

/** Compares sort keys part by part with `compare` (localeCompare for names, plain order for ids). */
export const compareKeys =
  (...parts: ((a: string, b: string) => number)[]) =>
  (a: readonly string[], b: readonly string[]): number => {
    for (let i = 0; i < parts.length; i++) {
      const order = parts[i]!(a[i]!, b[i]!);
      if (order !== 0) return order;
    }
    return 0;
  };
export const byLocale = (a: string, b: string) => a.localeCompare(b);
export const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The empty page at a position (an unreachable parent's list). */
export function emptyPage<T>(skipped: number, limit: number): PageOf<T> {
  return pageOf<T>([], { total: 0, skipped, limit }, () => '');
}

/**
 * The page type of an item type: `class SongPage extends Page(Song) {}` under `@ObjectType('SongPage')`;
 * `defaultItems` is the page size of its fields when given neither `limit` nor `first` (20 for most lists).
 */
export function Page<T extends object>(item: ClassType<T>, defaultItems: number = LIST_BOUNDS.pageItems) {
  @ObjectType()
  abstract class PageType implements PageOf<T> {
    // A page field without a `limit` answers its default page: the cost model weighs it by this.
    @Extensions(maxItems(defaultItems))
    @Field(() => [item], { description: 'The items of this page, in the list order' })
    items!: T[];

    @Field(() => Pagination, { description: 'Where this page stands in the whole list' })
    pagination!: Pagination;

    @Field(() => PageInfo, { description: 'Where cursor paging goes on from this page (first and after)' })
    pageInfo!: PageInfo;
  }
  return PageType;
}
