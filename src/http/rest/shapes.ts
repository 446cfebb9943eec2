/**
 * The REST contract's item shapes, as GraphQL fragments over the domain graph. Each is what a REST
 * answer carries of a domain type, under the contract's names (aliases rename); its name is the
 * OpenAPI component that documents it. Routes spread them in their `select`.
 */
export const REST_SHAPES: Record<string, string> = {
  Pagination: 'fragment Pagination on Pagination { total_count: totalCount page limit total_pages: totalPages }',

  // catalog
  CatalogRecord: 'fragment CatalogRecord on Catalog { id name created_at: createdAt updated_at: updatedAt }',
  CatalogSong: 'fragment CatalogSong on Song { isrc name album lyrics updated_at: updatedAt catalog_id: catalogId artists: credits { ...SongCredit } }',
  SongCredit: 'fragment SongCredit on SongCredit { id name timestamp }',

  // agent
  AgentTemplate:
    'fragment AgentTemplate on AgentTemplate { id title description prompt tags creator { ...TemplateCreator } is_private: isPrivate is_favourite: isFavourite favorites_count: favoritesCount shared_emails: sharedEmails created_at: createdAt updated_at: updatedAt }',
  TemplateCreator: 'fragment TemplateCreator on TemplateCreator { id name image is_admin: isAdmin }',

  // session
  Session: 'fragment Session on Session { id title createdAt updatedAt }',
  SessionChatsResult: 'fragment SessionChatsResult on Session { chats { ...SessionChat } defaultModelId }',
  SessionChat:
    'fragment SessionChat on SessionChat { id sessionId title createdAt updatedAt hasUnread isStreaming modelId activeStreamId lastAssistantMessageAt }',
  ChatMessage: 'fragment ChatMessage on ChatMessage { id chatId role content createdAt }',

  // account
  AccountProfile: 'fragment AccountProfile on AccountProfile { id name email kind organizations { ...OrganizationRef } invitations { ...AccountInvitation } }',
  OrganizationRef: 'fragment OrganizationRef on Organization { id name }',
  AccountInvitation: 'fragment AccountInvitation on AccountInvitation { organization { ...OrganizationRef } invited_at: invitedAt }',
  Organization: 'fragment Organization on Organization { id name created_at: createdAt }',
  OrganizationMember: 'fragment OrganizationMember on OrganizationMember { id name kind }',
  OrganizationInvitee: 'fragment OrganizationInvitee on OrganizationInvitee { id name kind invited_at: invitedAt }',
  MembershipRevocation: 'fragment MembershipRevocation on MembershipRevocation { membership invitation invitations catalog_links: catalogLinks { ...RevokedCatalogLink } }',
  RevokedCatalogLink: 'fragment RevokedCatalogLink on RevokedCatalogLink { catalog_id: catalogId account_id: accountId }',

  // usage
  UsagePeriod:
    'fragment UsagePeriod on UsagePeriod { start request_points: requestPoints research_points: researchPoints provider_calls: providerCalls stored_answers: storedAnswers render_runs: renderRuns render_pixel_frames: renderPixelFrames webhook_deliveries: webhookDeliveries }',
  UsageLimits:
    'fragment UsageLimits on UsageLimits { request_points_per_minute: requestPointsPerMinute research_points_per_minute: researchPointsPerMinute render_max_active: renderMaxActive render_daily_pixel_frames: renderDailyPixelFrames api_keys_max: apiKeysMax idempotency_keys_max: idempotencyKeysMax webhook_endpoints_max: webhookEndpointsMax }',
  LimitOverrides:
    'fragment LimitOverrides on LimitOverrides { request_points_per_minute: requestPointsPerMinute research_points_per_minute: researchPointsPerMinute render_max_active: renderMaxActive render_daily_pixel_frames: renderDailyPixelFrames api_keys_max: apiKeysMax webhook_endpoints_max: webhookEndpointsMax }',

  // auth
  ApiKey: 'fragment ApiKey on ApiKey { id name hint created_at: createdAt last_used_at: lastUsedAt revoked revoked_at: revokedAt }',
  NewApiKey: 'fragment NewApiKey on ApiKey { id name created_at: createdAt }',
  OnboardingResult: 'fragment OnboardingResult on AgentOnboarding { account_id: accountId api_key: apiKey message }',

  // research
  TrackStatsResult:
    'fragment TrackStatsResult on TrackStats { status: providerStatus result message stats { ...TrackStatsRecord } track_info: trackInfo { ...TrackInfo } source_ids: sourceIds }',
  TrackStatsRecord: 'fragment TrackStatsRecord on TrackStatsRecord { source data data_source: dataSource captured_at: capturedAt }',
  TrackInfo:
    'fragment TrackInfo on TrackInfo { stats_track_id: statsTrackId title avatar site_url: siteUrl release_date: releaseDate artists { ...NamedRef } is_remix: isRemix collaborators { ...TrackCollaborator } labels distributors { ...NamedRef } genres links { ...TrackLink } }',
  NamedRef: 'fragment NamedRef on NamedRef { name }',
  TrackCollaborator: 'fragment TrackCollaborator on TrackCollaborator { name roles }',
  TrackLink: 'fragment TrackLink on TrackLink { source external_id: externalId url isrc }',
  DiscoveredArtist: 'fragment DiscoveredArtist on DiscoveredArtist { name id sp_monthly_listeners: spMonthlyListeners sp_followers: spFollowers tiktok_followers: tiktokFollowers ins_followers: insFollowers country }',
  CuratorProfile:
    'fragment CuratorProfile on CuratorProfile { id platform platform_curator_id: platformCuratorId name image_url: imageUrl description followers instagram_followers: instagramFollowers facebook_followers: facebookFollowers twitter_followers: twitterFollowers youtube_subscribers: youtubeSubscribers soundcloud_followers: soundcloudFollowers tiktok_followers: tiktokFollowers cm_statistics: cmStatistics last_synced_at: lastSyncedAt suspicion_score: suspicionScore social_urls: socialUrls captured_at: capturedAt }',
  ResearchGenre: 'fragment ResearchGenre on ResearchGenre { id name }',
  ArtistTrackItem: 'fragment ArtistTrackItem on ResearchTrack { id name isrc artist_names: artistNames album_name: albumName release_date: releaseDate image_url: imageUrl }',
  ArtistPlaylistItem:
    'fragment ArtistPlaylistItem on ResearchPlaylist { id name platform curator_id: curatorId curator_name: curatorName followers track_name: trackName isrc position added_at: addedAt }',
  PlatformSearchResult:
    'fragment PlatformSearchResult on PlatformSearchResult { artists { ...PlatformArtistsPage } albums tracks playlists shows episodes audiobooks }',
  PlatformArtistsPage:
    'fragment PlatformArtistsPage on PlatformArtistResults { href items { ...PlatformArtist } limit next offset previous total }',
  PlatformArtist:
    'fragment PlatformArtist on PlatformArtist { external_urls: externalUrls { ...PlatformExternalUrls } followers { ...PlatformFollowers } genres href id images { ...PlatformImage } name popularity type uri }',
  PlatformExternalUrls: 'fragment PlatformExternalUrls on PlatformExternalUrls { platform_a: platformA }',
  PlatformFollowers: 'fragment PlatformFollowers on PlatformFollowers { href total }',
  PlatformImage: 'fragment PlatformImage on PlatformImage { url height width }',

  // render
  Composition: 'fragment Composition on Composition { id title description props example }',
  RenderRun:
    'fragment RenderRun on RenderRun { id status taskIdentifier payload progress createdAt updatedAt startedAt finishedAt attempts output { ...RenderOutput } outputExpiredAt error }',
  RenderOutput: 'fragment RenderOutput on RenderOutput { url expiresAt retainedUntil mimeType bytes width height fps durationInFrames codec }',

  // webhook
  WebhookEndpoint:
    'fragment WebhookEndpoint on WebhookEndpoint { id url description events enabled disabled_reason: disabledReason disabled_at: disabledAt failing_since: failingSince previous_secret_expires_at: previousSecretExpiresAt created_at: createdAt updated_at: updatedAt }',
  WebhookDelivery:
    'fragment WebhookDelivery on WebhookDelivery { id event_id: eventId event_type: eventType run_id: runId status attempts next_attempt_at: nextAttemptAt last_attempt_at: lastAttemptAt last_duration_ms: lastDurationMs last_response_code: lastResponseCode last_response_excerpt: lastResponseExcerpt last_error: lastError created_at: createdAt finished_at: finishedAt }',

  // artist
  SocialProfile: 'fragment SocialProfile on SocialProfile { id social_id: socialId username profile_url: profileUrl avatar bio follower_count: followerCount following_count: followingCount region updated_at: updatedAt }',
  RosterArtist: 'fragment RosterArtist on Artist { id name image created_at: createdAt }',
  ArtistResearchRecord: 'fragment ArtistResearchRecord on Artist { id name research_id: researchId research_match: researchMatch research_matched_at: researchMatchedAt }',
};
