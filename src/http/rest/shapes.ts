/**
 * The REST contract's item shapes, as GraphQL fragments over the domain graph. Each is what a REST
 * answer carries of a domain type, under the contract's names (aliases rename); its name is the
 * OpenAPI component that documents it. Routes spread them in their `select`.
 */
export const REST_SHAPES: Record<string, string> = {
  Pagination: 'fragment Pagination on Pagination { total_count: totalCount page limit total_pages: totalPages }',

  // catalog
  CatalogRecord: 'fragment CatalogRecord on Catalog { id name created_at updated_at }',
  CatalogSong: 'fragment CatalogSong on Song { isrc name album lyrics updated_at catalog_id artists: credits { ...SongCredit } }',
  SongCredit: 'fragment SongCredit on SongCredit { id name timestamp }',

  // agent
  AgentTemplate:
    'fragment AgentTemplate on AgentTemplate { id title description prompt tags creator { ...TemplateCreator } is_private is_favourite favorites_count shared_emails created_at updated_at }',
  TemplateCreator: 'fragment TemplateCreator on TemplateCreator { id name image is_admin }',

  // session
  Session: 'fragment Session on Session { id title createdAt updatedAt }',
  SessionChatsResult: 'fragment SessionChatsResult on Session { chats { ...SessionChat } defaultModelId }',
  SessionChat:
    'fragment SessionChat on SessionChat { id sessionId title createdAt updatedAt hasUnread isStreaming modelId activeStreamId lastAssistantMessageAt }',
  ChatMessage: 'fragment ChatMessage on ChatMessage { id chatId role content createdAt }',

  // account
  AccountProfile: 'fragment AccountProfile on AccountProfile { id name email kind organizations { ...OrganizationRef } invitations { ...AccountInvitation } }',
  OrganizationRef: 'fragment OrganizationRef on Organization { id name }',
  AccountInvitation: 'fragment AccountInvitation on AccountInvitation { organization { ...OrganizationRef } invited_at }',
  Organization: 'fragment Organization on Organization { id name created_at }',
  OrganizationMember: 'fragment OrganizationMember on OrganizationMember { id name kind }',
  OrganizationInvitee: 'fragment OrganizationInvitee on OrganizationInvitee { id name kind invited_at }',
  MembershipRevocation: 'fragment MembershipRevocation on MembershipRevocation { membership invitation invitations catalog_links { ...RevokedCatalogLink } }',
  RevokedCatalogLink: 'fragment RevokedCatalogLink on RevokedCatalogLink { catalog_id account_id }',

  // auth
  ApiKey: 'fragment ApiKey on ApiKey { id name hint created_at last_used_at revoked revoked_at }',
  NewApiKey: 'fragment NewApiKey on ApiKey { id name created_at }',
  OnboardingResult: 'fragment OnboardingResult on AgentOnboarding { account_id api_key message }',

  // research
  TrackStatsResult:
    'fragment TrackStatsResult on TrackStats { status: provider_status result message stats { ...TrackStatsRecord } track_info { ...TrackInfo } source_ids }',
  TrackStatsRecord: 'fragment TrackStatsRecord on TrackStatsRecord { source data data_source captured_at }',
  TrackInfo:
    'fragment TrackInfo on TrackInfo { stats_track_id title avatar site_url release_date artists { ...NamedRef } is_remix collaborators { ...TrackCollaborator } labels distributors { ...NamedRef } genres links { ...TrackLink } }',
  NamedRef: 'fragment NamedRef on NamedRef { name }',
  TrackCollaborator: 'fragment TrackCollaborator on TrackCollaborator { name roles }',
  TrackLink: 'fragment TrackLink on TrackLink { source external_id url isrc }',
  DiscoveredArtist: 'fragment DiscoveredArtist on DiscoveredArtist { name id sp_monthly_listeners sp_followers tiktok_followers ins_followers country }',
  CuratorProfile:
    'fragment CuratorProfile on CuratorProfile { id platform platform_curator_id name image_url description followers instagram_followers facebook_followers twitter_followers youtube_subscribers soundcloud_followers tiktok_followers cm_statistics last_synced_at suspicion_score social_urls captured_at }',
  ResearchGenre: 'fragment ResearchGenre on ResearchGenre { id name }',
  ArtistTrackItem: 'fragment ArtistTrackItem on ResearchTrack { id name isrc artist_names album_name release_date image_url }',
  ArtistPlaylistItem:
    'fragment ArtistPlaylistItem on ResearchPlaylist { id name platform curator_id curator_name followers track_name isrc position added_at }',
  PlatformSearchResult:
    'fragment PlatformSearchResult on PlatformSearchResult { artists { ...PlatformArtistsPage } albums tracks playlists shows episodes audiobooks }',
  PlatformArtistsPage:
    'fragment PlatformArtistsPage on PlatformArtistResults { href items { ...PlatformArtist } limit next offset previous total }',
  PlatformArtist:
    'fragment PlatformArtist on PlatformArtist { external_urls { ...PlatformExternalUrls } followers { ...PlatformFollowers } genres href id images { ...PlatformImage } name popularity type uri }',
  PlatformExternalUrls: 'fragment PlatformExternalUrls on PlatformExternalUrls { platform_a }',
  PlatformFollowers: 'fragment PlatformFollowers on PlatformFollowers { href total }',
  PlatformImage: 'fragment PlatformImage on PlatformImage { url height width }',

  // render
  Composition: 'fragment Composition on Composition { id title description props example }',
  RenderRun:
    'fragment RenderRun on RenderRun { id status taskIdentifier payload progress createdAt updatedAt startedAt finishedAt attempts output { ...RenderOutput } outputExpiredAt error }',
  RenderOutput: 'fragment RenderOutput on RenderOutput { url expiresAt retainedUntil mimeType bytes width height fps durationInFrames codec }',

  // artist
  SocialProfile: 'fragment SocialProfile on SocialProfile { id social_id username profile_url avatar bio follower_count following_count region updated_at }',
  RosterArtist: 'fragment RosterArtist on Artist { id name image created_at }',
  ArtistResearchRecord: 'fragment ArtistResearchRecord on Artist { id name research_id research_match research_matched_at }',
};
