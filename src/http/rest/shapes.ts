/**
 * The REST contract's item shapes, as GraphQL fragments over the domain graph. Each is what a REST
 * answer carries of a domain type, under the contract's names (aliases rename); its name is the
 * OpenAPI component that documents it. Routes spread them in their `select`.
 */
export const REST_SHAPES: Record<string, string> = {
  Pagination: 'fragment Pagination on Pagination { total_count page limit total_pages }',

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

  // auth
  ApiKey: 'fragment ApiKey on ApiKey { id name hint created_at last_used_at revoked revoked_at }',
  NewApiKey: 'fragment NewApiKey on ApiKey { id name created_at }',
  OnboardingResult: 'fragment OnboardingResult on AgentOnboarding { account_id api_key message }',
};
