import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, Float, ID, Int, ObjectType } from 'type-graphql';
import { ResultStatus } from '../../graphql/common.types';

/*
 * REST answers (the return types of routed queries) are flat: no field arguments, no relations.
 * The graph a client composes (artist → tracks → stats, playlists → curator) uses the separate
 * Research* types at the end of this file, reached through Query.researchArtist.
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

  @Field(() => [NamedRef])
  artists!: NamedRef[];

  @Field(() => Boolean, { nullable: true })
  is_remix!: boolean | null;

  @Field(() => [TrackCollaborator])
  collaborators!: TrackCollaborator[];

  @Field(() => [GraphQLJSONObject])
  labels!: Record<string, unknown>[];

  @Field(() => [NamedRef])
  distributors!: NamedRef[];

  @Field(() => [String])
  genres!: string[];

  @Field(() => [TrackLink])
  links!: TrackLink[];
}

@ObjectType({
  description:
    'Answer of GET /api/research/track/stats. When every requested source is served from stored data it holds only result and stats; status, message, track_info and source_ids come with a provider answer.',
})
export class TrackStatsResult {
  @Field(() => String, { nullable: true })
  status?: string | null;

  @Field()
  result!: string;

  @Field(() => String, { nullable: true })
  message?: string | null;

  @Field(() => [TrackStatsRecord], { description: 'One entry per requested source the provider has' })
  stats!: TrackStatsRecord[];

  @Field(() => TrackInfo, { nullable: true })
  track_info?: TrackInfo | null;

  @Field(() => [String], { nullable: true, description: 'Every source tracked for the recording' })
  source_ids?: string[] | null;
}

@ObjectType({ description: 'An artist of the discovery list' })
export class DiscoveredArtist {
  @Field()
  name!: string;

  @Field(() => Int, { description: 'The artist id for GET /api/research/tracks and /api/research/playlists' })
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

@ObjectType({ description: 'Answer of GET /api/research/discover' })
export class DiscoverResult {
  @Field(() => ResultStatus)
  status!: ResultStatus;

  @Field(() => [DiscoveredArtist])
  artists!: DiscoveredArtist[];
}

@ObjectType({ description: 'Answer of GET /api/research/curator: the curator profile itself' })
export class CuratorProfile {
  @Field(() => ResultStatus)
  status!: ResultStatus;

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

@ObjectType({ description: 'Answer of GET /api/research/genres' })
export class GenresResult {
  @Field(() => ResultStatus)
  status!: ResultStatus;

  @Field(() => [ResearchGenre])
  genres!: ResearchGenre[];
}

@ObjectType({ description: 'Answer of GET /api/research: matches by kind (artists, tracks, playlists, curators, …), as the provider sends them with neutral platform names' })
export class ResearchSearchResult {
  @Field(() => ResultStatus)
  status!: ResultStatus;

  @Field(() => GraphQLJSONObject)
  results!: Record<string, unknown>;
}

@ObjectType({ description: 'A track of an artist' })
export class ArtistTrackItem {
  @Field(() => ID)
  id!: string;

  @Field()
  name!: string;

  @Field(() => String, { nullable: true })
  isrc!: string | null;

  @Field(() => [String])
  artist_names!: string[];

  @Field(() => String, { nullable: true })
  album_name!: string | null;

  @Field(() => String, { nullable: true })
  release_date!: string | null;

  @Field(() => String, { nullable: true })
  image_url!: string | null;
}

@ObjectType({ description: 'Answer of GET /api/research/tracks' })
export class ArtistTracksResult {
  @Field(() => ResultStatus)
  status!: ResultStatus;

  @Field(() => [ArtistTrackItem])
  tracks!: ArtistTrackItem[];
}

@ObjectType({ description: 'A playlist placement of an artist' })
export class ArtistPlaylistItem {
  @Field(() => ID)
  id!: string;

  @Field()
  name!: string;

  @Field({ description: 'platform_a, platform_b or platform_c' })
  platform!: string;

  @Field(() => String, { nullable: true, description: 'Curator id for GET /api/research/curator' })
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

@ObjectType({ description: 'Answer of GET /api/research/playlists' })
export class ArtistPlaylistsResult {
  @Field(() => ResultStatus)
  status!: ResultStatus;

  @Field(() => [ArtistPlaylistItem])
  playlists!: ArtistPlaylistItem[];
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

  @Field(() => [String])
  genres!: string[];

  @Field()
  href!: string;

  @Field()
  id!: string;

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

@ObjectType({ description: 'A page of platform_a artists' })
export class PlatformArtistsPage {
  @Field()
  href!: string;

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

@ObjectType({ description: 'Answer of GET /api/platform_a/search: one member per requested type' })
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

/* ---- The composable graph (GraphQL only) ---- */

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

@ObjectType({ description: 'A track of a research artist; `stats` fetches its statistics' })
export class ResearchTrack extends ArtistTrackItem {}

@ObjectType({ description: 'A playlist placement of a research artist; `curator` is its curator profile' })
export class ResearchPlaylist extends ArtistPlaylistItem {}
