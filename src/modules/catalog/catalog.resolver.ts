import { Arg, Authorized, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { ResultStatus } from '../../graphql/common.types';
import { requireViewer } from '../../auth/access';
import { graphPageInput, validate, withoutNulls } from '../../common/validation';
import type { Context } from '../../graphql/context';
import { Artist } from '../artist';
import {
  addCatalogInput,
  addSongsInput,
  catalogIdInput,
  catalogsInput,
  catalogSongsFieldInput,
  catalogSongsInput,
  isrcInput,
  removeCatalogsInput,
  removeSongsInput,
} from './catalog.inputs';
import { CatalogRepository } from './catalog.repository';
import { CatalogService } from './catalog.service';
import {
  Catalog,
  CatalogAccount,
  CatalogLinkInput,
  CatalogResult,
  CatalogsResult,
  CatalogSongInput,
  CatalogSongRefInput,
  CatalogSongsChangeResult,
  CatalogSongsResult,
  Song,
} from './catalog.types';

/** The request's catalog service (also used by the federation references). */
export const catalogService = (ctx: Context) => new CatalogService(new CatalogRepository(ctx.em), ctx.access, ctx.loaders);

const PAGE = { nullable: true, description: 'Page number, default 1' } as const;
const LIMIT = { nullable: true, description: '1 to 100, default 20' } as const;

@Resolver()
export class CatalogResolver {
  @Authorized()
  @Query(() => CatalogSongsResult, { description: 'Songs of a catalog, by ISRC (GET /api/catalogs/songs)' })
  catalogSongs(
    @Ctx() ctx: Context,
    @Arg('catalog_id', () => ID) catalog_id: string,
    @Arg('artistName', () => String, { nullable: true, description: 'Only songs credited to an artist with this name (case-insensitive)' })
    artistName?: string | null,
    @Arg('page', () => Int, PAGE) page?: number | null,
    @Arg('limit', () => Int, LIMIT) limit?: number | null,
  ): Promise<CatalogSongsResult> {
    const viewer = requireViewer(ctx.viewer);
    return catalogService(ctx).songs(viewer, validate(catalogSongsInput, withoutNulls({ catalog_id, artistName, page, limit })));
  }

  @Authorized()
  @Query(() => CatalogsResult, { description: "Catalogs linked to the caller, or to account_id (GET /api/catalogs)" })
  async catalogs(@Ctx() ctx: Context, @Arg('account_id', () => ID, { nullable: true }) account_id?: string | null): Promise<CatalogsResult> {
    const viewer = requireViewer(ctx.viewer);
    return { status: ResultStatus.success, catalogs: await catalogService(ctx).catalogs(viewer, validate(catalogsInput, withoutNulls({ account_id }))) };
  }

  @Authorized()
  @Mutation(() => CatalogResult, { description: 'Creates a catalog ({name}) or links an existing one ({catalog_id}) to the caller or account_id' })
  async addCatalog(
    @Ctx() ctx: Context,
    @Arg('name', () => String, { nullable: true }) name?: string | null,
    @Arg('catalog_id', () => ID, { nullable: true }) catalog_id?: string | null,
    @Arg('account_id', () => ID, { nullable: true }) account_id?: string | null,
  ): Promise<CatalogResult> {
    const viewer = requireViewer(ctx.viewer);
    const input = validate(addCatalogInput, withoutNulls({ name, catalog_id, account_id }));
    return { status: ResultStatus.success, catalog: await catalogService(ctx).addCatalog(viewer, input) };
  }

  @Authorized()
  @Mutation(() => CatalogSongsChangeResult, { description: "Upserts each named catalog's entry for an ISRC (other catalogs' entries are never changed) and credits artists by name" })
  async addCatalogSongs(@Ctx() ctx: Context, @Arg('songs', () => [CatalogSongInput]) songs: CatalogSongInput[]): Promise<CatalogSongsChangeResult> {
    const viewer = requireViewer(ctx.viewer);
    return { status: ResultStatus.success, songs: await catalogService(ctx).addSongs(viewer, validate(addSongsInput, withoutNulls({ songs }))) };
  }

  @Authorized()
  @Mutation(() => CatalogSongsChangeResult, { description: 'Removes songs from catalogs; answers the songs left in those catalogs' })
  async removeCatalogSongs(
    @Ctx() ctx: Context,
    @Arg('songs', () => [CatalogSongRefInput]) songs: CatalogSongRefInput[],
  ): Promise<CatalogSongsChangeResult> {
    const viewer = requireViewer(ctx.viewer);
    return { status: ResultStatus.success, songs: await catalogService(ctx).removeSongs(viewer, validate(removeSongsInput, withoutNulls({ songs }))) };
  }

  @Authorized()
  @Mutation(() => CatalogsResult, {
    description: 'Unlinks catalog-account pairs; a catalog left with no account is deleted with its songs. Answers the catalogs still linked to the accounts named',
  })
  async removeCatalogs(@Ctx() ctx: Context, @Arg('catalogs', () => [CatalogLinkInput]) catalogs: CatalogLinkInput[]): Promise<CatalogsResult> {
    const viewer = requireViewer(ctx.viewer);
    return { status: ResultStatus.success, catalogs: await catalogService(ctx).removeCatalogs(viewer, validate(removeCatalogsInput, withoutNulls({ catalogs }))) };
  }

  @Authorized()
  @Query(() => Catalog, { description: 'A catalog the caller reaches (404 absent, 403 unreachable)' })
  catalog(@Ctx() ctx: Context, @Arg('id', () => ID) id: string): Promise<Catalog> {
    const viewer = requireViewer(ctx.viewer);
    return catalogService(ctx).catalog(viewer, validate(catalogIdInput, { id }).id);
  }

  @Authorized()
  @Query(() => [Catalog], { description: 'Catalogs linked to the caller, or to account_id, as graph nodes' })
  linkedCatalogs(@Ctx() ctx: Context, @Arg('account_id', () => ID, { nullable: true }) account_id?: string | null): Promise<Catalog[]> {
    const viewer = requireViewer(ctx.viewer);
    return catalogService(ctx).catalogs(viewer, validate(catalogsInput, withoutNulls({ account_id })));
  }

  @Authorized()
  @Query(() => Song, { description: 'A recording by ISRC (case and dashes ignored) as a catalog the caller reaches holds it; 404 when no such catalog holds it' })
  song(@Ctx() ctx: Context, @Arg('isrc', () => String) isrc: string): Promise<Song> {
    const viewer = requireViewer(ctx.viewer);
    return catalogService(ctx).song(viewer, validate(isrcInput, { isrc }).isrc);
  }
}

@Resolver(() => Catalog)
export class CatalogGraphResolver {
  @FieldResolver(() => [Song], { description: 'Songs by ISRC, a page at a time' })
  songs(
    @Root() catalog: Catalog,
    @Ctx() ctx: Context,
    @Arg('page', () => Int, PAGE) page?: number | null,
    @Arg('limit', () => Int, LIMIT) limit?: number | null,
    @Arg('artistName', () => String, { nullable: true, description: 'Only songs credited to an artist with this name (case-insensitive)' })
    artistName?: string | null,
  ): Promise<Song[]> {
    return catalogService(ctx).catalogSongs(catalog, validate(catalogSongsFieldInput, withoutNulls({ page, limit, artistName })));
  }

  @FieldResolver(() => [CatalogAccount], { description: 'Accounts the catalog is linked to' })
  accounts(@Root() catalog: Catalog, @Ctx() ctx: Context): Promise<CatalogAccount[]> {
    return catalogService(ctx).catalogAccounts(catalog);
  }
}

@Resolver(() => Song)
export class SongGraphResolver {
  @FieldResolver(() => [Artist], { description: 'Artists credited on this catalog entry, in credit order' })
  artists(@Root() song: Song, @Ctx() ctx: Context): Promise<Artist[]> {
    return catalogService(ctx).songArtists(song);
  }

  @FieldResolver(() => [Catalog], { description: 'Catalogs holding the song that the caller reaches' })
  catalogs(@Root() song: Song, @Ctx() ctx: Context): Promise<Catalog[]> {
    return catalogService(ctx).songCatalogs(requireViewer(ctx.viewer), song);
  }
}

@Resolver(() => Artist)
export class ArtistCatalogResolver {
  @FieldResolver(() => [Catalog], { description: 'Catalogs the caller reaches that are linked to the artist or hold its songs; empty when the caller cannot reach the artist' })
  catalogs(@Root() artist: Artist, @Ctx() ctx: Context): Promise<Catalog[]> {
    return catalogService(ctx).artistCatalogs(requireViewer(ctx.viewer), artist);
  }

  @FieldResolver(() => [Song], { description: 'Songs crediting the artist in catalogs the caller reaches, by ISRC; empty when the caller cannot reach the artist' })
  songs(
    @Root() artist: Artist,
    @Ctx() ctx: Context,
    @Arg('page', () => Int, PAGE) page?: number | null,
    @Arg('limit', () => Int, LIMIT) limit?: number | null,
  ): Promise<Song[]> {
    const viewer = requireViewer(ctx.viewer);
    return catalogService(ctx).artistSongs(viewer, artist, validate(graphPageInput, withoutNulls({ page, limit })));
  }
}
