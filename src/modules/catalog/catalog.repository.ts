import { reachCondition, SqlCondition } from '../../auth/access';
import type { Viewer } from '../../auth/viewer';
import { LIST_BOUNDS } from '../../common/bounds';
import type { Position } from '../../common/paging';
import { pagedRows, PagedRow, skippedSql } from '../../db/pages';
import { pgArray, query } from '../../db/sql';
import { ArtistRepository } from '../artist';
import type { Catalog, CatalogAccount, Song, SongCredit } from './catalog.types';
import type { Db } from '../../db/request-db';

/** A catalog entry as a Song of its catalog. */
export type CatalogSongRow = Song;

/** A catalog with whether the viewer reaches it. */
export interface CatalogAccessRow extends Catalog {
  reachable: boolean;
}

/** A songs page with its items as JSON text (songsPageWithAccessSerialized). */
export interface SerializedSongsPage {
  reachable: boolean;
  total: number;
  skipped: number;
  /** Items on the page, and the last one's ISRC (null: none). */
  count: number;
  last: string | null;
  /** The objects the items hold at every depth (the items, and their credits). */
  objects: number;
  items: string;
}

/** A page of one catalog's songs, with each entry's credits, read with the catalog's reach (no songs when unreachable). */
export interface CatalogSongsPage {
  reachable: boolean;
  total: number;
  /** Songs of the catalog (matching the filter) before the page. */
  skipped: number;
  songs: Song[];
}

/** A catalog entry to upsert: the catalog's own values for the ISRC (null leaves a value as it is). */
export interface EntryValues {
  catalog_id: string;
  isrc: string;
  name: string | null;
  album: string | null;
  lyrics: string | null;
}

export type EntryRef = Pick<EntryValues, 'catalog_id' | 'isrc'>;

/** A catalog entry as a Song: the entry's own values, and its id for its credits. */
const SONG_COLUMNS = 'cs.id as entry_id, cs.catalog_id, cs.isrc, cs.name, cs.album, cs.lyrics, cs.updated_at';
/** Of several entries for one ISRC, the most recently updated answers (then the lowest catalog id). */
const LATEST_ENTRY = 'cs.updated_at desc, cs.catalog_id';

/** A PostgreSQL array literal where null stays NULL (pgArray writes every value as a string). */
const pgNullableArray = (values: (string | null)[]) =>
  `{${values.map((v) => (v === null ? 'NULL' : `"${v.replace(/["\\]/g, '\\$&')}"`)).join(',')}}`;

/**
 * Catalog reach: SQL condition "the catalog in `column` is reachable by the viewer", i.e. linked
 * to an account the viewer reaches (reachCondition). Song reads compose it into their statement.
 */
export function catalogReach(viewer: Viewer, column: string): SqlCondition {
  if (viewer.isAdmin) return { sql: 'true', bindings: [] };
  const reach = reachCondition(viewer, 'ac.account_id');
  return { sql: `exists (select 1 from account_catalogs ac where ac.catalog_id = ${column} and ${reach.sql})`, bindings: reach.bindings };
}

/** One page of a catalog's songs as songsPageJson answers it (timestamps as JSON text). */
export interface SongsPageJson {
  total: number;
  skipped: number;
  items: (Omit<Song, 'updated_at' | 'credits'> & { updated_at: string; credits: SongCredit[] })[];
}

/** The songs of a page read as JSON, their timestamps as Dates. */
export const songsOf = (page: SongsPageJson): Song[] => page.items.map((song) => ({ ...song, updated_at: new Date(song.updated_at) }));

/**
 * Catalog.songs, the relation's one SQL text: one page of the songs of the catalog whose id is the
 * SQL expression `catalogId`, by ISRC (after an offset, or after a cursor's ISRC), optionally only
 * those credited to an artist with the given lower-cased name, each with its credits in credit
 * order, as JSON `{total, skipped, items}`. The REST read (songsPageWithAccess), the batched loader
 * (songsPages) and the read-ahead (artistCatalogsJson) compose it with their own parents and reach;
 * its aliases (sg_*) are its own, so the caller's `catalogId` is never shadowed.
 */
export function songsPageJson(catalogId: string, position: Position<readonly string[]>, limit: number, filter: string | null): SqlCondition {
  const { credited, matching, skip, rows } = songsPageParts(catalogId, position, filter);
  return {
    sql: `(select json_build_object(
        'total', (select count(*)::int from catalog_songs sg_t where ${matching('sg_t')}),
        'skipped', sg_k.n,
        'items', coalesce((
          select json_agg(json_build_object(
                   'entry_id', sg_p.id, 'catalog_id', sg_p.catalog_id, 'isrc', sg_p.isrc, 'name', sg_p.name, 'album', sg_p.album,
                   'lyrics', sg_p.lyrics, 'updated_at', sg_p.updated_at,
                   'credits', sg_p.credits_json)
                 order by sg_p.isrc)
            from ${rows} sg_p), '[]'::json))
      from (select ${skip.sql} as n) sg_k)`,
    bindings: [...credited, ...credited, limit, ...skip.bindings],
  };
}

/**
 * The credits of the page row `sg_p`, in credit order, at most LIST_BOUNDS.creditsPerSong: rows of
 * (id, name, created_at, timestamp in epoch seconds).
 */
const CREDITS_OF_PAGE_ROW = `(select sg_a.id, sg_a.name, sg_csa.created_at, floor(extract(epoch from sg_csa.created_at))::int as timestamp
                                                  from catalog_song_artists sg_csa join accounts sg_a on sg_a.id = sg_csa.artist_id
                                                 where sg_csa.catalog_song_id = sg_p.id
                                                 order by sg_csa.created_at, sg_a.name, sg_a.id limit ${LIST_BOUNDS.creditsPerSong})`;

/** What both forms of the songs page share: the filter's binding, which songs match, the page's skip and its rows (one `?`: the limit). */
function songsPageParts(catalogId: string, position: Position<readonly string[]>, filter: string | null) {
  const credited = filter === null ? [] : [filter];
  const matching = (alias: string) =>
    filter === null
      ? `${alias}.catalog_id = ${catalogId}`
      : `${alias}.catalog_id = ${catalogId} and ${alias}.id in (select sg_f.catalog_song_id from catalog_song_artists sg_f join accounts sg_fa on sg_fa.id = sg_f.artist_id
                                                                 where sg_fa.kind = 'artist' and lower(sg_fa.name) = ?)`;
  // After a cursor: the page starts after the songs at or before its ISRC.
  const skip = skippedSql(position, ([isrc]) => ({ sql: `(select count(*)::int from catalog_songs sg_b where ${matching('sg_b')} and sg_b.isrc <= ?)`, bindings: [...credited, isrc] }));
  const rows = `(select sg_s.id, sg_s.catalog_id, sg_s.isrc, sg_s.name, sg_s.album, sg_s.lyrics, sg_s.updated_at, sg_s.credits_json, sg_s.credit_count from catalog_songs sg_s
                   where ${matching('sg_s')} order by sg_s.isrc offset sg_k.n limit ?)`;
  return { credited, matching, skip, rows };
}

/**
 * The JSON a songs page's items are written in when passed through (src/graphql/pass-through.ts):
 * each item an object of these members, in this order, under these names (the answer's keys).
 */
export type SongsShape = readonly ({ key: string; value: SongValue } | { key: string; credits: readonly { key: string; value: CreditValue }[] })[];
/** The values a songs page can be written with, by the name of their field on Song and on SongCredit. */
export type SongValue = keyof typeof SONG_VALUES;
export type CreditValue = keyof typeof CREDIT_VALUES;

/** Each value as the answer serializes it: timestamps as `Date.prototype.toISOString` writes them (years 0 to 9999). */
const SONG_VALUES = {
  isrc: 'sg_p.isrc',
  name: 'sg_p.name',
  album: 'sg_p.album',
  lyrics: 'sg_p.lyrics',
  catalogId: 'sg_p.catalog_id',
  updatedAt: `to_char(sg_p.updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
  __typename: `'Song'::text`,
} as const;
const CREDIT_VALUES = { id: 'sg_c.id', name: 'sg_c.name', timestamp: 'sg_c.timestamp', __typename: `'SongCredit'::text` } as const;

/** Whether a field of Song is a value a songs page can be written with. */
export const isSongValue = (field: string): field is SongValue => Object.hasOwn(SONG_VALUES, field);
/** Whether a field of SongCredit is a value a songs page can be written with. */
export const isCreditValue = (field: string): field is CreditValue => Object.hasOwn(CREDIT_VALUES, field);

/** Whether a member name can be a column alias of the serialized page: a GraphQL name (letters, digits, underscores) of at most 63 bytes, PostgreSQL's bound. */
export const isShapeKey = (key: string): boolean => /^[_A-Za-z][_0-9A-Za-z]{0,62}$/.test(key);

/** A member name as a quoted SQL column alias (see isShapeKey). */
const columnAlias = (key: string): string => {
  if (!isShapeKey(key)) throw new Error(`Not a member name a songs page can be written with: ${key}`);
  return `"${key}"`;
};

/**
 * Whether credits are asked for as the entry keeps them (`catalog_songs.credits_json`, kept by
 * triggers: migrations/Migration20261127100000_SongCredits.ts): `{ id name timestamp }`, unaliased,
 * in that order. Any other selection is written from the credit rows.
 */
const isStoredCredits = (credits: readonly { key: string; value: CreditValue }[]): boolean =>
  credits.length === STORED_CREDIT.length && credits.every((c, i) => c.key === STORED_CREDIT[i] && c.value === STORED_CREDIT[i]);
const STORED_CREDIT = ['id', 'name', 'timestamp'] as const;

/** The row `sg_r` of one page row `sg_p` in the shape: the members as columns, credits as compact JSON. */
function shapeColumns(shape: SongsShape): string {
  return shape
    .map((member) => {
      if ('value' in member) return `${SONG_VALUES[member.value]} as ${columnAlias(member.key)}`;
      if (isStoredCredits(member.credits)) return `sg_p.credits_json as ${columnAlias(member.key)}`;
      const credit = member.credits.map((c) => `${CREDIT_VALUES[c.value]} as ${columnAlias(c.key)}`).join(', ');
      return `(select ('[' || coalesce(string_agg(row_to_json(sg_cr)::text, ',' order by sg_c.created_at, sg_c.name, sg_c.id), '') || ']')::json
                 from ${CREDITS_OF_PAGE_ROW} sg_c cross join lateral (select ${credit}) sg_cr) as ${columnAlias(member.key)}`;
    })
    .join(', ');
}

/**
 * SQL texts of serialized songs pages sent as prepared statements (see songsPageWithAccessSerialized).
 * A list, compared (strings of another length at once), not a Set: each request builds its text
 * anew, and a Set would hash all of it (about 2 KB) on every lookup.
 */
const preparedShapes: string[] = [];
const PREPARED_SHAPES_MAX = 16;

function admitPreparedShape(sql: string): boolean {
  if (preparedShapes.includes(sql)) return true;
  if (preparedShapes.length >= PREPARED_SHAPES_MAX) return false;
  preparedShapes.push(sql);
  return true;
}

/**
 * Catalog.songs written in the answer's shape: the same page as songsPageJson (same songs, order,
 * credits and reach), giving `total`, `skipped`, `count` (its items), `last` (the last item's ISRC),
 * `objects` (the items and the credits they hold) and `items`, the items as compact JSON text in
 * `shape` (what JSON.stringify writes of them).
 */
export function songsPageSerialized(catalogId: string, position: Position<readonly string[]>, limit: number, filter: string | null, shape: SongsShape): SqlCondition {
  const { credited, matching, skip, rows } = songsPageParts(catalogId, position, filter);
  // The objects the items hold at every depth: the songs, and the credits of each (the cost model counts them).
  // `offset 0` keeps sg_r a row of its own: pulled up into its parent, each reference to a credits
  // column (the item's JSON, the count) would run the credits subquery again (page 100: 2.3 → 5.4 ms).
  const objects = [
    'count(*)::int',
    ...shape.flatMap((m) =>
      !('credits' in m) ? [] : isStoredCredits(m.credits) ? ['coalesce(sum(sg_p.credit_count), 0)::int'] : [`coalesce(sum(json_array_length(sg_r.${columnAlias(m.key)})), 0)::int`],
    ),
  ].join(' + ');
  return {
    sql: `(select (select count(*)::int from catalog_songs sg_t where ${matching('sg_t')}) as total, sg_k.n as skipped, sg_i.count, sg_i.last, sg_i.objects, sg_i.items
        from (select ${skip.sql} as n) sg_k
        cross join lateral (
          select count(*)::int as count, max(sg_p.isrc) as last, ${objects} as objects,
                 '[' || coalesce(string_agg(row_to_json(sg_r)::text, ',' order by sg_p.isrc), '') || ']' as items
            from ${rows} sg_p cross join lateral (select ${shapeColumns(shape)} offset 0) sg_r) sg_i)`,
    bindings: [...credited, ...skip.bindings, ...credited, limit],
  };
}

/** A catalog as a relation's JSON gives it (timestamps as JSON text). */
type CatalogJson = Omit<Catalog, 'created_at' | 'updated_at'> & { created_at: string; updated_at: string };

/** A catalog read as JSON, its timestamps as Dates (and its members read ahead, if any, kept). */
export const catalogOf = <T extends CatalogJson>(row: T): Omit<T, 'created_at' | 'updated_at'> & Catalog => ({
  ...row,
  created_at: new Date(row.created_at),
  updated_at: new Date(row.updated_at),
});

/**
 * Catalog.accounts, the relation's one SQL text: the accounts the catalog whose id is the SQL
 * expression `catalogId` is linked to, by name then id (at most LIST_BOUNDS.accountsPerCatalog, paged
 * by the service), as a JSON array. The batched loader (accountsOfCatalogs) and the read-ahead
 * (artistCatalogsJson) compose it; its aliases (ca_*) are its own.
 */
export function catalogAccountsJson(catalogId: string): string {
  return `coalesce((select json_agg(json_build_object('id', ca_a.id, 'name', ca_a.name, 'kind', ca_a.kind) order by ca_a.name, ca_a.id)
            from (select ca_x.id, ca_x.name, ca_x.kind from account_catalogs ca_l join accounts ca_x on ca_x.id = ca_l.account_id
                   where ca_l.catalog_id = ${catalogId} order by ca_x.name, ca_x.id limit ${LIST_BOUNDS.accountsPerCatalog}) ca_a), '[]'::json)`;
}

/**
 * Artist.catalogs, the relation's one SQL text: the catalogs the artist whose id is the SQL
 * expression `artistId` is on (linked to the artist account, or holding an entry crediting it) that
 * the viewer reaches, by name then id (at most LIST_BOUNDS.catalogsPerList, paged by the service), as
 * a JSON array of catalogs; `members` adds `json_build_object` members over the catalog `ar_c`
 * (relations read ahead: its accounts, a page of its songs). The batched loader
 * (reachableCatalogsOfArtists) and the read-ahead (artistCatalogsJson) compose it; its aliases (ar_*) are its own.
 */
export function reachableCatalogsJson(viewer: Viewer, artistId: string, members: SqlCondition = { sql: '', bindings: [] }): SqlCondition {
  const reach = catalogReach(viewer, 'ar_c.id');
  return {
    sql: `coalesce((
        select json_agg(json_build_object('id', ar_c.id, 'name', ar_c.name, 'created_at', ar_c.created_at, 'updated_at', ar_c.updated_at${members.sql})
                        order by ar_c.name, ar_c.id)
          from (select ar_c.* from catalogs ar_c
                 where ar_c.id in (select ar_l.catalog_id from account_catalogs ar_l where ar_l.account_id = ${artistId}
                                   union
                                   select ar_s.catalog_id from catalog_song_artists ar_sa join catalog_songs ar_s on ar_s.id = ar_sa.catalog_song_id
                                    where ar_sa.artist_id = ${artistId})
                   and ${reach.sql}
                 order by ar_c.name, ar_c.id limit ${LIST_BOUNDS.catalogsPerList}) ar_c), '[]'::json)`,
    bindings: [...members.bindings, ...reach.bindings],
  };
}

/** The writes of POST /api/catalogs/songs, made inside one transaction. */
export type CatalogSongWrites = Pick<
  CatalogRepository,
  'existingEntries' | 'upsertEntries' | 'artistsNamed' | 'lockRosterSize' | 'createRosterArtists' | 'creditArtists' | 'entriesCreditedOver' | 'touchCatalogs'
>;

/** Every read and write of catalogs, their account links, their song entries and credits. */
export class CatalogRepository {
  constructor(private readonly db: Db) {}

  /** Runs `work` in one transaction, on a repository bound to it. */
  transaction<T>(work: (repo: CatalogSongWrites) => Promise<T>): Promise<T> {
    return this.db.transactional((tx) => work(new CatalogRepository(tx)));
  }

  /**
   * Catalogs by id, each with whether the viewer reaches it; ids absent from the answer do not
   * exist. One statement, which also returns the catalog row so callers need not load it again.
   */
  async catalogAccess(viewer: Viewer, catalogIds: readonly string[]): Promise<Map<string, CatalogAccessRow>> {
    if (catalogIds.length === 0) return new Map();
    const reach = catalogReach(viewer, 'c.id');
    const rows = await query<CatalogAccessRow>(
      this.db.em,
      `select c.id, c.name, c.created_at, c.updated_at, ${reach.sql} as reachable
         from catalogs c where c.id = any(?::uuid[])`,
      [...reach.bindings, pgArray(catalogIds)],
    );
    return new Map(rows.map((r) => [r.id, r]));
  }

  /**
   * GET /api/catalogs/songs in one statement: whether the catalog exists (null when not) and the
   * viewer reaches it, then, only when reachable, the page by ISRC (optionally only songs credited
   * to an artist with the given lower-cased name), its total and each entry's credits in credit order.
   */
  async songsPageWithAccess(viewer: Viewer, catalogId: string, position: Position<readonly string[]>, limit: number, filter: string | null): Promise<CatalogSongsPage | null> {
    const reach = catalogReach(viewer, 'c.id');
    const page = songsPageJson('c.id', position, limit, filter);
    const rows = await this.db.hot<{ reachable: boolean; page: SongsPageJson | null }>(`select r.reachable, case when r.reachable then ${page.sql} end as page
         from catalogs c cross join lateral (select ${reach.sql} as reachable) r
        where c.id = ?`,
      [...page.bindings, ...reach.bindings, catalogId],
    );
    if (rows.length === 0) return null;
    const { reachable, page: found } = rows[0];
    return found ? { reachable, total: found.total, skipped: found.skipped, songs: songsOf(found) } : { reachable, total: 0, skipped: 0, songs: [] };
  }

  /**
   * GET /api/catalogs/songs passed through (src/graphql/pass-through.ts): songsPageWithAccess in
   * one statement as well, the page's items as JSON text in `shape` (songsPageSerialized).
   */
  async songsPageWithAccessSerialized(
    viewer: Viewer,
    catalogId: string,
    position: Position<readonly string[]>,
    limit: number,
    filter: string | null,
    shape: SongsShape,
  ): Promise<SerializedSongsPage | null> {
    const reach = catalogReach(viewer, 'c.id');
    const page = songsPageSerialized('c.id', position, limit, filter, shape);
    // Each shape is its own SQL text: the first few a process sees (the REST route's, a client's
    // usual queries) are prepared; any further one runs unprepared, so no client can make every
    // connection keep a plan for each selection it invents.
    const run = admitPreparedShape(page.sql) ? this.db.hot.bind(this.db) : this.db.execute.bind(this.db);
    const rows = await run<{ reachable: boolean; total: number | null; skipped: number | null; count: number | null; last: string | null; objects: number | null; items: string | null }>(
      `select r.reachable, p.total, p.skipped, p.count, p.last, p.objects, p.items
         from catalogs c cross join lateral (select ${reach.sql} as reachable) r
         left join lateral ${page.sql} p on r.reachable
        where c.id = ?`,
      [...reach.bindings, ...page.bindings, catalogId],
    );
    if (rows.length === 0) return null;
    const row = rows[0];
    if (!row.reachable || row.items === null) return { reachable: row.reachable, total: 0, skipped: 0, count: 0, last: null, objects: 0, items: '[]' };
    return { reachable: true, total: row.total!, skipped: row.skipped!, count: row.count!, last: row.last, objects: row.objects!, items: row.items };
  }

  /**
   * A page of each catalog's songs by ISRC, optionally only those credited to an artist with the
   * given name (lower-cased), each with its credits; one statement for any number of catalogs.
   */
  async songsPages(catalogIds: string[], position: Position<readonly string[]>, limit: number, filter: string | null): Promise<PagedRow<CatalogSongRow>[]> {
    const page = songsPageJson('pg_o.id', position, limit, filter);
    const rows = await query<{ owner: string; page: SongsPageJson }>(
      this.db.em,
      `select pg_o.id as owner, ${page.sql} as page from unnest(?::uuid[]) as pg_o(id)`,
      [...page.bindings, pgArray(catalogIds)],
    );
    return rows.flatMap(({ owner, page }) => pagedRows(owner, page, songsOf(page)));
  }

  /** Artists credited on each catalog entry, in credit order, with the credit time in epoch seconds. */
  creditsOfEntries(entryIds: readonly string[]): Promise<(SongCredit & { entry_id: string })[]> {
    return query(
      this.db.em,
      `select entry_id, id, name, timestamp from (
         select csa.catalog_song_id as entry_id, a.id, a.name, floor(extract(epoch from csa.created_at))::int as timestamp,
                row_number() over (partition by csa.catalog_song_id order by csa.created_at, a.name, a.id) as rn
           from catalog_song_artists csa join accounts a on a.id = csa.artist_id
          where csa.catalog_song_id = any(?::uuid[])) t
        where rn <= ${LIST_BOUNDS.creditsPerSong}
        order by entry_id, rn`,
      [pgArray(entryIds)],
    );
  }

  /** Catalogs linked to each account, by name. */
  catalogsOfAccounts(accountIds: readonly string[]): Promise<(Catalog & { account_id: string })[]> {
    return query(
      this.db.em,
      `select account_id, id, name, created_at, updated_at from (
         select ac.account_id, c.id, c.name, c.created_at, c.updated_at, row_number() over (partition by ac.account_id order by c.name, c.id) as rn
           from account_catalogs ac join catalogs c on c.id = ac.catalog_id
          where ac.account_id = any(?::uuid[])) t
        where rn <= ${LIST_BOUNDS.catalogsPerAccount} order by name, id`,
      [pgArray(accountIds)],
    );
  }

  /**
   * The catalogs each artist is on (linked to the artist account, or holding an entry crediting
   * it) that the viewer reaches (reachableCatalogsJson), by artist: catalog reach is part of the read.
   */
  async reachableCatalogsOfArtists(viewer: Viewer, artistIds: readonly string[]): Promise<Map<string, Catalog[]>> {
    const catalogs = reachableCatalogsJson(viewer, 'ar_o.id');
    const rows = await query<{ artist_id: string; catalogs: CatalogJson[] }>(
      this.db.em,
      `select ar_o.id as artist_id, ${catalogs.sql} as catalogs from unnest(?::uuid[]) as ar_o(id)`,
      [...catalogs.bindings, pgArray(artistIds)],
    );
    return new Map(rows.map((row) => [row.artist_id, row.catalogs.map(catalogOf)]));
  }

  /**
   * Artist.catalogs read ahead (graphql/prefetch.ts): a SQL expression, for the artist whose id is
   * the SQL expression `artistId`, giving `{reachable, catalogs}`: whether the viewer reaches the
   * artist, and (only then) the catalogs Artist.catalogs answers (reachableCatalogsJson), each with
   * its accounts (catalogAccountsJson) and one page of its songs (songsPageJson, with each entry's
   * credits) when asked: the relations' own SQL texts, composed. The aliases are the expression's
   * own (pf_*, and each builder's), so the caller's `artistId` is never shadowed.
   */
  artistCatalogsJson(
    viewer: Viewer,
    artistId: string,
    include: { accounts: boolean; songs?: { offset: number; limit: number; filter: string | null } },
  ): SqlCondition {
    const artistReach = reachCondition(viewer, artistId);
    const members: SqlCondition = { sql: '', bindings: [] };
    if (include.songs) {
      const { offset, limit, filter } = include.songs;
      const songs = songsPageJson('ar_c.id', { offset }, limit, filter);
      members.sql += `, 'songs', ${songs.sql}`;
      members.bindings.push(...songs.bindings);
    }
    if (include.accounts) members.sql += `, 'accounts', ${catalogAccountsJson('ar_c.id')}`;
    const catalogs = reachableCatalogsJson(viewer, artistId, members);
    return {
      sql: `select json_build_object('reachable', pf_r.ok, 'catalogs', case when pf_r.ok then ${catalogs.sql} else '[]'::json end)
              from (select ${artistReach.sql} as ok) pf_r`,
      bindings: [...catalogs.bindings, ...artistReach.bindings],
    };
  }

  /** The accounts each catalog is linked to (catalogAccountsJson), by catalog. */
  async accountsOfCatalogs(catalogIds: readonly string[]): Promise<Map<string, CatalogAccount[]>> {
    const rows = await query<{ catalog_id: string; accounts: CatalogAccount[] }>(
      this.db.em,
      `select ca_o.id as catalog_id, ${catalogAccountsJson('ca_o.id')} as accounts from unnest(?::uuid[]) as ca_o(id)`,
      [pgArray(catalogIds)],
    );
    return new Map(rows.map((row) => [row.catalog_id, row.accounts]));
  }

  /** The catalogs holding each ISRC that the viewer reaches: catalog reach is part of the read. */
  reachableCatalogsOfIsrcs(viewer: Viewer, isrcs: readonly string[]): Promise<(Catalog & { isrc: string })[]> {
    const reach = catalogReach(viewer, 'c.id');
    return query(
      this.db.em,
      `select isrc, id, name, created_at, updated_at from (
         select cs.isrc, c.id, c.name, c.created_at, c.updated_at, row_number() over (partition by cs.isrc order by c.name, c.id) as rn
           from catalog_songs cs join catalogs c on c.id = cs.catalog_id
          where cs.isrc = any(?::text[]) and ${reach.sql}) t
        where rn <= ${LIST_BOUNDS.catalogsPerList}`,
      [pgArray(isrcs), ...reach.bindings],
    );
  }

  /** The song each ISRC is to the viewer: its most recently updated entry among the catalogs it reaches (absent when none). */
  songsByIsrc(viewer: Viewer, isrcs: readonly string[]): Promise<Song[]> {
    const reach = catalogReach(viewer, 'cs.catalog_id');
    return query<Song>(
      this.db.em,
      `select distinct on (cs.isrc) ${SONG_COLUMNS} from catalog_songs cs
        where cs.isrc = any(?::text[]) and ${reach.sql}
        order by cs.isrc, ${LATEST_ENTRY}`,
      [pgArray(isrcs), ...reach.bindings],
    );
  }

  /**
   * A page of the songs crediting each artist, by ISRC: entries in catalogs the viewer reaches,
   * one per ISRC (the most recently updated); one statement for any number of artists.
   */
  async artistSongsPages(viewer: Viewer, artistIds: string[], position: Position<readonly string[]>, limit: number): Promise<PagedRow<Song>[]> {
    const reach = catalogReach(viewer, 'cs.catalog_id');
    const skip = skippedSql(position, ([isrc]) => ({ sql: 'count(*) filter (where e.isrc <= ?) over (partition by e.artist_id)', bindings: [isrc] }));
    const rows = await query<Song & { owner: string; total: string; skipped: string; rn: string; artist_id: string }>(
      this.db.em,
      `with e as (
         select distinct on (csa.artist_id, cs.isrc) csa.artist_id, ${SONG_COLUMNS}
           from catalog_song_artists csa join catalog_songs cs on cs.id = csa.catalog_song_id
          where csa.artist_id = any(?::uuid[]) and ${reach.sql}
          order by csa.artist_id, cs.isrc, ${LATEST_ENTRY}),
       f as (
         select e.*, row_number() over (partition by e.artist_id order by e.isrc) as rn, count(*) over (partition by e.artist_id) as total,
                ${skip.sql} as skipped from e)
       select t.artist_id as owner, t.total, t.skipped, p.entry_id, p.catalog_id, p.isrc, p.name, p.album, p.lyrics, p.updated_at
         from (select distinct artist_id, total, skipped from f) t
         left join f p on p.artist_id = t.artist_id and p.rn > t.skipped and p.rn <= t.skipped + ?
        order by t.artist_id, p.rn`,
      [pgArray(artistIds), ...reach.bindings, ...skip.bindings, limit],
    );
    return rows.map(({ owner, total, skipped, rn: _rn, artist_id: _a, ...song }) => ({ owner, total, skipped, item: song.isrc ? song : null }));
  }

  /**
   * Links an existing catalog to the account (no-op when linked already), in one transaction with
   * the caps. `through`: the membership the link is made through, which it then ends with.
   * Answers what kept it from being written: a list that would pass its bound, or the membership
   * being gone; null when linked.
   */
  linkCatalog(
    accountId: string,
    catalogId: string,
    through?: { organizationId: string; memberId: string },
  ): Promise<'account_catalogs' | 'catalog_accounts' | 'no_membership' | null> {
    return this.db.transactional(async (tx) => {
      const em = tx.em;
      // The account and the catalog are locked, so concurrent links count each other (counted after the lock, in a statement of its own).
      await em.execute(`select 1 from accounts a, catalogs c where a.id = ? and c.id = ? for update`, [accountId, catalogId]);
      const [counts] = await em.execute<{ linked: boolean; catalogs: number; accounts: number }[]>(
        `select exists (select 1 from account_catalogs where account_id = ? and catalog_id = ?) as linked,
                (select count(*)::int from account_catalogs where account_id = ?) as catalogs,
                (select count(*)::int from account_catalogs where catalog_id = ?) as accounts`,
        [accountId, catalogId, accountId, catalogId],
      );
      if (counts && !counts.linked) {
        if (counts.catalogs >= LIST_BOUNDS.catalogsPerAccount) return 'account_catalogs';
        if (counts.accounts >= LIST_BOUNDS.accountsPerCatalog) return 'catalog_accounts';
      }
      if (!through) {
        await em.execute(
          `insert into account_catalogs (id, account_id, catalog_id, created_at, updated_at) values (gen_random_uuid(), ?, ?, now(), now())
           on conflict (account_id, catalog_id) do nothing`,
          [accountId, catalogId],
        );
        return null;
      }
      // memberships is the account module's table: read here only to hang the link on its row.
      const rows = await em.execute<{ ok: number }[]>(
        // Key-share locked: a removal committing meanwhile waits, then takes the link with the membership.
        `with m as (select id from memberships where organization_id = ? and member_id = ? for key share),
              ins as (insert into account_catalogs (id, account_id, catalog_id, membership_id, created_at, updated_at)
                      select gen_random_uuid(), ?, ?, m.id, now(), now() from m
                      on conflict (account_id, catalog_id) do nothing)
         select 1 as ok from m`,
        [through.organizationId, through.memberId, accountId, catalogId],
      );
      return rows.length > 0 ? null : 'no_membership';
    });
  }

  /** The accounts the catalog is linked to in their own right (not through a membership). */
  async holdersOf(catalogId: string): Promise<string[]> {
    const rows = await this.db.em.execute<{ account_id: string }[]>(`select account_id from account_catalogs where catalog_id = ? and membership_id is null`, [
      catalogId,
    ]);
    return rows.map((r) => r.account_id);
  }

  /**
   * Of these links, those an account in `actors` may end as a holder of the catalog: it is linked
   * to it in its own right, and before the link in question was made.
   */
  async unlinkableAsHolder(actors: readonly string[], links: { catalog_id: string; account_id: string }[]): Promise<Set<string>> {
    if (!links.length) return new Set();
    const rows = await this.db.em.execute<{ catalog_id: string; account_id: string }[]>(
      `select ac.catalog_id, ac.account_id from account_catalogs ac
         join unnest(?::uuid[], ?::uuid[]) as t(catalog_id, account_id) on ac.catalog_id = t.catalog_id and ac.account_id = t.account_id
        where exists (select 1 from account_catalogs holder where holder.catalog_id = ac.catalog_id and holder.membership_id is null
                         and holder.account_id = any(?::uuid[]) and holder.created_at < ac.created_at)`,
      [pgArray(links.map((l) => l.catalog_id)), pgArray(links.map((l) => l.account_id)), pgArray(actors)],
    );
    return new Set(rows.map((r) => `${r.catalog_id}|${r.account_id}`));
  }

  /** A new catalog linked to the account, in one transaction; null (nothing written) when the account holds LIST_BOUNDS.catalogsPerAccount already. */
  createCatalog(accountId: string, name: string): Promise<Catalog | null> {
    return this.db.transactional(async (tx) => {
      const em = tx.em;
      await em.execute(`select 1 from accounts where id = ? for update`, [accountId]);
      const [held] = await em.execute<{ n: number }[]>(`select count(*)::int as n from account_catalogs where account_id = ?`, [accountId]);
      if ((held?.n ?? 0) >= LIST_BOUNDS.catalogsPerAccount) return null;
      const [catalog] = await query<Catalog>(
        em,
        `insert into catalogs (id, name, created_at, updated_at) values (gen_random_uuid(), ?, now(), now()) returning id, name, created_at, updated_at`,
        [name],
      );
      await em.execute(`insert into account_catalogs (id, account_id, catalog_id, created_at, updated_at) values (gen_random_uuid(), ?, ?, now(), now())`, [
        accountId,
        catalog.id,
      ]);
      return catalog;
    });
  }

  /** Which of these (catalog, ISRC) pairs have an entry already. */
  existingEntries(refs: EntryRef[]): Promise<EntryRef[]> {
    return this.db.em.execute<EntryRef[]>(
      `select cs.catalog_id, cs.isrc from catalog_songs cs join unnest(?::uuid[], ?::text[]) as t(catalog_id, isrc)
         on cs.catalog_id = t.catalog_id and cs.isrc = t.isrc`,
      [pgArray(refs.map((e) => e.catalog_id)), pgArray(refs.map((e) => e.isrc))],
    );
  }

  /** Upserts each catalog's own entry for its ISRC (a null album or lyrics keeps the current one); answers the entry ids. */
  upsertEntries(entries: EntryValues[]): Promise<(EntryRef & { id: string })[]> {
    // coalesce with the current entry: the proposed row must satisfy NOT NULL before ON CONFLICT applies.
    return this.db.em.execute(
      `insert into catalog_songs (id, catalog_id, isrc, name, album, lyrics, created_at, updated_at)
       select gen_random_uuid(), t.catalog_id, t.isrc, coalesce(t.name, e.name), t.album, t.lyrics, now(), now()
         from unnest(?::uuid[], ?::text[], ?::text[], ?::text[], ?::text[]) as t(catalog_id, isrc, name, album, lyrics)
         left join catalog_songs e on e.catalog_id = t.catalog_id and e.isrc = t.isrc
       on conflict (catalog_id, isrc) do update set
         name = excluded.name,
         album = coalesce(excluded.album, catalog_songs.album),
         lyrics = coalesce(excluded.lyrics, catalog_songs.lyrics),
         updated_at = now()
       returning id, catalog_id, isrc`,
      [
        pgArray(entries.map((e) => e.catalog_id)),
        pgArray(entries.map((e) => e.isrc)),
        pgNullableArray(entries.map((e) => e.name)),
        pgNullableArray(entries.map((e) => e.album)),
        pgNullableArray(entries.map((e) => e.lyrics)),
      ],
    );
  }

  /** Artist accounts whose lower-cased name is one of `keys`, oldest first. */
  artistsNamed(keys: string[]): Promise<{ id: string; key: string }[]> {
    return this.db.em.execute(
      `select id, lower(name) as key from accounts where kind = 'artist' and lower(name) = any(?::text[]) order by created_at, id`,
      [pgArray(keys)],
    );
  }

  /** New artist accounts on the owner's roster: the artist module writes rosters, here on this repository's transaction. */
  createRosterArtists(ownerId: string, names: string[]): Promise<{ id: string; key: string }[]> {
    return new ArtistRepository(this.db).createRosterArtists(ownerId, names);
  }

  /** The owner's roster size, with the owner locked until the transaction ends (concurrent roster writes wait). */
  lockRosterSize(ownerId: string): Promise<number> {
    return new ArtistRepository(this.db).lockRosterSize(ownerId);
  }

  /** Of these entries, those credited to more than `max` artists. */
  async entriesCreditedOver(entryIds: string[], max: number): Promise<Set<string>> {
    const rows = await this.db.em.execute<{ id: string }[]>(
      `select catalog_song_id as id from catalog_song_artists where catalog_song_id = any(?::uuid[]) group by catalog_song_id having count(*) > ?`,
      [pgArray(entryIds), max],
    );
    return new Set(rows.map((r) => r.id));
  }

  /** Credits artists on entries (a credit given already stays as it is). */
  async creditArtists(credits: { entryId: string; artistId: string }[]): Promise<void> {
    await this.db.em.execute(
      `insert into catalog_song_artists (id, catalog_song_id, artist_id, created_at, updated_at)
       select gen_random_uuid(), t.entry_id, t.artist_id, now(), now() from unnest(?::uuid[], ?::uuid[]) as t(entry_id, artist_id)
       on conflict (catalog_song_id, artist_id) do nothing`,
      [pgArray(credits.map((c) => c.entryId)), pgArray(credits.map((c) => c.artistId))],
    );
  }

  /** Marks the catalogs changed now. */
  async touchCatalogs(catalogIds: string[]): Promise<void> {
    await this.db.em.execute(`update catalogs set updated_at = now() where id = any(?::uuid[])`, [pgArray(catalogIds)]);
  }

  /** Catalog entries by id (in no particular order). */
  entriesById(entryIds: string[]): Promise<CatalogSongRow[]> {
    return query<CatalogSongRow>(
      this.db.em,
      `select cs.catalog_id, cs.id as entry_id, cs.isrc, cs.name, cs.album, cs.lyrics, cs.updated_at from catalog_songs cs where cs.id = any(?::uuid[])`,
      [pgArray(entryIds)],
    );
  }

  /** Every entry of the given catalogs, by catalog then ISRC. */
  entriesOfCatalogs(catalogIds: string[]): Promise<CatalogSongRow[]> {
    return query<CatalogSongRow>(
      this.db.em,
      `select cs.catalog_id, cs.id as entry_id, cs.isrc, cs.name, cs.album, cs.lyrics, cs.updated_at
         from catalog_songs cs where cs.catalog_id = any(?::uuid[]) order by cs.catalog_id, cs.isrc`,
      [pgArray(catalogIds)],
    );
  }

  /** Deletes these entries and marks their catalogs changed, in one transaction. */
  removeEntries(refs: EntryRef[]): Promise<void> {
    return this.db.transactional(async (tx) => {
      const em = tx.em;
      await em.execute(
        `delete from catalog_songs cs using unnest(?::uuid[], ?::text[]) as t(catalog_id, isrc)
          where cs.catalog_id = t.catalog_id and cs.isrc = t.isrc`,
        [pgArray(refs.map((s) => s.catalog_id)), pgArray(refs.map((s) => s.isrc))],
      );
      await em.execute(`update catalogs set updated_at = now() where id = any(?::uuid[])`, [pgArray([...new Set(refs.map((s) => s.catalog_id))])]);
    });
  }

  /**
   * Unlinks catalog-account pairs in one transaction. A catalog left with no linked account is
   * deleted, and with it its song entries and their credits (cascade).
   */
  unlinkCatalogs(links: { catalog_id: string; account_id: string }[]): Promise<void> {
    const catalogIds = [...new Set(links.map((c) => c.catalog_id))];
    return this.db.transactional(async (tx) => {
      const em = tx.em;
      // Locks the catalogs so two requests removing the last two links cannot both leave one behind.
      await em.execute(`select id from catalogs where id = any(?::uuid[]) order by id for update`, [pgArray(catalogIds)]);
      await em.execute(
        `delete from account_catalogs ac using unnest(?::uuid[], ?::uuid[]) as t(catalog_id, account_id)
          where ac.catalog_id = t.catalog_id and ac.account_id = t.account_id`,
        [pgArray(links.map((c) => c.catalog_id)), pgArray(links.map((c) => c.account_id))],
      );
      await em.execute(
        `delete from catalogs c where c.id = any(?::uuid[]) and not exists (select 1 from account_catalogs ac where ac.catalog_id = c.id)`,
        [pgArray(catalogIds)],
      );
    });
  }

  /** The catalogs linked to any of these accounts, by name. */
  catalogsLinkedTo(accountIds: string[]): Promise<Catalog[]> {
    return query<Catalog>(
      this.db.em,
      `select c.id, c.name, c.created_at, c.updated_at from catalogs c
        where c.id in (select ac.catalog_id from account_catalogs ac where ac.account_id = any(?::uuid[]))
        order by c.name, c.id`,
      [pgArray(accountIds)],
    );
  }
}
