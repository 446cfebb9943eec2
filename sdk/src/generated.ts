/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
/** A new personal API key */
export type CreateApiKeyInput = {
  /** A label to tell keys apart */
  name: string;
};

/** What to render: a composition, its props and the video format (defaults apply to what is absent) */
export type RenderVideoInput = {
  /** video codec: h264 and h265 in MP4, vp8 and vp9 in WebM */
  codec?: string | null | undefined;
  /** the id of one of the compositions (compositions) */
  compositionId: string;
  /** length in frames: 1 to 1800, default 240 */
  durationInFrames?: number | null | undefined;
  /** frames per second: 1 to 60, default 30 */
  fps?: number | null | undefined;
  /** height in pixels: 1 to 3840, default 1280 */
  height?: number | null | undefined;
  /** props of the composition, as its JSON Schema in compositions describes them */
  inputProps?: Record<string, unknown> | null | undefined;
  /** width in pixels: 1 to 3840, default 720 */
  width?: number | null | undefined;
};

/** One of your API keys */
export type RevokeApiKeyInput = {
  /** Id of one of your keys */
  id: string | number;
};

/** QUEUED → EXECUTING → COMPLETED | FAILED | CANCELED */
export type RunStatus =
  /** Canceled by cancelRun before it ended */
  | 'CANCELED'
  /** Rendered: output holds the video (until the retention policy deletes it) */
  | 'COMPLETED'
  /** Being rendered; progress moves from 0 to 1 */
  | 'EXECUTING'
  /** Every attempt failed: error says why */
  | 'FAILED'
  /** Waiting for a render worker */
  | 'QUEUED';

/** One run (runId), or a page of the caller's runs or of the account given */
export type RunsInput = {
  /** another account the caller may access */
  accountId?: string | null | undefined;
  /** Cursor paging: the items after this cursor (a pageInfo.endCursor of the same list); in place of page (GraphQL only) */
  after?: string | null | undefined;
  /** Cursor paging: the number of items of this page, 1 to 100 (default 20); in place of limit (GraphQL only) */
  first?: number | null | undefined;
  /** runs per page, 1 to 100 (default 20) */
  limit?: number | null | undefined;
  /** Page number, from 1 (ignored with runId) */
  page?: number | null | undefined;
  /** one run; without it, the account's runs newest first */
  runId?: string | null | undefined;
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

/** The address and the code e-mailed to it */
export type VerifyAgentInput = {
  /** 6-digit code from the e-mail */
  code: string;
  /** E-mail address; a local part starting with agent+ gets an API key at once */
  email: string;
};

export type ApiKeysQueryVariables = Exact<{ [key: string]: never; }>;


export type ApiKeysQuery = { apiKeys: { items: Array<{ id: string, name: string, hint: string, createdAt: string, lastUsedAt: string | null, revoked: boolean, revokedAt: string | null }> } | null };

export type CreateApiKeyMutationVariables = Exact<{
  input: CreateApiKeyInput;
}>;


export type CreateApiKeyMutation = { createApiKey: { apiKey: string, key: { id: string, name: string, createdAt: string } } };

export type RevokeApiKeyMutationVariables = Exact<{
  input: RevokeApiKeyInput;
}>;


export type RevokeApiKeyMutation = { revokeApiKey: { id: string, name: string, hint: string, revoked: boolean, revokedAt: string | null } };

export type SignupAgentMutationVariables = Exact<{
  input: SignupAgentInput;
}>;


export type SignupAgentMutation = { signupAgent: { accountId: string | null, apiKey: string | null, message: string } };

export type VerifyAgentMutationVariables = Exact<{
  input: VerifyAgentInput;
}>;


export type VerifyAgentMutation = { verifyAgent: { accountId: string | null, apiKey: string | null, message: string } };

export type RenderRunFieldsFragment = { id: string, status: RunStatus, progress: number, attempts: number, error: string | null, taskIdentifier: string, createdAt: string, startedAt: string | null, finishedAt: string | null, outputExpiredAt: string | null, output: { url: string, mimeType: string, bytes: number, width: number, height: number, fps: number, durationInFrames: number, codec: string, expiresAt: string, retainedUntil: string | null } | null };

export type CompositionsQueryVariables = Exact<{ [key: string]: never; }>;


export type CompositionsQuery = { compositions: Array<{ id: string, title: string, description: string, props: Record<string, unknown>, example: Record<string, unknown> }> | null };

export type RenderVideoMutationVariables = Exact<{
  input: RenderVideoInput;
}>;


export type RenderVideoMutation = { renderVideo: { id: string, status: RunStatus, progress: number, attempts: number, error: string | null, taskIdentifier: string, createdAt: string, startedAt: string | null, finishedAt: string | null, outputExpiredAt: string | null, output: { url: string, mimeType: string, bytes: number, width: number, height: number, fps: number, durationInFrames: number, codec: string, expiresAt: string, retainedUntil: string | null } | null } };

export type RunsQueryVariables = Exact<{
  input?: RunsInput | null | undefined;
}>;


export type RunsQuery = { runs: { items: Array<{ id: string, status: RunStatus, progress: number, attempts: number, error: string | null, taskIdentifier: string, createdAt: string, startedAt: string | null, finishedAt: string | null, outputExpiredAt: string | null, output: { url: string, mimeType: string, bytes: number, width: number, height: number, fps: number, durationInFrames: number, codec: string, expiresAt: string, retainedUntil: string | null } | null }> } | null };

export type CancelRunMutationVariables = Exact<{
  runId: string;
}>;


export type CancelRunMutation = { cancelRun: { id: string, status: RunStatus, progress: number, attempts: number, error: string | null, taskIdentifier: string, createdAt: string, startedAt: string | null, finishedAt: string | null, outputExpiredAt: string | null, output: { url: string, mimeType: string, bytes: number, width: number, height: number, fps: number, durationInFrames: number, codec: string, expiresAt: string, retainedUntil: string | null } | null } };

export type RenderRunSubscriptionVariables = Exact<{
  runId: string;
}>;


export type RenderRunSubscription = { renderRun: { id: string, status: RunStatus, progress: number, attempts: number, error: string | null, taskIdentifier: string, createdAt: string, startedAt: string | null, finishedAt: string | null, outputExpiredAt: string | null, output: { url: string, mimeType: string, bytes: number, width: number, height: number, fps: number, durationInFrames: number, codec: string, expiresAt: string, retainedUntil: string | null } | null } };

export type RenderRunsSubscriptionVariables = Exact<{
  status?: Array<RunStatus> | RunStatus | null | undefined;
  initial?: number | null | undefined;
}>;


export type RenderRunsSubscription = { renderRuns: { id: string, status: RunStatus, progress: number, attempts: number, error: string | null, taskIdentifier: string, createdAt: string, startedAt: string | null, finishedAt: string | null, outputExpiredAt: string | null, output: { url: string, mimeType: string, bytes: number, width: number, height: number, fps: number, durationInFrames: number, codec: string, expiresAt: string, retainedUntil: string | null } | null } };

export type TrackStatsQueryVariables = Exact<{
  input: TrackStatsInput;
}>;


export type TrackStatsQuery = { trackStats: { result: string, providerStatus: string | null, message: string | null, sourceIds: Array<string> | null, trackInfo: { title: string | null, statsTrackId: string | null, releaseDate: string | null, artists: Array<{ name: string }> } | null, stats: Array<{ source: string, dataSource: string, capturedAt: string, data: Record<string, unknown> }> } | null };

export const RenderRunFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RenderRunFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"RenderRun"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"progress"}},{"kind":"Field","name":{"kind":"Name","value":"attempts"}},{"kind":"Field","name":{"kind":"Name","value":"error"}},{"kind":"Field","name":{"kind":"Name","value":"taskIdentifier"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"startedAt"}},{"kind":"Field","name":{"kind":"Name","value":"finishedAt"}},{"kind":"Field","name":{"kind":"Name","value":"outputExpiredAt"}},{"kind":"Field","name":{"kind":"Name","value":"output"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"mimeType"}},{"kind":"Field","name":{"kind":"Name","value":"bytes"}},{"kind":"Field","name":{"kind":"Name","value":"width"}},{"kind":"Field","name":{"kind":"Name","value":"height"}},{"kind":"Field","name":{"kind":"Name","value":"fps"}},{"kind":"Field","name":{"kind":"Name","value":"durationInFrames"}},{"kind":"Field","name":{"kind":"Name","value":"codec"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}},{"kind":"Field","name":{"kind":"Name","value":"retainedUntil"}}]}}]}}]} as unknown as DocumentNode<RenderRunFieldsFragment, unknown>;
export const ApiKeysDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ApiKeys"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"apiKeys"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"items"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"hint"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"lastUsedAt"}},{"kind":"Field","name":{"kind":"Name","value":"revoked"}},{"kind":"Field","name":{"kind":"Name","value":"revokedAt"}}]}}]}}]}}]} as unknown as DocumentNode<ApiKeysQuery, ApiKeysQueryVariables>;
export const CreateApiKeyDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreateApiKey"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateApiKeyInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createApiKey"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"apiKey"}},{"kind":"Field","name":{"kind":"Name","value":"key"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}}]}}]}}]}}]} as unknown as DocumentNode<CreateApiKeyMutation, CreateApiKeyMutationVariables>;
export const RevokeApiKeyDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RevokeApiKey"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"RevokeApiKeyInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"revokeApiKey"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"hint"}},{"kind":"Field","name":{"kind":"Name","value":"revoked"}},{"kind":"Field","name":{"kind":"Name","value":"revokedAt"}}]}}]}}]} as unknown as DocumentNode<RevokeApiKeyMutation, RevokeApiKeyMutationVariables>;
export const SignupAgentDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"SignupAgent"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"SignupAgentInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"signupAgent"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"accountId"}},{"kind":"Field","name":{"kind":"Name","value":"apiKey"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]} as unknown as DocumentNode<SignupAgentMutation, SignupAgentMutationVariables>;
export const VerifyAgentDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"VerifyAgent"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"VerifyAgentInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"verifyAgent"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"accountId"}},{"kind":"Field","name":{"kind":"Name","value":"apiKey"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]} as unknown as DocumentNode<VerifyAgentMutation, VerifyAgentMutationVariables>;
export const CompositionsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Compositions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"compositions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"props"}},{"kind":"Field","name":{"kind":"Name","value":"example"}}]}}]}}]} as unknown as DocumentNode<CompositionsQuery, CompositionsQueryVariables>;
export const RenderVideoDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RenderVideo"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"RenderVideoInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"renderVideo"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RenderRunFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RenderRunFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"RenderRun"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"progress"}},{"kind":"Field","name":{"kind":"Name","value":"attempts"}},{"kind":"Field","name":{"kind":"Name","value":"error"}},{"kind":"Field","name":{"kind":"Name","value":"taskIdentifier"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"startedAt"}},{"kind":"Field","name":{"kind":"Name","value":"finishedAt"}},{"kind":"Field","name":{"kind":"Name","value":"outputExpiredAt"}},{"kind":"Field","name":{"kind":"Name","value":"output"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"mimeType"}},{"kind":"Field","name":{"kind":"Name","value":"bytes"}},{"kind":"Field","name":{"kind":"Name","value":"width"}},{"kind":"Field","name":{"kind":"Name","value":"height"}},{"kind":"Field","name":{"kind":"Name","value":"fps"}},{"kind":"Field","name":{"kind":"Name","value":"durationInFrames"}},{"kind":"Field","name":{"kind":"Name","value":"codec"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}},{"kind":"Field","name":{"kind":"Name","value":"retainedUntil"}}]}}]}}]} as unknown as DocumentNode<RenderVideoMutation, RenderVideoMutationVariables>;
export const RunsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Runs"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"RunsInput"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"runs"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"items"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RenderRunFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RenderRunFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"RenderRun"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"progress"}},{"kind":"Field","name":{"kind":"Name","value":"attempts"}},{"kind":"Field","name":{"kind":"Name","value":"error"}},{"kind":"Field","name":{"kind":"Name","value":"taskIdentifier"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"startedAt"}},{"kind":"Field","name":{"kind":"Name","value":"finishedAt"}},{"kind":"Field","name":{"kind":"Name","value":"outputExpiredAt"}},{"kind":"Field","name":{"kind":"Name","value":"output"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"mimeType"}},{"kind":"Field","name":{"kind":"Name","value":"bytes"}},{"kind":"Field","name":{"kind":"Name","value":"width"}},{"kind":"Field","name":{"kind":"Name","value":"height"}},{"kind":"Field","name":{"kind":"Name","value":"fps"}},{"kind":"Field","name":{"kind":"Name","value":"durationInFrames"}},{"kind":"Field","name":{"kind":"Name","value":"codec"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}},{"kind":"Field","name":{"kind":"Name","value":"retainedUntil"}}]}}]}}]} as unknown as DocumentNode<RunsQuery, RunsQueryVariables>;
export const CancelRunDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CancelRun"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"runId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cancelRun"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"runId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"runId"}}}]}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RenderRunFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RenderRunFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"RenderRun"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"progress"}},{"kind":"Field","name":{"kind":"Name","value":"attempts"}},{"kind":"Field","name":{"kind":"Name","value":"error"}},{"kind":"Field","name":{"kind":"Name","value":"taskIdentifier"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"startedAt"}},{"kind":"Field","name":{"kind":"Name","value":"finishedAt"}},{"kind":"Field","name":{"kind":"Name","value":"outputExpiredAt"}},{"kind":"Field","name":{"kind":"Name","value":"output"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"mimeType"}},{"kind":"Field","name":{"kind":"Name","value":"bytes"}},{"kind":"Field","name":{"kind":"Name","value":"width"}},{"kind":"Field","name":{"kind":"Name","value":"height"}},{"kind":"Field","name":{"kind":"Name","value":"fps"}},{"kind":"Field","name":{"kind":"Name","value":"durationInFrames"}},{"kind":"Field","name":{"kind":"Name","value":"codec"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}},{"kind":"Field","name":{"kind":"Name","value":"retainedUntil"}}]}}]}}]} as unknown as DocumentNode<CancelRunMutation, CancelRunMutationVariables>;
export const RenderRunDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"RenderRun"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"runId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"renderRun"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"runId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"runId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RenderRunFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RenderRunFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"RenderRun"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"progress"}},{"kind":"Field","name":{"kind":"Name","value":"attempts"}},{"kind":"Field","name":{"kind":"Name","value":"error"}},{"kind":"Field","name":{"kind":"Name","value":"taskIdentifier"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"startedAt"}},{"kind":"Field","name":{"kind":"Name","value":"finishedAt"}},{"kind":"Field","name":{"kind":"Name","value":"outputExpiredAt"}},{"kind":"Field","name":{"kind":"Name","value":"output"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"mimeType"}},{"kind":"Field","name":{"kind":"Name","value":"bytes"}},{"kind":"Field","name":{"kind":"Name","value":"width"}},{"kind":"Field","name":{"kind":"Name","value":"height"}},{"kind":"Field","name":{"kind":"Name","value":"fps"}},{"kind":"Field","name":{"kind":"Name","value":"durationInFrames"}},{"kind":"Field","name":{"kind":"Name","value":"codec"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}},{"kind":"Field","name":{"kind":"Name","value":"retainedUntil"}}]}}]}}]} as unknown as DocumentNode<RenderRunSubscription, RenderRunSubscriptionVariables>;
export const RenderRunsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"RenderRuns"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"status"}},"type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"RunStatus"}}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"initial"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"renderRuns"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"status"},"value":{"kind":"Variable","name":{"kind":"Name","value":"status"}}},{"kind":"Argument","name":{"kind":"Name","value":"initial"},"value":{"kind":"Variable","name":{"kind":"Name","value":"initial"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RenderRunFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RenderRunFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"RenderRun"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"progress"}},{"kind":"Field","name":{"kind":"Name","value":"attempts"}},{"kind":"Field","name":{"kind":"Name","value":"error"}},{"kind":"Field","name":{"kind":"Name","value":"taskIdentifier"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"startedAt"}},{"kind":"Field","name":{"kind":"Name","value":"finishedAt"}},{"kind":"Field","name":{"kind":"Name","value":"outputExpiredAt"}},{"kind":"Field","name":{"kind":"Name","value":"output"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"mimeType"}},{"kind":"Field","name":{"kind":"Name","value":"bytes"}},{"kind":"Field","name":{"kind":"Name","value":"width"}},{"kind":"Field","name":{"kind":"Name","value":"height"}},{"kind":"Field","name":{"kind":"Name","value":"fps"}},{"kind":"Field","name":{"kind":"Name","value":"durationInFrames"}},{"kind":"Field","name":{"kind":"Name","value":"codec"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}},{"kind":"Field","name":{"kind":"Name","value":"retainedUntil"}}]}}]}}]} as unknown as DocumentNode<RenderRunsSubscription, RenderRunsSubscriptionVariables>;
export const TrackStatsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"TrackStats"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"TrackStatsInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"trackStats"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"result"}},{"kind":"Field","name":{"kind":"Name","value":"providerStatus"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"sourceIds"}},{"kind":"Field","name":{"kind":"Name","value":"trackInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"statsTrackId"}},{"kind":"Field","name":{"kind":"Name","value":"releaseDate"}},{"kind":"Field","name":{"kind":"Name","value":"artists"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"stats"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"source"}},{"kind":"Field","name":{"kind":"Name","value":"dataSource"}},{"kind":"Field","name":{"kind":"Name","value":"capturedAt"}},{"kind":"Field","name":{"kind":"Name","value":"data"}}]}}]}}]}}]} as unknown as DocumentNode<TrackStatsQuery, TrackStatsQueryVariables>;