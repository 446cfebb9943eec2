import { GraphQLJSONObject } from 'graphql-scalars';
import { Extensions, Field, Float, ID, InputType, Int, ObjectType } from 'type-graphql';
import { LIST_BOUNDS, maxItems } from '../../common/bounds';
import { PLATFORMS } from '../../providers/platforms';
import { describe } from '../../common/validation';
import { artistPlaylistsInput, artistTracksInput, discoverInput, platformSearchInput, researchSearchInput, trackStatsInput } from './research.inputs';

/*
 * The research graph: a track's statistics, the discovery list, curators, genres, an artist's
 * tracks (with stats and the catalog song) and playlist placements (with curators), platform_a
 * search. Query.researchArtist composes an artist's tracks and playlists in one request.
 */

@ObjectType({ description: 'Statistics of a track on one source' })
export class TrackStatsRecord {
  @Field({ description: 'platform_a … platform_d' })
  source!: string;

  @Field(() => GraphQLJSONObject, { description: 'Integer counters (streams_total, popularity_current, …); playlists[] and charts[] when requested' })
  data!: Record<string, unknown>;

  @Field({ description: '`provider` when fetched for this request, `stored` when served from stored data' })
  data_source!: string;

  @Field({ description: 'When the provider produced these figures' })
  captured_at!: Date;
}

@ObjectType({ description: 'A named party' })
export class NamedRef {
  @Field()
  name!: string;
}

@ObjectType({ description: 'A collaborator on a track' })
export class TrackCollaborator {
  @Field()
  name!: string;

  @Extensions(maxItems(LIST_BOUNDS.providerItems))
  @Field(() => [String])
  roles!: string[];
}

@ObjectType({ description: 'The track on another platform' })
export class TrackLink {
  @Field()
  source!: string;

  @Field(() => String, { nullable: true })
  external_id!: string | null;

  @Field(() => String, { nullable: true })
  url!: string | null;

  @Field(() => String, { nullable: true })
  isrc!: string | null;
}

@ObjectType({ description: 'What the statistics provider knows about the track' })
export class TrackInfo {
  @Field(() => String, { nullable: true })
  stats_track_id!: string | null;

  @Field(() => String, { nullable: true })
  title!: string | null;

  @Field(() => String, { nullable: true })
  avatar!: string | null;

  @Field(() => String, { nullable: true })
  site_url!: string | null;

  @Field(() => String, { nullable: true })
  release_date!: string | null;

  @Extensions(maxItems(LIST_BOUNDS.providerItems))
  @Field(() => [NamedRef])
  artists!: NamedRef[];

  @Field(() => Boolean, { nullable: true })
  is_remix!: boolean | null;

  @Extensions(maxItems(LIST_BOUNDS.providerItems))
  @Field(() => [TrackCollaborator])
  collaborators!: TrackCollaborator[];

  @Extensions(maxItems(LIST_BOUNDS.providerItems))
  @Field(() => [GraphQLJSONObject])
  labels!: Record<string, unknown>[];

  @Extensions(maxItems(LIST_BOUNDS.providerItems))
  @Field(() => [NamedRef])
  distributors!: NamedRef[];

  @Extensions(maxItems(LIST_BOUNDS.providerItems))
  @Field(() => [String])
  genres!: string[];

  @Extensions(maxItems(LIST_BOUNDS.providerItems))
  @Field(() => [TrackLink])
  links!: TrackLink[];
}

@ObjectType('TrackStats', {
  description:
    "Statistics of a track across sources. When every requested source is served from stored data it holds only result and stats; the provider's status, message, track_info and source_ids come with a provider answer.",
})
export class TrackStats {
  @Field(() => String, { nullable: true, description: '`success` when the provider was called for this answer; null when every source was served from stored data' })
  provider_status?: string | null;

  @Field({ description: "The provider's result" })
  result!: string;

  @Field(() => String, { nullable: true })
  message?: string | null;

  // One per requested source, each a known platform (research.inputs.ts sourceList).
  @Extensions(maxItems(PLATFORMS.length))
  @Field(() => [TrackStatsRecord], { description: 'One entry per requested source the provider has' })
  stats!: TrackStatsRecord[];

  @Field(() => TrackInfo, { nullable: true })
  track_info?: TrackInfo | null;

  @Extensions(maxItems(LIST_BOUNDS.providerItems))
  @Field(() => [String], { nullable: true, description: 'Every source tracked for the recording' })
  source_ids?: string[] | null;
}

@ObjectType({ description: 'An artist of the discovery list' })
export class DiscoveredArtist {
  @Field()
  name!: string;

  @Field(() => Int, { description: 'The research artist id (Query.researchArtist, researchTracks, researchPlaylists)' })
  id!: number;

  @Field(() => Int, { nullable: true })
  sp_monthly_listeners!: number | null;

  @Field(() => Int, { nullable: true })
  sp_followers!: number | null;

  @Field(() => Int, { nullable: true })
  tiktok_followers!: number | null;

  @Field(() => Int, { nullable: true })
  ins_followers!: number | null;

  @Field(() => String, { nullable: true })
  country!: string | null;
}

@ObjectType({ description: 'A playlist curator profile' })
export class CuratorProfile {
  @Field(() => ID, { description: "The data provider's curator id (digits)" })
  id!: string;

  @Field({ description: 'platform_a, platform_b or platform_c' })
  platform!: string;

  @Field(() => String, { nullable: true, description: 'The curator id on the platform itself' })
  platform_curator_id!: string | null;

  @Field(() => String, { nullable: true })
  name!: string | null;

  @Field(() => String, { nullable: true })
  image_url!: string | null;

  @Field(() => String, { nullable: true })
  description!: string | null;

  @Field(() => Int, { nullable: true, description: 'Followers on the platform' })
  followers!: number | null;

  @Field(() => Int, { nullable: true })
  instagram_followers!: number | null;

  @Field(() => Int, { nullable: true })
  facebook_followers!: number | null;

  @Field(() => Int, { nullable: true })
  twitter_followers!: number | null;

  @Field(() => Int, { nullable: true })
  youtube_subscribers!: number | null;

  @Field(() => Int, { nullable: true })
  soundcloud_followers!: number | null;

  @Field(() => Int, { nullable: true })
  tiktok_followers!: number | null;

  @Field(() => GraphQLJSONObject, { nullable: true, description: 'Aggregated signals: playlist reach, editorial counts, velocity deltas' })
  cm_statistics!: Record<string, unknown> | null;

  @Field(() => String, { nullable: true, description: 'ISO time of the last provider sync' })
  last_synced_at!: string | null;

  @Field(() => Float, { nullable: true, description: 'Lower is better' })
  suspicion_score!: number | null;

  @Field(() => GraphQLJSONObject, { nullable: true, description: 'Social URLs linked from the platform_a profile, by network' })
  social_urls!: Record<string, unknown> | null;

  @Field()
  captured_at!: Date;
}

@ObjectType({ description: 'A genre of the music intelligence provider' })
export class ResearchGenre {
  @Field(() => Int)
  id!: number;

  @Field()
  name!: string;
}

@ObjectType({ description: 'A track of a research artist; `stats` fetches its statistics, `song` is the catalog song with its ISRC' })
export class ResearchTrack {
  @Field(() => ID)
  id!: string;

  @Field()
  name!: string;

  @Field(() => String, { nullable: true })
  isrc!: string | null;

  @Extensions(maxItems(LIST_BOUNDS.providerItems))
  @Field(() => [String])
  artist_names!: string[];

  @Field(() => String, { nullable: true })
  album_name!: string | null;

  @Field(() => String, { nullable: true })
  release_date!: string | null;

  @Field(() => String, { nullable: true })
  image_url!: string | null;
}

@ObjectType({ description: 'A playlist placement of a research artist; `curator` is its curator profile, `song` the catalog song placed' })
export class ResearchPlaylist {
  @Field(() => ID)
  id!: string;

  @Field()
  name!: string;

  @Field({ description: 'platform_a, platform_b or platform_c' })
  platform!: string;

  @Field(() => String, { nullable: true, description: 'Curator id for Query.curator' })
  curator_id!: string | null;

  @Field(() => String, { nullable: true })
  curator_name!: string | null;

  @Field(() => Int, { nullable: true })
  followers!: number | null;

  @Field(() => String, { nullable: true })
  track_name!: string | null;

  @Field(() => String, { nullable: true })
  isrc!: string | null;

  @Field(() => Int, { nullable: true })
  position!: number | null;

  @Field(() => String, { nullable: true })
  added_at!: string | null;
}

@ObjectType({ description: 'An image of a platform_a item' })
export class PlatformImage {
  @Field()
  url!: string;

  @Field(() => Int, { nullable: true })
  height!: number | null;

  @Field(() => Int, { nullable: true })
  width!: number | null;
}

@ObjectType({ description: 'Links to the item on the platform' })
export class PlatformExternalUrls {
  @Field(() => String, { nullable: true })
  platform_a!: string | null;
}

@ObjectType({ description: 'Follower count of a platform_a artist' })
export class PlatformFollowers {
  @Field(() => String, { nullable: true })
  href!: string | null;

  @Field(() => Int)
  total!: number;
}

@ObjectType({ description: 'A platform_a artist search item' })
export class PlatformArtist {
  @Field(() => PlatformExternalUrls)
  external_urls!: PlatformExternalUrls;

  @Field(() => PlatformFollowers)
  followers!: PlatformFollowers;

  @Extensions(maxItems(LIST_BOUNDS.providerItems))
  @Field(() => [String])
  genres!: string[];

  @Field()
  href!: string;

  @Field()
  id!: string;

  @Extensions(maxItems(LIST_BOUNDS.providerItems))
  @Field(() => [PlatformImage])
  images!: PlatformImage[];

  @Field()
  name!: string;

  @Field(() => Int)
  popularity!: number;

  @Field()
  type!: string;

  @Field()
  uri!: string;
}

/**
 * platform_a's own result container, passed on as the provider answers it (href, limit, offset,
 * next, previous, total): not one of the graph's pages (XPage), so it is not named like one.
 */
@ObjectType('PlatformArtistResults', { description: "platform_a's artists matching a search, in platform_a's own result container (one request's worth, at most its limit)" })
export class PlatformArtistsPage {
  @Field()
  href!: string;

  // Sized by platformASearch's `limit` (its envelope); 20 without one.
  @Extensions(maxItems(20))
  @Field(() => [PlatformArtist])
  items!: PlatformArtist[];

  @Field(() => Int)
  limit!: number;

  @Field(() => String, { nullable: true })
  next!: string | null;

  @Field(() => Int)
  offset!: number;

  @Field(() => String, { nullable: true })
  previous!: string | null;

  @Field(() => Int)
  total!: number;
}

@ObjectType({ description: 'Matches of a platform_a catalog search: one member per requested type' })
export class PlatformSearchResult {
  @Field(() => PlatformArtistsPage, { nullable: true })
  artists?: PlatformArtistsPage | null;

  @Field(() => GraphQLJSONObject, { nullable: true })
  albums?: Record<string, unknown> | null;

  @Field(() => GraphQLJSONObject, { nullable: true })
  tracks?: Record<string, unknown> | null;

  @Field(() => GraphQLJSONObject, { nullable: true })
  playlists?: Record<string, unknown> | null;

  @Field(() => GraphQLJSONObject, { nullable: true })
  shows?: Record<string, unknown> | null;

  @Field(() => GraphQLJSONObject, { nullable: true })
  episodes?: Record<string, unknown> | null;

  @Field(() => GraphQLJSONObject, { nullable: true })
  audiobooks?: Record<string, unknown> | null;
}

@ObjectType({ description: "A research artist's metadata and latest audience figures, as the music intelligence provider reports them; a figure it does not have is null" })
export class ResearchArtistProfile {
  @Field(() => ID)
  id!: string;

  @Field(() => String, { nullable: true })
  name!: string | null;

  @Field(() => String, { nullable: true })
  image_url!: string | null;

  @Field(() => String, { nullable: true, description: 'ISO country code' })
  country!: string | null;

  @Field(() => Int, { nullable: true, description: 'Monthly listeners on platform_a' })
  sp_monthly_listeners!: number | null;

  @Field(() => Int, { nullable: true, description: 'Followers on platform_a' })
  sp_followers!: number | null;

  @Field(() => Int, { nullable: true, description: 'Popularity on platform_a, 0-100' })
  sp_popularity!: number | null;

  @Field(() => Int, { nullable: true })
  tiktok_followers!: number | null;

  @Field(() => Int, { nullable: true })
  ins_followers!: number | null;

  @Field(() => Int, { nullable: true, description: 'Subscribers of the artist\'s platform_d channel' })
  youtube_subscribers!: number | null;

  @Field(() => GraphQLJSONObject, { nullable: true, description: 'Every figure the provider sent, by its own names' })
  cm_statistics!: Record<string, unknown> | null;

  @Field({ description: '`provider` when fetched for this request, `stored` when served from stored data' })
  data_source!: string;

  @Field({ description: 'When the provider produced these figures' })
  captured_at!: Date;
}

@ObjectType({ description: 'An artist of the music intelligence provider: its tracks (with stats) and playlist placements (with curators)' })
export class ResearchArtist {
  @Field(() => ID)
  id!: string;
}

@InputType('TrackStatsInput', { description: "Which track (exactly one identifier) and what to report of its statistics" })
export class TrackStatsQueryInput {
  @Field(() => String, { nullable: true, description: describe(trackStatsInput, 'isrc') })
  isrc?: string | null;

  @Field(() => String, { nullable: true, description: describe(trackStatsInput, 'stats_track_id') })
  stats_track_id?: string | null;

  @Field(() => String, { nullable: true, description: describe(trackStatsInput, 'platform_a_track_id') })
  platform_a_track_id?: string | null;

  @Field(() => String, { nullable: true, description: describe(trackStatsInput, 'platform_b_track_id') })
  platform_b_track_id?: string | null;

  @Field(() => String, { description: describe(trackStatsInput, 'source') })
  source!: string;

  @Field(() => Boolean, { nullable: true, description: describe(trackStatsInput, 'with_playlists') })
  with_playlists?: boolean | null;

  @Field(() => Boolean, { nullable: true, description: describe(trackStatsInput, 'with_charts') })
  with_charts?: boolean | null;

  @Field(() => Boolean, { nullable: true, description: describe(trackStatsInput, 'with_stations') })
  with_stations?: boolean | null;

  @Field(() => Boolean, { nullable: true, description: describe(trackStatsInput, 'with_videos') })
  with_videos?: boolean | null;

  @Field(() => Boolean, { nullable: true, description: describe(trackStatsInput, 'with_links') })
  with_links?: boolean | null;

  @Field(() => Boolean, { nullable: true, description: describe(trackStatsInput, 'only_current') })
  only_current?: boolean | null;

  @Field(() => Int, { nullable: true, description: describe(trackStatsInput, 'limit') })
  limit?: number | null;

  @Field(() => Int, { nullable: true, description: describe(trackStatsInput, 'offset') })
  offset?: number | null;
}

@InputType('DiscoverInput', { description: 'Filters and order of the discovery list' })
export class DiscoverQueryInput {
  @Field(() => String, { nullable: true, description: describe(discoverInput, 'country') })
  country?: string | null;

  @Field(() => Int, { nullable: true, description: describe(discoverInput, 'genre') })
  genre?: number | null;

  @Field(() => Int, { nullable: true, description: describe(discoverInput, 'sp_monthly_listeners_min') })
  sp_monthly_listeners_min?: number | null;

  @Field(() => Int, { nullable: true, description: describe(discoverInput, 'sp_monthly_listeners_max') })
  sp_monthly_listeners_max?: number | null;

  @Field(() => String, { nullable: true, description: describe(discoverInput, 'sort') })
  sort?: string | null;

  @Field(() => Int, { nullable: true, description: describe(discoverInput, 'limit') })
  limit?: number | null;
}

@InputType('ResearchSearchInput', { description: 'What to search the music intelligence provider for' })
export class ResearchSearchQueryInput {
  @Field(() => String, { description: describe(researchSearchInput, 'q') })
  q!: string;

  @Field(() => String, { description: describe(researchSearchInput, 'type') })
  type!: string;

  @Field(() => Boolean, { nullable: true, description: describe(researchSearchInput, 'beta') })
  beta?: boolean | null;

  @Field(() => Int, { nullable: true, description: describe(researchSearchInput, 'limit') })
  limit?: number | null;

  @Field(() => Int, { nullable: true, description: describe(researchSearchInput, 'offset') })
  offset?: number | null;
}

@InputType('ResearchTracksInput', { description: "Which artist's tracks, a slice at a time" })
export class ResearchTracksQueryInput {
  @Field(() => String, { description: describe(artistTracksInput, 'artist') })
  artist!: string;

  @Field(() => Int, { nullable: true, description: describe(artistTracksInput, 'limit') })
  limit?: number | null;

  @Field(() => Int, { nullable: true, description: describe(artistTracksInput, 'offset') })
  offset?: number | null;
}

@InputType('ResearchPlaylistsInput', { description: "Which artist's playlist placements, on which platform, a slice at a time" })
export class ResearchPlaylistsQueryInput {
  @Field(() => String, { description: describe(artistPlaylistsInput, 'artist') })
  artist!: string;

  @Field(() => String, { nullable: true, description: describe(artistPlaylistsInput, 'platform') })
  platform?: string | null;

  @Field(() => String, { nullable: true, description: describe(artistPlaylistsInput, 'status') })
  status?: string | null;

  @Field(() => Int, { nullable: true, description: describe(artistPlaylistsInput, 'limit') })
  limit?: number | null;

  @Field(() => Int, { nullable: true, description: describe(artistPlaylistsInput, 'offset') })
  offset?: number | null;
}

@InputType('PlatformASearchInput', { description: 'What to search the platform_a catalog for' })
export class PlatformASearchQueryInput {
  @Field(() => String, { description: describe(platformSearchInput, 'q') })
  q!: string;

  @Field(() => String, { description: describe(platformSearchInput, 'type') })
  type!: string;

  @Field(() => String, { nullable: true, description: describe(platformSearchInput, 'market') })
  market?: string | null;

  @Field(() => Int, { nullable: true, description: describe(platformSearchInput, 'limit') })
  limit?: number | null;

  @Field(() => Int, { nullable: true, description: describe(platformSearchInput, 'offset') })
  offset?: number | null;
}
