import { Arg, Authorized, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { requireViewer } from '../../auth/access';
import { graphPageInput, validate, withoutNulls } from '../../common/validation';
import { SuccessStatus } from '../../graphql/common.types';
import type { Context } from '../../graphql/context';
import { artistIdInput, createArtistInput, rosterInput, socialsByAccountInput, socialsByIdInput, upsertSocialInput } from './artist.inputs';
import { ArtistRepository } from './artist.repository';
import { ArtistService } from './artist.service';
import { Artist, ArtistResult, ArtistsResult, RosterArtist, SocialProfile, SocialResult, SocialsResult } from './artist.types';

/** The request's artist service (also used by the federation reference and by other modules through index.ts). */
export const artistService = (ctx: Context) => new ArtistService(new ArtistRepository(ctx.em), ctx.access, ctx.loaders);

@Resolver()
export class ArtistResolver {
  @Authorized()
  @Query(() => SocialsResult, { description: 'Social profiles of an artist (GET /api/artist/socials)' })
  artistSocials(
    @Ctx() ctx: Context,
    @Arg('artist_account_id', () => ID) artist_account_id: string,
    @Arg('page', () => Int, { nullable: true, description: 'Page number, default 1' }) page?: number | null,
    @Arg('limit', () => Int, { nullable: true, description: 'Socials per page, 1 to 100, default 20' }) limit?: number | null,
  ): Promise<SocialsResult> {
    const viewer = requireViewer(ctx.viewer);
    return artistService(ctx).socialsByAccount(viewer, validate(socialsByAccountInput, withoutNulls({ artist_account_id, page, limit })));
  }

  @Authorized()
  @Query(() => SocialsResult, { description: 'Social profiles of an artist (GET /api/artists/{id}/socials)' })
  artistSocialsById(
    @Ctx() ctx: Context,
    @Arg('id', () => ID, { description: 'The artist account' }) id: string,
    @Arg('page', () => Int, { nullable: true, description: 'Page number, default 1' }) page?: number | null,
    @Arg('limit', () => Int, { nullable: true, description: 'Socials per page, 1 to 100, default 20' }) limit?: number | null,
  ): Promise<SocialsResult> {
    const viewer = requireViewer(ctx.viewer);
    return artistService(ctx).socialsById(viewer, validate(socialsByIdInput, withoutNulls({ id, page, limit })));
  }

  @Authorized()
  @Query(() => ArtistsResult, { description: 'Artists on the roster of the caller and its organizations, or of account_id / organization_id' })
  async artists(
    @Ctx() ctx: Context,
    @Arg('account_id', () => ID, { nullable: true }) account_id?: string | null,
    @Arg('organization_id', () => ID, { nullable: true }) organization_id?: string | null,
  ): Promise<ArtistsResult> {
    const viewer = requireViewer(ctx.viewer);
    return { status: SuccessStatus.success, artists: await artistService(ctx).roster(viewer, validate(rosterInput, withoutNulls({ account_id, organization_id }))) };
  }

  @Authorized()
  @Query(() => [Artist], { description: 'The roster as graph nodes (same filters as `artists`)' })
  rosterArtists(
    @Ctx() ctx: Context,
    @Arg('account_id', () => ID, { nullable: true }) account_id?: string | null,
    @Arg('organization_id', () => ID, { nullable: true }) organization_id?: string | null,
  ): Promise<RosterArtist[]> {
    const viewer = requireViewer(ctx.viewer);
    return artistService(ctx).roster(viewer, validate(rosterInput, withoutNulls({ account_id, organization_id })));
  }

  @Authorized()
  @Query(() => Artist, { description: 'An artist the caller may reach (404 absent, 403 unreachable)' })
  artist(@Ctx() ctx: Context, @Arg('id', () => ID) id: string): Promise<Artist> {
    const viewer = requireViewer(ctx.viewer);
    return artistService(ctx).requireArtist(viewer, validate(artistIdInput, { id }).id);
  }

  @Authorized()
  @Mutation(() => ArtistResult, { description: "Creates an artist account on the caller's roster, or on the organization's" })
  async createArtist(
    @Ctx() ctx: Context,
    @Arg('name', () => String) name: string,
    @Arg('organization_id', () => ID, { nullable: true }) organization_id?: string | null,
  ): Promise<ArtistResult> {
    const viewer = requireViewer(ctx.viewer);
    return { status: SuccessStatus.success, artist: await artistService(ctx).create(viewer, validate(createArtistInput, withoutNulls({ name, organization_id }))) };
  }

  @Authorized()
  @Mutation(() => SocialResult, { description: 'Adds a social profile to an artist, or updates the one with the same profile_url' })
  async upsertArtistSocial(
    @Ctx() ctx: Context,
    @Arg('id', () => ID, { description: 'The artist account' }) id: string,
    @Arg('profile_url', () => String) profile_url: string,
    @Arg('username', () => String) username: string,
    @Arg('avatar', () => String, { nullable: true }) avatar?: string | null,
    @Arg('bio', () => String, { nullable: true }) bio?: string | null,
    @Arg('follower_count', () => Int, { nullable: true }) follower_count?: number | null,
    @Arg('following_count', () => Int, { nullable: true }) following_count?: number | null,
    @Arg('region', () => String, { nullable: true }) region?: string | null,
  ): Promise<SocialResult> {
    const viewer = requireViewer(ctx.viewer);
    const input = validate(upsertSocialInput, withoutNulls({ id, profile_url, username, avatar, bio, follower_count, following_count, region }));
    return { status: SuccessStatus.success, social: await artistService(ctx).upsertSocial(viewer, input) };
  }
}

@Resolver(() => Artist)
export class ArtistGraphResolver {
  @FieldResolver(() => [SocialProfile], { description: 'Social profiles, oldest link first; empty when the caller cannot reach the artist' })
  socials(
    @Root() artist: Artist,
    @Ctx() ctx: Context,
    @Arg('page', () => Int, { nullable: true, description: 'Default 1' }) page?: number | null,
    @Arg('limit', () => Int, { nullable: true, description: '1 to 100, default 20' }) limit?: number | null,
  ): Promise<SocialProfile[]> {
    const viewer = requireViewer(ctx.viewer);
    return artistService(ctx).socialsOf(viewer, artist, validate(graphPageInput, withoutNulls({ page, limit })));
  }
}
