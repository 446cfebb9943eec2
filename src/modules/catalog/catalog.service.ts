import type { EntityManager } from '@mikro-orm/postgresql';
import { requireViewer } from '../../auth/access';
import { AppError, forbidden, notFound } from '../../common/errors';
import { pagination, ResultStatus } from '../../graphql/common.types';
import type { Context } from '../../graphql/context';
import { graphPageInput, validate, withoutNulls } from '../../common/validation';
import { pgArray, query } from '../../db/sql';
import type { Artist } from '../artist';
import {
  addCatalogInput,
  addSongsInput,
  catalogIdInput,
  catalogsInput,
  catalogSongsInput,
  isrcInput,
  normalizeIsrc,
  removeCatalogsInput,
  removeSongsInput,
} from './catalog.inputs';
import { CatalogSongRow, songReachLoaders } from './catalog.loaders';
import { Catalog, CatalogAccount, CatalogRecord, CatalogSongRecord, CatalogSongsResult, Song } from './catalog.types';

type Args = Record<string, unknown>;

/** A PostgreSQL array literal where null stays NULL (pgArray writes every value as a string). */
const pgNullableArray = (values: (string | null)[]) =>
  `{${values.map((v) => (v === null ? 'NULL' : `"${v.replace(/["\\]/g, '\\$&')}"`)).join(',')}}`;

const toCatalog = (row: CatalogRecord): CatalogRecord => ({ id: row.id, name: row.name, created_at: row.created_at, updated_at: row.updated_at });

export class CatalogService {
  constructor(private readonly ctx: Context) {}

  private get viewer() {
    return requireViewer(this.ctx.viewer);
  }

  /** 404 for a catalog that does not exist, 403 for one the caller cannot reach. */
  private async requireCatalogs(ids: string[]): Promise<Map<string, CatalogRecord>> {
    const unique = [...new Set(ids)];
    const rows = await Promise.all(unique.map((id) => this.ctx.access.catalogAccessBatched(this.viewer, id)));
    const found = new Map<string, CatalogRecord & { reachable: boolean }>();
    rows.forEach((row, i) => {
      if (row instanceof Error) throw row;
      if (!row) throw notFound(`Catalog ${unique[i]}`);
      found.set(row.id, row);
    });
    const refused = [...found.values()].find((row) => !row.reachable);
    if (refused) throw forbidden(`Insufficient access to catalog ${refused.id}`);
    return new Map([...found.entries()].map(([id, row]) => [id, toCatalog(row)]));
  }

  /** Catalog song records (with each entry's credited artists) for catalog entries. */
  private async records(rows: CatalogSongRow[]): Promise<CatalogSongRecord[]> {
    const credits = await this.ctx.loaders.creditsByEntry.loadMany(rows.map((r) => r.entry_id));
    return rows.map((row, i) => {
      const artists = credits[i];
      if (artists instanceof Error) throw artists;
      return { catalog_id: row.catalog_id, isrc: row.isrc, name: row.name, album: row.album, lyrics: row.lyrics, updated_at: row.updated_at, artists };
    });
  }

  /** GET /api/catalogs/songs */
  async songs(args: Args): Promise<CatalogSongsResult> {
    requireViewer(this.ctx.viewer);
    const input = validate(catalogSongsInput, withoutNulls(args));
    await this.requireCatalogs([input.catalog_id]);
    const filter = input.artistName ? input.artistName.toLowerCase() : null;
    const page = await this.ctx.loaders.catalogSongsPage.load({ id: input.catalog_id, page: input.page, limit: input.limit, filter });
    return { status: ResultStatus.success, songs: await this.records(page.rows), pagination: pagination(page.total, input.page, input.limit) };
  }

  /** GET /api/catalogs: the caller's catalogs, or account_id's. */
  async catalogs(args: Args): Promise<CatalogRecord[]> {
    const input = validate(catalogsInput, withoutNulls(args));
    const accountId = await this.ctx.access.resolveAccount(this.viewer, input.account_id);
    return this.ctx.loaders.catalogsByAccount.load(accountId);
  }

  /** POST /api/catalogs: create a catalog ({name}) or link an existing one ({catalog_id}) to an account. */
  async addCatalog(args: Args): Promise<CatalogRecord> {
    const input = validate(addCatalogInput, withoutNulls(args));
    const accountId = await this.ctx.access.resolveAccount(this.viewer, input.account_id);
    if (input.catalog_id) {
      const catalog = (await this.requireCatalogs([input.catalog_id])).get(input.catalog_id)!;
      await this.ctx.em.execute(
        `insert into account_catalogs (id, account_id, catalog_id, created_at, updated_at) values (gen_random_uuid(), ?, ?, now(), now())
         on conflict (account_id, catalog_id) do nothing`,
        [accountId, catalog.id],
      );
      return catalog;
    }
    return this.ctx.em.transactional(async (tx) => {
      const em = tx as EntityManager;
      const [catalog] = await query<CatalogRecord>(em, 
        `insert into catalogs (id, name, created_at, updated_at) values (gen_random_uuid(), ?, now(), now()) returning id, name, created_at, updated_at`,
        [input.name],
      );
      await em.execute(
        `insert into account_catalogs (id, account_id, catalog_id, created_at, updated_at) values (gen_random_uuid(), ?, ?, now(), now())`,
        [accountId, catalog.id],
      );
      return catalog;
    });
  }

  /**
   * POST /api/catalogs/songs: upserts, for each named catalog, that catalog's own entry for the
   * ISRC (another catalog's entry is never read or changed), credits artists by name among those
   * the caller reaches (creating roster artists for other names). One transaction; any failure
   * changes nothing.
   */
  async addSongs(args: Args): Promise<CatalogSongRecord[]> {
    const viewer = this.viewer;
    const input = validate(addSongsInput, withoutNulls(args));
    await this.requireCatalogs(input.songs.map((s) => s.catalog_id));
    const items = input.songs.map((s) => ({ ...s, isrc: normalizeIsrc(s.isrc) }));

    // One entry per (catalog, ISRC): later items win for the fields they give; credits add up.
    type Entry = { catalog_id: string; isrc: string; name: string | null; album: string | null; lyrics: string | null; artists: Map<string, string> };
    const entries = new Map<string, Entry>();
    const keyOf = (item: { catalog_id: string; isrc: string }) => `${item.catalog_id}|${item.isrc}`;
    for (const item of items) {
      const entry = entries.get(keyOf(item)) ?? { catalog_id: item.catalog_id, isrc: item.isrc, name: null, album: null, lyrics: null, artists: new Map() };
      entry.name = item.name ?? entry.name;
      entry.album = item.album ?? entry.album;
      entry.lyrics = item.lyrics ?? entry.lyrics;
      for (const name of item.artists ?? []) if (!entry.artists.has(name.toLowerCase())) entry.artists.set(name.toLowerCase(), name);
      entries.set(keyOf(item), entry);
    }
    const list = [...entries.values()];

    const ids = await this.ctx.em.transactional(async (tx) => {
      const em = tx as EntityManager;
      const existing = new Set(
        (
          await em.execute<{ catalog_id: string; isrc: string }[]>(
            `select cs.catalog_id, cs.isrc from catalog_songs cs join unnest(?::uuid[], ?::text[]) as t(catalog_id, isrc)
               on cs.catalog_id = t.catalog_id and cs.isrc = t.isrc`,
            [pgArray(list.map((e) => e.catalog_id)), pgArray(list.map((e) => e.isrc))],
          )
        ).map(keyOf),
      );
      const unnamed = items.flatMap((item, i) => (!existing.has(keyOf(item)) && !entries.get(keyOf(item))!.name ? [i] : []));
      if (unnamed.length) {
        const details = unnamed.map((i) => ({ field: `songs[${i}].name`, message: 'is required for a new ISRC' }));
        throw new AppError('BAD_USER_INPUT', `Invalid input: ${details.map((d) => `${d.field}: ${d.message}`).join('; ')}`, { details });
      }
      // coalesce with the current entry: the proposed row must satisfy NOT NULL before ON CONFLICT applies.
      const upserted = await em.execute<{ id: string; catalog_id: string; isrc: string }[]>(
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
          pgArray(list.map((e) => e.catalog_id)),
          pgArray(list.map((e) => e.isrc)),
          pgNullableArray(list.map((e) => e.name)),
          pgNullableArray(list.map((e) => e.album)),
          pgNullableArray(list.map((e) => e.lyrics)),
        ],
      );
      const entryIds = new Map(upserted.map((row) => [keyOf(row), row.id]));

      const artistIds = await this.artistsByName(em, viewer.accountId, list.flatMap((e) => [...e.artists.entries()]));
      const credits = list.flatMap((e) => [...e.artists.keys()].map((key) => ({ entryId: entryIds.get(keyOf(e))!, artistId: artistIds.get(key)! })));
      if (credits.length) {
        await em.execute(
          `insert into catalog_song_artists (id, catalog_song_id, artist_id, created_at, updated_at)
           select gen_random_uuid(), t.entry_id, t.artist_id, now(), now() from unnest(?::uuid[], ?::uuid[]) as t(entry_id, artist_id)
           on conflict (catalog_song_id, artist_id) do nothing`,
          [pgArray(credits.map((c) => c.entryId)), pgArray(credits.map((c) => c.artistId))],
        );
      }
      await em.execute(`update catalogs set updated_at = now() where id = any(?::uuid[])`, [pgArray([...new Set(list.map((e) => e.catalog_id))])]);
      return list.map((e) => entryIds.get(keyOf(e))!);
    });

    const rows = await query<CatalogSongRow>(this.ctx.em,
      `select cs.catalog_id, cs.id as entry_id, cs.isrc, cs.name, cs.album, cs.lyrics, cs.updated_at from catalog_songs cs where cs.id = any(?::uuid[])`,
      [pgArray(ids)],
    );
    const byId = new Map(rows.map((r) => [r.entry_id, r]));
    return this.records(ids.map((id) => byId.get(id)!));
  }

  /**
   * Artist account ids by lower-cased name: the oldest artist of that name the caller reaches,
   * else a new artist account on the caller's roster (another tenant's artist is never credited).
   */
  private async artistsByName(em: EntityManager, ownerId: string, names: [string, string][]): Promise<Map<string, string>> {
    const wanted = new Map(names);
    const ids = new Map<string, string>();
    if (!wanted.size) return ids;
    const rows = await em.execute<{ id: string; key: string }[]>(
      `select id, lower(name) as key from accounts where kind = 'artist' and lower(name) = any(?::text[]) order by created_at, id`,
      [pgArray([...wanted.keys()])],
    );
    const reachable = await this.ctx.access.reachableAmong(this.viewer, rows.map((r) => r.id));
    for (const row of rows) if (reachable.has(row.id) && !ids.has(row.key)) ids.set(row.key, row.id);
    const missing = [...wanted.entries()].filter(([key]) => !ids.has(key));
    if (missing.length) {
      const created = await em.execute<{ id: string; key: string }[]>(
        `insert into accounts (id, kind, name, created_at, updated_at)
         select gen_random_uuid(), 'artist', t.name, now(), now() from unnest(?::text[]) as t(name)
         returning id, lower(name) as key`,
        [pgArray(missing.map(([, name]) => name))],
      );
      await em.execute(
        `insert into roster_entries (id, owner_id, artist_id, created_at, updated_at)
         select gen_random_uuid(), ?, t.id, now(), now() from unnest(?::uuid[]) as t(id)`,
        [ownerId, pgArray(created.map((c) => c.id))],
      );
      for (const row of created) ids.set(row.key, row.id);
    }
    return ids;
  }

  /** Every song of the given catalogs, by catalog then ISRC. */
  private async allSongs(catalogIds: string[]): Promise<CatalogSongRecord[]> {
    const rows = await query<CatalogSongRow>(this.ctx.em,
      `select cs.catalog_id, cs.id as entry_id, cs.isrc, cs.name, cs.album, cs.lyrics, cs.updated_at
         from catalog_songs cs where cs.catalog_id = any(?::uuid[]) order by cs.catalog_id, cs.isrc`,
      [pgArray(catalogIds)],
    );
    return this.records(rows);
  }

  /** DELETE /api/catalogs/songs: removes songs from catalogs; answers the songs left in those catalogs. */
  async removeSongs(args: Args): Promise<CatalogSongRecord[]> {
    const input = validate(removeSongsInput, withoutNulls(args));
    const catalogIds = [...new Set(input.songs.map((s) => s.catalog_id))];
    await this.requireCatalogs(catalogIds);
    await this.ctx.em.transactional(async (tx) => {
      const em = tx as EntityManager;
      await em.execute(
        `delete from catalog_songs cs using unnest(?::uuid[], ?::text[]) as t(catalog_id, isrc)
          where cs.catalog_id = t.catalog_id and cs.isrc = t.isrc`,
        [pgArray(input.songs.map((s) => s.catalog_id)), pgArray(input.songs.map((s) => normalizeIsrc(s.isrc)))],
      );
      await em.execute(`update catalogs set updated_at = now() where id = any(?::uuid[])`, [pgArray(catalogIds)]);
    });
    return this.allSongs(catalogIds);
  }

  /**
   * DELETE /api/catalogs: unlinks catalog-account pairs in one transaction. A catalog left with
   * no linked account is deleted, and with it its song entries and their credits (cascade).
   */
  async removeCatalogs(args: Args): Promise<CatalogRecord[]> {
    const viewer = this.viewer;
    const input = validate(removeCatalogsInput, withoutNulls(args));
    const accountIds = [...new Set(input.catalogs.map((c) => c.account_id))];
    const reachable = await this.ctx.access.reachableAmong(viewer, accountIds);
    const refused = accountIds.find((id) => !reachable.has(id));
    if (refused) throw forbidden(`Insufficient access to account ${refused}`);
    const catalogIds = [...new Set(input.catalogs.map((c) => c.catalog_id))];
    await this.ctx.em.transactional(async (tx) => {
      const em = tx as EntityManager;
      // Locks the catalogs so two requests removing the last two links cannot both leave one behind.
      await em.execute(`select id from catalogs where id = any(?::uuid[]) order by id for update`, [pgArray(catalogIds)]);
      await em.execute(
        `delete from account_catalogs ac using unnest(?::uuid[], ?::uuid[]) as t(catalog_id, account_id)
          where ac.catalog_id = t.catalog_id and ac.account_id = t.account_id`,
        [pgArray(input.catalogs.map((c) => c.catalog_id)), pgArray(input.catalogs.map((c) => c.account_id))],
      );
      await em.execute(
        `delete from catalogs c where c.id = any(?::uuid[]) and not exists (select 1 from account_catalogs ac where ac.catalog_id = c.id)`,
        [pgArray(catalogIds)],
      );
    });
    return query<CatalogRecord>(this.ctx.em, 
      `select c.id, c.name, c.created_at, c.updated_at from catalogs c
        where c.id in (select ac.catalog_id from account_catalogs ac where ac.account_id = any(?::uuid[]))
        order by c.name, c.id`,
      [pgArray(accountIds)],
    );
  }

  // ---- the graph ----

  /** Query.catalog: 404 absent, 403 unreachable. */
  async catalog(id: unknown): Promise<Catalog> {
    requireViewer(this.ctx.viewer);
    const input = validate(catalogIdInput, { id });
    return (await this.requireCatalogs([input.id])).get(input.id)!;
  }

  /** Query.linkedCatalogs: catalogs of an account as graph nodes. */
  linkedCatalogs(args: Args): Promise<Catalog[]> {
    return this.catalogs(args);
  }

  /** Catalog.songs (the catalog was reached, so it is reachable). */
  async catalogSongs(catalog: Catalog, args: Args): Promise<Song[]> {
    const { page, limit } = validate(graphPageInput, withoutNulls(args));
    const artistName = validate(catalogSongsInput.shape.artistName, args.artistName ?? undefined, 'artistName');
    const filter = artistName ? artistName.toLowerCase() : null;
    return (await this.ctx.loaders.catalogSongsPage.load({ id: catalog.id, page, limit, filter })).rows;
  }

  catalogAccounts(catalog: Catalog): Promise<CatalogAccount[]> {
    return this.ctx.loaders.accountsByCatalog.load(catalog.id);
  }

  /** Song.artists: every artist credited on the entry the song was read from. */
  async songArtists(song: Song): Promise<Artist[]> {
    return (await this.ctx.loaders.creditsByEntry.load(song.entry_id)).map(({ id, name }) => ({ id, name }));
  }

  /** Song.catalogs: only the catalogs the caller reaches. */
  async songCatalogs(song: Song): Promise<Catalog[]> {
    return this.reachableCatalogs(await this.ctx.loaders.catalogIdsByIsrc.load(song.isrc));
  }

  /**
   * Artist.catalogs: catalogs linked to the artist or holding its songs, those the caller reaches;
   * empty for an artist the caller cannot reach.
   */
  async artistCatalogs(artist: Artist): Promise<Catalog[]> {
    if (!(await this.ctx.access.canAccessAccountBatched(this.viewer, artist.id))) return [];
    return this.reachableCatalogs(await this.ctx.loaders.catalogIdsByArtist.load(artist.id));
  }

  /** The catalogs among ids that the caller reaches, by name (batched access check). */
  private async reachableCatalogs(ids: string[]): Promise<Catalog[]> {
    const rows = await Promise.all(ids.map((id) => this.ctx.access.catalogAccessBatched(this.viewer, id)));
    return rows
      .flatMap((row) => (row && !(row instanceof Error) && row.reachable ? [toCatalog(row)] : []))
      .sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
  }

  /** Artist.songs: songs crediting the artist, empty for an artist the caller cannot reach. */
  async artistSongs(artist: Artist, args: Args): Promise<Song[]> {
    const { page, limit } = validate(graphPageInput, withoutNulls(args));
    if (!(await this.ctx.access.canAccessAccountBatched(this.viewer, artist.id))) return [];
    return (await songReachLoaders(this.ctx).artistSongsPage.load({ id: artist.id, page, limit })).rows;
  }

  /** Query.song: the ISRC as a catalog the caller reaches holds it; 404 when none does, as for an unknown ISRC. */
  async song(isrc: unknown): Promise<Song> {
    requireViewer(this.ctx.viewer);
    const input = validate(isrcInput, { isrc });
    const song = await songReachLoaders(this.ctx).songByIsrc.load(normalizeIsrc(input.isrc));
    if (!song) throw notFound('Song');
    return song;
  }
}
