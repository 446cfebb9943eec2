import { GraphQLJSONObject } from 'graphql-scalars';
import { Arg, Args, ArgsType, Authorized, Ctx, Extensions, Field, FieldResolver, ID, Int, Query, Resolver, Root } from 'type-graphql';
import { LIST_BOUNDS, maxItems } from '../../common/bounds';
import { requireViewer } from '../../auth/access';
import { describe, validate, withoutNulls } from '../../common/validation';
import type { Context } from '../../graphql/context';
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
  trackStats(@Ctx() ctx: Context, @Arg('input', () => TrackStatsQueryInput) input: TrackStatsQueryInput): Promise<TrackStats> {
    return researchService(ctx).trackStats(requireViewer(ctx.viewer), validate(trackStatsInput, withoutNulls({ ...input })));
  }

  @Authorized()
  @Extensions(PROVIDER_CALL)
  @Extensions(maxItems(RESEARCH_DEFAULT_ITEMS))
  @Query(() => [DiscoveredArtist], { nullable: true, description: 'Artists filtered by country, genre and monthly listeners' })
  discover(@Ctx() ctx: Context, @Arg('input', () => DiscoverQueryInput, { nullable: true }) input?: DiscoverQueryInput | null): Promise<DiscoveredArtist[]> {
    return researchService(ctx).discover(requireViewer(ctx.viewer), validate(discoverInput, withoutNulls({ ...input })));
  }

  @Authorized()
  @Extensions(PROVIDER_CALL)
  @Query(() => CuratorProfile, { nullable: true, description: 'A playlist curator profile' })
  curator(
    @Ctx() ctx: Context,
    @Arg('platform', Str, { description: describe(curatorInput, 'platform') }) platform: string,
    @Arg('id', Str, { description: describe(curatorInput, 'id') }) id: string,
  ): Promise<CuratorProfile> {
    return researchService(ctx).curator(requireViewer(ctx.viewer), validate(curatorInput, withoutNulls({ platform, id })));
  }

  @Authorized()
  @Extensions(PROVIDER_CALL)
  @Extensions(maxItems(LIST_BOUNDS.researchGenres))
  @Query(() => [ResearchGenre], { nullable: true, description: 'Genre ids for the discover filter' })
  researchGenres(@Ctx() ctx: Context): Promise<ResearchGenre[]> {
    return researchService(ctx).genres(requireViewer(ctx.viewer));
  }

  @Authorized()
  @Extensions(PROVIDER_CALL)
  @Query(() => GraphQLJSONObject, { nullable: true,
    description:
      'Search the music intelligence provider: matches by kind (artists, tracks, playlists, curators, …), as the provider sends them with neutral platform names; type=curators with beta=true finds curator ids',
  })
  researchSearch(@Ctx() ctx: Context, @Arg('input', () => ResearchSearchQueryInput) input: ResearchSearchQueryInput): Promise<Record<string, unknown>> {
    return researchService(ctx).search(requireViewer(ctx.viewer), validate(researchSearchInput, withoutNulls({ ...input })));
  }

  @Authorized()
  @Extensions(PROVIDER_CALL)
  @Extensions(maxItems(RESEARCH_DEFAULT_ITEMS))
  @Query(() => [ResearchTrack], { nullable: true, description: "An artist's tracks" })
  researchTracks(@Ctx() ctx: Context, @Arg('input', () => ResearchTracksQueryInput) input: ResearchTracksQueryInput): Promise<ResearchTrack[]> {
    return researchService(ctx).artistTracks(requireViewer(ctx.viewer), validate(artistTracksInput, withoutNulls({ ...input })));
  }

  @Authorized()
  @Extensions(PROVIDER_CALL)
  @Extensions(maxItems(RESEARCH_DEFAULT_ITEMS))
  @Query(() => [ResearchPlaylist], { nullable: true, description: "An artist's playlist placements" })
  researchPlaylists(@Ctx() ctx: Context, @Arg('input', () => ResearchPlaylistsQueryInput) input: ResearchPlaylistsQueryInput): Promise<ResearchPlaylist[]> {
    return researchService(ctx).artistPlaylists(requireViewer(ctx.viewer), validate(artistPlaylistsInput, withoutNulls({ ...input })));
  }

  @Authorized()
  @Extensions(PROVIDER_CALL)
  @Query(() => PlatformSearchResult, { nullable: true, description: 'Search the platform_a catalog' })
  platformASearch(@Ctx() ctx: Context, @Arg('input', () => PlatformASearchQueryInput) input: PlatformASearchQueryInput): Promise<PlatformSearchResult> {
    return researchService(ctx).platformSearch(requireViewer(ctx.viewer), validate(platformSearchInput, withoutNulls({ ...input })));
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
  profile(@Root() artist: ResearchArtist, @Ctx() ctx: Context): Promise<ResearchArtistProfile> {
    return researchService(ctx).artistProfile(requireViewer(ctx.viewer), validate(artistInput, { artist: artist.id }));
  }

  @Extensions(PROVIDER_CALL)
  @Extensions(maxItems(RESEARCH_DEFAULT_ITEMS))
  @FieldResolver(() => [ResearchTrack], { nullable: true, description: 'Tracks of the artist, `limit` of them from `offset`, as the provider orders them; null (with its error) when the provider fails' })
  tracks(@Root() artist: ResearchArtist, @Ctx() ctx: Context, @Arg('limit', () => Int, { ...opt, description: describe(artistTracksInput, 'limit') }) limit?: number, @Arg('offset', () => Int, { ...opt, description: describe(artistTracksInput, 'offset') }) offset?: number) {
    return researchService(ctx).artistTracks(requireViewer(ctx.viewer), validate(artistTracksInput, withoutNulls({ artist: artist.id, limit, offset })));
  }

  @Extensions(PROVIDER_CALL)
  @Extensions(maxItems(RESEARCH_DEFAULT_ITEMS))
  @FieldResolver(() => [ResearchPlaylist], { nullable: true, description: 'Playlist placements of the artist, `limit` of them from `offset`, as the provider orders them; null (with its error) when the provider fails' })
  playlists(
    @Root() artist: ResearchArtist,
    @Ctx() ctx: Context,
    @Arg('platform', Str, { nullable: true, description: 'platform_a (default), platform_b or platform_c' }) platform?: string,
    @Arg('status', Str, { nullable: true, description: 'current (default) or past' }) status?: string,
    @Arg('limit', () => Int, { ...opt, description: describe(artistPlaylistsInput, 'limit') }) limit?: number,
    @Arg('offset', () => Int, { ...opt, description: describe(artistPlaylistsInput, 'offset') }) offset?: number,
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
  @FieldResolver(() => TrackStats, { nullable: true, description: 'Statistics of this track by its ISRC; null when the track has no ISRC. Batched across the tracks of a request, like Song.stats' })
  stats(
    @Root() track: ResearchTrack,
    @Ctx() ctx: Context,
    @Arg('source', Str, { description: describe(trackStatsInput, 'source') }) source: string,
    @Arg('withPlaylists', () => Boolean, { ...opt, description: describe(trackStatsInput, 'with_playlists') }) withPlaylists?: boolean,
    @Arg('withCharts', () => Boolean, { ...opt, description: describe(trackStatsInput, 'with_charts') }) withCharts?: boolean,
    @Arg('onlyCurrent', () => Boolean, { ...opt, description: describe(trackStatsInput, 'only_current') }) onlyCurrent?: boolean,
  ) {
    if (!track.isrc) return null;
    const viewer = requireViewer(ctx.viewer);
    return batchedTrackStats(ctx, viewer, validate(trackStatsInput, { ...withoutNulls({ source, withPlaylists, withCharts, onlyCurrent }), isrc: track.isrc }));
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
  @FieldResolver(() => TrackStats, {
    nullable: true,
    description: "Statistics of the song's ISRC, as Query.trackStats answers them; batched across the songs of a request. A provider failure is this field's error (null), not the query's",
  })
  stats(@Root() song: Song, @Ctx() ctx: Context, @Args() args: TrackStatsOptions): Promise<TrackStats> {
    return batchedTrackStats(ctx, requireViewer(ctx.viewer), validate(trackStatsInput, { ...withoutNulls({ ...args }), isrc: song.isrc }));
  }
}
