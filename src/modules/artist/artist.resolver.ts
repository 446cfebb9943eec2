import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Authorized, Ctx, FieldResolver, ID, Info, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { AFTER_DESCRIPTION, FIRST_DESCRIPTION, firstDescription } from '../../common/paging';
import { describe, graphPageInput } from '../../common/validation';
import type { PageOf } from '../../graphql/common.types';
import type { Context } from '../../request/context';
import type { Viewer } from '../../auth/viewer';
import { CurrentViewer, type Paged, type Parsed, ParsedArg, ParsedInput, ParsedPage } from '../../graphql/params';
import { pageItemSets, planPrefetch } from '../../graphql/prefetch';
import { artistIdInput, createArtistInput, ROSTER_PAGE_DEFAULT, ROSTER_PAGE_MAX, rosterInput, socialsByAccountInput, socialsByIdInput, upsertSocialInput } from './artist.inputs';
import { ArtistRepository } from './artist.repository';
import { ArtistService } from './artist.service';
import {
  Artist,
  ArtistPage,
  ArtistSocialsByIdInput,
  ArtistSocialsInput,
  CreateArtistInputType,
  RosterArtist,
  SocialProfile,
  SocialProfilePage,
  UpsertArtistSocialInputType,
} from './artist.types';

/** The request's artist service (also used by the federation reference and by other modules through index.ts). */
export const artistService = (ctx: Context) => new ArtistService(new ArtistRepository(ctx.db), ctx.access, ctx.loaders, ctx.deps.config.bounds.rosterArtists);

@Resolver()
export class ArtistResolver {
  @Authorized()
  @Query(() => SocialProfilePage, { nullable: true, description: 'Social profiles of an artist, oldest link first (404 absent or not an artist, 403 unreachable)' })
  artistSocials(
    @Ctx() ctx: Context,
    @CurrentViewer() viewer: Viewer,
    @ParsedPage(socialsByAccountInput, { input: { typeFunc: () => ArtistSocialsInput } }) { input, page }: Paged<Parsed<typeof socialsByAccountInput>>,
  ): Promise<PageOf<SocialProfile>> {
    return artistService(ctx).socialsByAccount(viewer, input, page);
  }

  @Authorized()
  @Query(() => SocialProfilePage, { nullable: true, description: 'Social profiles of the artist `id`, oldest link first (404 absent or not an artist, 403 unreachable)' })
  artistSocialsById(
    @Ctx() ctx: Context,
    @CurrentViewer() viewer: Viewer,
    @ParsedPage(socialsByIdInput, { input: { typeFunc: () => ArtistSocialsByIdInput } }) { input, page }: Paged<Parsed<typeof socialsByIdInput>>,
  ): Promise<PageOf<SocialProfile>> {
    return artistService(ctx).socialsById(viewer, input, page);
  }

  @Authorized()
  @Query(() => ArtistPage, {
    nullable: true,
    description:
      'Artists on the roster of the caller and its organizations, or of accountId / organizationId, by name, a page at a time: `limit` from `page` or `offset`, or `first` after a cursor',
  })
  async artists(
    @Ctx() ctx: Context,
    @CurrentViewer() viewer: Viewer,
    @Info() info: GraphQLResolveInfo,
    @ParsedPage(rosterInput, { args: ['accountId', 'organizationId', 'limit', 'offset', 'page'], maxFirst: ROSTER_PAGE_MAX }) { input, page: request }: Paged<Parsed<typeof rosterInput>>,
    @Arg('accountId', () => ID, { nullable: true, description: describe(rosterInput, 'account_id') }) _accountId?: string | null,
    @Arg('organizationId', () => ID, { nullable: true, description: describe(rosterInput, 'organization_id') }) _organizationId?: string | null,
    @Arg('limit', () => Int, { nullable: true, description: describe(rosterInput, 'limit') }) _limit?: number | null,
    @Arg('offset', () => Int, { nullable: true, description: describe(rosterInput, 'offset') }) _offset?: number | null,
    @Arg('page', () => Int, { nullable: true, description: describe(rosterInput, 'page') }) _page?: number | null,
    @Arg('first', () => Int, { nullable: true, description: firstDescription(ROSTER_PAGE_MAX, ROSTER_PAGE_DEFAULT) }) _first?: number | null,
    @Arg('after', () => String, { nullable: true, description: AFTER_DESCRIPTION }) _after?: string | null,
  ): Promise<PageOf<RosterArtist>> {
    // The relations selected on the page's artists (socials, catalogs, …) are read in the roster's own statement.
    const readAhead = planPrefetch(ctx, info, 'Artist', 'a.id', pageItemSets(info));
    const { rows, page: answer } = await artistService(ctx).roster(viewer, input, request, readAhead.columns);
    readAhead.prime(rows, (row) => row.id);
    return answer;
  }

  @Authorized()
  @Query(() => Artist, { nullable: true, description: 'An artist the caller may reach (404 absent, 403 unreachable)' })
  artist(@Ctx() ctx: Context, @CurrentViewer() viewer: Viewer, @ParsedArg('id', () => ID, artistIdInput, { description: 'The artist account id (UUID)' }) id: string): Promise<Artist> {
    return artistService(ctx).requireArtist(viewer, id);
  }

  @Authorized()
  @Mutation(() => Artist, { description: "Creates an artist account on the caller's roster, or on the organization's" })
  createArtist(@Ctx() ctx: Context, @CurrentViewer() viewer: Viewer, @ParsedInput(() => CreateArtistInputType, createArtistInput) input: Parsed<typeof createArtistInput>): Promise<RosterArtist> {
    return artistService(ctx).create(viewer, input);
  }

  @Authorized()
  @Mutation(() => SocialProfile, { description: "Adds a social profile to an artist, or updates the artist's profile with the same profile URL" })
  upsertArtistSocial(@Ctx() ctx: Context, @CurrentViewer() viewer: Viewer, @ParsedInput(() => UpsertArtistSocialInputType, upsertSocialInput) input: Parsed<typeof upsertSocialInput>): Promise<SocialProfile> {
    return artistService(ctx).upsertSocial(viewer, input);
  }
}

@Resolver(() => Artist)
export class ArtistGraphResolver {
  @FieldResolver(() => String, { nullable: true, description: 'Image URL of the artist account' })
  async image(@Root() artist: Artist, @Ctx() ctx: Context): Promise<string | null> {
    return (await artistService(ctx).account(artist)).image;
  }

  @FieldResolver(() => Date, { description: 'When the artist account was created' })
  async createdAt(@Root() artist: Artist, @Ctx() ctx: Context): Promise<Date> {
    return (await artistService(ctx).account(artist)).created_at;
  }

  @FieldResolver(() => SocialProfilePage, { description: 'Social profiles, oldest link first, a page at a time; empty when the caller cannot reach the artist' })
  socials(
    @Root() artist: Artist,
    @Ctx() ctx: Context,
    @CurrentViewer() viewer: Viewer,
    @ParsedPage(graphPageInput, { args: ['page', 'limit'] }) paged: Paged<Parsed<typeof graphPageInput>>,
    @Arg('page', () => Int, { nullable: true, description: 'Default 1' }) _page?: number | null,
    @Arg('limit', () => Int, { nullable: true, description: '1 to 100, default 20' }) _limit?: number | null,
    @Arg('first', () => Int, { nullable: true, description: FIRST_DESCRIPTION }) _first?: number | null,
    @Arg('after', () => String, { nullable: true, description: AFTER_DESCRIPTION }) _after?: string | null,
  ): Promise<PageOf<SocialProfile>> {
    return artistService(ctx).socialsOf(viewer, artist, paged.page);
  }
}
