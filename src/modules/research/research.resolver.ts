import { Arg, Args, ArgsType, Authorized, Ctx, Extensions, Field, FieldResolver, ID, Int, Query, Resolver, Root } from 'type-graphql';
import { requireViewer } from '../../auth/access';
import { validate, withoutNulls } from '../../common/validation';
import type { Context } from '../../graphql/context';
import { PROVIDER_BATCH, PROVIDER_CALL } from '../../graphql/cost';
import { ResultStatus } from '../../graphql/common.types';
import { reachableSong, Song } from '../catalog';
import { batchedTrackStats } from './research.batch';
import { researchService } from './research.context';
import {
  artistInput,
  artistPlaylistsInput,
  artistTracksInput,
  curatorInput,
  discoverInput,
  platformSearchInput,
  researchSearchInput,
  trackStatsInput,
} from './research.inputs';
import {
  ArtistPlaylistsResult,
  ArtistTracksResult,
  CuratorProfile,
  DiscoverResult,
  GenresResult,
  PlatformSearchResult,
  ResearchArtist,
  ResearchArtistProfile,
  ResearchPlaylist,
  ResearchSearchResult,
  ResearchTrack,
  TrackStatsResult,
} from './research.types';

const Str = () => String;
const opt = { nullable: true } as const;

/** What to report of a track's statistics: shared by Query.trackStats and Song.stats. */
@ArgsType()
export class TrackStatsOptions {
  @Field(Str, { description: 'comma-separated platform_a … platform_d, or all' }) source!: string;
  @Field(() => Boolean, opt) with_playlists?: boolean;
  @Field(() => Boolean, opt) with_charts?: boolean;
  @Field(() => Boolean, opt) with_stations?: boolean;
  @Field(() => Boolean, opt) with_videos?: boolean;
  @Field(() => Boolean, { nullable: true, description: 'include external links in track_info' }) with_links?: boolean;
  @Field(() => Boolean, opt) only_current?: boolean;
  @Field(() => Int, { nullable: true, description: '1-100, default 20' }) limit?: number;
  @Field(() => Int, { nullable: true, description: 'at least 0, default 0' }) offset?: number;
}

/** Query.trackStats: the options and exactly one track identifier. */
@ArgsType()
export class TrackStatsArgs extends TrackStatsOptions {
  @Field(Str, opt) isrc?: string;
  @Field(Str, opt) stats_track_id?: string;
  @Field(Str, opt) platform_a_track_id?: string;
  @Field(Str, opt) platform_b_track_id?: string;
}

@Resolver()
export class ResearchResolver {
  @Authorized()
  @Extensions(PROVIDER_CALL)
  @Query(() => TrackStatsResult, { description: 'Per-track statistics across sources (GET /api/research/track/stats); exactly one track identifier' })
  trackStats(@Ctx() ctx: Context, @Args() args: TrackStatsArgs): Promise<TrackStatsResult> {
    return researchService(ctx).trackStats(requireViewer(ctx.viewer), validate(trackStatsInput, withoutNulls({ ...args })));
  }

  @Authorized()
  @Extensions(PROVIDER_CALL)
  @Query(() => DiscoverResult, { description: 'Artists filtered by country, genre and monthly listeners (GET /api/research/discover)' })
  async discover(
    @Ctx() ctx: Context,
    @Arg('country', Str, { nullable: true, description: 'ISO country code, exactly 2 letters' }) country?: string,
    @Arg('genre', () => Int, { nullable: true, description: 'genre id from GET /api/research/genres' }) genre?: number,
    @Arg('sp_monthly_listeners_min', () => Int, opt) sp_monthly_listeners_min?: number,
    @Arg('sp_monthly_listeners_max', () => Int, opt) sp_monthly_listeners_max?: number,
    @Arg('sort', Str, { nullable: true, description: 'sort field, e.g. weekly_diff.sp_monthly_listeners' }) sort?: string,
    @Arg('limit', () => Int, { nullable: true, description: '1-100, default 20' }) limit?: number,
  ): Promise<DiscoverResult> {
    const viewer = requireViewer(ctx.viewer);
    const input = validate(discoverInput, withoutNulls({ country, genre, sp_monthly_listeners_min, sp_monthly_listeners_max, sort, limit }));
    const artists = await researchService(ctx).discover(viewer, input);
    return { status: ResultStatus.success, artists };
  }

  @Authorized()
  @Extensions(PROVIDER_CALL)
  @Query(() => CuratorProfile, { description: 'A playlist curator profile (GET /api/research/curator)' })
  curator(
    @Ctx() ctx: Context,
    @Arg('platform', Str, { description: 'platform_a, platform_b or platform_c' }) platform: string,
    @Arg('id', Str, { description: 'curator id, digits only' }) id: string,
  ): Promise<CuratorProfile> {
    return researchService(ctx).curator(requireViewer(ctx.viewer), validate(curatorInput, withoutNulls({ platform, id })));
  }

  @Authorized()
  @Extensions(PROVIDER_CALL)
  @Query(() => GenresResult, { description: 'Genre ids for the discover filter (GET /api/research/genres)' })
  async researchGenres(@Ctx() ctx: Context): Promise<GenresResult> {
    return { status: ResultStatus.success, genres: await researchService(ctx).genres(requireViewer(ctx.viewer)) };
  }

  @Authorized()
  @Extensions(PROVIDER_CALL)
  @Query(() => ResearchSearchResult, { description: 'Search the music intelligence provider (GET /api/research); type=curators with beta=true finds curator ids' })
  async researchSearch(
    @Ctx() ctx: Context,
    @Arg('q', Str) q: string,
    @Arg('type', Str, { description: 'all, artists, tracks, albums, playlists, curators, stations, cities, songwriters or labels' }) type: string,
    @Arg('beta', () => Boolean, opt) beta?: boolean,
    @Arg('limit', () => Int, { nullable: true, description: '1-100, default 10' }) limit?: number,
    @Arg('offset', () => Int, opt) offset?: number,
  ): Promise<ResearchSearchResult> {
    return { status: ResultStatus.success, results: await researchService(ctx).search(requireViewer(ctx.viewer), validate(researchSearchInput, withoutNulls({ q, type, beta, limit, offset }))) };
  }

  @Authorized()
  @Extensions(PROVIDER_CALL)
  @Query(() => ArtistTracksResult, { description: "An artist's tracks (GET /api/research/tracks)" })
  async researchTracks(
    @Ctx() ctx: Context,
    @Arg('artist', Str, { description: 'artist id (digits) from discover or search' }) artist: string,
    @Arg('limit', () => Int, opt) limit?: number,
    @Arg('offset', () => Int, opt) offset?: number,
  ): Promise<ArtistTracksResult> {
    const viewer = requireViewer(ctx.viewer);
    const input = validate(artistTracksInput, withoutNulls({ artist, limit, offset }));
    return { status: ResultStatus.success, tracks: await researchService(ctx).artistTracks(viewer, input) };
  }

  @Authorized()
  @Extensions(PROVIDER_CALL)
  @Query(() => ArtistPlaylistsResult, { description: "An artist's playlist placements (GET /api/research/playlists)" })
  async researchPlaylists(
    @Ctx() ctx: Context,
    @Arg('artist', Str, { description: 'artist id (digits) from discover or search' }) artist: string,
    @Arg('platform', Str, { nullable: true, description: 'platform_a (default), platform_b or platform_c' }) platform?: string,
    @Arg('status', Str, { nullable: true, description: 'current (default) or past' }) status?: string,
    @Arg('limit', () => Int, opt) limit?: number,
    @Arg('offset', () => Int, opt) offset?: number,
  ): Promise<ArtistPlaylistsResult> {
    const viewer = requireViewer(ctx.viewer);
    const input = validate(artistPlaylistsInput, withoutNulls({ artist, platform, status, limit, offset }));
    return { status: ResultStatus.success, playlists: await researchService(ctx).artistPlaylists(viewer, input) };
  }

  @Authorized()
  @Extensions(PROVIDER_CALL)
  @Query(() => PlatformSearchResult, { description: 'Search the platform_a catalog (GET /api/platform_a/search)' })
  platformASearch(
    @Ctx() ctx: Context,
    @Arg('q', Str, { description: 'search keywords with optional field filters' }) q: string,
    @Arg('type', Str, { description: 'comma-separated: album, artist, playlist, track, show, episode, audiobook' }) type: string,
    @Arg('market', Str, { nullable: true, description: 'ISO 3166-1 alpha-2 code or from_token' }) market?: string,
    @Arg('limit', () => Int, { nullable: true, description: '1-50, default 20' }) limit?: number,
    @Arg('offset', () => Int, { nullable: true, description: '0-10000, default 0' }) offset?: number,
  ): Promise<PlatformSearchResult> {
    return researchService(ctx).platformSearch(requireViewer(ctx.viewer), validate(platformSearchInput, withoutNulls({ q, type, market, limit, offset })));
  }

  @Authorized()
  @Query(() => ResearchArtist, { description: 'An artist of the music intelligence provider, to compose its tracks (with stats) and playlists (with curators) in one request' })
  researchArtist(@Arg('id', () => ID, { description: 'artist id (digits) from discover or search' }) id: string): ResearchArtist {
    return { id };
  }
}

@Resolver(() => ResearchArtist)
export class ResearchArtistResolver {
  @Extensions(PROVIDER_CALL)
  @FieldResolver(() => ResearchArtistProfile, { description: 'Name, image and the latest listener and follower figures the provider has for the artist' })
  profile(@Root() artist: ResearchArtist, @Ctx() ctx: Context): Promise<ResearchArtistProfile> {
    return researchService(ctx).artistProfile(requireViewer(ctx.viewer), validate(artistInput, { artist: artist.id }));
  }

  @Extensions(PROVIDER_CALL)
  @FieldResolver(() => [ResearchTrack])
  tracks(@Root() artist: ResearchArtist, @Ctx() ctx: Context, @Arg('limit', () => Int, opt) limit?: number, @Arg('offset', () => Int, opt) offset?: number) {
    return researchService(ctx).artistTracks(requireViewer(ctx.viewer), validate(artistTracksInput, withoutNulls({ artist: artist.id, limit, offset })));
  }

  @Extensions(PROVIDER_CALL)
  @FieldResolver(() => [ResearchPlaylist])
  playlists(
    @Root() artist: ResearchArtist,
    @Ctx() ctx: Context,
    @Arg('platform', Str, { nullable: true, description: 'platform_a (default), platform_b or platform_c' }) platform?: string,
    @Arg('status', Str, { nullable: true, description: 'current (default) or past' }) status?: string,
    @Arg('limit', () => Int, opt) limit?: number,
    @Arg('offset', () => Int, opt) offset?: number,
  ) {
    const viewer = requireViewer(ctx.viewer);
    return researchService(ctx).artistPlaylists(viewer, validate(artistPlaylistsInput, withoutNulls({ artist: artist.id, platform, status, limit, offset })));
  }
}

@Resolver(() => ResearchTrack)
export class ResearchTrackResolver {
  @FieldResolver(() => Song, { nullable: true, description: 'The catalog song with this ISRC, when a catalog you reach holds it; null otherwise (or without an ISRC)' })
  song(@Root() track: ResearchTrack, @Ctx() ctx: Context): Promise<Song | null> | null {
    return track.isrc ? reachableSong(ctx, track.isrc) : null;
  }

  @Extensions(PROVIDER_BATCH)
  @FieldResolver(() => TrackStatsResult, { nullable: true, description: 'Statistics of this track by its ISRC; null when the track has no ISRC. Batched across the tracks of a request, like Song.stats' })
  stats(
    @Root() track: ResearchTrack,
    @Ctx() ctx: Context,
    @Arg('source', Str, { description: 'comma-separated platform_a … platform_d, or all' }) source: string,
    @Arg('with_playlists', () => Boolean, opt) with_playlists?: boolean,
    @Arg('with_charts', () => Boolean, opt) with_charts?: boolean,
    @Arg('only_current', () => Boolean, opt) only_current?: boolean,
  ) {
    if (!track.isrc) return null;
    const viewer = requireViewer(ctx.viewer);
    return batchedTrackStats(ctx, viewer, validate(trackStatsInput, { ...withoutNulls({ source, with_playlists, with_charts, only_current }), isrc: track.isrc }));
  }
}

@Resolver(() => ResearchPlaylist)
export class ResearchPlaylistResolver {
  @FieldResolver(() => Song, { nullable: true, description: 'The catalog song placed on the playlist, when a catalog you reach holds its ISRC; null otherwise' })
  song(@Root() playlist: ResearchPlaylist, @Ctx() ctx: Context): Promise<Song | null> | null {
    return playlist.isrc ? reachableSong(ctx, playlist.isrc) : null;
  }

  @Extensions(PROVIDER_CALL)
  @FieldResolver(() => CuratorProfile, { nullable: true, description: "The playlist's curator; null when the provider names none" })
  curator(@Root() playlist: ResearchPlaylist, @Ctx() ctx: Context) {
    if (!playlist.curator_id) return null;
    return researchService(ctx).curator(requireViewer(ctx.viewer), validate(curatorInput, { platform: playlist.platform, id: playlist.curator_id }));
  }
}

@Resolver(() => Song)
export class SongResearchResolver {
  @Extensions(PROVIDER_BATCH)
  @FieldResolver(() => TrackStatsResult, {
    nullable: true,
    description: "Statistics of the song's ISRC, as GET /api/research/track/stats answers them; batched across the songs of a request. A provider failure is this field's error (null), not the query's",
  })
  stats(@Root() song: Song, @Ctx() ctx: Context, @Args() args: TrackStatsOptions): Promise<TrackStatsResult> {
    return batchedTrackStats(ctx, requireViewer(ctx.viewer), validate(trackStatsInput, { ...withoutNulls({ ...args }), isrc: song.isrc }));
  }
}
