import { GraphQLJSONObject } from 'graphql-scalars';
import { Arg, Args, ArgsType, Authorized, Ctx, Extensions, Field, FieldResolver, ID, Int, Query, Resolver, Root } from 'type-graphql';
import { LIST_BOUNDS, maxItems } from '../../common/bounds';
import { describe, withoutNulls } from '../../common/validation';
import type { Context } from '../../request/context';
import type { Viewer } from '../../auth/viewer';
import { CurrentViewer, type Parsed, ParsedArgs, ParsedInput } from '../../graphql/params';
import { PROVIDER_BATCH, PROVIDER_CALL } from '../../graphql/cost';
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
  CuratorProfile,
  DiscoveredArtist,
  DiscoverQueryInput,
  PlatformASearchQueryInput,
  PlatformSearchResult,
  ResearchArtist,
  ResearchArtistProfile,
  ResearchGenre,
  ResearchPlaylist,
  ResearchPlaylistsQueryInput,
  ResearchSearchQueryInput,
  ResearchTrack,
  ResearchTracksQueryInput,
  TrackStats,
  TrackStatsQueryInput,
} from './research.types';

const Str = () => String;
const opt = { nullable: true } as const;
/** Items a provider list answers without a `limit` (each research list's default, research.inputs.ts): what the cost model weighs it as. */
const RESEARCH_DEFAULT_ITEMS = 20;

/** What to report of a song's statistics (Song.stats): Query.trackStats takes the same options in its input. */
@ArgsType()
export class TrackStatsOptions {
  @Field(Str, { description: describe(trackStatsInput, 'source') }) source!: string;
  @Field(() => Boolean, { ...opt, description: describe(trackStatsInput, 'with_playlists') }) withPlaylists?: boolean;
  @Field(() => Boolean, { ...opt, description: describe(trackStatsInput, 'with_charts') }) withCharts?: boolean;
  @Field(() => Boolean, { ...opt, description: describe(trackStatsInput, 'with_stations') }) withStations?: boolean;
  @Field(() => Boolean, { ...opt, description: describe(trackStatsInput, 'with_videos') }) withVideos?: boolean;
  @Field(() => Boolean, { nullable: true, description: describe(trackStatsInput, 'with_links') }) withLinks?: boolean;
  @Field(() => Boolean, { ...opt, description: describe(trackStatsInput, 'only_current') }) onlyCurrent?: boolean;
  @Field(() => Int, { nullable: true, description: describe(trackStatsInput, 'limit') }) limit?: number;
  @Field(() => Int, { nullable: true, description: describe(trackStatsInput, 'offset') }) offset?: number;
}

@Resolver()
export class ResearchResolver {
  @Authorized()
  @Extensions(PROVIDER_CALL)
  @Query(() => TrackStats, { nullable: true, description: 'Per-track statistics across sources; exactly one track identifier' })
  trackStats(@Ctx() ctx: Context, @CurrentViewer() viewer: Viewer, @ParsedInput(() => TrackStatsQueryInput, trackStatsInput) input: Parsed<typeof trackStatsInput>): Promise<TrackStats> {
    return researchService(ctx).trackStats(viewer, input);
  }

  @Authorized()
  @Extensions(PROVIDER_CALL)
  @Extensions(maxItems(RESEARCH_DEFAULT_ITEMS))
  @Query(() => [DiscoveredArtist], { nullable: true, description: 'Artists filtered by country, genre and monthly listeners' })
  discover(@Ctx() ctx: Context, @CurrentViewer() viewer: Viewer, @ParsedInput(() => DiscoverQueryInput, discoverInput, { nullable: true }) input: Parsed<typeof discoverInput>): Promise<DiscoveredArtist[]> {
    return researchService(ctx).discover(viewer, input);
  }

  @Authorized()
  @Extensions(PROVIDER_CALL)
  @Query(() => CuratorProfile, { nullable: true, description: 'A playlist curator profile' })
  curator(
    @Ctx() ctx: Context,
    @CurrentViewer() viewer: Viewer,
    @ParsedArgs(curatorInput, ['platform', 'id']) input: Parsed<typeof curatorInput>,
    @Arg('platform', Str, { description: describe(curatorInput, 'platform') }) _platform: string,
    @Arg('id', Str, { description: describe(curatorInput, 'id') }) _id: string,
  ): Promise<CuratorProfile> {
    return researchService(ctx).curator(viewer, input);
  }

  @Authorized()
  @Extensions(PROVIDER_CALL)
  @Extensions(maxItems(LIST_BOUNDS.researchGenres))
  @Query(() => [ResearchGenre], { nullable: true, description: 'Genre ids for the discover filter' })
  researchGenres(@Ctx() ctx: Context, @CurrentViewer() viewer: Viewer): Promise<ResearchGenre[]> {
    return researchService(ctx).genres(viewer);
  }

  @Authorized()
  @Extensions(PROVIDER_CALL)
  @Query(() => GraphQLJSONObject, { nullable: true,
    description:
      'Search the music intelligence provider: matches by kind (artists, tracks, playlists, curators, …), as the provider sends them with neutral platform names; type=curators with beta=true finds curator ids',
  })
  researchSearch(@Ctx() ctx: Context, @CurrentViewer() viewer: Viewer, @ParsedInput(() => ResearchSearchQueryInput, researchSearchInput) input: Parsed<typeof researchSearchInput>): Promise<Record<string, unknown>> {
    return researchService(ctx).search(viewer, input);
  }

  @Authorized()
  @Extensions(PROVIDER_CALL)
  @Extensions(maxItems(RESEARCH_DEFAULT_ITEMS))
  @Query(() => [ResearchTrack], { nullable: true, description: "An artist's tracks" })
  researchTracks(@Ctx() ctx: Context, @CurrentViewer() viewer: Viewer, @ParsedInput(() => ResearchTracksQueryInput, artistTracksInput) input: Parsed<typeof artistTracksInput>): Promise<ResearchTrack[]> {
    return researchService(ctx).artistTracks(viewer, input);
  }

  @Authorized()
  @Extensions(PROVIDER_CALL)
  @Extensions(maxItems(RESEARCH_DEFAULT_ITEMS))
  @Query(() => [ResearchPlaylist], { nullable: true, description: "An artist's playlist placements" })
  researchPlaylists(@Ctx() ctx: Context, @CurrentViewer() viewer: Viewer, @ParsedInput(() => ResearchPlaylistsQueryInput, artistPlaylistsInput) input: Parsed<typeof artistPlaylistsInput>): Promise<ResearchPlaylist[]> {
    return researchService(ctx).artistPlaylists(viewer, input);
  }

  @Authorized()
  @Extensions(PROVIDER_CALL)
  @Query(() => PlatformSearchResult, { nullable: true, description: 'Search the platform_a catalog' })
  platformASearch(@Ctx() ctx: Context, @CurrentViewer() viewer: Viewer, @ParsedInput(() => PlatformASearchQueryInput, platformSearchInput) input: Parsed<typeof platformSearchInput>): Promise<PlatformSearchResult> {
    return researchService(ctx).platformSearch(viewer, input);
  }

  @Authorized()
  @Query(() => ResearchArtist, { nullable: true, description: 'An artist of the music intelligence provider, to compose its tracks (with stats) and playlists (with curators) in one request' })
  researchArtist(@Arg('id', () => ID, { description: 'artist id (digits) from discover or search' }) id: string): ResearchArtist {
    return { id };
  }
}

@Resolver(() => ResearchArtist)
export class ResearchArtistResolver {
  @Extensions(PROVIDER_CALL)
  @FieldResolver(() => ResearchArtistProfile, { nullable: true, description: 'Name, image and the latest listener and follower figures the provider has for the artist; null (with its error) when the provider fails' })
  profile(
    @Ctx() ctx: Context,
    @CurrentViewer() viewer: Viewer,
    @ParsedArgs(artistInput, ({ root }: { root: ResearchArtist }) => ({ artist: root.id })) input: Parsed<typeof artistInput>,
  ): Promise<ResearchArtistProfile> {
    return researchService(ctx).artistProfile(viewer, input);
  }

  @Extensions(PROVIDER_CALL)
  @Extensions(maxItems(RESEARCH_DEFAULT_ITEMS))
  @FieldResolver(() => [ResearchTrack], { nullable: true, description: 'Tracks of the artist, `limit` of them from `offset`, as the provider orders them; null (with its error) when the provider fails' })
  tracks(
    @Ctx() ctx: Context,
    @CurrentViewer() viewer: Viewer,
    @ParsedArgs(artistTracksInput, ({ args, root }: { args: Record<string, unknown>; root: ResearchArtist }) => withoutNulls({ artist: root.id, limit: args.limit, offset: args.offset }))
    input: Parsed<typeof artistTracksInput>,
    @Arg('limit', () => Int, { ...opt, description: describe(artistTracksInput, 'limit') }) _limit?: number,
    @Arg('offset', () => Int, { ...opt, description: describe(artistTracksInput, 'offset') }) _offset?: number,
  ) {
    return researchService(ctx).artistTracks(viewer, input);
  }

  @Extensions(PROVIDER_CALL)
  @Extensions(maxItems(RESEARCH_DEFAULT_ITEMS))
  @FieldResolver(() => [ResearchPlaylist], { nullable: true, description: 'Playlist placements of the artist, `limit` of them from `offset`, as the provider orders them; null (with its error) when the provider fails' })
  playlists(
    @Ctx() ctx: Context,
    @CurrentViewer() viewer: Viewer,
    @ParsedArgs(artistPlaylistsInput, ({ args, root }: { args: Record<string, unknown>; root: ResearchArtist }) =>
      withoutNulls({ artist: root.id, platform: args.platform, status: args.status, limit: args.limit, offset: args.offset }),
    )
    input: Parsed<typeof artistPlaylistsInput>,
    @Arg('platform', Str, { nullable: true, description: 'platform_a (default), platform_b or platform_c' }) _platform?: string,
    @Arg('status', Str, { nullable: true, description: 'current (default) or past' }) _status?: string,
    @Arg('limit', () => Int, { ...opt, description: describe(artistPlaylistsInput, 'limit') }) _limit?: number,
    @Arg('offset', () => Int, { ...opt, description: describe(artistPlaylistsInput, 'offset') }) _offset?: number,
  ) {
    return researchService(ctx).artistPlaylists(viewer, input);
  }
}

@Resolver(() => ResearchTrack)
export class ResearchTrackResolver {
  @FieldResolver(() => Song, { nullable: true, description: 'The catalog song with this ISRC, when a catalog you reach holds it; null otherwise (or without an ISRC)' })
  song(@Root() track: ResearchTrack, @Ctx() ctx: Context, @CurrentViewer() viewer: Viewer): Promise<Song | null> | null {
    return track.isrc ? reachableSong(ctx, viewer, track.isrc) : null;
  }

  @Extensions(PROVIDER_BATCH)
  @FieldResolver(() => TrackStats, { nullable: true, description: 'Statistics of this track by its ISRC; null when the track has no ISRC. Batched across the tracks of a request, like Song.stats' })
  stats(
    @Ctx() ctx: Context,
    @CurrentViewer() viewer: Viewer,
    // A track without an ISRC has no statistics: nothing to parse, the field is null.
    @ParsedArgs(trackStatsInput, ({ args, root }: { args: Record<string, unknown>; root: ResearchTrack }) => (root.isrc ? { ...withoutNulls(args), isrc: root.isrc } : null))
    input: Parsed<typeof trackStatsInput> | null,
    @Arg('source', Str, { description: describe(trackStatsInput, 'source') }) _source: string,
    @Arg('withPlaylists', () => Boolean, { ...opt, description: describe(trackStatsInput, 'with_playlists') }) _withPlaylists?: boolean,
    @Arg('withCharts', () => Boolean, { ...opt, description: describe(trackStatsInput, 'with_charts') }) _withCharts?: boolean,
    @Arg('onlyCurrent', () => Boolean, { ...opt, description: describe(trackStatsInput, 'only_current') }) _onlyCurrent?: boolean,
  ) {
    return input && batchedTrackStats(ctx, viewer, input);
  }
}

@Resolver(() => ResearchPlaylist)
export class ResearchPlaylistResolver {
  @FieldResolver(() => Song, { nullable: true, description: 'The catalog song placed on the playlist, when a catalog you reach holds its ISRC; null otherwise' })
  song(@Root() playlist: ResearchPlaylist, @Ctx() ctx: Context, @CurrentViewer() viewer: Viewer): Promise<Song | null> | null {
    return playlist.isrc ? reachableSong(ctx, viewer, playlist.isrc) : null;
  }

  @Extensions(PROVIDER_CALL)
  @FieldResolver(() => CuratorProfile, { nullable: true, description: "The playlist's curator; null when the provider names none" })
  curator(
    @Ctx() ctx: Context,
    @CurrentViewer() viewer: Viewer,
    // A playlist without a curator: nothing to parse, the field is null.
    @ParsedArgs(curatorInput, ({ root }: { root: ResearchPlaylist }) => (root.curator_id ? { platform: root.platform, id: root.curator_id } : null)) input: Parsed<typeof curatorInput> | null,
  ) {
    return input && researchService(ctx).curator(viewer, input);
  }
}

@Resolver(() => Song)
export class SongResearchResolver {
  @Extensions(PROVIDER_BATCH)
  @FieldResolver(() => TrackStats, {
    nullable: true,
    description: "Statistics of the song's ISRC, as Query.trackStats answers them; batched across the songs of a request. A provider failure is this field's error (null), not the query's",
  })
  stats(
    @Ctx() ctx: Context,
    @CurrentViewer() viewer: Viewer,
    @ParsedArgs(trackStatsInput, ({ args, root }: { args: Record<string, unknown>; root: Song }) => ({ ...withoutNulls(args), isrc: root.isrc })) input: Parsed<typeof trackStatsInput>,
    @Args() _args: TrackStatsOptions,
  ): Promise<TrackStats> {
    return batchedTrackStats(ctx, viewer, input);
  }
}
