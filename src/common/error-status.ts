import { GraphQLError } from 'graphql';
import Negotiator from 'negotiator';
import { AppError, ErrorCode, findAppError } from './errors';
import { databaseTimeout, databaseUnavailable } from '../db/unavailable';

/**
 * The only table mapping error codes to HTTP statuses (decisions §1): a REST answer, and a GraphQL
 * answer without data asked for as application/graphql-response+json, get this status for a code.
 */
export const ERROR_STATUS: Record<ErrorCode, number> = {
  BAD_USER_INPUT: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  UNPROCESSABLE_CONTENT: 422,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  PROVIDER_ERROR: 502,
  PROVIDER_UNAVAILABLE: 503,
  PROVIDER_TIMEOUT: 504,
  INTERNAL_SERVER_ERROR: 500,
};

export interface ErrorBody {
  status: 'error';
  error: string;
  code: ErrorCode;
  details?: { field: string; message: string }[];
}

export interface HttpError {
  status: number;
  body: ErrorBody;
  headers: Record<string, string>;
  /** Unexpected: log it with its stack; the client sees only a masked message. */
  unexpected: boolean;
}

/**
 * Turns anything thrown or returned as a GraphQL error into the REST error answer. Errors that are
 * not ours are masked: their message may hold SQL or internals.
 */
export function toHttpError(error: unknown): HttpError {
  const appError = toAppError(error);
  if (appError) return fromAppError(appError);
  if (error instanceof GraphQLError && !error.originalError) {
    // Raised by graphql-js while coercing variables: the client sent a value of the wrong type.
    return fromAppError(new AppError('BAD_USER_INPUT', error.message.replace(/^Variable "\$(\w+)"/, '$1')));
  }
  return {
    status: 500,
    body: { status: 'error', error: 'Internal server error', code: 'INTERNAL_SERVER_ERROR' },
    headers: {},
    unexpected: true,
  };
}

/** Our AppError behind an error, or the one an unreachable database maps to (the one place that mapping happens). */
export function toAppError(error: unknown): AppError | undefined {
  return findAppError(error) ?? databaseUnavailable(error) ?? databaseTimeout(error);
}

/** Whole seconds to wait before retrying (`Retry-After` and `extensions.retryAfter` say the same). */
export function retryAfterSeconds(error: AppError): number | undefined {
  return error.retryAfter === undefined ? undefined : Math.max(0, Math.ceil(error.retryAfter));
}

export function fromAppError(error: AppError): HttpError {
  const status = ERROR_STATUS[error.code];
  const headers: Record<string, string> = {};
  const retryAfter = retryAfterSeconds(error);
  if (retryAfter !== undefined) headers['Retry-After'] = String(retryAfter);
  const masked = status >= 500 && error.code === 'INTERNAL_SERVER_ERROR';
  return {
    status,
    body: {
      status: 'error',
      error: masked ? 'Internal server error' : error.message,
      code: error.code,
      ...(error.details?.length ? { details: error.details } : {}),
    },
    headers,
    unexpected: masked,
  };
}

/** The two media types a GraphQL answer over HTTP comes in (GraphQL over HTTP, "Media Types"). */
export type GraphQLMediaType = 'application/json' | 'application/graphql-response+json';

/**
 * The media type /graphql answers with for an Accept header, negotiated as Apollo Server does (its
 * three candidates, in its order; the JSONP-callback flavour is JSON): no Accept is
 * application/json; undefined when the client accepts neither (Apollo answers 406).
 */
export function graphqlMediaType(accept: string | undefined): GraphQLMediaType | undefined {
  if (!accept) return 'application/json';
  const preferred = new Negotiator({ headers: { accept } }).mediaType([
    'application/json; charset=utf-8',
    'application/graphql-response+json; charset=utf-8',
    'application/json; callbackSpec=1.0; charset=utf-8',
  ]);
  if (!preferred) return undefined;
  return preferred.startsWith('application/graphql-response+json') ? 'application/graphql-response+json' : 'application/json';
}

/**
 * Statuses a request gets for what it is as an HTTP request, before it is a GraphQL request at all
 * (method, Accept, body size, Content-Type): they stay whatever the media type.
 */
const HTTP_LEVEL_STATUSES: ReadonlySet<number> = new Set([405, 406, 413, 415]);

/**
 * The HTTP status of a GraphQL answer over HTTP (GraphQL over HTTP, "Status Codes"), decided here
 * for every GraphQL answer of /graphql:
 * - application/json: 200 for every answer to a well-formed GraphQL-over-HTTP request, whatever
 *   its errors (a gateway reads the codes from `errors[].extensions.code`);
 * - application/graphql-response+json: 200 when the answer has data (a partial answer); without
 *   data, or with `data: null` (nothing of the operation answered), the status of the first
 *   error's code in ERROR_STATUS, so one code has one status on REST and GraphQL alike; codes of
 *   Apollo's own (parse, validation, persisted queries) keep Apollo's status.
 * `current` is the status Apollo would answer with.
 */
export function graphqlAnswerStatus(mediaType: GraphQLMediaType, answer: { data?: unknown; errors?: readonly { extensions?: Record<string, unknown> }[] }, current: number | undefined): number {
  if (current !== undefined && HTTP_LEVEL_STATUSES.has(current)) return current;
  if (mediaType === 'application/json') return 200;
  if (answer.data !== undefined && answer.data !== null) return 200;
  const code = answer.errors?.[0]?.extensions?.code;
  if (typeof code === 'string' && code in ERROR_STATUS) return ERROR_STATUS[code as ErrorCode];
  if (answer.data === null || !answer.errors?.length) return 200;
  return current ?? 500;
}
