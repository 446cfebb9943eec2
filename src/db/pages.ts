import type { SqlCondition } from '../auth/access';
import type { Position } from '../common/paging';

/** One page of a list that hangs off a parent row (an artist's socials, a catalog's songs). */
export interface PageKey {
  id: string;
  limit: number;
  /** After an offset (offset paging) or after a sort key (a cursor, already checked against this parent). */
  position: Position<readonly string[]>;
}

export interface Page<T> {
  rows: T[];
  total: number;
  /** Items of the list before this page. */
  skipped: number;
}

/** A row of a partitioned page query: the parent id, its total, the items it skips, and an item (null when the page is past the end). */
export interface PagedRow<T> {
  owner: string;
  total: number | string;
  skipped: number | string;
  item: T | null;
}

/** A parent's page read whole (a relation's page as JSON) as the rows batchPages groups: one per item, or one null item when the page is empty. */
export function pagedRows<T>(owner: string, page: { total: number; skipped: number }, items: T[]): PagedRow<T>[] {
  const { total, skipped } = page;
  return items.length ? items.map((item) => ({ owner, total, skipped, item })) : [{ owner, total, skipped, item: null }];
}

const positionKey = (position: Position<readonly string[]>) => ('offset' in position ? `o${position.offset}` : `a${JSON.stringify(position.after)}`);

export const pageKeyOf = (k: PageKey & { filter?: string | null }) => `${k.id}|${k.limit}|${positionKey(k.position)}|${k.filter ?? ''}`;

/**
 * The SQL of how many items a page skips: the offset, or, after a cursor, `before(key)`: a count
 * of the items at or before the cursor's sort key, so a cursor follows its item wherever inserts
 * and removals have moved it.
 */
export function skippedSql(position: Position<readonly string[]>, before: (key: readonly string[]) => SqlCondition): SqlCondition {
  return 'offset' in position ? { sql: '?::int', bindings: [position.offset] } : before(position.after);
}

/**
 * Batches page requests for many parents: one statement per distinct (position, limit, filter)
 * among the keys, so a list of N parents costs one query, not N. `run` gets the parent ids of a
 * group and returns rows ordered within each parent.
 */
export async function batchPages<K extends PageKey & { filter?: string | null }, T>(
  keys: readonly K[],
  run: (ids: string[], position: Position<readonly string[]>, limit: number, filter: string | null) => Promise<PagedRow<T>[]>,
): Promise<Page<T>[]> {
  const groups = new Map<string, K[]>();
  for (const key of keys) {
    const group = `${positionKey(key.position)}|${key.limit}|${key.filter ?? ''}`;
    groups.set(group, [...(groups.get(group) ?? []), key]);
  }
  const pages = new Map<string, Page<T>>();
  await Promise.all(
    [...groups.values()].map(async (group) => {
      const { position, limit, filter } = group[0];
      const rows = await run([...new Set(group.map((k) => k.id))], position, limit, filter ?? null);
      const byOwner = new Map<string, Page<T>>();
      for (const row of rows) {
        const current = byOwner.get(row.owner) ?? { rows: [], total: Number(row.total), skipped: Number(row.skipped) };
        if (row.item) current.rows.push(row.item);
        byOwner.set(row.owner, current);
      }
      const none = { rows: [], total: 0, skipped: 'offset' in position ? position.offset : 0 };
      for (const key of group) pages.set(pageKeyOf(key), byOwner.get(key.id) ?? none);
    }),
  );
  return keys.map((k) => pages.get(pageKeyOf(k))!);
}
