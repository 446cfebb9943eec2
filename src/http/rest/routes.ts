import type { OperationSpecs } from '../../common/operations';
import type { RestRoute } from './route';

/** Keys are personal (rule 4): the account always comes from the credentials. */
const personal = { account_id: 'must not be sent: API keys are personal, the account comes from your credentials' };
/** Webhook endpoints are personal too: the account is the caller's. */
const personalWebhooks = { account_id: 'must not be sent: webhook endpoints are personal, the account comes from your credentials' };
const WEBHOOK_ANSWER = 'Answer of GET, PATCH and DELETE /api/webhooks/{id}';
/** Upstream failures these routes pass on when no stored answer serves them (documented in the OpenAPI document). */
const PROVIDER_ERRORS: RestRoute['errors'] = ['PROVIDER_ERROR', 'PROVIDER_TIMEOUT'];
/** The one answer of both membership routes: the organization, its members and pending invitations. */
const MEMBERS = 'organization { ...Organization } members { ...OrganizationMember } invitations { ...OrganizationInvitee } revoked { ...MembershipRevocation }';
const MEMBERS_ANSWER = 'Answer of POST /api/organizations/{id}/members and DELETE /api/organizations/{id}/members/{accountId}';
/** The one answer of both socials routes: a page of profiles. */
const SOCIALS_PAGE: Pick<RestRoute, 'select' | 'answer'> = {
  select: 'items { ...SocialProfile } pagination { ...Pagination }',
  answer: { key: 'socials', page: true, name: 'SocialsResult', description: 'Answer of GET /api/artist/socials and GET /api/artists/{id}/socials' },
};

/**
 * The REST contract (docs/api/rest.md): every documented path, the GraphQL root field that serves it,
 * and what the edge adds (status, refused or required body keys, documented errors). How each
 * operation parses its input is the owning module's (AppModule.operations); routeTable joins them.
 */
export const restRoutes: RestRoute[] = [
  // account
  { operation: 'Query.me', method: 'GET', path: '/accounts/me', tags: ['accounts'], select: '...AccountProfile', answer: { key: 'account', name: 'MeResult' } },
  {
    operation: 'Query.usage',
    method: 'GET',
    path: '/accounts/me/usage',
    tags: ['accounts'],
    select: 'from to granularity periods { ...UsagePeriod } totals { ...UsagePeriod } limits { ...UsageLimits } lag_seconds: lagSeconds',
    answer: { key: 'usage', name: 'UsageResult' },
  },
  {
    operation: 'Query.accountLimits',
    method: 'GET',
    path: '/accounts/:accountId/limits',
    tags: ['accounts'],
    select: 'account_id: accountId overrides { ...LimitOverrides } in_force: inForce { ...UsageLimits }',
    answer: { key: 'limits', name: 'AccountLimitsResult' },
  },
  {
    operation: 'Mutation.setAccountLimits',
    method: 'PUT',
    path: '/accounts/:accountId/limits',
    tags: ['accounts'],
    select: 'account_id: accountId overrides { ...LimitOverrides } in_force: inForce { ...UsageLimits }',
    answer: { key: 'limits', name: 'SetAccountLimitsResult' },
  },
  { operation: 'Query.organizations', method: 'GET', path: '/organizations', tags: ['organizations'], select: 'items { ...Organization }', answer: { key: 'organizations', items: true, name: 'OrganizationsResult' } },
  { operation: 'Mutation.createOrganization', method: 'POST', path: '/organizations', tags: ['organizations'], select: '...Organization', answer: { key: 'organization', name: 'OrganizationResult' } },
  {
    operation: 'Mutation.addOrganizationMember',
    method: 'POST',
    path: '/organizations/:id/members',
    tags: ['organizations'],
    select: MEMBERS,
    answer: { spread: true, name: 'OrganizationMembersResult', description: MEMBERS_ANSWER },
  },
  {
    operation: 'Mutation.removeOrganizationMember',
    method: 'DELETE',
    path: '/organizations/:id/members/:accountId',
    tags: ['organizations'],
    select: MEMBERS,
    answer: { spread: true, name: 'OrganizationMembersResult', description: MEMBERS_ANSWER },
  },
  {
    operation: 'Mutation.deleteOrganization',
    method: 'DELETE',
    path: '/organizations/:id',
    tags: ['organizations'],
    select: 'organization { ...Organization } members invitations catalog_links: catalogLinks { ...RevokedCatalogLink } deleted_catalogs: deletedCatalogs',
    answer: { spread: true, name: 'OrganizationDeletionResult' },
  },

  // auth
  { operation: 'Mutation.signupAgent', method: 'POST', path: '/agents/signup', public: true, tags: ['onboarding'], errors: ['RATE_LIMITED'], select: '...OnboardingResult' },
  { operation: 'Mutation.verifyAgent', method: 'POST', path: '/agents/verify', public: true, tags: ['onboarding'], errors: ['RATE_LIMITED'], select: '...OnboardingResult' },
  { operation: 'Query.apiKeys', method: 'GET', path: '/keys', tags: ['keys'], refusedFields: personal, select: 'items { ...ApiKey }', answer: { key: 'keys', items: true, name: 'ApiKeysResult' } },
  {
    operation: 'Mutation.createApiKey',
    method: 'POST',
    path: '/keys',
    tags: ['keys'],
    refusedFields: personal,
    errors: ['CONFLICT'],
    select: 'key { ...NewApiKey } api_key: apiKey',
    answer: { spread: true, name: 'CreateApiKeyResult' },
  },
  { operation: 'Mutation.revokeApiKey', method: 'DELETE', path: '/keys/:id', tags: ['keys'], refusedFields: personal, select: '...ApiKey', answer: { key: 'key', name: 'RevokeApiKeyResult' } },

  // webhooks (personal, as keys are: always the caller's own endpoints)
  {
    operation: 'Query.webhookEndpoints',
    method: 'GET',
    path: '/webhooks',
    tags: ['webhooks'],
    refusedFields: personalWebhooks,
    select: 'items { ...WebhookEndpoint } pagination { ...Pagination }',
    answer: { key: 'webhooks', page: true, name: 'WebhooksResult' },
  },
  {
    operation: 'Mutation.createWebhookEndpoint',
    method: 'POST',
    path: '/webhooks',
    tags: ['webhooks'],
    refusedFields: personalWebhooks,
    errors: ['CONFLICT'],
    select: 'webhook: endpoint { ...WebhookEndpoint } secret',
    answer: { spread: true, name: 'WebhookWithSecretResult', description: 'Answer of POST /api/webhooks and POST /api/webhooks/{id}/rotate-secret: the secret is shown this once' },
  },
  { operation: 'Query.webhookEndpoint', method: 'GET', path: '/webhooks/:id', tags: ['webhooks'], refusedFields: personalWebhooks, select: '...WebhookEndpoint', answer: { key: 'webhook', name: 'WebhookResult', description: WEBHOOK_ANSWER } },
  { operation: 'Mutation.updateWebhookEndpoint', method: 'PATCH', path: '/webhooks/:id', tags: ['webhooks'], refusedFields: personalWebhooks, select: '...WebhookEndpoint', answer: { key: 'webhook', name: 'WebhookResult', description: WEBHOOK_ANSWER } },
  { operation: 'Mutation.deleteWebhookEndpoint', method: 'DELETE', path: '/webhooks/:id', tags: ['webhooks'], refusedFields: personalWebhooks, select: '...WebhookEndpoint', answer: { key: 'webhook', name: 'WebhookResult', description: WEBHOOK_ANSWER } },
  {
    operation: 'Mutation.rotateWebhookSecret',
    method: 'POST',
    path: '/webhooks/:id/rotate-secret',
    tags: ['webhooks'],
    refusedFields: personalWebhooks,
    select: 'webhook: endpoint { ...WebhookEndpoint } secret',
    answer: { spread: true, name: 'WebhookWithSecretResult', description: 'Answer of POST /api/webhooks and POST /api/webhooks/{id}/rotate-secret: the secret is shown this once' },
  },
  {
    operation: 'Mutation.pingWebhookEndpoint',
    method: 'POST',
    path: '/webhooks/:id/ping',
    tags: ['webhooks'],
    refusedFields: personalWebhooks,
    select: '...WebhookDelivery',
    answer: { key: 'delivery', name: 'WebhookDeliveryResult', description: 'Answer of POST /api/webhooks/{id}/ping and POST /api/webhooks/{id}/deliveries/{deliveryId}/redeliver' },
  },
  {
    operation: 'Query.webhookDeliveries',
    method: 'GET',
    path: '/webhooks/:id/deliveries',
    tags: ['webhooks'],
    refusedFields: personalWebhooks,
    select: 'items { ...WebhookDelivery } pagination { ...Pagination }',
    answer: { key: 'deliveries', page: true, name: 'WebhookDeliveriesResult' },
  },
  {
    operation: 'Mutation.redeliverWebhook',
    method: 'POST',
    path: '/webhooks/:id/deliveries/:deliveryId/redeliver',
    tags: ['webhooks'],
    refusedFields: personalWebhooks,
    select: '...WebhookDelivery',
    answer: { key: 'delivery', name: 'WebhookDeliveryResult', description: 'Answer of POST /api/webhooks/{id}/ping and POST /api/webhooks/{id}/deliveries/{deliveryId}/redeliver' },
  },

  // artist
  {
    operation: 'Query.artistSocials',
    method: 'GET',
    path: '/artist/socials',
    tags: ['artists'],
    ...SOCIALS_PAGE,
  },
  {
    operation: 'Query.artistSocialsById',
    method: 'GET',
    path: '/artists/:id/socials',
    tags: ['artists'],
    ...SOCIALS_PAGE,
  },
  { operation: 'Query.artists', method: 'GET', path: '/artists', tags: ['artists'], select: 'items { ...RosterArtist }', answer: { key: 'artists', items: true, name: 'ArtistsResult' } },
  { operation: 'Mutation.createArtist', method: 'POST', path: '/artists', tags: ['artists'], select: '...RosterArtist', answer: { key: 'artist', name: 'ArtistResult' } },
  {
    operation: 'Mutation.upsertArtistSocial',
    method: 'POST',
    path: '/artists/:id/socials',
    tags: ['artists'],
    select: '...SocialProfile',
    answer: { key: 'social', name: 'SocialResult' },
  },

  // catalog
  {
    operation: 'Query.catalogs',
    method: 'GET',
    path: '/catalogs',
    tags: ['catalogs'],
    select: 'items { ...CatalogRecord }',
    answer: { key: 'catalogs', items: true, name: 'CatalogsResult', description: 'Answer of GET /api/catalogs and DELETE /api/catalogs' },
  },
  { operation: 'Mutation.addCatalog', method: 'POST', path: '/catalogs', tags: ['catalogs'], select: '...CatalogRecord', answer: { key: 'catalog', name: 'CatalogResult' } },
  {
    operation: 'Mutation.removeCatalogs',
    method: 'DELETE',
    path: '/catalogs',
    tags: ['catalogs'],
    select: '...CatalogRecord',
    answer: { key: 'catalogs', name: 'CatalogsResult', description: 'Answer of GET /api/catalogs and DELETE /api/catalogs' },
  },
  {
    operation: 'Query.catalogSongs',
    method: 'GET',
    path: '/catalogs/songs',
    tags: ['catalogs'],
    select: 'items { ...CatalogSong } pagination { ...Pagination }',
    answer: { key: 'songs', page: true, name: 'CatalogSongsResult' },
  },
  {
    operation: 'Mutation.addCatalogSongs',
    method: 'POST',
    path: '/catalogs/songs',
    tags: ['catalogs'],
    select: '...CatalogSong',
    answer: { key: 'songs', name: 'CatalogSongsChangeResult', description: 'Answer of POST and DELETE /api/catalogs/songs' },
  },
  {
    operation: 'Mutation.removeCatalogSongs',
    method: 'DELETE',
    path: '/catalogs/songs',
    tags: ['catalogs'],
    select: '...CatalogSong',
    answer: { key: 'songs', name: 'CatalogSongsChangeResult', description: 'Answer of POST and DELETE /api/catalogs/songs' },
  },

  // agent
  {
    operation: 'Query.agentTemplates',
    method: 'GET',
    path: '/agents/templates',
    tags: ['agent templates'],
    select: 'items { ...AgentTemplate }',
    answer: { key: 'templates', items: true, name: 'AgentTemplatesResult' },
  },
  {
    operation: 'Mutation.createAgentTemplate',
    method: 'POST',
    path: '/agents/templates',
    tags: ['agent templates'],
    errors: ['CONFLICT'],
    select: '...AgentTemplate',
    answer: { key: 'template', name: 'AgentTemplateResult', description: 'Answer of POST and PATCH /api/agents/templates' },
  },
  {
    operation: 'Mutation.updateAgentTemplate',
    method: 'PATCH',
    path: '/agents/templates/:id',
    tags: ['agent templates'],
    errors: ['CONFLICT'],
    select: '...AgentTemplate',
    answer: { key: 'template', name: 'AgentTemplateResult', description: 'Answer of POST and PATCH /api/agents/templates' },
  },
  {
    operation: 'Mutation.deleteAgentTemplate',
    method: 'DELETE',
    path: '/agents/templates/:id',
    tags: ['agent templates'],
    select: '',
    answer: { spread: true, name: 'AgentTemplateStatusResult', description: 'Answer of DELETE /api/agents/templates/{id}' },
  },
  {
    operation: 'Mutation.setAgentTemplateFavorite',
    method: 'PUT',
    path: '/agents/templates/:id/favorite',
    tags: ['agent templates'],
    select: 'favorites_count: favoritesCount is_favourite: isFavourite',
    answer: { spread: true, name: 'AgentTemplateFavoriteResult', description: 'Answer of PUT /api/agents/templates/{id}/favorite: the state just written' },
  },

  // session
  { operation: 'Query.sessions', method: 'GET', path: '/sessions', tags: ['sessions'], select: 'items { ...Session }', answer: { key: 'sessions', items: true, name: 'SessionsResult' } },
  { operation: 'Mutation.createSession', method: 'POST', path: '/sessions', tags: ['sessions'], select: '...Session', answer: { key: 'session', name: 'SessionResult' } },
  { operation: 'Query.sessionChats', method: 'GET', path: '/sessions/:sessionId/chats', tags: ['sessions'], select: '...SessionChatsResult' },
  {
    operation: 'Mutation.createChat',
    method: 'POST',
    path: '/sessions/:sessionId/chats',
    tags: ['sessions'],
    select: '...SessionChat',
    answer: { key: 'chat', name: 'SessionChatResult', description: 'Answer of POST /api/sessions/{sessionId}/chats and .../read' },
  },
  {
    operation: 'Mutation.markChatRead',
    method: 'POST',
    path: '/sessions/:sessionId/chats/:chatId/read',
    tags: ['sessions'],
    select: '...SessionChat',
    answer: { key: 'chat', name: 'SessionChatResult', description: 'Answer of POST /api/sessions/{sessionId}/chats and .../read' },
  },
  {
    operation: 'Mutation.addChatMessage',
    method: 'POST',
    path: '/sessions/:sessionId/chats/:chatId/messages',
    tags: ['sessions'],
    select: 'message { ...ChatMessage } chat { ...SessionChat }',
    answer: { spread: true, name: 'ChatMessageResult' },
  },

  // research
  {
    // Stored-only answers hold result and stats alone: the null members (status among them) are left out.
    operation: 'Query.trackStats',
    method: 'GET',
    path: '/research/track/stats',
    tags: ['research'],
    errors: PROVIDER_ERRORS,
    omitNullFields: true,
    select: '...TrackStatsResult',
  },
  {
    operation: 'Query.discover',
    method: 'GET',
    path: '/research/discover',
    tags: ['research'],
    errors: PROVIDER_ERRORS,
    select: '...DiscoveredArtist',
    answer: { key: 'artists', name: 'DiscoverResult' },
  },
  {
    operation: 'Query.curator',
    method: 'GET',
    path: '/research/curator',
    tags: ['research'],
    errors: PROVIDER_ERRORS,
    select: '...CuratorProfile',
    answer: { spread: true, name: 'CuratorProfile', description: 'Answer of GET /api/research/curator: the curator profile itself' },
  },
  {
    operation: 'Query.researchGenres',
    method: 'GET',
    path: '/research/genres',
    tags: ['research'],
    errors: PROVIDER_ERRORS,
    select: '...ResearchGenre',
    answer: { key: 'genres', name: 'GenresResult' },
  },
  {
    operation: 'Query.researchTracks',
    method: 'GET',
    path: '/research/tracks',
    tags: ['research'],
    errors: PROVIDER_ERRORS,
    select: '...ArtistTrackItem',
    answer: { key: 'tracks', name: 'ArtistTracksResult' },
  },
  {
    operation: 'Query.researchPlaylists',
    method: 'GET',
    path: '/research/playlists',
    tags: ['research'],
    errors: PROVIDER_ERRORS,
    select: '...ArtistPlaylistItem',
    answer: { key: 'playlists', name: 'ArtistPlaylistsResult' },
  },
  {
    operation: 'Query.researchSearch',
    method: 'GET',
    path: '/research',
    tags: ['research'],
    errors: PROVIDER_ERRORS,
    select: '',
    answer: {
      key: 'results',
      name: 'ResearchSearchResult',
      description: 'Answer of GET /api/research: matches by kind (artists, tracks, playlists, curators, …), as the provider sends them with neutral platform names',
    },
  },
  {
    operation: 'Query.platformASearch',
    method: 'GET',
    path: '/platform_a/search',
    tags: ['platform search'],
    errors: PROVIDER_ERRORS,
    omitNullFields: true,
    select: '...PlatformSearchResult',
  },
  {
    operation: 'Mutation.updateArtist',
    method: 'PATCH',
    path: '/artists/:id',
    tags: ['artists'],
    requiredBodyFields: { research_id: 'is required: a research artist id (digits), or null to clear the link' },
    select: '...ArtistResearchRecord',
    answer: { key: 'artist', name: 'ArtistResearchResult' },
  },

  // render
  {
    operation: 'Mutation.renderVideo',
    method: 'POST',
    path: '/video/render',
    tags: ['video'],
    errors: ['RATE_LIMITED'],
    select: 'runId: id',
    answer: { spread: true, status: 'processing', name: 'RenderStarted' },
  },
  { operation: 'Query.compositions', method: 'GET', path: '/video/compositions', tags: ['video'], select: '...Composition', answer: { key: 'compositions', name: 'CompositionsResult' } },
  {
    operation: 'Query.runs',
    method: 'GET',
    path: '/tasks/runs',
    tags: ['tasks'],
    select: 'items { ...RenderRun } pagination { ...Pagination }',
    answer: { key: 'runs', page: true, name: 'RunsResult' },
  },
  {
    operation: 'Mutation.cancelRun',
    method: 'POST',
    path: '/tasks/runs/:runId/cancel',
    tags: ['tasks'],
    errors: ['CONFLICT'],
    select: '...RenderRun',
    answer: { key: 'run', name: 'RunResult' },
  },
];

/** The route table with each operation's input schema and example, as its module declares them. */
export function routeTable(operations: OperationSpecs): RestRoute[] {
  return restRoutes.map((route) => {
    const spec = operations[route.operation];
    return spec ? { ...route, input: spec.input, ...(spec.example ? { example: spec.example } : {}) } : route;
  });
}
