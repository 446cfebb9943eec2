import type { EntityManager } from '@mikro-orm/postgresql';
import DataLoader from 'dataloader';
import { pgArray } from '../../db/sql';
import { query } from '../artist/artist.sql';
import { batchPages, Page, PageKey, pageKeyOf } from '../artist/artist.pages';
import type { CatalogAccount, CatalogRecord, Song, SongCredit } from './catalog.types';

export interface CatalogSongRow extends Song {
  catalog_id: string;
}

export type SongsPageKey = PageKey & { filter: string | null };

const SONG_COLUMNS = 's.isrc, s.name, s.album, s.lyrics, s.updated_at';

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
          const rows = await sql<CatalogSongRow & { owner: string; total: string }>(
            `with f as (
               select cs.catalog_id, cs.song_isrc,
                      row_number() over (partition by cs.catalog_id order by cs.song_isrc) as rn,
                      count(*) over (partition by cs.catalog_id) as total
                 from catalog_songs cs
                where cs.catalog_id = any(?::uuid[])
                  ${filter === null ? '' : `and cs.song_isrc in (select sa.song_isrc from song_artists sa join accounts a on a.id = sa.artist_id
                                                                 where a.kind = 'artist' and lower(a.name) = ?)`})
             select t.catalog_id as owner, t.total, t.catalog_id, ${SONG_COLUMNS}
               from (select distinct catalog_id, total from f) t
               left join f p on p.catalog_id = t.catalog_id and p.rn > ? and p.rn <= ?
               left join songs s on s.isrc = p.song_isrc
              order by t.catalog_id, p.rn`,
            filter === null ? [pgArray(ids), offset, offset + limit] : [pgArray(ids), filter, offset, offset + limit],
          );
          return rows.map(({ owner, total, ...song }) => ({ owner, total, item: song.isrc ? song : null }));
        }),
      { cacheKeyFn: pageKeyOf },
    ),

    /** A page of the songs crediting an artist, by ISRC; batched over artists. */
    artistSongsPage: new DataLoader<PageKey, Page<Song>, string>(
      (keys) =>
        batchPages(keys, async (ids, offset, limit) => {
          const rows = await sql<Song & { owner: string; total: string }>(
            `with f as (
               select sa.artist_id, sa.song_isrc,
                      row_number() over (partition by sa.artist_id order by sa.song_isrc) as rn,
                      count(*) over (partition by sa.artist_id) as total
                 from song_artists sa where sa.artist_id = any(?::uuid[]))
             select t.artist_id as owner, t.total, ${SONG_COLUMNS}
               from (select distinct artist_id, total from f) t
               left join f p on p.artist_id = t.artist_id and p.rn > ? and p.rn <= ?
               left join songs s on s.isrc = p.song_isrc
              order by t.artist_id, p.rn`,
            [pgArray(ids), offset, offset + limit],
          );
          return rows.map(({ owner, total, ...song }) => ({ owner, total, item: song.isrc ? song : null }));
        }),
      { cacheKeyFn: pageKeyOf },
    ),

    /** Artists credited on each song, in credit order, with the credit time in epoch seconds. */
    creditsByIsrc: new DataLoader<string, SongCredit[]>(async (isrcs) => {
      const rows = await sql<SongCredit & { song_isrc: string }>(
        `select sa.song_isrc, a.id, a.name, floor(extract(epoch from sa.created_at))::int as timestamp
           from song_artists sa join accounts a on a.id = sa.artist_id
          where sa.song_isrc = any(?::text[])
          order by sa.song_isrc, sa.created_at, a.name, a.id`,
        [pgArray(isrcs)],
      );
      const bySong = groupBy(rows, (r) => r.song_isrc);
      return isrcs.map((isrc) => (bySong.get(isrc) ?? []).map(({ id, name, timestamp }) => ({ id, name, timestamp })));
    }),

    songByIsrc: new DataLoader<string, Song | null>(async (isrcs) => {
      const rows = await sql<Song>(`select ${SONG_COLUMNS} from songs s where s.isrc = any(?::text[])`, [pgArray(isrcs)]);
      const byIsrc = new Map(rows.map((r) => [r.isrc, r]));
      return isrcs.map((isrc) => byIsrc.get(isrc) ?? null);
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

    /** Ids of the catalogs an artist is on: linked to the artist account, or holding a song crediting it. */
    catalogIdsByArtist: new DataLoader<string, string[]>(async (artistIds) => {
      const rows = await sql<{ artist_id: string; catalog_id: string }>(
        `select ac.account_id as artist_id, ac.catalog_id from account_catalogs ac where ac.account_id = any(?::uuid[])
         union
         select sa.artist_id, cs.catalog_id from song_artists sa join catalog_songs cs on cs.song_isrc = sa.song_isrc
          where sa.artist_id = any(?::uuid[])`,
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

    /** Ids of the catalogs holding each song. */
    catalogIdsByIsrc: new DataLoader<string, string[]>(async (isrcs) => {
      const rows = await sql<{ song_isrc: string; catalog_id: string }>(
        `select cs.song_isrc, cs.catalog_id from catalog_songs cs where cs.song_isrc = any(?::text[]) order by cs.catalog_id`,
        [pgArray(isrcs)],
      );
      const bySong = groupBy(rows, (r) => r.song_isrc);
      return isrcs.map((isrc) => (bySong.get(isrc) ?? []).map((r) => r.catalog_id));
    }),
  };
}
