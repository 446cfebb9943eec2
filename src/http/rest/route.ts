import type { z } from 'zod';
import type { ErrorCode } from '../../common/errors';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** One documented REST path, mapped to the GraphQL operation that serves it. */
export interface RestRoute {
  /** `Query.field` or `Mutation.field` of the plain schema. */
  operation: `Query.${string}` | `Mutation.${string}`;
  method: HttpMethod;
  /** Path below /api, with `:param` segments bound to arguments of the same name. */
  path: string;
  /** Served without credentials (decisions §2). */
  public?: boolean;
  responseStatus?: number;
  /**
   * Body or query keys this route must never receive, each with the message of its 400 (e.g.
   * account_id on API key creation: keys are personal).
   */
  refusedFields?: Record<string, string>;
  /**
   * Body keys that must be present even where null is a meaningful value (sofa drops nulls, so the
   * operation cannot tell an absent key from null), each with the message of its 400.
   */
  requiredBodyFields?: Record<string, string>;
  /**
   * The zod schema of the operation's arguments: the same one its service validates with. The
   * OpenAPI document takes bounds, defaults and enums from it (z.toJSONSchema).
   */
  input?: z.ZodObject;
  tags?: string[];
  description?: string;
  /** A complete request body that works as is: the document's example (Swagger "Try it out" starts from it). */
  example?: Record<string, unknown>;
  /**
   * Error codes this route answers with beyond the ones the OpenAPI document infers (400 with
   * input, 401/403 with credentials, 404 with path parameters or id arguments, 500, 503), e.g.
   * CONFLICT, RATE_LIMITED, PROVIDER_ERROR, PROVIDER_TIMEOUT.
   */
  errors?: ErrorCode[];
  /** Leave top-level members that are null out of the answer (members the contract says appear only sometimes). */
  omitNullFields?: boolean;
  /**
   * What the answer carries of the operation's result: a GraphQL selection on its type, usually a
   * REST shape spread in (`...CatalogSong`, see shapes.ts); aliases give fields their REST names.
   * Empty for a scalar result.
   */
  select: string;
  /** How the edge wraps the result (the contract's envelope); without it the result is the answer. */
  answer?: RestEnvelope;
}

/**
 * The REST envelope around an operation's result, `{ status: "success", ... }`:
 * - `{ key }`: the result under `key` (`{status, catalog}`, `{status, catalogs}`);
 * - `{ key, page: true }`: a page's items under `key`, and its `pagination`;
 * - `{ key, items: true }`: a page's items under `key` alone (a list the contract answers whole, a page in the graph);
 * - `{ spread: true }`: the result's own members beside `status`.
 * `name` is its OpenAPI component (one name may serve several routes with the same answer);
 * `status` its status member when the contract says other than `success` (an accepted render: `processing`).
 * A page whose pagination is null (the type allows it) passes it on as null.
 */
export type RestEnvelope = { name: string; description?: string; status?: string } & ({ key: string; page?: boolean; items?: boolean } | { spread: true });

/** The contract's answer for an operation's result. */
export function wrapAnswer(envelope: RestEnvelope | undefined, result: unknown): unknown {
  if (!envelope) return result;
  const status = envelope.status ?? 'success';
  if ('spread' in envelope) return { status, ...(result as Record<string, unknown>) };
  if (envelope.page) {
    const page = result as { items: unknown[]; pagination: unknown };
    return { status, [envelope.key]: page.items, pagination: page.pagination };
  }
  if (envelope.items) return { status, [envelope.key]: (result as { items: unknown[] }).items };
  return { status, [envelope.key]: result };
}
