import type { AccessPolicy } from '../../auth/access';
import type { Viewer } from '../../auth/viewer';
import { LIST_BOUNDS } from '../../common/bounds';
import { AppError, forbidden, invalidInput, notFound } from '../../common/errors';
import { z } from 'zod';
import { cursorKeys, cursorOf, PageRequest, Position, positionOf, sortKeys } from '../../common/paging';
import { byCodePoint, byLocale, compareKeys, emptyPage, ListOrder, PageOf, pageOf, pageOfList, pagination } from '../../graphql/common.types';
import type { Context } from '../../request/context';
import type { Artist } from '../artist';
import {
  AddCatalogInput,
  AddSongsInput,
  CatalogSongsInput,
  CatalogsInput,
  normalizeIsrc,
  RemoveCatalogsInput,
  RemoveSongsInput,
} from './catalog.inputs';
import type { CatalogRepository, CatalogSongRow, CatalogSongWrites, EntryRef, SongsShape } from './catalog.repository';
import { SerializedList } from '../../graphql/pass-through';
import { Catalog, CatalogAccount, Song, SongCredit } from './catalog.types';

/** What the service asks of the repository (a test hands it a fake of the same shape). */
export type CatalogStore = Pick<
  CatalogRepository,
  'songsPageWithAccess' | 'songsPageWithAccessSerialized' | 'transaction' | 'linkCatalog' | 'holdersOf' | 'unlinkableAsHolder' | 'createCatalog' | 'entriesById' | 'entriesOfCatalogs' | 'removeEntries' | 'unlinkCatalogs' | 'catalogsLinkedTo'
>;
/** The access rules the service applies besides catalog reach (which is the catalog module's own). */
export type CatalogAccess = Pick<AccessPolicy, 'requireAccess' | 'mayAccess' | 'accessibleAccountIds' | 'canAccessAccountBatched'>;
/** The request's loaders the service reads through (batched across the rows of one request). */
export type CatalogLoaders = Pick<
  Context['loaders'],
  | 'catalogSongsPage'
  | 'creditsByEntry'
  | 'catalogsByAccount'
  | 'reachableCatalogsByArtist'
  | 'accountsByCatalog'
  | 'reachableCatalogsByIsrc'
  | 'catalogAccess'
  | 'songByIsrc'
  | 'artistSongsPage'
>;

const toCatalog = (row: Catalog): Catalog => ({ id: row.id, name: row.name, created_at: row.created_at, updated_at: row.updated_at });

/** Catalogs by name, then id (sorted here, as the graph always has: the same order whatever the database collation). */
const byName = (rows: Catalog[]): Catalog[] => rows.map(toCatalog).sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));

/** Cursors of song lists: the ISRC (unique within a catalog, and within an artist's songs, which hold one entry per ISRC). */
const SONG_KEY = z.tuple([cursorKeys.isrc]);
/** The list name of a catalog's songs in cursors (Query.catalogSongs and Catalog.songs page the same list). */
const CATALOG_SONGS = 'Catalog.songs';
const ARTIST_SONGS = 'Artist.songs';
const songCursor = (list: string, scope: string) => (song: Song) => cursorOf(list, scope, [song.isrc]);

/**
 * Cursor keys of catalogs and accounts by name, then id (ids of either kind). Made once: a zod
 * schema is costly to build, and paging keeps a cursor schema per key (src/common/paging.ts).
 */
const NAME_AND_ID_KEY = z.tuple([z.string().max(1000), z.string().max(64)]);

/** The order of a list by name, then id (read whole: catalogs or accounts), for pageOfList; `names` orders names as the list is sorted. */
const byNameAndId = <T extends { name: string; id: string }>(list: string, scope: string, names: (a: string, b: string) => number): ListOrder<T, readonly [string, string]> => ({
  list,
  scope,
  key: NAME_AND_ID_KEY,
  keyOf: (item) => [item.name, item.id] as const,
  compare: compareKeys(names, byCodePoint),
});

const keyOf = (ref: EntryRef) => `${ref.catalog_id}|${ref.isrc}`;

/** What one write may add (config.bounds: CATALOG_MAX_ARTISTS_PER_SONG, CATALOG_MAX_NEW_ARTISTS_PER_WRITE, ROSTER_MAX_ARTISTS). */
export interface CatalogBounds {
  artistsPerSong: number;
  newArtistsPerWrite: number;
  rosterArtists: number;
}
export const DEFAULT_CATALOG_BOUNDS: CatalogBounds = { artistsPerSong: LIST_BOUNDS.creditsPerSong, newArtistsPerWrite: 100, rosterArtists: 1000 };

/** A write past a bound: a 400 naming the field that passes it. */
const tooMany = (field: string, message: string) => invalidInput([{ field, message }]);

/** Throws what kept a catalog link from being written (a full list, the membership gone). */
function linked(refused: 'account_catalogs' | 'catalog_accounts' | 'no_membership' | null): void {
  if (refused === 'account_catalogs') throw tooMany('catalog_id', `the account holds ${LIST_BOUNDS.catalogsPerAccount} catalogs already`);
  if (refused === 'catalog_accounts') throw tooMany('catalog_id', `the catalog is linked to ${LIST_BOUNDS.accountsPerCatalog} accounts already`);
  if (refused === 'no_membership') throw forbidden('Not a member of the organization any more');
}

/** Catalogs, their songs and credits. A catalog is reached through any account linked to it that the caller reaches. */
export class CatalogService {
  constructor(
    private readonly repo: CatalogStore,
    private readonly access: CatalogAccess,
    private readonly loaders: CatalogLoaders,
    private readonly bounds: CatalogBounds = DEFAULT_CATALOG_BOUNDS,
  ) {}

  /** 404 for a catalog that does not exist, 403 for one the caller cannot reach. */
  private async requireCatalogs(viewer: Viewer, ids: string[]): Promise<Map<string, Catalog>> {
    const unique = [...new Set(ids)];
    const rows = await Promise.all(unique.map((id) => this.loaders.catalogAccess.load({ viewer, id })));
    const found = new Map<string, Catalog & { reachable: boolean }>();
    rows.forEach((row, i) => {
      if (!row) throw notFound(`Catalog ${unique[i]}`);
      found.set(row.id, row);
    });
    const refused = [...found.values()].find((row) => !row.reachable);
    if (refused) throw forbidden(`Insufficient access to catalog ${refused.id}`);
    return new Map([...found.entries()].map(([id, row]) => [id, toCatalog(row)]));
  }

  /** Songs of catalog entries, each with its credited artists (one read for all of them). */
  private async withCredits(rows: CatalogSongRow[]): Promise<Song[]> {
    const credits = await this.loaders.creditsByEntry.loadMany(rows.map((r) => r.entry_id));
    return rows.map((row, i) => {
      const artists = credits[i];
      if (artists instanceof Error) throw artists;
      return { ...row, credits: artists };
    });
  }

  /** Query.catalogSongs (GET /api/catalogs/songs): 404 absent, 403 unreachable; the check, the page and its credits are one read. */
  async songs(viewer: Viewer, input: CatalogSongsInput, request: PageRequest = { page: input.page, limit: input.limit, after: null }): Promise<PageOf<Song>> {
    const page = await this.reachableSongsPage(input, request, (position, filter) => this.repo.songsPageWithAccess(viewer, input.catalog_id, position, request.limit, filter));
    return pageOf(page.songs, { total: page.total, skipped: page.skipped, limit: request.limit }, songCursor(CATALOG_SONGS, input.catalog_id));
  }

  /**
   * Query.catalogSongs with its items written in `shape` by the database (src/graphql/pass-through.ts):
   * the same checks, page, pagination and cursor as `songs`, one read.
   */
  async songsPassedThrough(viewer: Viewer, input: CatalogSongsInput, request: PageRequest, shape: SongsShape): Promise<Omit<PageOf<Song>, 'items'> & { items: SerializedList }> {
    const page = await this.reachableSongsPage(input, request, (position, filter) =>
      this.repo.songsPageWithAccessSerialized(viewer, input.catalog_id, position, request.limit, filter, shape),
    );
    return {
      items: new SerializedList(page.items, page.count, page.objects),
      pagination: pagination(page.total, Math.floor(page.skipped / request.limit) + 1, request.limit),
      pageInfo: { endCursor: page.last === null ? null : cursorOf(CATALOG_SONGS, input.catalog_id, [page.last]), hasNextPage: page.skipped + page.count < page.total },
    };
  }

  /** A catalog's songs page as `read` reads it (at the request's position, with the input's filter): 404 when the catalog is absent, 403 out of reach. */
  private async reachableSongsPage<P extends { reachable: boolean }>(
    input: CatalogSongsInput,
    request: PageRequest,
    read: (position: Position<readonly string[]>, filter: string | null) => Promise<P | null>,
  ): Promise<P> {
    const filter = input.artistName ? input.artistName.toLowerCase() : null;
    const page = await read(positionOf(request, CATALOG_SONGS, input.catalog_id, SONG_KEY), filter);
    if (!page) throw notFound(`Catalog ${input.catalog_id}`);
    if (!page.reachable) throw forbidden(`Insufficient access to catalog ${input.catalog_id}`);
    return page;
  }

  /** Query.catalogs (GET /api/catalogs): the caller's catalogs, or account_id's, by name. */
  async catalogs(viewer: Viewer, input: CatalogsInput, request: PageRequest = { page: input.page, limit: input.limit, after: null }): Promise<PageOf<Catalog>> {
    const accountId = await this.access.requireAccess(viewer, { account: input.account_id });
    // Read whole (an account holds at most LIST_BOUNDS.catalogsPerAccount), by name then id, and paged here.
    return pageOfList(await this.loaders.catalogsByAccount.load(accountId), request, {
      list: 'Query.catalogs',
      scope: accountId,
      key: sortKeys.nameThenUuid,
      keyOf: (catalog) => [catalog.name, catalog.id] as const,
      compare: compareKeys(byCodePoint, byCodePoint),
    });
  }

  /** POST /api/catalogs: create a catalog ({name}) or link an existing one ({catalog_id}) to an account. */
  async addCatalog(viewer: Viewer, input: AddCatalogInput): Promise<Catalog> {
    if (input.catalog_id) return this.linkCatalog(viewer, input.catalog_id, input.account_id);
    const accountId = await this.access.requireAccess(viewer, { account: input.account_id });
    const created = await this.repo.createCatalog(accountId, input.name!);
    if (!created) throw tooMany('name', `the account holds ${LIST_BOUNDS.catalogsPerAccount} catalogs already`);
    return created;
  }

  /**
   * Links a catalog the caller reaches to an account (docs/api/auth.md, "Catalog links"). Admins link any.
   * Otherwise the caller must act for both ends: the account is the caller or an organization it
   * is a member of, and the catalog is held in its own right (not through a membership) by the
   * caller or by one of its organizations. A link that needs a membership (the organization's
   * catalog to the member's account, or the member's catalog to the organization) is made through
   * it and ends with it; one that would need two memberships is refused.
   */
  private async linkCatalog(viewer: Viewer, catalogId: string, accountId: string | undefined): Promise<Catalog> {
    const catalog = (await this.requireCatalogs(viewer, [catalogId])).get(catalogId)!;
    if (viewer.isAdmin) {
      linked(await this.repo.linkCatalog(await this.access.requireAccess(viewer, { account: accountId }), catalog.id));
      return catalog;
    }
    const target = accountId ?? viewer.accountId;
    // Acting for the account as the account itself or as a member of it (an organization), not through reach.
    if (!(await this.access.mayAccess(viewer, { organization: target }))) {
      // Reachable or not, the answer is the same: no one links a catalog to an account it does not act for.
      throw forbidden('A catalog can be linked only to your own account or to an organization you are a member of');
    }
    const holders = new Set(await this.repo.holdersOf(catalog.id));
    if (holders.has(target)) return catalog;
    const throughTarget = target === viewer.accountId ? null : target;
    const holderOrg = holders.has(viewer.accountId) ? null : viewer.organizationIds.find((org) => holders.has(org));
    if (holderOrg === undefined) {
      throw forbidden('You reach this catalog only through another account: its holder must link it');
    }
    const through = throughTarget ?? holderOrg;
    if (throughTarget && holderOrg) throw forbidden('A catalog cannot be linked from one organization to another by a member: the organization itself or an admin may');
    linked(await this.repo.linkCatalog(target, catalog.id, through ? { organizationId: through, memberId: viewer.accountId } : undefined));
    return catalog;
  }

  /**
   * POST /api/catalogs/songs: upserts, for each named catalog, that catalog's own entry for the
   * ISRC (another catalog's entry is never read or changed), credits artists by name among those
   * the caller reaches (creating roster artists for other names). One transaction; any failure
   * changes nothing.
   */
  async addSongs(viewer: Viewer, input: AddSongsInput): Promise<Song[]> {
    await this.requireCatalogs(viewer, input.songs.map((s) => s.catalog_id));
    const items = input.songs.map((s) => ({ ...s, isrc: normalizeIsrc(s.isrc) }));
    const { artistsPerSong, newArtistsPerWrite } = this.bounds;

    // One entry per (catalog, ISRC): later items win for the fields they give; credits add up, each
    // name once (the same ISRC 500 times credits its names once). `from`: the item that brought the name.
    type Entry = { catalog_id: string; isrc: string; name: string | null; album: string | null; lyrics: string | null; artists: Map<string, string>; from: Map<string, number> };
    const entries = new Map<string, Entry>();
    for (const [i, item] of items.entries()) {
      const entry = entries.get(keyOf(item)) ?? { catalog_id: item.catalog_id, isrc: item.isrc, name: null, album: null, lyrics: null, artists: new Map(), from: new Map() };
      entry.name = item.name ?? entry.name;
      entry.album = item.album ?? entry.album;
      entry.lyrics = item.lyrics ?? entry.lyrics;
      for (const name of item.artists ?? []) {
        const key = name.toLowerCase();
        if (entry.artists.has(key)) continue;
        entry.artists.set(key, name);
        entry.from.set(key, i);
        if (entry.artists.size > artistsPerSong) throw tooMany(`songs[${i}].artists`, `would credit more than ${artistsPerSong} artists on ${item.isrc} in catalog ${item.catalog_id}`);
      }
      entries.set(keyOf(item), entry);
    }
    const list = [...entries.values()];

    const ids = await this.repo.transaction(async (repo) => {
      const existing = new Set((await repo.existingEntries(list)).map(keyOf));
      const unnamed = items.flatMap((item, i) => (!existing.has(keyOf(item)) && !entries.get(keyOf(item))!.name ? [i] : []));
      if (unnamed.length) {
        const details = unnamed.map((i) => ({ field: `songs[${i}].name`, message: 'is required for a new ISRC' }));
        throw new AppError('BAD_USER_INPUT', `Invalid input: ${details.map((d) => `${d.field}: ${d.message}`).join('; ')}`, { details });
      }
      // Names first: a write over its bounds is refused before it writes anything.
      const names = new Map<string, { name: string; from: number }>();
      for (const e of list) for (const [key, name] of e.artists) if (!names.has(key) || names.get(key)!.from > e.from.get(key)!) names.set(key, { name, from: e.from.get(key)! });
      const artistIds = await this.reachableArtistsNamed(repo, viewer, [...names.keys()]);
      const missing = [...names.entries()].filter(([key]) => !artistIds.has(key)).sort((a, b) => a[1].from - b[1].from);
      if (missing.length > newArtistsPerWrite) {
        throw tooMany(`songs[${missing[newArtistsPerWrite][1].from}].artists`, `would create more than ${newArtistsPerWrite} new artists in one write (${missing.length})`);
      }
      if (missing.length) {
        const roster = await repo.lockRosterSize(viewer.accountId);
        if (roster + missing.length > this.bounds.rosterArtists) {
          throw tooMany(`songs[${missing[Math.max(0, this.bounds.rosterArtists - roster)][1].from}].artists`, `would put more than ${this.bounds.rosterArtists} artists on the roster`);
        }
        for (const row of await repo.createRosterArtists(viewer.accountId, missing.map(([, { name }]) => name))) artistIds.set(row.key, row.id);
      }

      const upserted = await repo.upsertEntries(list);
      const entryIds = new Map(upserted.map((row) => [keyOf(row), row.id]));
      const credits = list.flatMap((e) => [...e.artists.keys()].map((key) => ({ entryId: entryIds.get(keyOf(e))!, artistId: artistIds.get(key)! })));
      if (credits.length) {
        await repo.creditArtists(credits);
        // With the credits an entry had already: the entries' rows are locked by the upsert, so this count is final.
        const over = await repo.entriesCreditedOver([...new Set(credits.map((c) => c.entryId))], artistsPerSong);
        const entry = list.find((e) => over.has(entryIds.get(keyOf(e))!));
        if (entry) throw tooMany(`songs[${Math.max(...entry.from.values())}].artists`, `would credit more than ${artistsPerSong} artists on ${entry.isrc} in catalog ${entry.catalog_id}`);
      }
      await repo.touchCatalogs([...new Set(list.map((e) => e.catalog_id))]);
      return list.map((e) => entryIds.get(keyOf(e))!);
    });

    const byId = new Map((await this.repo.entriesById(ids)).map((r) => [r.entry_id, r]));
    return this.withCredits(ids.map((id) => byId.get(id)!));
  }

  /** Artist account ids by lower-cased name: the oldest artist of that name the caller reaches (another tenant's artist is never credited). */
  private async reachableArtistsNamed(repo: CatalogSongWrites, viewer: Viewer, keys: string[]): Promise<Map<string, string>> {
    const ids = new Map<string, string>();
    if (!keys.length) return ids;
    const rows = await repo.artistsNamed(keys);
    const reachable = await this.access.accessibleAccountIds(viewer, rows.map((r) => r.id));
    for (const row of rows) if (reachable.has(row.id) && !ids.has(row.key)) ids.set(row.key, row.id);
    return ids;
  }

  /** DELETE /api/catalogs/songs: removes songs from catalogs; answers the songs left in those catalogs. */
  async removeSongs(viewer: Viewer, input: RemoveSongsInput): Promise<Song[]> {
    const catalogIds = [...new Set(input.songs.map((s) => s.catalog_id))];
    await this.requireCatalogs(viewer, catalogIds);
    await this.repo.removeEntries(input.songs.map((s) => ({ catalog_id: s.catalog_id, isrc: normalizeIsrc(s.isrc) })));
    return this.withCredits(await this.repo.entriesOfCatalogs(catalogIds));
  }

  /**
   * DELETE /api/catalogs: unlinks catalog-account pairs in one transaction. Each pair needs access
   * to its account, or that the caller acts for a holder of the catalog (linked in its own right)
   * whose link is older: an organization ends what was linked to its catalog after it, even for an
   * account it no longer reaches. A catalog left with no linked account is deleted, and with it its
   * song entries and their credits (cascade).
   */
  async removeCatalogs(viewer: Viewer, input: RemoveCatalogsInput): Promise<Catalog[]> {
    const accountIds = [...new Set(input.catalogs.map((c) => c.account_id))];
    const reachable = await this.access.accessibleAccountIds(viewer, accountIds);
    const rest = input.catalogs.filter((c) => !reachable.has(c.account_id));
    const asHolder = await this.repo.unlinkableAsHolder([viewer.accountId, ...viewer.organizationIds], rest);
    const refused = rest.find((c) => !asHolder.has(`${c.catalog_id}|${c.account_id}`));
    if (refused) throw forbidden(`Insufficient access to account ${refused.account_id}`);
    await this.repo.unlinkCatalogs(input.catalogs);
    return this.repo.catalogsLinkedTo(accountIds.filter((id) => reachable.has(id)));
  }

  // ---- the graph ----

  /** Query.catalog: 404 absent, 403 unreachable. */
  async catalog(viewer: Viewer, id: string): Promise<Catalog> {
    return (await this.requireCatalogs(viewer, [id])).get(id)!;
  }

  /** Federation: the catalog when it exists and the caller reaches it, else null. */
  async reachableCatalog(viewer: Viewer, id: string): Promise<Catalog | null> {
    const row = await this.loaders.catalogAccess.load({ viewer, id });
    return row?.reachable ? toCatalog(row) : null;
  }

  /** Catalog.songs (the catalog was reached, so it is reachable). */
  async catalogSongs(catalog: Catalog, request: PageRequest, filter: string | null): Promise<PageOf<Song>> {
    const position = positionOf(request, CATALOG_SONGS, catalog.id, SONG_KEY);
    const page = await this.loaders.catalogSongsPage.load({ id: catalog.id, position, limit: request.limit, filter });
    return pageOf(page.rows, { total: page.total, skipped: page.skipped, limit: request.limit }, songCursor(CATALOG_SONGS, catalog.id));
  }

  /** Catalog.accounts: read whole (at most LIST_BOUNDS.accountsPerCatalog, by name then id) and paged here. */
  async catalogAccounts(catalog: Catalog, request: PageRequest): Promise<PageOf<CatalogAccount>> {
    return pageOfList(await this.loaders.accountsByCatalog.load(catalog.id), request, byNameAndId('Catalog.accounts', catalog.id, byCodePoint));
  }

  /** Song.credits: the artists credited on the entry the song was read from, in credit order. */
  async songCredits(song: Song): Promise<SongCredit[]> {
    return song.credits ?? this.loaders.creditsByEntry.load(song.entry_id);
  }

  /** Song.artists: every artist credited on the entry the song was read from. */
  async songArtists(song: Song): Promise<Artist[]> {
    return (await this.songCredits(song)).map(({ id, name }) => ({ id, name }));
  }

  /** Song.catalogs: only the catalogs the caller reaches. */
  async songCatalogs(viewer: Viewer, song: Song, request: PageRequest): Promise<PageOf<Catalog>> {
    return pageOfList(byName(await this.loaders.reachableCatalogsByIsrc.load({ viewer, isrc: song.isrc })), request, byNameAndId('Song.catalogs', song.isrc, byLocale));
  }

  /**
   * Artist.catalogs: catalogs linked to the artist or holding its songs, those the caller reaches;
   * empty for an artist the caller cannot reach.
   */
  async artistCatalogs(viewer: Viewer, artist: Artist, request: PageRequest): Promise<PageOf<Catalog>> {
    const order = byNameAndId<Catalog>('Artist.catalogs', artist.id, byLocale);
    if (!(await this.access.canAccessAccountBatched(viewer, artist.id))) return pageOfList([], request, order);
    return pageOfList(byName(await this.loaders.reachableCatalogsByArtist.load({ viewer, id: artist.id })), request, order);
  }

  /** Artist.songs: songs crediting the artist, empty for an artist the caller cannot reach. */
  async artistSongs(viewer: Viewer, artist: Artist, request: PageRequest): Promise<PageOf<Song>> {
    const position = positionOf(request, ARTIST_SONGS, artist.id, SONG_KEY);
    if (!(await this.access.canAccessAccountBatched(viewer, artist.id))) return emptyPage('offset' in position ? position.offset : 0, request.limit);
    const found = await this.loaders.artistSongsPage.load({ viewer, id: artist.id, position, limit: request.limit });
    return pageOf(found.rows, { total: found.total, skipped: found.skipped, limit: request.limit }, songCursor(ARTIST_SONGS, artist.id));
  }

  /** The song an ISRC (canonical) is to the caller, as a catalog it reaches holds it; null when none does. */
  songOf(viewer: Viewer, isrc: string): Promise<Song | null> {
    return this.loaders.songByIsrc.load({ viewer, isrc });
  }

  /** Query.song: the ISRC as a catalog the caller reaches holds it; 404 when none does, as for an unknown ISRC. */
  async song(viewer: Viewer, isrc: string): Promise<Song> {
    const song = await this.songOf(viewer, normalizeIsrc(isrc));
    if (!song) throw notFound('Song');
    return song;
  }
}
