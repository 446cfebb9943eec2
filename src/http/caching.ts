import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { DocumentNode, FragmentDefinitionNode, Kind, OperationDefinitionNode, SelectionSetNode } from 'graphql';

/**
 * How an answer to a GET may be kept (docs/api/caching.md):
 * - `reuse`: the same for every caller and slow to change (provider data, the composition list):
 *   `private, max-age=N`: the caller's own cache may answer from it for N seconds;
 * - `revalidate`: the caller's own data, which its own writes change: `private, no-cache`, kept by
 *   the caller's cache only, and asked again before each use;
 * - `no-store`: secrets (API keys, signed video links) or state of this request only (errors,
 *   health, metrics): never kept anywhere.
 */
export type CachePolicy = { kind: 'reuse'; maxAgeS: number } | { kind: 'revalidate' } | { kind: 'no-store' };

export const REUSE_PROVIDER_DATA: CachePolicy = { kind: 'reuse', maxAgeS: 60 };
export const REVALIDATE: CachePolicy = { kind: 'revalidate' };
export const NO_STORE: CachePolicy = { kind: 'no-store' };
/** Public pages and documents, the same for everyone, changing with a release only. */
export const PUBLIC_PAGE = 'public, max-age=300';

/** The request headers an answer depends on besides its URL: the two credentials. */
export const CREDENTIAL_HEADERS = ['Authorization', 'x-api-key'] as const;

/**
 * The policy of each root query field, read by REST GET routes (their operation) and GraphQL GET
 * queries (the strictest of their root fields). A field not listed is `no-store`.
 */
export const QUERY_CACHE: Readonly<Record<string, CachePolicy>> = {
  // Provider data served from the shared store: the same for every caller, refreshed on its own TTL.
  trackStats: REUSE_PROVIDER_DATA,
  discover: REUSE_PROVIDER_DATA,
  curator: REUSE_PROVIDER_DATA,
  researchGenres: REUSE_PROVIDER_DATA,
  researchTracks: REUSE_PROVIDER_DATA,
  researchPlaylists: REUSE_PROVIDER_DATA,
  researchSearch: REUSE_PROVIDER_DATA,
  researchArtist: REUSE_PROVIDER_DATA,
  platformASearch: REUSE_PROVIDER_DATA,
  // Fixed by the release.
  compositions: { kind: 'reuse', maxAgeS: 300 },
  // The caller's own rows: its writes change them.
  me: REVALIDATE,
  organizations: REVALIDATE,
  artist: REVALIDATE,
  artists: REVALIDATE,
  artistSocials: REVALIDATE,
  artistSocialsById: REVALIDATE,
  catalog: REVALIDATE,
  catalogs: REVALIDATE,
  catalogSongs: REVALIDATE,
  song: REVALIDATE,
  agentTemplates: REVALIDATE,
  sessions: REVALIDATE,
  sessionChats: REVALIDATE,
  // Webhook endpoints (never their secrets) and their delivery logs: the caller's own, changed by its writes and by the delivery workers.
  webhookEndpoints: REVALIDATE,
  webhookEndpoint: REVALIDATE,
  webhookDeliveries: REVALIDATE,
  // The account's usage (it grows as the account works: revalidated each time) and its limits.
  usage: REVALIDATE,
  accountLimits: REVALIDATE,
  // Credentials, and runs with their signed video links.
  apiKeys: NO_STORE,
  runs: NO_STORE,
};

export function cacheControl(policy: CachePolicy): string {
  if (policy.kind === 'reuse') return `private, max-age=${policy.maxAgeS}`;
  if (policy.kind === 'revalidate') return 'private, no-cache';
  return 'no-store';
}

/** The stricter of two policies: no-store over revalidate over reuse, and the shorter max-age. */
export function stricter(a: CachePolicy, b: CachePolicy): CachePolicy {
  const rank = (p: CachePolicy) => (p.kind === 'no-store' ? 2 : p.kind === 'revalidate' ? 1 : 0);
  if (rank(a) !== rank(b)) return rank(a) > rank(b) ? a : b;
  return a.kind === 'reuse' && b.kind === 'reuse' && b.maxAgeS < a.maxAgeS ? b : a;
}

export function queryFieldPolicy(fieldName: string): CachePolicy {
  return Object.hasOwn(QUERY_CACHE, fieldName) ? QUERY_CACHE[fieldName]! : NO_STORE;
}

/**
 * The policy of a GraphQL query: the strictest of its root fields (through fragments); `__typename`
 * alone says nothing, introspection is `revalidate`. Anything but a query is `no-store`.
 */
export function operationPolicy(document: DocumentNode, operation: OperationDefinitionNode | undefined): CachePolicy {
  if (!operation || operation.operation !== 'query') return NO_STORE;
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  let policy: CachePolicy | undefined;
  const seen = new Set<string>();
  const walk = (selectionSet: SelectionSetNode) => {
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.FIELD) {
        const name = selection.name.value;
        if (name === '__typename') continue;
        const field = name.startsWith('__') ? REVALIDATE : queryFieldPolicy(name);
        policy = policy ? stricter(policy, field) : field;
      } else if (selection.kind === Kind.INLINE_FRAGMENT) walk(selection.selectionSet);
      else if (!seen.has(selection.name.value)) {
        seen.add(selection.name.value);
        const fragment = fragments.get(selection.name.value);
        if (fragment) walk(fragment.selectionSet);
      }
    }
  };
  walk(operation.selectionSet);
  return policy ?? REVALIDATE;
}

/**
 * First on every request: a GET (or HEAD) answer varies with the credentials, and is `no-store`
 * unless its route says otherwise (docs/api/caching.md). Errors stay `no-store` (sendError).
 */
export function httpCaching(): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method === 'GET' || req.method === 'HEAD') {
      for (const header of CREDENTIAL_HEADERS) res.vary(header);
      res.setHeader('cache-control', cacheControl(NO_STORE));
    }
    next();
  };
}
