import { z } from 'zod';
import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Authorized, Ctx, Extensions, FieldResolver, ID, Info, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { itemsPerInput, LIST_BOUNDS, maxItems } from '../../common/bounds';
import type { PageOf } from '../../graphql/common.types';
import type { Viewer } from '../../auth/viewer';
import { AFTER_DESCRIPTION, FIRST_DESCRIPTION, firstDescription } from '../../common/paging';
import { describe, graphPageInput, limitArg, pageArg } from '../../common/validation';
import type { Context } from '../../request/context';
import { CurrentViewer, Paged, ParsedArg, ParsedInput, ParsedPage } from '../../graphql/params';
import { ReadAhead } from '../../graphql/read-ahead';
import { flatten, passThrough, passThroughSelection, type SelectedField } from '../../graphql/pass-through';
import { Artist } from '../artist';
import {
  addCatalogInput,
  addSongsInput,
  catalogIdInput,
  catalogsInput,
  catalogsLimitInput,
  MAX_SONGS_PER_WRITE,
  catalogSongsFieldRequest,
  catalogSongsInput,
  isrcInput,
  removeCatalogsInput,
  removeSongsInput,
} from './catalog.inputs';
import type { AddCatalogInput, AddSongsInput, CatalogsInput, CatalogSongsInput, RemoveCatalogsInput, RemoveSongsInput } from './catalog.inputs';
import { CatalogRepository, isCreditValue, isShapeKey, isSongValue, type CreditValue, type SongsShape } from './catalog.repository';
import { CatalogService } from './catalog.service';
import {
  AddCatalogInputType,
  AddCatalogSongsInputType,
  AccountCatalogPage,
  Catalog,
  CatalogAccountPage,
  CatalogPage,
  CatalogAccount,
  CatalogSongsQueryInput,
  RemoveCatalogSongsInputType,
  RemoveCatalogsInputType,
  Song,
  SongCredit,
  SongPage,
} from './catalog.types';

/** The request's catalog service (also used by the federation references). */
export const catalogService = (ctx: Context) => new CatalogService(new CatalogRepository(ctx.db), ctx.access, ctx.loaders, ctx.deps.config.bounds);

const PAGE = { nullable: true, description: 'Page number, default 1' } as const;
const FIRST = { nullable: true, description: FIRST_DESCRIPTION } as const;
const AFTER = { nullable: true, description: AFTER_DESCRIPTION } as const;
const LIMIT = { nullable: true, description: '1 to 100, default 20' } as const;
/** A list of catalogs nested in the graph: the first `limit` by name (GraphQL default, so the cost model weighs it as asked). */
const CATALOGS_LIMIT = { nullable: true, description: `1 to ${LIST_BOUNDS.catalogsPerList}, default 20` } as const;
/** Catalog.accounts' page (all of a catalog's accounts by default). */
const accountsPageInput = z.object({ page: pageArg(), limit: limitArg(LIST_BOUNDS.accountsPerCatalog, LIST_BOUNDS.accountsPerCatalog) });

@Resolver()
export class CatalogResolver {
  @Authorized()
  @Query(() => SongPage, { nullable: true, description: 'Songs of a catalog the caller reaches, by ISRC (404 absent, 403 unreachable)' })
  async catalogSongs(
    @Ctx() ctx: Context,
    @CurrentViewer() viewer: Viewer,
    @ParsedPage(catalogSongsInput, { input: { typeFunc: () => CatalogSongsQueryInput } }) { input, page }: Paged<CatalogSongsInput>,
    @Info() info: GraphQLResolveInfo,
  ): Promise<PageOf<Song>> {
    // Passed through (src/graphql/pass-through.ts): the page's items as JSON the database wrote in the selection's shape.
    const selected = passThroughSelection(info, 'items', 'Song');
    const shape = selected && songsShapeOf(selected.fields, info);
    if (!selected || !shape) return catalogService(ctx).songs(viewer, input, page);
    const answer = await catalogService(ctx).songsPassedThrough(viewer, input, page, shape);
    passThrough(info, selected.key, answer.items);
    // The executor iterates the list as empty; it is put in place after (placePassedThrough).
    return answer as unknown as PageOf<Song>;
  }

  @Authorized()
  @Query(() => AccountCatalogPage, {
    nullable: true,
    description: `Catalogs linked to the caller, or to accountId, by name, a page at a time (an account holds at most ${LIST_BOUNDS.catalogsPerAccount}: one page of them by default)`,
  })
  catalogs(
    @Ctx() ctx: Context,
    @CurrentViewer() viewer: Viewer,
    @ParsedPage(catalogsInput, { args: ['accountId', 'limit', 'page'], maxFirst: LIST_BOUNDS.catalogsPerAccount }) { input, page }: Paged<CatalogsInput>,
    @Arg('accountId', () => ID, { nullable: true, description: describe(catalogsInput, 'account_id') }) _accountId?: string | null,
    @Arg('limit', () => Int, { nullable: true, description: describe(catalogsInput, 'limit') }) _limit?: number | null,
    @Arg('page', () => Int, { nullable: true, description: describe(catalogsInput, 'page') }) _page?: number | null,
    @Arg('first', () => Int, { nullable: true, description: firstDescription(LIST_BOUNDS.catalogsPerAccount, LIST_BOUNDS.catalogsPerAccount) }) _first?: number | null,
    @Arg('after', () => String, AFTER) _after?: string | null,
  ): Promise<PageOf<Catalog>> {
    return catalogService(ctx).catalogs(viewer, input, page);
  }

  @Authorized()
  @Mutation(() => Catalog, { description: 'Creates a catalog (a name) or links an existing one (a catalog id) to the caller or the account given' })
  addCatalog(@Ctx() ctx: Context, @CurrentViewer() viewer: Viewer, @ParsedInput(() => AddCatalogInputType, addCatalogInput) input: AddCatalogInput): Promise<Catalog> {
    return catalogService(ctx).addCatalog(viewer, input);
  }

  @Authorized()
  @Extensions(itemsPerInput('songs', MAX_SONGS_PER_WRITE))
  @Mutation(() => [Song], { description: "Upserts each named catalog's entry for an ISRC (other catalogs' entries are never changed) and credits artists by name; answers the songs posted" })
  addCatalogSongs(@Ctx() ctx: Context, @CurrentViewer() viewer: Viewer, @ParsedInput(() => AddCatalogSongsInputType, addSongsInput) input: AddSongsInput): Promise<Song[]> {
    return catalogService(ctx).addSongs(viewer, input);
  }

  @Authorized()
  @Mutation(() => [Song], { description: 'Removes songs from catalogs; answers the songs left in those catalogs' })
  removeCatalogSongs(@Ctx() ctx: Context, @CurrentViewer() viewer: Viewer, @ParsedInput(() => RemoveCatalogSongsInputType, removeSongsInput) input: RemoveSongsInput): Promise<Song[]> {
    return catalogService(ctx).removeSongs(viewer, input);
  }

  @Authorized()
  @Mutation(() => [Catalog], {
    description:
      'Unlinks catalog-account pairs (each account reached by the caller, or linked after the caller’s or its organization’s own hold of the catalog); a catalog left with no account is deleted with its songs. Answers the catalogs still linked to the accounts named that the caller reaches',
  })
  removeCatalogs(@Ctx() ctx: Context, @CurrentViewer() viewer: Viewer, @ParsedInput(() => RemoveCatalogsInputType, removeCatalogsInput) input: RemoveCatalogsInput): Promise<Catalog[]> {
    return catalogService(ctx).removeCatalogs(viewer, input);
  }

  @Authorized()
  @Query(() => Catalog, { nullable: true, description: 'A catalog the caller reaches (404 absent, 403 unreachable)' })
  catalog(@Ctx() ctx: Context, @CurrentViewer() viewer: Viewer, @ParsedArg('id', () => ID, catalogIdInput, { description: 'The catalog id (UUID)' }) id: string): Promise<Catalog> {
    return catalogService(ctx).catalog(viewer, id);
  }

  @Authorized()
  @Query(() => Song, { nullable: true, description: 'A recording by ISRC (case and dashes ignored) as a catalog the caller reaches holds it; 404 when no such catalog holds it' })
  song(@Ctx() ctx: Context, @CurrentViewer() viewer: Viewer, @ParsedArg('isrc', () => String, isrcInput, { description: 'ISRC, e.g. GBNWR2400001 (case and dashes are ignored)' }) isrc: string): Promise<Song> {
    return catalogService(ctx).song(viewer, isrc);
  }
}

@Resolver(() => Catalog)
export class CatalogGraphResolver {
  @FieldResolver(() => SongPage, { description: 'Songs by ISRC, a page at a time' })
  songs(
    @Root() catalog: Catalog,
    @Ctx() ctx: Context,
    @Arg('page', () => Int, PAGE) page?: number | null,
    @Arg('limit', () => Int, LIMIT) limit?: number | null,
    @Arg('artistName', () => String, { nullable: true, description: 'Only songs credited to an artist with this name (case-insensitive)' })
    artistName?: string | null,
    @Arg('first', () => Int, FIRST) first?: number | null,
    @Arg('after', () => String, AFTER) after?: string | null,
  ): Promise<PageOf<Song>> {
    const { request, filter } = catalogSongsFieldRequest({ page, limit, first, after, artistName });
    return catalogService(ctx).catalogSongs(catalog, request, filter);
  }

  @FieldResolver(() => CatalogAccountPage, { description: `Accounts the catalog is linked to, by name, a page at a time (at most ${LIST_BOUNDS.accountsPerCatalog}: all of them by default)` })
  accounts(
    @Root() catalog: Catalog,
    @Ctx() ctx: Context,
    @ParsedPage(accountsPageInput, { args: ['limit', 'page'], maxFirst: LIST_BOUNDS.accountsPerCatalog }) { page }: Paged<unknown>,
    @Arg('limit', () => Int, { nullable: true, description: `1 to ${LIST_BOUNDS.accountsPerCatalog}, default ${LIST_BOUNDS.accountsPerCatalog}` }) _limit?: number | null,
    @Arg('page', () => Int, PAGE) _page?: number | null,
    @Arg('first', () => Int, { nullable: true, description: firstDescription(LIST_BOUNDS.accountsPerCatalog, LIST_BOUNDS.accountsPerCatalog) }) _first?: number | null,
    @Arg('after', () => String, AFTER) _after?: string | null,
  ): Promise<PageOf<CatalogAccount>> {
    return catalogService(ctx).catalogAccounts(catalog, page);
  }
}

@Resolver(() => Song)
export class SongGraphResolver {
  @Extensions(maxItems(LIST_BOUNDS.creditsPerSong))
  // A songs page reads each entry's credits with it (songsPageJson): those answer without a call.
  @ReadAhead('credits')
  @FieldResolver(() => [SongCredit], { description: `Artists credited on this catalog entry, in credit order, with when each was credited (at most ${LIST_BOUNDS.creditsPerSong})` })
  credits(@Root() song: Song, @Ctx() ctx: Context): Promise<SongCredit[]> {
    return catalogService(ctx).songCredits(song);
  }

  @Extensions(maxItems(LIST_BOUNDS.creditsPerSong))
  @FieldResolver(() => [Artist], { description: `Artists credited on this catalog entry, in credit order (at most ${LIST_BOUNDS.creditsPerSong})` })
  artists(@Root() song: Song, @Ctx() ctx: Context): Promise<Artist[]> {
    return catalogService(ctx).songArtists(song);
  }

  @FieldResolver(() => CatalogPage, { description: `Catalogs holding the song that the caller reaches, by name, a page at a time (of the first ${LIST_BOUNDS.catalogsPerList})` })
  catalogs(
    @Root() song: Song,
    @Ctx() ctx: Context,
    @CurrentViewer() viewer: Viewer,
    @ParsedPage(catalogsLimitInput, { args: ['limit', 'page'] }) { page }: Paged<unknown>,
    @Arg('limit', () => Int, CATALOGS_LIMIT) _limit?: number | null,
    @Arg('page', () => Int, PAGE) _page?: number | null,
    @Arg('first', () => Int, FIRST) _first?: number | null,
    @Arg('after', () => String, AFTER) _after?: string | null,
  ): Promise<PageOf<Catalog>> {
    return catalogService(ctx).songCatalogs(viewer, song, page);
  }
}

@Resolver(() => Artist)
export class ArtistCatalogResolver {
  @FieldResolver(() => CatalogPage, {
    description: `Catalogs the caller reaches that are linked to the artist or hold its songs, by name, a page at a time (of the first ${LIST_BOUNDS.catalogsPerList}); empty when the caller cannot reach the artist`,
  })
  catalogs(
    @Root() artist: Artist,
    @Ctx() ctx: Context,
    @CurrentViewer() viewer: Viewer,
    @ParsedPage(catalogsLimitInput, { args: ['limit', 'page'] }) { page }: Paged<unknown>,
    @Arg('limit', () => Int, CATALOGS_LIMIT) _limit?: number | null,
    @Arg('page', () => Int, PAGE) _page?: number | null,
    @Arg('first', () => Int, FIRST) _first?: number | null,
    @Arg('after', () => String, AFTER) _after?: string | null,
  ): Promise<PageOf<Catalog>> {
    return catalogService(ctx).artistCatalogs(viewer, artist, page);
  }

  @FieldResolver(() => SongPage, { description: 'Songs crediting the artist in catalogs the caller reaches, by ISRC; empty when the caller cannot reach the artist' })
  songs(
    @Root() artist: Artist,
    @Ctx() ctx: Context,
    @CurrentViewer() viewer: Viewer,
    @ParsedPage(graphPageInput, { args: ['page', 'limit'] }) { page }: Paged<unknown>,
    @Arg('page', () => Int, PAGE) _page?: number | null,
    @Arg('limit', () => Int, LIMIT) _limit?: number | null,
    @Arg('first', () => Int, FIRST) _first?: number | null,
    @Arg('after', () => String, AFTER) _after?: string | null,
  ): Promise<PageOf<Song>> {
    return catalogService(ctx).artistSongs(viewer, artist, page);
  }
}

/**
 * The shape a songs page's items are written in (songsPageSerialized) for a selection of Song, or
 * undefined when a selected field is not one the database writes as the answer would (any field
 * with arguments, a resolver of its own other than credits, or a credit's other than its values).
 */
function songsShapeOf(fields: readonly SelectedField[], info: GraphQLResolveInfo): SongsShape | undefined {
  const shape: SongsShape[number][] = [];
  for (const { key, field } of fields) {
    if (!isShapeKey(key) || field.arguments?.length) return undefined;
    const name = field.name.value;
    if (name === 'credits') {
      const credits = field.selectionSet && flatten(field.selectionSet, info, 'SongCredit');
      if (!credits) return undefined;
      const members: { key: string; value: CreditValue }[] = [];
      for (const credit of credits) {
        const value = credit.field.name.value;
        if (!isCreditValue(value) || !isShapeKey(credit.key) || credit.field.arguments?.length || credit.field.selectionSet) return undefined;
        members.push({ key: credit.key, value });
      }
      shape.push({ key, credits: members });
      continue;
    }
    if (!isSongValue(name) || field.selectionSet) return undefined;
    shape.push({ key, value: name });
  }
  return shape;
}
