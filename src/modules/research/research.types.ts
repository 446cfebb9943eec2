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

  @Field({ name: 'dataSource', description: '`provider` when fetched for this request, `stored` when served from stored data' })
  data_source!: string;

  @Field({ name: 'capturedAt', description: 'When the provider produced these figures' })
  captured_at!: Date;
}

@ObjectType({ description: 'A named party' })
export class NamedRef {
  @Field({ description: 'The party\'s name' })
  name!: string;
}

@ObjectType({ description: 'A collaborator on a track' })
export class TrackCollaborator {
  @Field({ description: 'Name of the collaborator' })
  name!: string;

  @Extensions(maxItems(LIST_BOUNDS.providerItems))
  @Field(() => [String], { description: 'What the collaborator did on the track (e.g. producer, songwriter)' })
  roles!: string[];
}

@ObjectType({ description: 'The track on another platform' })
export class TrackLink {
  @Field({ description: 'The platform (platform_a … platform_d, or another the provider names)' })
  source!: string;

  @Field(() => String, { description: 'The track id on that platform; null when unknown', name: 'externalId', nullable: true })
  external_id!: string | null;

  @Field(() => String, { description: 'URL of the track on that platform; null when unknown', nullable: true })
  url!: string | null;

  @Field(() => String, { description: 'The ISRC that platform gives; null when unknown', nullable: true })
  isrc!: string | null;
}

@ObjectType({ description: 'What the statistics provider knows about the track' })
export class TrackInfo {
  @Field(() => String, { description: 'The provider\'s stats track id of the track; null when unknown', name: 'statsTrackId', nullable: true })
  stats_track_id!: string | null;

  @Field(() => String, { description: 'Track title; null when unknown', nullable: true })
  title!: string | null;

  @Field(() => String, { description: 'Cover image URL; null when unknown', nullable: true })
  avatar!: string | null;

  @Field(() => String, { description: 'The provider\'s page of the track; null when unknown', name: 'siteUrl', nullable: true })
  site_url!: string | null;

  @Field(() => String, { description: 'Release date (ISO date); null when unknown', name: 'releaseDate', nullable: true })
  release_date!: string | null;

  @Extensions(maxItems(LIST_BOUNDS.providerItems))
  @Field(() => [NamedRef], { description: 'Artists credited on the track' })
  artists!: NamedRef[];

  @Field(() => Boolean, { description: 'Whether the track is a remix; null when unknown', name: 'isRemix', nullable: true })
  is_remix!: boolean | null;

  @Extensions(maxItems(LIST_BOUNDS.providerItems))
  @Field(() => [TrackCollaborator], { description: 'Collaborators on the track, with their roles' })
  collaborators!: TrackCollaborator[];

  @Extensions(maxItems(LIST_BOUNDS.providerItems))
  @Field(() => [GraphQLJSONObject], { description: 'Labels of the track, as the provider describes them' })
  labels!: Record<string, unknown>[];

  @Extensions(maxItems(LIST_BOUNDS.providerItems))
  @Field(() => [NamedRef], { description: 'Distributors of the track' })
  distributors!: NamedRef[];

  @Extensions(maxItems(LIST_BOUNDS.providerItems))
  @Field(() => [String], { description: 'Genres of the track' })
  genres!: string[];

  @Extensions(maxItems(LIST_BOUNDS.providerItems))
  @Field(() => [TrackLink], { description: 'The track on other platforms (with withLinks)' })
  links!: TrackLink[];
}

@ObjectType('TrackStats', {
  description:
    "Statistics of a track across sources. When every requested source is served from stored data it holds only result and stats; the provider's status, message, track info and source ids come with a provider answer.",
})
export class TrackStats {
  @Field(() => String, { name: 'providerStatus', nullable: true, description: '`success` when the provider was called for this answer; null when every source was served from stored data' })
  provider_status?: string | null;

  @Field({ description: "The provider's result" })
  result!: string;

  @Field(() => String, { description: 'The provider\'s message, when it sent one; null for stored answers', nullable: true })
  message?: string | null;

  // One per requested source, each a known platform (research.inputs.ts sourceList).
  @Extensions(maxItems(PLATFORMS.length))
  @Field(() => [TrackStatsRecord], { description: 'One entry per requested source the provider has' })
  stats!: TrackStatsRecord[];

  @Field(() => TrackInfo, { description: 'What the provider knows about the track; null for stored answers', name: 'trackInfo', nullable: true })
  track_info?: TrackInfo | null;

  @Extensions(maxItems(LIST_BOUNDS.providerItems))
  @Field(() => [String], { name: 'sourceIds', nullable: true, description: 'Every source tracked for the recording' })
  source_ids?: string[] | null;
}

@ObjectType({ description: 'An artist of the discovery list' })
export class DiscoveredArtist {
  @Field({ description: 'Artist name' })
  name!: string;

  @Field(() => Int, { description: 'The research artist id (Query.researchArtist, researchTracks, researchPlaylists)' })
  id!: number;

  @Field(() => Int, { description: 'Monthly listeners on platform_a; null when unknown', name: 'spMonthlyListeners', nullable: true })
  sp_monthly_listeners!: number | null;

  @Field(() => Int, { description: 'Followers on platform_a; null when unknown', name: 'spFollowers', nullable: true })
  sp_followers!: number | null;

  @Field(() => Int, { description: 'TikTok followers; null when unknown', name: 'tiktokFollowers', nullable: true })
  tiktok_followers!: number | null;

  @Field(() => Int, { description: 'Instagram followers; null when unknown', name: 'insFollowers', nullable: true })
  ins_followers!: number | null;

  @Field(() => String, { description: 'ISO 3166-1 alpha-2 country code of the artist; null when unknown', nullable: true })
  country!: string | null;
}

@ObjectType({ description: 'A playlist curator profile' })
export class CuratorProfile {
  @Field(() => ID, { description: "The data provider's curator id (digits)" })
  id!: string;

  @Field({ description: 'platform_a, platform_b or platform_c' })
  platform!: string;

  @Field(() => String, { name: 'platformCuratorId', nullable: true, description: 'The curator id on the platform itself' })
  platform_curator_id!: string | null;

  @Field(() => String, { description: 'Name of the curator; null when the provider has none', nullable: true })
  name!: string | null;

  @Field(() => String, { description: 'Image URL of the curator; null when it has none', name: 'imageUrl', nullable: true })
  image_url!: string | null;

  @Field(() => String, { description: 'The curator\'s own description on the platform; null when it has none', nullable: true })
  description!: string | null;

  @Field(() => Int, { nullable: true, description: 'Followers on the platform' })
  followers!: number | null;

  @Field(() => Int, { description: 'Instagram followers; null when unknown', name: 'instagramFollowers', nullable: true })
  instagram_followers!: number | null;

  @Field(() => Int, { description: 'Facebook followers; null when unknown', name: 'facebookFollowers', nullable: true })
  facebook_followers!: number | null;

  @Field(() => Int, { description: 'Twitter (X) followers; null when unknown', name: 'twitterFollowers', nullable: true })
  twitter_followers!: number | null;

  @Field(() => Int, { description: 'YouTube subscribers; null when unknown', name: 'youtubeSubscribers', nullable: true })
  youtube_subscribers!: number | null;

  @Field(() => Int, { description: 'SoundCloud followers; null when unknown', name: 'soundcloudFollowers', nullable: true })
  soundcloud_followers!: number | null;

  @Field(() => Int, { description: 'TikTok followers; null when unknown', name: 'tiktokFollowers', nullable: true })
  tiktok_followers!: number | null;

  @Field(() => GraphQLJSONObject, { name: 'cmStatistics', nullable: true, description: 'Aggregated signals: playlist reach, editorial counts, velocity deltas' })
  cm_statistics!: Record<string, unknown> | null;

  @Field(() => String, { name: 'lastSyncedAt', nullable: true, description: 'ISO time of the last provider sync' })
  last_synced_at!: string | null;

  @Field(() => Float, { name: 'suspicionScore', nullable: true, description: 'Lower is better' })
  suspicion_score!: number | null;

  @Field(() => GraphQLJSONObject, { name: 'socialUrls', nullable: true, description: 'Social URLs linked from the platform_a profile, by network' })
  social_urls!: Record<string, unknown> | null;

  @Field({ description: 'When the provider produced this profile', name: 'capturedAt' })
  captured_at!: Date;
}

@ObjectType({ description: 'A genre of the music intelligence provider' })
export class ResearchGenre {
  @Field(() => Int, { description: 'Genre id, for the discover filter' })
  id!: number;

  @Field({ description: 'Genre name' })
  name!: string;
}

@ObjectType({ description: 'A track of a research artist; `stats` fetches its statistics, `song` is the catalog song with its ISRC' })
export class ResearchTrack {
  @Field(() => ID, { description: 'The provider\'s track id' })
  id!: string;

  @Field({ description: 'Track name' })
  name!: string;

  @Field(() => String, { description: 'ISRC of the track; null when the provider has none', nullable: true })
  isrc!: string | null;

  @Extensions(maxItems(LIST_BOUNDS.providerItems))
  @Field(() => [String], { description: 'Names of the artists credited on the track', name: 'artistNames' })
  artist_names!: string[];

  @Field(() => String, { description: 'Album of the track; null when unknown', name: 'albumName', nullable: true })
  album_name!: string | null;

  @Field(() => String, { description: 'Release date (ISO date); null when unknown', name: 'releaseDate', nullable: true })
  release_date!: string | null;

  @Field(() => String, { description: 'Cover image URL; null when unknown', name: 'imageUrl', nullable: true })
  image_url!: string | null;
}

@ObjectType({ description: 'A playlist placement of a research artist; `curator` is its curator profile, `song` the catalog song placed' })
export class ResearchPlaylist {
  @Field(() => ID, { description: 'The provider\'s playlist id' })
  id!: string;

  @Field({ description: 'Playlist name' })
  name!: string;

  @Field({ description: 'platform_a, platform_b or platform_c' })
  platform!: string;

  @Field(() => String, { name: 'curatorId', nullable: true, description: 'Curator id for Query.curator' })
  curator_id!: string | null;

  @Field(() => String, { description: 'Name of the playlist\'s curator; null when unknown', name: 'curatorName', nullable: true })
  curator_name!: string | null;

  @Field(() => Int, { description: 'Followers of the playlist; null when unknown', nullable: true })
  followers!: number | null;

  @Field(() => String, { description: 'Name of the artist\'s track placed on the playlist; null when unknown', name: 'trackName', nullable: true })
  track_name!: string | null;

  @Field(() => String, { description: 'ISRC of the artist\'s track placed on the playlist; null when unknown', nullable: true })
  isrc!: string | null;

  @Field(() => Int, { description: 'Position of the track in the playlist, as the provider reports it; null when unknown', nullable: true })
  position!: number | null;

  @Field(() => String, { description: 'When the track was added to the playlist (ISO date); null when unknown', name: 'addedAt', nullable: true })
  added_at!: string | null;
}

@ObjectType({ description: 'An image of a platform_a item' })
export class PlatformImage {
  @Field({ description: 'URL of the image' })
  url!: string;

  @Field(() => Int, { description: 'Height in pixels; null when unknown', nullable: true })
  height!: number | null;

  @Field(() => Int, { description: 'Width in pixels; null when unknown', nullable: true })
  width!: number | null;
}

@ObjectType({ description: 'Links to the item on the platform' })
export class PlatformExternalUrls {
  @Field(() => String, { description: 'URL of the item on platform_a; null when absent', name: 'platformA', nullable: true })
  platform_a!: string | null;
}

@ObjectType({ description: 'Follower count of a platform_a artist' })
export class PlatformFollowers {
  @Field(() => String, { description: 'Always null (reserved by the platform)', nullable: true })
  href!: string | null;

  @Field(() => Int, { description: 'Number of followers' })
  total!: number;
}

@ObjectType({ description: 'A platform_a artist search item' })
export class PlatformArtist {
  @Field(() => PlatformExternalUrls, { description: 'Links to the artist on the platform', name: 'externalUrls' })
  external_urls!: PlatformExternalUrls;

  @Field(() => PlatformFollowers, { description: 'Follower count of the artist' })
  followers!: PlatformFollowers;

  @Extensions(maxItems(LIST_BOUNDS.providerItems))
  @Field(() => [String], { description: 'Genres the platform associates with the artist' })
  genres!: string[];

  @Field({ description: 'API link to the full artist object on the platform' })
  href!: string;

  @Field({ description: 'The platform\'s artist id' })
  id!: string;

  @Extensions(maxItems(LIST_BOUNDS.providerItems))
  @Field(() => [PlatformImage], { description: 'Images of the artist, widest first' })
  images!: PlatformImage[];

  @Field({ description: 'Artist name' })
  name!: string;

  @Field(() => Int, { description: 'Popularity on the platform, 0-100' })
  popularity!: number;

  @Field({ description: 'Always `artist`' })
  type!: string;

  @Field({ description: 'The platform URI of the artist' })
  uri!: string;
}

/**
 * platform_a's own result container, passed on as the provider answers it (href, limit, offset,
 * next, previous, total): not one of the graph's pages (XPage), so it is not named like one.
 */
@ObjectType('PlatformArtistResults', { description: "platform_a's artists matching a search, in platform_a's own result container (one request's worth, at most its limit)" })
export class PlatformArtistsPage {
  @Field({ description: 'API link to this page of results on the platform' })
  href!: string;

  // Sized by platformASearch's `limit` (its envelope); 20 without one.
  @Extensions(maxItems(20))
  @Field(() => [PlatformArtist], { description: 'The artists of this page' })
  items!: PlatformArtist[];

  @Field(() => Int, { description: 'Items per page, as requested' })
  limit!: number;

  @Field(() => String, { description: 'API link to the next page; null on the last', nullable: true })
  next!: string | null;

  @Field(() => Int, { description: 'Index of the first item of this page' })
  offset!: number;

  @Field(() => String, { description: 'API link to the previous page; null on the first', nullable: true })
  previous!: string | null;

  @Field(() => Int, { description: 'Matches in all, across pages' })
  total!: number;
}

@ObjectType({ description: 'Matches of a platform_a catalog search: one member per requested type' })
export class PlatformSearchResult {
  @Field(() => PlatformArtistsPage, { description: 'Artist matches; null unless artists were searched', nullable: true })
  artists?: PlatformArtistsPage | null;

  @Field(() => GraphQLJSONObject, { description: 'Album matches as the platform sends them (a page object); null unless albums were searched', nullable: true })
  albums?: Record<string, unknown> | null;

  @Field(() => GraphQLJSONObject, { description: 'Track matches as the platform sends them; null unless tracks were searched', nullable: true })
  tracks?: Record<string, unknown> | null;

  @Field(() => GraphQLJSONObject, { description: 'Playlist matches as the platform sends them; null unless playlists were searched', nullable: true })
  playlists?: Record<string, unknown> | null;

  @Field(() => GraphQLJSONObject, { description: 'Show matches as the platform sends them; null unless shows were searched', nullable: true })
  shows?: Record<string, unknown> | null;

  @Field(() => GraphQLJSONObject, { description: 'Episode matches as the platform sends them; null unless episodes were searched', nullable: true })
  episodes?: Record<string, unknown> | null;

  @Field(() => GraphQLJSONObject, { description: 'Audiobook matches as the platform sends them; null unless audiobooks were searched', nullable: true })
  audiobooks?: Record<string, unknown> | null;
}

@ObjectType({ description: "A research artist's metadata and latest audience figures, as the music intelligence provider reports them; a figure it does not have is null" })
export class ResearchArtistProfile {
  @Field(() => ID, { description: 'The research artist id (digits)' })
  id!: string;

  @Field(() => String, { description: 'Artist name; null when the provider has none', nullable: true })
  name!: string | null;

  @Field(() => String, { description: 'Image URL of the artist; null when the provider has none', name: 'imageUrl', nullable: true })
  image_url!: string | null;

  @Field(() => String, { nullable: true, description: 'ISO country code' })
  country!: string | null;

  @Field(() => Int, { name: 'spMonthlyListeners', nullable: true, description: 'Monthly listeners on platform_a' })
  sp_monthly_listeners!: number | null;

  @Field(() => Int, { name: 'spFollowers', nullable: true, description: 'Followers on platform_a' })
  sp_followers!: number | null;

  @Field(() => Int, { name: 'spPopularity', nullable: true, description: 'Popularity on platform_a, 0-100' })
  sp_popularity!: number | null;

  @Field(() => Int, { description: 'TikTok followers', name: 'tiktokFollowers', nullable: true })
  tiktok_followers!: number | null;

  @Field(() => Int, { description: 'Instagram followers', name: 'insFollowers', nullable: true })
  ins_followers!: number | null;

  @Field(() => Int, { name: 'youtubeSubscribers', nullable: true, description: 'Subscribers of the artist\'s platform_d channel' })
  youtube_subscribers!: number | null;

  @Field(() => GraphQLJSONObject, { name: 'cmStatistics', nullable: true, description: 'Every figure the provider sent, by its own names' })
  cm_statistics!: Record<string, unknown> | null;

  @Field({ name: 'dataSource', description: '`provider` when fetched for this request, `stored` when served from stored data' })
  data_source!: string;

  @Field({ name: 'capturedAt', description: 'When the provider produced these figures' })
  captured_at!: Date;
}

@ObjectType({ description: 'An artist of the music intelligence provider: its tracks (with stats) and playlist placements (with curators)' })
export class ResearchArtist {
  @Field(() => ID, { description: 'The research artist id (digits), as discover and the research search list it' })
  id!: string;
}

@InputType('TrackStatsInput', { description: 'Which track (exactly one of isrc, statsTrackId, platformATrackId or platformBTrackId; none or several is a BAD_USER_INPUT naming the field) and what to report of its statistics' })
export class TrackStatsQueryInput {
  @Field(() => String, { nullable: true, description: describe(trackStatsInput, 'isrc') })
  isrc?: string | null;

  @Field(() => String, { nullable: true, description: describe(trackStatsInput, 'stats_track_id') })
  statsTrackId?: string | null;

  @Field(() => String, { nullable: true, description: describe(trackStatsInput, 'platform_a_track_id') })
  platformATrackId?: string | null;

  @Field(() => String, { nullable: true, description: describe(trackStatsInput, 'platform_b_track_id') })
  platformBTrackId?: string | null;

  @Field(() => String, { description: describe(trackStatsInput, 'source') })
  source!: string;

  @Field(() => Boolean, { nullable: true, description: describe(trackStatsInput, 'with_playlists') })
  withPlaylists?: boolean | null;

  @Field(() => Boolean, { nullable: true, description: describe(trackStatsInput, 'with_charts') })
  withCharts?: boolean | null;

  @Field(() => Boolean, { nullable: true, description: describe(trackStatsInput, 'with_stations') })
  withStations?: boolean | null;

  @Field(() => Boolean, { nullable: true, description: describe(trackStatsInput, 'with_videos') })
  withVideos?: boolean | null;

  @Field(() => Boolean, { nullable: true, description: describe(trackStatsInput, 'with_links') })
  withLinks?: boolean | null;

  @Field(() => Boolean, { nullable: true, description: describe(trackStatsInput, 'only_current') })
  onlyCurrent?: boolean | null;

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
  spMonthlyListenersMin?: number | null;

  @Field(() => Int, { nullable: true, description: describe(discoverInput, 'sp_monthly_listeners_max') })
  spMonthlyListenersMax?: number | null;

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
