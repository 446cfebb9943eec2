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
@ObjectType({ description: 'Page position of a list' })
@Directive('@shareable')
export class Pagination {
  @Field(() => Int, { description: 'Items in the whole list' })
  total_count!: number;

  @Field(() => Int, { description: 'This page, from 1' })
  page!: number;

  @Field(() => Int, { description: 'Items per page' })
  limit!: number;

  @Field(() => Int, { description: 'Pages in the whole list at this limit (0 for an empty list)' })
  total_pages!: number;
}

export function pagination(totalCount: number, page: number, limit: number): Pagination {
  return { total_count: totalCount, page, limit, total_pages: Math.ceil(totalCount / limit) };
}

/** A page of a list: the one page shape of the graph. */
export interface PageOf<T> {
  items: T[];
  pagination: Pagination;
}

export function pageOf<T>(items: T[], totalCount: number, page: number, limit: number): PageOf<T> {
  return { items, pagination: pagination(totalCount, page, limit) };
}

/** The page type of an item type: `class SongPage extends Page(Song) {}` under `@ObjectType('SongPage')`. */
export function Page<T extends object>(item: ClassType<T>) {
  @ObjectType()
  abstract class PageType implements PageOf<T> {
    // A page field without a `limit` answers its default page (20).
    @Extensions(maxItems(LIST_BOUNDS.pageItems))
    @Field(() => [item], { description: 'The items of this page, in the list order' })
    items!: T[];

    @Field(() => Pagination, { description: 'Where this page stands in the whole list' })
    pagination!: Pagination;
  }
  return PageType;
}
