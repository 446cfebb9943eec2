import { z } from 'zod';
import { cursorOf } from '../../src/common/paging';
import { byCodePoint, compareKeys, pageOfList } from '../../src/graphql/common.types';

/** pageOfList: pages of a list read whole (a capped list), by offset or after a cursor. */
describe('pageOfList', () => {
  type Row = { name: string; id: string };
  const order = (scope = 'owner') => ({
    list: 'Test.rows',
    scope,
    key: z.tuple([z.string(), z.string()]),
    keyOf: (row: Row) => [row.name, row.id] as const,
    compare: compareKeys(byCodePoint, byCodePoint),
  });
  const rows = (...names: string[]): Row[] => names.map((name) => ({ name, id: `id-${name}` }));
  const request = (limit: number, after: string | null = null, page = 1) => ({ limit, page, after });

  it('slices by page, with the list total and the next cursor', () => {
    const all = rows('a', 'b', 'c', 'd', 'e');
    const second = pageOfList(all, request(2, null, 2), order());
    expect(second.items.map((r) => r.name)).toEqual(['c', 'd']);
    expect(second.pagination).toEqual({ totalCount: 5, page: 2, limit: 2, totalPages: 3 });
    expect(second.pageInfo).toEqual({ endCursor: cursorOf('Test.rows', 'owner', ['d', 'id-d']), hasNextPage: true });
  });

  it('goes on after the cursor item wherever inserts moved it, and after where it was once it is gone', () => {
    const first = pageOfList(rows('b', 'd', 'f'), request(2), order());
    const cursor = first.pageInfo.endCursor!;
    const moved = pageOfList(rows('a', 'b', 'c', 'd', 'e', 'f'), request(2, cursor), order());
    expect(moved.items.map((r) => r.name)).toEqual(['e', 'f']);
    expect(moved.pagination.page).toBe(3);
    const gone = pageOfList(rows('a', 'b', 'c', 'e', 'f'), request(2, cursor), order());
    expect(gone.items.map((r) => r.name)).toEqual(['e', 'f']);
    const past = pageOfList(rows('a', 'b'), request(2, cursor), order());
    expect(past).toMatchObject({ items: [], pageInfo: { endCursor: null, hasNextPage: false } });
  });

  it("refuses another scope's cursor, naming after", () => {
    const cursor = pageOfList(rows('a', 'b'), request(1), order('owner')).pageInfo.endCursor;
    expect(() => pageOfList(rows('a', 'b'), request(1, cursor), order('someone else'))).toThrow(expect.objectContaining({ code: 'BAD_USER_INPUT', details: [expect.objectContaining({ field: 'after' })] }));
  });
});
