import { Arg, Authorized, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { ResultStatus } from '../../graphql/common.types';
import type { Context } from '../../graphql/context';
import { Artist } from '../artist';
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
    return new CatalogService(ctx).songs({ catalog_id, artistName, page, limit });
  }

  @Authorized()
  @Query(() => CatalogsResult, { description: "Catalogs linked to the caller, or to account_id (GET /api/catalogs)" })
  async catalogs(@Ctx() ctx: Context, @Arg('account_id', () => ID, { nullable: true }) account_id?: string | null): Promise<CatalogsResult> {
    return { status: ResultStatus.success, catalogs: await new CatalogService(ctx).catalogs({ account_id }) };
  }

  @Authorized()
  @Mutation(() => CatalogResult, { description: 'Creates a catalog ({name}) or links an existing one ({catalog_id}) to the caller or account_id' })
  async addCatalog(
    @Ctx() ctx: Context,
    @Arg('name', () => String, { nullable: true }) name?: string | null,
    @Arg('catalog_id', () => ID, { nullable: true }) catalog_id?: string | null,
    @Arg('account_id', () => ID, { nullable: true }) account_id?: string | null,
  ): Promise<CatalogResult> {
    return { status: ResultStatus.success, catalog: await new CatalogService(ctx).addCatalog({ name, catalog_id, account_id }) };
  }

  @Authorized()
  @Mutation(() => CatalogSongsChangeResult, { description: "Upserts each named catalog's entry for an ISRC (other catalogs' entries are never changed) and credits artists by name" })
  async addCatalogSongs(@Ctx() ctx: Context, @Arg('songs', () => [CatalogSongInput]) songs: CatalogSongInput[]): Promise<CatalogSongsChangeResult> {
    return { status: ResultStatus.success, songs: await new CatalogService(ctx).addSongs({ songs }) };
  }

  @Authorized()
  @Mutation(() => CatalogSongsChangeResult, { description: 'Removes songs from catalogs; answers the songs left in those catalogs' })
  async removeCatalogSongs(
    @Ctx() ctx: Context,
    @Arg('songs', () => [CatalogSongRefInput]) songs: CatalogSongRefInput[],
  ): Promise<CatalogSongsChangeResult> {
    return { status: ResultStatus.success, songs: await new CatalogService(ctx).removeSongs({ songs }) };
  }

  @Authorized()
  @Mutation(() => CatalogsResult, {
    description: 'Unlinks catalog-account pairs; a catalog left with no account is deleted with its songs. Answers the catalogs still linked to the accounts named',
  })
  async removeCatalogs(@Ctx() ctx: Context, @Arg('catalogs', () => [CatalogLinkInput]) catalogs: CatalogLinkInput[]): Promise<CatalogsResult> {
    return { status: ResultStatus.success, catalogs: await new CatalogService(ctx).removeCatalogs({ catalogs }) };
  }

  @Authorized()
  @Query(() => Catalog, { description: 'A catalog the caller reaches (404 absent, 403 unreachable)' })
  catalog(@Ctx() ctx: Context, @Arg('id', () => ID) id: string): Promise<Catalog> {
    return new CatalogService(ctx).catalog(id);
  }

  @Authorized()
  @Query(() => [Catalog], { description: 'Catalogs linked to the caller, or to account_id, as graph nodes' })
  linkedCatalogs(@Ctx() ctx: Context, @Arg('account_id', () => ID, { nullable: true }) account_id?: string | null): Promise<Catalog[]> {
    return new CatalogService(ctx).linkedCatalogs({ account_id });
  }

  @Authorized()
  @Query(() => Song, { description: 'A recording by ISRC (case and dashes ignored) as a catalog the caller reaches holds it; 404 when no such catalog holds it' })
  song(@Ctx() ctx: Context, @Arg('isrc', () => String) isrc: string): Promise<Song> {
    return new CatalogService(ctx).song(isrc);
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
    return new CatalogService(ctx).catalogSongs(catalog, { page, limit, artistName });
  }

  @FieldResolver(() => [CatalogAccount], { description: 'Accounts the catalog is linked to' })
  accounts(@Root() catalog: Catalog, @Ctx() ctx: Context): Promise<CatalogAccount[]> {
    return new CatalogService(ctx).catalogAccounts(catalog);
  }
}

@Resolver(() => Song)
export class SongGraphResolver {
  @FieldResolver(() => [Artist], { description: 'Artists credited on this catalog entry, in credit order' })
  artists(@Root() song: Song, @Ctx() ctx: Context): Promise<Artist[]> {
    return new CatalogService(ctx).songArtists(song);
  }

  @FieldResolver(() => [Catalog], { description: 'Catalogs holding the song that the caller reaches' })
  catalogs(@Root() song: Song, @Ctx() ctx: Context): Promise<Catalog[]> {
    return new CatalogService(ctx).songCatalogs(song);
  }
}

@Resolver(() => Artist)
export class ArtistCatalogResolver {
  @FieldResolver(() => [Catalog], { description: 'Catalogs the caller reaches that are linked to the artist or hold its songs; empty when the caller cannot reach the artist' })
  catalogs(@Root() artist: Artist, @Ctx() ctx: Context): Promise<Catalog[]> {
    return new CatalogService(ctx).artistCatalogs(artist);
  }

  @FieldResolver(() => [Song], { description: 'Songs crediting the artist in catalogs the caller reaches, by ISRC; empty when the caller cannot reach the artist' })
  songs(
    @Root() artist: Artist,
    @Ctx() ctx: Context,
    @Arg('page', () => Int, PAGE) page?: number | null,
    @Arg('limit', () => Int, LIMIT) limit?: number | null,
  ): Promise<Song[]> {
    return new CatalogService(ctx).artistSongs(artist, { page, limit });
  }
}
