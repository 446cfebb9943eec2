import type { EntityManager } from '@mikro-orm/postgresql';
import DataLoader from 'dataloader';
import { requireViewer } from '../../auth/access';
import { pgArray } from '../../db/sql';
import type { Context } from '../../graphql/context';
import { query } from '../../db/sql';
import { batchPages, Page, PageKey, pageKeyOf } from '../../db/pages';
import type { CatalogAccount, CatalogRecord, Song, SongCredit } from './catalog.types';

export interface CatalogSongRow extends Song {
  catalog_id: string;
}

export type SongsPageKey = PageKey & { filter: string | null };

/** A catalog entry as a Song: the entry's own values, and its id for its credits. */
const SONG_COLUMNS = 'cs.id as entry_id, cs.isrc, cs.name, cs.album, cs.lyrics, cs.updated_at';
/** Of several entries for one ISRC, the most recently updated answers (then the lowest catalog id). */
const LATEST_ENTRY = 'cs.updated_at desc, cs.catalog_id';

function groupBy<T>(rows: T[], key: (row: T) => string): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const row of rows) map.set(key(row), [...(map.get(key(row)) ?? []), row]);
  return map;
}

export function createCatalogLoaders(em: EntityManager) {
  const sql = <T>(statement: string, bindings: unknown[]) => query<T>(em, statement, bindings);
  return {
    /**
     * A page of a catalog's songs by ISRC, optionally only those credited to an artist with the
     * given name (lower-cased); one statement for any number of catalogs.
     */
    catalogSongsPage: new DataLoader<SongsPageKey, Page<CatalogSongRow>, string>(
      (keys) =>
        batchPages(keys, async (ids, offset, limit, filter) => {
          const rows = await sql<CatalogSongRow & { owner: string; total: string; rn: string }>(
            `with f as (
               select cs.catalog_id, ${SONG_COLUMNS},
                      row_number() over (partition by cs.catalog_id order by cs.isrc) as rn,
                      count(*) over (partition by cs.catalog_id) as total
                 from catalog_songs cs
                where cs.catalog_id = any(?::uuid[])
                  ${filter === null ? '' : `and cs.id in (select csa.catalog_song_id from catalog_song_artists csa join accounts a on a.id = csa.artist_id
                                                          where a.kind = 'artist' and lower(a.name) = ?)`})
             select t.catalog_id as owner, t.total, p.catalog_id, p.entry_id, p.isrc, p.name, p.album, p.lyrics, p.updated_at
               from (select distinct catalog_id, total from f) t
               left join f p on p.catalog_id = t.catalog_id and p.rn > ? and p.rn <= ?
              order by t.catalog_id, p.rn`,
            filter === null ? [pgArray(ids), offset, offset + limit] : [pgArray(ids), filter, offset, offset + limit],
          );
          return rows.map(({ owner, total, rn: _rn, ...song }) => ({ owner, total, item: song.isrc ? song : null }));
        }),
      { cacheKeyFn: pageKeyOf },
    ),

    /** Artists credited on each catalog entry, in credit order, with the credit time in epoch seconds. */
    creditsByEntry: new DataLoader<string, SongCredit[]>(async (entryIds) => {
      const rows = await sql<SongCredit & { entry_id: string }>(
        `select csa.catalog_song_id as entry_id, a.id, a.name, floor(extract(epoch from csa.created_at))::int as timestamp
           from catalog_song_artists csa join accounts a on a.id = csa.artist_id
          where csa.catalog_song_id = any(?::uuid[])
          order by csa.catalog_song_id, csa.created_at, a.name, a.id`,
        [pgArray(entryIds)],
      );
      const byEntry = groupBy(rows, (r) => r.entry_id);
      return entryIds.map((id) => (byEntry.get(id) ?? []).map(({ id, name, timestamp }) => ({ id, name, timestamp })));
    }),

    /** Catalogs linked to each account, by name. */
    catalogsByAccount: new DataLoader<string, CatalogRecord[]>(async (accountIds) => {
      const rows = await sql<CatalogRecord & { account_id: string }>(
        `select ac.account_id, c.id, c.name, c.created_at, c.updated_at
           from account_catalogs ac join catalogs c on c.id = ac.catalog_id
          where ac.account_id = any(?::uuid[]) order by c.name, c.id`,
        [pgArray(accountIds)],
      );
      const byAccount = groupBy(rows, (r) => r.account_id);
      return accountIds.map((id) => (byAccount.get(id) ?? []).map(({ account_id: _a, ...catalog }) => catalog));
    }),

    /** Ids of the catalogs an artist is on: linked to the artist account, or holding an entry crediting it. */
    catalogIdsByArtist: new DataLoader<string, string[]>(async (artistIds) => {
      const rows = await sql<{ artist_id: string; catalog_id: string }>(
        `select ac.account_id as artist_id, ac.catalog_id from account_catalogs ac where ac.account_id = any(?::uuid[])
         union
         select csa.artist_id, cs.catalog_id from catalog_song_artists csa join catalog_songs cs on cs.id = csa.catalog_song_id
          where csa.artist_id = any(?::uuid[])`,
        [pgArray(artistIds), pgArray(artistIds)],
      );
      const byArtist = groupBy(rows, (r) => r.artist_id);
      return artistIds.map((id) => (byArtist.get(id) ?? []).map((r) => r.catalog_id));
    }),

    /** Accounts each catalog is linked to, by name. */
    accountsByCatalog: new DataLoader<string, CatalogAccount[]>(async (catalogIds) => {
      const rows = await sql<CatalogAccount & { catalog_id: string }>(
        `select ac.catalog_id, a.id, a.name, a.kind
           from account_catalogs ac join accounts a on a.id = ac.account_id
          where ac.catalog_id = any(?::uuid[]) order by a.name, a.id`,
        [pgArray(catalogIds)],
      );
      const byCatalog = groupBy(rows, (r) => r.catalog_id);
      return catalogIds.map((id) => (byCatalog.get(id) ?? []).map(({ catalog_id: _c, ...account }) => account));
    }),

    /** Ids of the catalogs holding each ISRC. */
    catalogIdsByIsrc: new DataLoader<string, string[]>(async (isrcs) => {
      const rows = await sql<{ isrc: string; catalog_id: string }>(
        `select cs.isrc, cs.catalog_id from catalog_songs cs where cs.isrc = any(?::text[]) order by cs.catalog_id`,
        [pgArray(isrcs)],
      );
      const bySong = groupBy(rows, (r) => r.isrc);
      return isrcs.map((isrc) => (bySong.get(isrc) ?? []).map((r) => r.catalog_id));
    }),
  };
}

const viewerLoaders = new WeakMap<Context, ReturnType<typeof buildSongReachLoaders>>();

function buildSongReachLoaders(ctx: Context) {
  const reach = () => ctx.access.catalogReach(requireViewer(ctx.viewer), 'cs.catalog_id');
  return {
    /** The song an ISRC is to the caller: its most recently updated entry among reachable catalogs; null when none. */
    songByIsrc: new DataLoader<string, Song | null>(async (isrcs) => {
      const r = reach();
      const rows = await query<Song>(
        ctx.em,
        `select distinct on (cs.isrc) ${SONG_COLUMNS} from catalog_songs cs
          where cs.isrc = any(?::text[]) and ${r.sql}
          order by cs.isrc, ${LATEST_ENTRY}`,
        [pgArray(isrcs), ...r.bindings],
      );
      const byIsrc = new Map(rows.map((row) => [row.isrc, row]));
      return isrcs.map((isrc) => byIsrc.get(isrc) ?? null);
    }),

    /**
     * A page of the songs crediting an artist, by ISRC: entries in catalogs the caller reaches, one
     * per ISRC (the most recently updated); batched over artists.
     */
    artistSongsPage: new DataLoader<PageKey, Page<Song>, string>(
      (keys) =>
        batchPages(keys, async (ids, offset, limit) => {
          const r = reach();
          const rows = await query<Song & { owner: string; total: string; rn: string; artist_id: string }>(
            ctx.em,
            `with e as (
               select distinct on (csa.artist_id, cs.isrc) csa.artist_id, ${SONG_COLUMNS}
                 from catalog_song_artists csa join catalog_songs cs on cs.id = csa.catalog_song_id
                where csa.artist_id = any(?::uuid[]) and ${r.sql}
                order by csa.artist_id, cs.isrc, ${LATEST_ENTRY}),
             f as (
               select e.*, row_number() over (partition by e.artist_id order by e.isrc) as rn, count(*) over (partition by e.artist_id) as total from e)
             select t.artist_id as owner, t.total, p.entry_id, p.isrc, p.name, p.album, p.lyrics, p.updated_at
               from (select distinct artist_id, total from f) t
               left join f p on p.artist_id = t.artist_id and p.rn > ? and p.rn <= ?
              order by t.artist_id, p.rn`,
            [pgArray(ids), ...r.bindings, offset, offset + limit],
          );
          return rows.map(({ owner, total, rn: _rn, artist_id: _a, ...song }) => ({ owner, total, item: song.isrc ? song : null }));
        }),
      { cacheKeyFn: pageKeyOf },
    ),
  };
}

/** Song loaders whose answers depend on the caller's reach: made once per request context. */
export function songReachLoaders(ctx: Context): ReturnType<typeof buildSongReachLoaders> {
  let loaders = viewerLoaders.get(ctx);
  if (!loaders) {
    loaders = buildSongReachLoaders(ctx);
    viewerLoaders.set(ctx, loaders);
  }
  return loaders;
}
