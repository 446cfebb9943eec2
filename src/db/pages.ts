/** One page of a list that hangs off a parent row (an artist's socials, a catalog's songs). */
export interface PageKey {
  id: string;
  page: number;
  limit: number;
}

export interface Page<T> {
  rows: T[];
  total: number;
}

/** A row of a partitioned page query: the parent id, its total, and an item (null when the page is past the end). */
export interface PagedRow<T> {
  owner: string;
  total: number | string;
  item: T | null;
}

export const pageKeyOf = (k: PageKey & { filter?: string | null }) => `${k.id}|${k.page}|${k.limit}|${k.filter ?? ''}`;

/**
 * Batches page requests for many parents: one statement per distinct (page, limit, filter) among
 * the keys, so a list of N parents costs one query, not N. `run` gets the parent ids of a group
 * and returns rows ordered within each parent.
 */
export async function batchPages<K extends PageKey & { filter?: string | null }, T>(
  keys: readonly K[],
  run: (ids: string[], offset: number, limit: number, filter: string | null) => Promise<PagedRow<T>[]>,
): Promise<Page<T>[]> {
  const groups = new Map<string, K[]>();
  for (const key of keys) {
    const group = `${key.page}|${key.limit}|${key.filter ?? ''}`;
    groups.set(group, [...(groups.get(group) ?? []), key]);
  }
  const pages = new Map<string, Page<T>>();
  await Promise.all(
    [...groups.values()].map(async (group) => {
      const { page, limit, filter } = group[0];
      const rows = await run([...new Set(group.map((k) => k.id))], (page - 1) * limit, limit, filter ?? null);
      const byOwner = new Map<string, Page<T>>();
      for (const row of rows) {
        const current = byOwner.get(row.owner) ?? { rows: [], total: Number(row.total) };
        if (row.item) current.rows.push(row.item);
        byOwner.set(row.owner, current);
      }
      for (const key of group) pages.set(pageKeyOf(key), byOwner.get(key.id) ?? { rows: [], total: 0 });
    }),
  );
  return keys.map((k) => pages.get(pageKeyOf(k))!);
}
