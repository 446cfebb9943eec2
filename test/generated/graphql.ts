/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
/** person, artist or organization */
export type AccountKind =
  /** An artist account: on rosters, credited on songs */
  | 'artist'
  /** An organization: has members, a roster and catalogs of its own */
  | 'organization'
  /** A person: signs in, holds API keys, joins organizations */
  | 'person';

/** Songs to upsert, each into its own catalog's entry for the ISRC */
export type AddCatalogSongsInput = {
  /** 1 to 500 songs */
  songs: Array<CatalogSongInput>;
};

/** A message to append to a chat of one of the caller's sessions */
export type AddChatMessageInput = {
  /** Id of the chat */
  chatId: string | number;
  /** The message text, 1-100000 characters, not blank */
  content: string;
  /** Who wrote the message: user, assistant or system */
  role: ChatMessageRole;
  /** Id of the session */
  sessionId: string | number;
};

/** An account to add to (or invite into) an organization */
export type AddOrganizationMemberInput = {
  /** The account to add as a member */
  accountId: string | number;
  /** The organization */
  id: string | number;
};

/** Which artist's social profiles, a page at a time */
export type ArtistSocialsInput = {
  /** Cursor paging: the items after this cursor (a pageInfo.endCursor of the same list); in place of page (GraphQL only) */
  after?: string | null | undefined;
  /** The artist account */
  artistAccountId: string | number;
  /** Cursor paging: the number of items of this page, 1 to 100 (default 20); in place of limit (GraphQL only) */
  first?: number | null | undefined;
  /** Socials per page, 1 to 100 */
  limit?: number | null | undefined;
  /** Page number, from 1 */
  page?: number | null | undefined;
};

/** A catalog-account pair */
export type CatalogLinkInput = {
  /** The account to unlink it from */
  accountId: string | number;
  /** The catalog to unlink */
  catalogId: string | number;
};

/** A song to add to a catalog: upserts that catalog's entry for the ISRC, never another catalog's */
export type CatalogSongInput = {
  /** Album name, 1-500 characters */
  album?: string | null | undefined;
  /** Credited artist names, matched among the artists the caller reaches; other names become artist accounts on the caller's roster */
  artists?: Array<string> | null | undefined;
  /** Catalog whose entry for the ISRC is written (the caller must reach it) */
  catalogId: string | number;
  /** ISRC, e.g. GBNWR2400001 (case and dashes are ignored) */
  isrc: string;
  /** Lyrics, at most 100000 characters */
  lyrics?: string | null | undefined;
  /** Song name, 1-500 characters; required when the catalog has no entry for the ISRC yet */
  name?: string | null | undefined;
};

/** Which songs of a catalog, a page at a time */
export type CatalogSongsInput = {
  /** Cursor paging: the items after this cursor (a pageInfo.endCursor of the same list); in place of page (GraphQL only) */
  after?: string | null | undefined;
  /** Keeps only songs credited to an artist with this name (case-insensitive) */
  artistName?: string | null | undefined;
  /** Catalog to query */
  catalogId: string | number;
  /** Cursor paging: the number of items of this page, 1 to 100 (default 20); in place of limit (GraphQL only) */
  first?: number | null | undefined;
  /** Songs per page, 1 to 100 */
  limit?: number | null | undefined;
  /** Page number, from 1 */
  page?: number | null | undefined;
};

/** user, assistant or system */
export type ChatMessageRole =
  /** The model's reply; it turns the chat unread */
  | 'assistant'
  /** An instruction to the model */
  | 'system'
  /** Written by the person (or agent) using the chat */
  | 'user';

/** A new template, owned by the caller */
export type CreateAgentTemplateInput = {
  /** What the template is for, 1-2000 characters */
  description: string;
  /** A private template is seen only by its owner and the shared addresses; default false */
  isPrivate?: boolean | null | undefined;
  /** The prompt text, 1-20000 characters */
  prompt: string;
  /** At most 100 addresses that may see the template even when private; stored lower-cased; shown only to the owner */
  sharedEmails?: Array<string> | null | undefined;
  /** At most 20 tags of 1-40 characters; duplicates are dropped */
  tags?: Array<string> | null | undefined;
  /** 1-120 characters, unique among the templates of its creator */
  title: string;
};

/** A new personal API key */
export type CreateApiKeyInput = {
  /** A label to tell keys apart */
  name: string;
};

/** A new chat in one of the caller's sessions */
export type CreateChatInput = {
  /** Model for this chat; omitted means the default model (defaultModelId) */
  modelId?: string | null | undefined;
  /** Id of the session */
  sessionId: string | number;
  /** Title of the chat, 1-200 characters */
  title: string;
};

/** A new organization */
export type CreateOrganizationInput = {
  /** Organization name, 1 to 200 characters */
  name: string;
};

/** A new session of the caller */
export type CreateSessionInput = {
  /** Title of the session, 1-200 characters */
  title: string;
};

/** A template of the caller to delete */
export type DeleteAgentTemplateInput = {
  /** Id of the agent template */
  id: string | number;
};

/** A chat of one of the caller's sessions */
export type MarkChatReadInput = {
  /** Id of the chat */
  chatId: string | number;
  /** Id of the session */
  sessionId: string | number;
};

/** Catalog-account links to end */
export type RemoveCatalogsInput = {
  /** 1 to 500 catalog-account pairs */
  catalogs: Array<CatalogLinkInput>;
};

/** The caller's favorite state of a template it can see */
export type SetAgentTemplateFavoriteInput = {
  /** Id of the agent template */
  id: string | number;
  /** The desired favorite state for the authenticated account */
  isFavourite: boolean;
};

/** The address an agent signs up with */
export type SignupAgentInput = {
  /** E-mail address; a local part starting with agent+ gets an API key at once */
  email: string;
};

/** Which track (exactly one of isrc, statsTrackId, platformATrackId or platformBTrackId; none or several is a BAD_USER_INPUT naming the field) and what to report of its statistics */
export type TrackStatsInput = {
  /** track ISRC */
  isrc?: string | null | undefined;
  /** max items in toggled arrays, 1-100, default 20 */
  limit?: number | null | undefined;
  /** offset in toggled arrays, default 0 */
  offset?: number | null | undefined;
  /** only current counters (default false) */
  onlyCurrent?: boolean | null | undefined;
  /** the track id on platform_a (1-64 letters and digits) */
  platformATrackId?: string | null | undefined;
  /** the track id on platform_b (1-20 digits) */
  platformBTrackId?: string | null | undefined;
  /** comma-separated sources (platform_a, platform_b, platform_c, platform_d) or all */
  source: string;
  /** the stats track id of a research track, as the research tracks list gives it */
  statsTrackId?: string | null | undefined;
  /** include per-source charts[] in data (default false) */
  withCharts?: boolean | null | undefined;
  /** include external links in the track info (default false) */
  withLinks?: boolean | null | undefined;
  /** include per-source playlists[] in data (default false) */
  withPlaylists?: boolean | null | undefined;
  /** include radio stations[] data where available (default false) */
  withStations?: boolean | null | undefined;
  /** include video data where available (default false) */
  withVideos?: boolean | null | undefined;
};

/** The fields of a template to change; those not given stay as they are */
export type UpdateAgentTemplateInput = {
  /** What the template is for, 1-2000 characters */
  description?: string | null | undefined;
  /** Id of the agent template */
  id: string | number;
  /** A private template is seen only by its owner and the shared addresses */
  isPrivate?: boolean | null | undefined;
  /** The prompt text, 1-20000 characters */
  prompt?: string | null | undefined;
  /** At most 100 addresses that may see the template even when private; stored lower-cased; shown only to the owner; replaces the list */
  sharedEmails?: Array<string> | null | undefined;
  /** At most 20 tags of 1-40 characters; duplicates are dropped; replaces the list */
  tags?: Array<string> | null | undefined;
  /** 1-120 characters, unique among the templates of its creator */
  title?: string | null | undefined;
};

export type MeQueryVariables = Exact<{ [key: string]: never; }>;


export type MeQuery = { me: { id: string, name: string, email: string | null, kind: AccountKind, organizations: Array<{ id: string, name: string }>, invitations: Array<{ invited_at: string, organization: { id: string, name: string } }> } | null };

export type CreateOrganizationMutationVariables = Exact<{
  input: CreateOrganizationInput;
}>;


export type CreateOrganizationMutation = { createOrganization: { id: string, name: string, created_at: string } };

export type AgentTemplateFieldsFragment = { id: string, title: string, description: string, prompt: string, tags: Array<string>, is_private: boolean, is_favourite: boolean, favorites_count: number, shared_emails: Array<string>, created_at: string, updated_at: string, creator: { id: string, name: string, image: string | null, is_admin: boolean } };

export type AgentTemplatesQueryVariables = Exact<{ [key: string]: never; }>;


export type AgentTemplatesQuery = { agentTemplates: { items: Array<{ id: string, title: string, description: string, prompt: string, tags: Array<string>, is_private: boolean, is_favourite: boolean, favorites_count: number, shared_emails: Array<string>, created_at: string, updated_at: string, creator: { id: string, name: string, image: string | null, is_admin: boolean } }> } | null };

export type SetAgentTemplateFavoriteMutationVariables = Exact<{
  input: SetAgentTemplateFavoriteInput;
}>;


export type SetAgentTemplateFavoriteMutation = { setAgentTemplateFavorite: { id: string, favorites_count: number, is_favourite: boolean } };

export type CreateAgentTemplateMutationVariables = Exact<{
  input: CreateAgentTemplateInput;
}>;


export type CreateAgentTemplateMutation = { createAgentTemplate: { id: string, title: string, description: string, prompt: string, tags: Array<string>, is_private: boolean, is_favourite: boolean, favorites_count: number, shared_emails: Array<string>, created_at: string, updated_at: string, creator: { id: string, name: string, image: string | null, is_admin: boolean } } };

export type UpdateAgentTemplateMutationVariables = Exact<{
  input: UpdateAgentTemplateInput;
}>;


export type UpdateAgentTemplateMutation = { updateAgentTemplate: { id: string, title: string, description: string, prompt: string, tags: Array<string>, is_private: boolean, is_favourite: boolean, favorites_count: number, shared_emails: Array<string>, created_at: string, updated_at: string, creator: { id: string, name: string, image: string | null, is_admin: boolean } } };

export type DeleteAgentTemplateMutationVariables = Exact<{
  input: DeleteAgentTemplateInput;
}>;


export type DeleteAgentTemplateMutation = { deleteAgentTemplate: boolean };

export type ArtistSocialsQueryVariables = Exact<{
  input: ArtistSocialsInput;
}>;


export type ArtistSocialsQuery = { artistSocials: { items: Array<{ id: string, username: string, avatar: string | null, bio: string | null, region: string | null, social_id: string, profile_url: string, follower_count: number | null, following_count: number | null, updated_at: string }>, pagination: { page: number, limit: number, total_count: number, total_pages: number } } | null };

export type ArtistGraphQueryVariables = Exact<{
  id: string | number;
}>;


export type ArtistGraphQuery = { artist: { id: string, name: string, socials: { items: Array<{ username: string }>, pagination: { total_count: number } }, catalogs: { items: Array<{ name: string }> }, songs: { items: Array<{ isrc: string, name: string }> } } | null };

export type SignupAgentMutationVariables = Exact<{
  input: SignupAgentInput;
}>;


export type SignupAgentMutation = { signupAgent: { message: string, account_id: string | null, api_key: string | null } };

export type CreateApiKeyMutationVariables = Exact<{
  input: CreateApiKeyInput;
}>;


export type CreateApiKeyMutation = { createApiKey: { api_key: string, key: { id: string, name: string, created_at: string } } };

export type ApiKeysQueryVariables = Exact<{ [key: string]: never; }>;


export type ApiKeysQuery = { apiKeys: { items: Array<{ id: string, name: string, hint: string, revoked: boolean, created_at: string, last_used_at: string | null, revoked_at: string | null }> } | null };

export type AddOrganizationMemberMutationVariables = Exact<{
  input: AddOrganizationMemberInput;
}>;


export type AddOrganizationMemberMutation = { addOrganizationMember: { organization: { id: string, name: string }, members: Array<{ id: string, name: string, kind: AccountKind }>, invitations: Array<{ id: string, name: string | null, kind: AccountKind | null, invited_at: string }> } };

export type CatalogSongsQueryVariables = Exact<{
  input: CatalogSongsInput;
}>;


export type CatalogSongsQuery = { catalogSongs: { items: Array<{ isrc: string, name: string, album: string | null, lyrics: string | null, catalog_id: string, updated_at: string, credits: Array<{ id: string, name: string, timestamp: number }> }>, pagination: { page: number, limit: number, total_count: number, total_pages: number } } | null };

export type CatalogGraphQueryVariables = Exact<{
  id: string | number;
  limit?: number | null | undefined;
}>;


export type CatalogGraphQuery = { catalog: { id: string, name: string, songs: { items: Array<{ isrc: string, name: string, artists: Array<{ id: string, name: string }> }>, pagination: { total_count: number } } } | null };

export type MyArtistsCatalogsQueryVariables = Exact<{ [key: string]: never; }>;


export type MyArtistsCatalogsQuery = { artists: { items: Array<{ id: string, name: string, catalogs: { items: Array<{ id: string, name: string, accounts: { items: Array<{ id: string, name: string, kind: AccountKind }> }, songs: { items: Array<{ isrc: string, name: string, artists: Array<{ id: string, name: string }>, catalogs: { items: Array<{ id: string }> } }> } }> } }> } | null };

export type AddCatalogSongsMutationVariables = Exact<{
  input: AddCatalogSongsInput;
}>;


export type AddCatalogSongsMutation = { addCatalogSongs: Array<{ isrc: string, name: string, catalog_id: string, credits: Array<{ id: string, name: string, timestamp: number }> }> };

export type RemoveCatalogsMutationVariables = Exact<{
  input: RemoveCatalogsInput;
}>;


export type RemoveCatalogsMutation = { removeCatalogs: Array<{ id: string, name: string }> };

export type ResearchArtistGraphQueryVariables = Exact<{
  id: string | number;
  source: string;
}>;


export type ResearchArtistGraphQuery = { researchArtist: { id: string, tracks: Array<{ id: string, name: string, isrc: string | null, stats: { result: string, stats: Array<{ source: string, data: Record<string, unknown>, data_source: string }> } | null }> | null, playlists: Array<{ name: string, curator_id: string | null, curator: { id: string, name: string | null, followers: number | null, cm_statistics: Record<string, unknown> | null } | null }> | null } | null };

export type TrackStatsQueryVariables = Exact<{
  input: TrackStatsInput;
}>;


export type TrackStatsQuery = { trackStats: { result: string, message: string | null, provider_status: string | null, source_ids: Array<string> | null, stats: Array<{ source: string, data: Record<string, unknown>, data_source: string, captured_at: string }>, track_info: { title: string | null, stats_track_id: string | null } | null } | null };

export type SessionChatFieldsFragment = { id: string, sessionId: string, title: string, createdAt: string, updatedAt: string, hasUnread: boolean, isStreaming: boolean, modelId: string | null, activeStreamId: string | null, lastAssistantMessageAt: string | null };

export type SessionsQueryVariables = Exact<{ [key: string]: never; }>;


export type SessionsQuery = { sessions: { items: Array<{ id: string, title: string, createdAt: string, updatedAt: string }> } | null };

export type SessionChatsQueryVariables = Exact<{
  sessionId: string | number;
}>;


export type SessionChatsQuery = { sessionChats: { defaultModelId: string, chats: Array<{ id: string, sessionId: string, title: string, createdAt: string, updatedAt: string, hasUnread: boolean, isStreaming: boolean, modelId: string | null, activeStreamId: string | null, lastAssistantMessageAt: string | null }> } | null };

export type CreateSessionMutationVariables = Exact<{
  input: CreateSessionInput;
}>;


export type CreateSessionMutation = { createSession: { id: string, title: string, createdAt: string, updatedAt: string } };

export type CreateChatMutationVariables = Exact<{
  input: CreateChatInput;
}>;


export type CreateChatMutation = { createChat: { id: string, sessionId: string, title: string, createdAt: string, updatedAt: string, hasUnread: boolean, isStreaming: boolean, modelId: string | null, activeStreamId: string | null, lastAssistantMessageAt: string | null } };

export type MarkChatReadMutationVariables = Exact<{
  input: MarkChatReadInput;
}>;


export type MarkChatReadMutation = { markChatRead: { id: string, sessionId: string, title: string, createdAt: string, updatedAt: string, hasUnread: boolean, isStreaming: boolean, modelId: string | null, activeStreamId: string | null, lastAssistantMessageAt: string | null } };

export type AddChatMessageMutationVariables = Exact<{
  input: AddChatMessageInput;
}>;


export type AddChatMessageMutation = { addChatMessage: { message: { id: string, chatId: string, role: ChatMessageRole, content: string, createdAt: string }, chat: { id: string, sessionId: string, title: string, createdAt: string, updatedAt: string, hasUnread: boolean, isStreaming: boolean, modelId: string | null, activeStreamId: string | null, lastAssistantMessageAt: string | null } } };

export const AgentTemplateFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"AgentTemplateFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AgentTemplate"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"prompt"}},{"kind":"Field","name":{"kind":"Name","value":"tags"}},{"kind":"Field","name":{"kind":"Name","value":"creator"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"image"}},{"kind":"Field","alias":{"kind":"Name","value":"is_admin"},"name":{"kind":"Name","value":"isAdmin"}}]}},{"kind":"Field","alias":{"kind":"Name","value":"is_private"},"name":{"kind":"Name","value":"isPrivate"}},{"kind":"Field","alias":{"kind":"Name","value":"is_favourite"},"name":{"kind":"Name","value":"isFavourite"}},{"kind":"Field","alias":{"kind":"Name","value":"favorites_count"},"name":{"kind":"Name","value":"favoritesCount"}},{"kind":"Field","alias":{"kind":"Name","value":"shared_emails"},"name":{"kind":"Name","value":"sharedEmails"}},{"kind":"Field","alias":{"kind":"Name","value":"created_at"},"name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","alias":{"kind":"Name","value":"updated_at"},"name":{"kind":"Name","value":"updatedAt"}}]}}]} as unknown as DocumentNode<AgentTemplateFieldsFragment, unknown>;
export const SessionChatFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"SessionChatFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"SessionChat"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"hasUnread"}},{"kind":"Field","name":{"kind":"Name","value":"isStreaming"}},{"kind":"Field","name":{"kind":"Name","value":"modelId"}},{"kind":"Field","name":{"kind":"Name","value":"activeStreamId"}},{"kind":"Field","name":{"kind":"Name","value":"lastAssistantMessageAt"}}]}}]} as unknown as DocumentNode<SessionChatFieldsFragment, unknown>;
export const MeDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Me"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"me"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"email"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"organizations"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"invitations"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"organization"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","alias":{"kind":"Name","value":"invited_at"},"name":{"kind":"Name","value":"invitedAt"}}]}}]}}]}}]} as unknown as DocumentNode<MeQuery, MeQueryVariables>;
export const CreateOrganizationDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreateOrganization"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateOrganizationInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createOrganization"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","alias":{"kind":"Name","value":"created_at"},"name":{"kind":"Name","value":"createdAt"}}]}}]}}]} as unknown as DocumentNode<CreateOrganizationMutation, CreateOrganizationMutationVariables>;
export const AgentTemplatesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"AgentTemplates"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"agentTemplates"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"items"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"AgentTemplateFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"AgentTemplateFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AgentTemplate"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"prompt"}},{"kind":"Field","name":{"kind":"Name","value":"tags"}},{"kind":"Field","name":{"kind":"Name","value":"creator"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"image"}},{"kind":"Field","alias":{"kind":"Name","value":"is_admin"},"name":{"kind":"Name","value":"isAdmin"}}]}},{"kind":"Field","alias":{"kind":"Name","value":"is_private"},"name":{"kind":"Name","value":"isPrivate"}},{"kind":"Field","alias":{"kind":"Name","value":"is_favourite"},"name":{"kind":"Name","value":"isFavourite"}},{"kind":"Field","alias":{"kind":"Name","value":"favorites_count"},"name":{"kind":"Name","value":"favoritesCount"}},{"kind":"Field","alias":{"kind":"Name","value":"shared_emails"},"name":{"kind":"Name","value":"sharedEmails"}},{"kind":"Field","alias":{"kind":"Name","value":"created_at"},"name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","alias":{"kind":"Name","value":"updated_at"},"name":{"kind":"Name","value":"updatedAt"}}]}}]} as unknown as DocumentNode<AgentTemplatesQuery, AgentTemplatesQueryVariables>;
export const SetAgentTemplateFavoriteDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"SetAgentTemplateFavorite"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"SetAgentTemplateFavoriteInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"setAgentTemplateFavorite"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","alias":{"kind":"Name","value":"favorites_count"},"name":{"kind":"Name","value":"favoritesCount"}},{"kind":"Field","alias":{"kind":"Name","value":"is_favourite"},"name":{"kind":"Name","value":"isFavourite"}}]}}]}}]} as unknown as DocumentNode<SetAgentTemplateFavoriteMutation, SetAgentTemplateFavoriteMutationVariables>;
export const CreateAgentTemplateDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreateAgentTemplate"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateAgentTemplateInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createAgentTemplate"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"AgentTemplateFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"AgentTemplateFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AgentTemplate"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"prompt"}},{"kind":"Field","name":{"kind":"Name","value":"tags"}},{"kind":"Field","name":{"kind":"Name","value":"creator"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"image"}},{"kind":"Field","alias":{"kind":"Name","value":"is_admin"},"name":{"kind":"Name","value":"isAdmin"}}]}},{"kind":"Field","alias":{"kind":"Name","value":"is_private"},"name":{"kind":"Name","value":"isPrivate"}},{"kind":"Field","alias":{"kind":"Name","value":"is_favourite"},"name":{"kind":"Name","value":"isFavourite"}},{"kind":"Field","alias":{"kind":"Name","value":"favorites_count"},"name":{"kind":"Name","value":"favoritesCount"}},{"kind":"Field","alias":{"kind":"Name","value":"shared_emails"},"name":{"kind":"Name","value":"sharedEmails"}},{"kind":"Field","alias":{"kind":"Name","value":"created_at"},"name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","alias":{"kind":"Name","value":"updated_at"},"name":{"kind":"Name","value":"updatedAt"}}]}}]} as unknown as DocumentNode<CreateAgentTemplateMutation, CreateAgentTemplateMutationVariables>;
export const UpdateAgentTemplateDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"UpdateAgentTemplate"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"UpdateAgentTemplateInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"updateAgentTemplate"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"AgentTemplateFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"AgentTemplateFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AgentTemplate"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"prompt"}},{"kind":"Field","name":{"kind":"Name","value":"tags"}},{"kind":"Field","name":{"kind":"Name","value":"creator"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"image"}},{"kind":"Field","alias":{"kind":"Name","value":"is_admin"},"name":{"kind":"Name","value":"isAdmin"}}]}},{"kind":"Field","alias":{"kind":"Name","value":"is_private"},"name":{"kind":"Name","value":"isPrivate"}},{"kind":"Field","alias":{"kind":"Name","value":"is_favourite"},"name":{"kind":"Name","value":"isFavourite"}},{"kind":"Field","alias":{"kind":"Name","value":"favorites_count"},"name":{"kind":"Name","value":"favoritesCount"}},{"kind":"Field","alias":{"kind":"Name","value":"shared_emails"},"name":{"kind":"Name","value":"sharedEmails"}},{"kind":"Field","alias":{"kind":"Name","value":"created_at"},"name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","alias":{"kind":"Name","value":"updated_at"},"name":{"kind":"Name","value":"updatedAt"}}]}}]} as unknown as DocumentNode<UpdateAgentTemplateMutation, UpdateAgentTemplateMutationVariables>;
export const DeleteAgentTemplateDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"DeleteAgentTemplate"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"DeleteAgentTemplateInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"deleteAgentTemplate"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}]}]}}]} as unknown as DocumentNode<DeleteAgentTemplateMutation, DeleteAgentTemplateMutationVariables>;
export const ArtistSocialsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ArtistSocials"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ArtistSocialsInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"artistSocials"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"items"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","alias":{"kind":"Name","value":"social_id"},"name":{"kind":"Name","value":"socialId"}},{"kind":"Field","name":{"kind":"Name","value":"username"}},{"kind":"Field","alias":{"kind":"Name","value":"profile_url"},"name":{"kind":"Name","value":"profileUrl"}},{"kind":"Field","name":{"kind":"Name","value":"avatar"}},{"kind":"Field","name":{"kind":"Name","value":"bio"}},{"kind":"Field","alias":{"kind":"Name","value":"follower_count"},"name":{"kind":"Name","value":"followerCount"}},{"kind":"Field","alias":{"kind":"Name","value":"following_count"},"name":{"kind":"Name","value":"followingCount"}},{"kind":"Field","name":{"kind":"Name","value":"region"}},{"kind":"Field","alias":{"kind":"Name","value":"updated_at"},"name":{"kind":"Name","value":"updatedAt"}}]}},{"kind":"Field","name":{"kind":"Name","value":"pagination"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"total_count"},"name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"page"}},{"kind":"Field","name":{"kind":"Name","value":"limit"}},{"kind":"Field","alias":{"kind":"Name","value":"total_pages"},"name":{"kind":"Name","value":"totalPages"}}]}}]}}]}}]} as unknown as DocumentNode<ArtistSocialsQuery, ArtistSocialsQueryVariables>;
export const ArtistGraphDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ArtistGraph"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"artist"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"socials"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"IntValue","value":"2"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"items"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"username"}}]}},{"kind":"Field","name":{"kind":"Name","value":"pagination"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"total_count"},"name":{"kind":"Name","value":"totalCount"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"catalogs"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"items"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"songs"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"items"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"isrc"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]}}]}}]} as unknown as DocumentNode<ArtistGraphQuery, ArtistGraphQueryVariables>;
export const SignupAgentDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"SignupAgent"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"SignupAgentInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"signupAgent"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"account_id"},"name":{"kind":"Name","value":"accountId"}},{"kind":"Field","alias":{"kind":"Name","value":"api_key"},"name":{"kind":"Name","value":"apiKey"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]} as unknown as DocumentNode<SignupAgentMutation, SignupAgentMutationVariables>;
export const CreateApiKeyDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreateApiKey"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateApiKeyInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createApiKey"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"key"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","alias":{"kind":"Name","value":"created_at"},"name":{"kind":"Name","value":"createdAt"}}]}},{"kind":"Field","alias":{"kind":"Name","value":"api_key"},"name":{"kind":"Name","value":"apiKey"}}]}}]}}]} as unknown as DocumentNode<CreateApiKeyMutation, CreateApiKeyMutationVariables>;
export const ApiKeysDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ApiKeys"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"apiKeys"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"items"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"hint"}},{"kind":"Field","alias":{"kind":"Name","value":"created_at"},"name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","alias":{"kind":"Name","value":"last_used_at"},"name":{"kind":"Name","value":"lastUsedAt"}},{"kind":"Field","name":{"kind":"Name","value":"revoked"}},{"kind":"Field","alias":{"kind":"Name","value":"revoked_at"},"name":{"kind":"Name","value":"revokedAt"}}]}}]}}]}}]} as unknown as DocumentNode<ApiKeysQuery, ApiKeysQueryVariables>;
export const AddOrganizationMemberDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"AddOrganizationMember"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"AddOrganizationMemberInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"addOrganizationMember"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"organization"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"members"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}}]}},{"kind":"Field","name":{"kind":"Name","value":"invitations"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","alias":{"kind":"Name","value":"invited_at"},"name":{"kind":"Name","value":"invitedAt"}}]}}]}}]}}]} as unknown as DocumentNode<AddOrganizationMemberMutation, AddOrganizationMemberMutationVariables>;
export const CatalogSongsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"CatalogSongs"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CatalogSongsInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"catalogSongs"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"items"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"catalog_id"},"name":{"kind":"Name","value":"catalogId"}},{"kind":"Field","name":{"kind":"Name","value":"isrc"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"album"}},{"kind":"Field","name":{"kind":"Name","value":"lyrics"}},{"kind":"Field","alias":{"kind":"Name","value":"updated_at"},"name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"credits"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"timestamp"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"pagination"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"total_count"},"name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"page"}},{"kind":"Field","name":{"kind":"Name","value":"limit"}},{"kind":"Field","alias":{"kind":"Name","value":"total_pages"},"name":{"kind":"Name","value":"totalPages"}}]}}]}}]}}]} as unknown as DocumentNode<CatalogSongsQuery, CatalogSongsQueryVariables>;
export const CatalogGraphDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"CatalogGraph"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"limit"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"catalog"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"songs"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"Variable","name":{"kind":"Name","value":"limit"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"items"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"isrc"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"artists"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"pagination"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"total_count"},"name":{"kind":"Name","value":"totalCount"}}]}}]}}]}}]}}]} as unknown as DocumentNode<CatalogGraphQuery, CatalogGraphQueryVariables>;
export const MyArtistsCatalogsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"MyArtistsCatalogs"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"artists"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"IntValue","value":"5"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"items"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"catalogs"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"IntValue","value":"5"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"items"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"accounts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"items"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"songs"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"IntValue","value":"20"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"items"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"isrc"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"artists"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"catalogs"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"IntValue","value":"5"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"items"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]}}]}}]}}]}}]}}]}}]}}]} as unknown as DocumentNode<MyArtistsCatalogsQuery, MyArtistsCatalogsQueryVariables>;
export const AddCatalogSongsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"AddCatalogSongs"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"AddCatalogSongsInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"addCatalogSongs"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"catalog_id"},"name":{"kind":"Name","value":"catalogId"}},{"kind":"Field","name":{"kind":"Name","value":"isrc"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"credits"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"timestamp"}}]}}]}}]}}]} as unknown as DocumentNode<AddCatalogSongsMutation, AddCatalogSongsMutationVariables>;
export const RemoveCatalogsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RemoveCatalogs"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"RemoveCatalogsInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"removeCatalogs"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]} as unknown as DocumentNode<RemoveCatalogsMutation, RemoveCatalogsMutationVariables>;
export const ResearchArtistGraphDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ResearchArtistGraph"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"source"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"researchArtist"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"tracks"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"isrc"}},{"kind":"Field","name":{"kind":"Name","value":"stats"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"source"},"value":{"kind":"Variable","name":{"kind":"Name","value":"source"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"result"}},{"kind":"Field","name":{"kind":"Name","value":"stats"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"source"}},{"kind":"Field","name":{"kind":"Name","value":"data"}},{"kind":"Field","alias":{"kind":"Name","value":"data_source"},"name":{"kind":"Name","value":"dataSource"}}]}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"playlists"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","alias":{"kind":"Name","value":"curator_id"},"name":{"kind":"Name","value":"curatorId"}},{"kind":"Field","name":{"kind":"Name","value":"curator"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"followers"}},{"kind":"Field","alias":{"kind":"Name","value":"cm_statistics"},"name":{"kind":"Name","value":"cmStatistics"}}]}}]}}]}}]}}]} as unknown as DocumentNode<ResearchArtistGraphQuery, ResearchArtistGraphQueryVariables>;
export const TrackStatsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"TrackStats"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"TrackStatsInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"trackStats"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"provider_status"},"name":{"kind":"Name","value":"providerStatus"}},{"kind":"Field","name":{"kind":"Name","value":"result"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"stats"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"source"}},{"kind":"Field","name":{"kind":"Name","value":"data"}},{"kind":"Field","alias":{"kind":"Name","value":"data_source"},"name":{"kind":"Name","value":"dataSource"}},{"kind":"Field","alias":{"kind":"Name","value":"captured_at"},"name":{"kind":"Name","value":"capturedAt"}}]}},{"kind":"Field","alias":{"kind":"Name","value":"track_info"},"name":{"kind":"Name","value":"trackInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"stats_track_id"},"name":{"kind":"Name","value":"statsTrackId"}},{"kind":"Field","name":{"kind":"Name","value":"title"}}]}},{"kind":"Field","alias":{"kind":"Name","value":"source_ids"},"name":{"kind":"Name","value":"sourceIds"}}]}}]}}]} as unknown as DocumentNode<TrackStatsQuery, TrackStatsQueryVariables>;
export const SessionsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Sessions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"sessions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"items"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}}]}}]}}]}}]} as unknown as DocumentNode<SessionsQuery, SessionsQueryVariables>;
export const SessionChatsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"SessionChats"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"sessionId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"sessionChats"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"sessionId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"sessionId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"chats"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"SessionChatFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"defaultModelId"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"SessionChatFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"SessionChat"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"hasUnread"}},{"kind":"Field","name":{"kind":"Name","value":"isStreaming"}},{"kind":"Field","name":{"kind":"Name","value":"modelId"}},{"kind":"Field","name":{"kind":"Name","value":"activeStreamId"}},{"kind":"Field","name":{"kind":"Name","value":"lastAssistantMessageAt"}}]}}]} as unknown as DocumentNode<SessionChatsQuery, SessionChatsQueryVariables>;
export const CreateSessionDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreateSession"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateSessionInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createSession"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}}]}}]}}]} as unknown as DocumentNode<CreateSessionMutation, CreateSessionMutationVariables>;
export const CreateChatDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreateChat"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateChatInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createChat"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"SessionChatFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"SessionChatFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"SessionChat"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"hasUnread"}},{"kind":"Field","name":{"kind":"Name","value":"isStreaming"}},{"kind":"Field","name":{"kind":"Name","value":"modelId"}},{"kind":"Field","name":{"kind":"Name","value":"activeStreamId"}},{"kind":"Field","name":{"kind":"Name","value":"lastAssistantMessageAt"}}]}}]} as unknown as DocumentNode<CreateChatMutation, CreateChatMutationVariables>;
export const MarkChatReadDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"MarkChatRead"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"MarkChatReadInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"markChatRead"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"SessionChatFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"SessionChatFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"SessionChat"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"hasUnread"}},{"kind":"Field","name":{"kind":"Name","value":"isStreaming"}},{"kind":"Field","name":{"kind":"Name","value":"modelId"}},{"kind":"Field","name":{"kind":"Name","value":"activeStreamId"}},{"kind":"Field","name":{"kind":"Name","value":"lastAssistantMessageAt"}}]}}]} as unknown as DocumentNode<MarkChatReadMutation, MarkChatReadMutationVariables>;
export const AddChatMessageDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"AddChatMessage"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"AddChatMessageInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"addChatMessage"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"message"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"chatId"}},{"kind":"Field","name":{"kind":"Name","value":"role"}},{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}}]}},{"kind":"Field","name":{"kind":"Name","value":"chat"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"SessionChatFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"SessionChatFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"SessionChat"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"hasUnread"}},{"kind":"Field","name":{"kind":"Name","value":"isStreaming"}},{"kind":"Field","name":{"kind":"Name","value":"modelId"}},{"kind":"Field","name":{"kind":"Name","value":"activeStreamId"}},{"kind":"Field","name":{"kind":"Name","value":"lastAssistantMessageAt"}}]}}]} as unknown as DocumentNode<AddChatMessageMutation, AddChatMessageMutationVariables>;