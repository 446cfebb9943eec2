import { GraphQLError } from 'graphql';
import { AppError, ErrorCode, findAppError } from '../../common/errors';
import { databaseTimeout, databaseUnavailable } from '../../db/unavailable';

/** The only table mapping error codes to HTTP statuses (decisions §1). */
export const ERROR_STATUS: Record<ErrorCode, number> = {
  BAD_USER_INPUT: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
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

export function fromAppError(error: AppError): HttpError {
  const status = ERROR_STATUS[error.code];
  const headers: Record<string, string> = {};
  if (error.retryAfter !== undefined) headers['Retry-After'] = String(Math.max(0, Math.ceil(error.retryAfter)));
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
