import { ClassType, Directive, Extensions, Field, Int, ObjectType, registerEnumType } from 'type-graphql';
import { LIST_BOUNDS, maxItems } from '../common/bounds';

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

/** The empty page at a position (an unreachable parent's list). */
export function emptyPage<T>(skipped: number, limit: number): PageOf<T> {
  return pageOf<T>([], { total: 0, skipped, limit }, () => '');
}

/** The page type of an item type: `class SongPage extends Page(Song) {}` under `@ObjectType('SongPage')`. */
export function Page<T extends object>(item: ClassType<T>) {
  @ObjectType()
  abstract class PageType implements PageOf<T> {
    // A page field without a `limit` answers its default page (20).
    @Extensions(maxItems(LIST_BOUNDS.pageItems))
    @Field(() => [item], { description: 'The items of this page, in the list order' })
    items!: T[];

    @Field(() => Pagination, { description: 'Where this page sits for offset paging (limit and page)' })
    pagination!: Pagination;

    @Field(() => PageInfo, { description: 'Where cursor paging goes on from this page (first and after)' })
    pageInfo!: PageInfo;
  }
  return PageType;
}
