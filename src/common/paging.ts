import { z } from 'zod';
import { badInput } from './errors';
import { validate } from './validation';

/**
 * Paging of every growable list (issue 27): one page shape, two ways to ask for a page.
 * - offset paging: `limit` items of page `page` (from 1);
 * - cursor paging: `first` items after the cursor `after` (a `pageInfo.endCursor` the same list
 *   answered). A cursor names a position in the list's stable total order (its sort key with a
 *   unique tie-breaker), not an offset, so rows inserted or removed before it do not shift the
 *   next page: no item is skipped or repeated.
 *
 * A cursor is opaque text bound to its list and to the list's parent (the catalog, the artist, the
 * account): a cursor of another list or another parent, or anything not made here, is a 400 naming
 * `after`. It only ever positions a read inside the same list the caller asked for, with the same
 * reach checks, so no cursor reaches a row the caller could not page to anyway.
 */

/** The longest `after` accepted: a cursor after an item named with 200 four-byte characters is about 1 200. */
export const MAX_CURSOR_LENGTH = 4096;
/** Items of one page at most, as `limit` or `first`. */
export const PAGE_SIZE_MAX = 100;

export const AFTER_DESCRIPTION = 'Cursor paging: the items after this cursor (a pageInfo.endCursor of the same list); in place of page';

/** The description of `first` on a list whose pages hold at most `max` items, `def` by default. */
export const firstDescription = (max: number, def: number) => `Cursor paging: the number of items of this page, 1 to ${max} (default ${def}); in place of limit`;
export const FIRST_DESCRIPTION = firstDescription(PAGE_SIZE_MAX, 20);

/** The GraphQL-only members of a paged field's arguments, beside `page` and `limit`; `first` at most `max`. */
const cursorArgsSchema = (max: number) =>
  z.object({
    first: z
      .number()
      .int({ message: 'must be an integer' })
      .min(1, { message: 'must be at least 1' })
      .max(max, { message: `must be at most ${max}` })
      .optional(),
    after: z
      .string()
      .min(1, { message: 'must not be empty' })
      .max(MAX_CURSOR_LENGTH, { message: `must be at most ${MAX_CURSOR_LENGTH} characters` })
      .optional(),
  });

/**
 * One schema per bound, made once: every paged field parses its arguments with it, and a zod
 * object made anew per request would be compiled anew each time (about a tenth of a cheap
 * request's CPU, issue 31).
 */
const cursorArgsByMax = new Map<number, ReturnType<typeof cursorArgsSchema>>();
export function cursorArgsOf(max: number): ReturnType<typeof cursorArgsSchema> {
  let schema = cursorArgsByMax.get(max);
  if (!schema) cursorArgsByMax.set(max, (schema = cursorArgsSchema(max)));
  return schema;
}

/** What a page field was asked for: its size, and either its page number or the cursor it follows. */
export interface PageRequest {
  limit: number;
  page: number;
  after: string | null;
  /** Items to skip, on a list that takes `offset` in place of `page` (its REST contract's parameter). */
  offset?: number;
}

/** Where a page starts in its list: after `offset` items, or after the item whose sort key is `after`. */
export type Position<K> = { offset: number } | { after: K };

type RawPaging = { page?: unknown; limit?: unknown; first?: unknown; after?: unknown; offset?: unknown };

/**
 * The page asked for: `parsed` holds page and limit as the operation's own schema parsed them
 * (defaults applied), `raw` the arguments as given (null meaning absent). `first` and `limit`, or
 * `after` and `page`, together are a 400 naming `first` or `after`.
 */
export function pageRequest(parsed: { page: number; limit: number; offset?: number }, raw: RawPaging, maxFirst = PAGE_SIZE_MAX): PageRequest {
  const given = (value: unknown) => value !== undefined && value !== null;
  const { first, after } = validate(cursorArgsOf(maxFirst), { ...(given(raw.first) ? { first: raw.first } : {}), ...(given(raw.after) ? { after: raw.after } : {}) });
  if (first !== undefined && given(raw.limit)) throw badInput('first', 'must not be given with limit: a page has one size (limit with page, first with after)');
  if (after !== undefined && given(raw.page)) throw badInput('after', 'must not be given with page: a page starts at a page number or after a cursor, not both');
  if (after !== undefined && given(raw.offset)) throw badInput('after', 'must not be given with offset: a page starts at an offset or after a cursor, not both');
  if (given(raw.offset) && given(raw.page)) throw badInput('offset', 'must not be given with page: a page starts at a page number or at an offset, not both');
  const offset = given(raw.offset) && after === undefined ? parsed.offset : undefined;
  return { limit: first ?? parsed.limit, page: after === undefined ? parsed.page : 1, after: after ?? null, ...(offset !== undefined ? { offset } : {}) };
}

interface CursorBody {
  /** The list (`Catalog.songs`). */
  l: string;
  /** The list's parent (a catalog id, an artist id, an account id). */
  s: string;
  /** The sort key of the item the cursor follows. */
  k: string[];
}

/** The cursor following an item of `list` under `scope` whose sort key is `key`. */
export function cursorOf(list: string, scope: string, key: readonly string[]): string {
  const body: CursorBody = { l: list, s: scope, k: [...key] };
  return Buffer.from(JSON.stringify(body), 'utf8').toString('base64url');
}

const FOREIGN = 'is not a cursor of this list: pass a pageInfo.endCursor this list answered';

/**
 * Where the requested page starts. An `after` cursor is decoded and checked: made here, for
 * `list` under `scope`, with a sort key `key` accepts (each list's key schema checks every part,
 * so a hostile value never reaches SQL as anything but a valid bound value).
 */
export function positionOf<K extends readonly string[]>(request: PageRequest, list: string, scope: string, key: z.ZodType<K>): Position<K> {
  if (request.after === null) return { offset: request.offset ?? (request.page - 1) * request.limit };
  const text = request.after;
  if (!/^[A-Za-z0-9_-]+$/.test(text)) throw badInput('after', FOREIGN);
  let body: unknown;
  try {
    body = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw badInput('after', FOREIGN);
  }
  const parsed = cursorBodyOf(key).safeParse(body);
  if (!parsed.success || parsed.data.l !== list || parsed.data.s !== scope) throw badInput('after', FOREIGN);
  return { after: parsed.data.k };
}

/** The schema of a cursor's body for each sort-key schema, made once (see cursorArgsOf); its list and parent are compared after. */
const cursorBodies = new WeakMap<z.ZodType, z.ZodType<{ l: string; s: string; k: unknown }>>();
function cursorBodyOf<K>(key: z.ZodType<K>): z.ZodType<{ l: string; s: string; k: K }> {
  let schema = cursorBodies.get(key);
  if (!schema) cursorBodies.set(key, (schema = z.object({ l: z.string(), s: z.string(), k: key }).strict()));
  return schema as z.ZodType<{ l: string; s: string; k: K }>;
}

/** Sort-key parts of cursors. */
export const cursorKeys = {
  /** An ISRC as stored. */
  isrc: z.string().min(1).max(40),
  uuid: z.string().uuid(),
  /** A timestamp as microseconds since the epoch (what `epochMicros` selects): exact, unlike a JS Date. */
  micros: z.string().regex(/^\d{1,17}$/),
};

/**
 * Sort keys several lists share. One schema each, made once: a zod schema is costly to build, and
 * cursorBodyOf keeps one cursor schema per key. A cursor still names its list and scope, so a
 * shared key never lets one list's cursor into another.
 */
export const sortKeys = {
  /** A name, then a UUID (lists by name). */
  nameThenUuid: z.tuple([z.string().max(1000), cursorKeys.uuid]),
  /** An ISO timestamp, then a UUID (lists newest first). */
  isoTimeThenUuid: z.tuple([z.string().datetime(), cursorKeys.uuid]),
};

/** SQL of a timestamp column as microseconds since the epoch, as text (a cursor's key part). */
export const epochMicros = (column: string) => `((extract(epoch from ${column}) * 1000000)::bigint)::text`;
/** SQL turning a bound microseconds-since-the-epoch key part back into a timestamptz. */
export const fromEpochMicros = `(timestamptz 'epoch' + ?::bigint * interval '1 microsecond')`;
