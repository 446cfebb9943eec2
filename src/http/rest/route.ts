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
}
