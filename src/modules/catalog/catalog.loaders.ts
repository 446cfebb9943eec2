import DataLoader from 'dataloader';
import type { Viewer } from '../../auth/viewer';
import { batchPages, Page, PageKey, pageKeyOf } from '../../db/pages';
import { CatalogAccessRow, CatalogRepository, CatalogSongRow } from './catalog.repository';
import type { CatalogAccount, Catalog, Song, SongCredit } from './catalog.types';
import type { Db } from '../../db/request-db';

export type SongsPageKey = PageKey & { filter: string | null };

/** A key of a loader whose answer depends on the viewer's reach (a request has one viewer; the key still names it). */
export type ForViewer<K> = K & { viewer: Viewer };

function groupBy<T>(rows: T[], key: (row: T) => string): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const row of rows) map.set(key(row), [...(map.get(key(row)) ?? []), row]);
  return map;
}

/** Answers keys grouped by viewer: `run` gets one viewer and its keys and answers them in order. */
async function perViewer<K extends { viewer: Viewer }, V>(keys: readonly K[], run: (viewer: Viewer, keys: K[]) => Promise<V[]>): Promise<V[]> {
  const answers = new Map<K, V>();
  await Promise.all(
    [...groupBy([...keys], (k) => k.viewer.accountId).values()].map(async (group) => {
      const values = await run(group[0].viewer, group);
      group.forEach((key, i) => answers.set(key, values[i]));
    }),
  );
  return keys.map((key) => answers.get(key)!);
}

export function createCatalogLoaders(db: Db) {
  const repo = new CatalogRepository(db);
  return {
    /**
     * A page of a catalog's songs by ISRC, optionally only those credited to an artist with the
     * given name (lower-cased); one statement for any number of catalogs.
     */
    catalogSongsPage: new DataLoader<SongsPageKey, Page<CatalogSongRow>, string>(
      (keys) => batchPages(keys, (ids, position, limit, filter) => repo.songsPages(ids, position, limit, filter)),
      { cacheKeyFn: pageKeyOf },
    ),

    /** Artists credited on each catalog entry, in credit order, with the credit time in epoch seconds. */
    creditsByEntry: new DataLoader<string, SongCredit[]>(async (entryIds) => {
      const byEntry = groupBy(await repo.creditsOfEntries(entryIds), (r) => r.entry_id);
      return entryIds.map((id) => (byEntry.get(id) ?? []).map(({ id, name, timestamp }) => ({ id, name, timestamp })));
    }),

    /** Catalogs linked to each account, by name. */
    catalogsByAccount: new DataLoader<string, Catalog[]>(async (accountIds) => {
      const byAccount = groupBy(await repo.catalogsOfAccounts(accountIds), (r) => r.account_id);
      return accountIds.map((id) => (byAccount.get(id) ?? []).map(({ account_id: _a, ...catalog }) => catalog));
    }),

    /** The catalogs an artist is on (linked to it, or holding an entry crediting it) that the viewer reaches. */
    reachableCatalogsByArtist: new DataLoader<ForViewer<{ id: string }>, Catalog[], string>(
      (keys) =>
        perViewer(keys, async (viewer, group) => {
          const byArtist = await repo.reachableCatalogsOfArtists(viewer, group.map((k) => k.id));
          return group.map((k) => byArtist.get(k.id) ?? []);
        }),
      { cacheKeyFn: (k) => `${k.viewer.accountId}|${k.id}` },
    ),

    /** Accounts each catalog is linked to, by name. */
    accountsByCatalog: new DataLoader<string, CatalogAccount[]>(async (catalogIds) => {
      const byCatalog = await repo.accountsOfCatalogs(catalogIds);
      return catalogIds.map((id) => byCatalog.get(id) ?? []);
    }),

    /** The catalogs holding an ISRC that the viewer reaches. */
    reachableCatalogsByIsrc: new DataLoader<ForViewer<{ isrc: string }>, Catalog[], string>(
      (keys) =>
        perViewer(keys, async (viewer, group) => {
          const bySong = groupBy(await repo.reachableCatalogsOfIsrcs(viewer, group.map((k) => k.isrc)), (r) => r.isrc);
          return group.map((k) => (bySong.get(k.isrc) ?? []).map(({ isrc: _i, ...catalog }) => catalog));
        }),
      { cacheKeyFn: (k) => `${k.viewer.accountId}|${k.isrc}` },
    ),

    /** A catalog with whether the viewer reaches it; null when it does not exist. */
    catalogAccess: new DataLoader<ForViewer<{ id: string }>, CatalogAccessRow | null, string>(
      (keys) =>
        perViewer(keys, async (viewer, group) => {
          const rows = await repo.catalogAccess(viewer, group.map((k) => k.id));
          return group.map((k) => rows.get(k.id) ?? null);
        }),
      { cacheKeyFn: (k) => `${k.viewer.accountId}|${k.id}` },
    ),

    /** The song an ISRC is to the viewer: its most recently updated entry among reachable catalogs; null when none. */
    songByIsrc: new DataLoader<ForViewer<{ isrc: string }>, Song | null, string>(
      (keys) =>
        perViewer(keys, async (viewer, group) => {
          const byIsrc = new Map((await repo.songsByIsrc(viewer, group.map((k) => k.isrc))).map((row) => [row.isrc, row]));
          return group.map((k) => byIsrc.get(k.isrc) ?? null);
        }),
      { cacheKeyFn: (k) => `${k.viewer.accountId}|${k.isrc}` },
    ),

    /** A page of the songs crediting an artist, by ISRC, in catalogs the viewer reaches; batched over artists. */
    artistSongsPage: new DataLoader<ForViewer<PageKey>, Page<Song>, string>(
      (keys) => perViewer(keys, (viewer, group) => batchPages(group, (ids, position, limit) => repo.artistSongsPages(viewer, ids, position, limit))),
      { cacheKeyFn: (k) => `${k.viewer.accountId}|${pageKeyOf(k)}` },
    ),
  };
}

// The request's loaders (src/request/context.ts) include this module's: the context names no module.
declare module '../../request/context' {
  interface Loaders extends ReturnType<typeof createCatalogLoaders> {}
}
