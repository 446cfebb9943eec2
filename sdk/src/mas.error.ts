/** The service's error codes (decisions.md §1); an unknown future code still arrives as a string. */
export type MasErrorCode =
  | 'BAD_USER_INPUT'
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'RATE_LIMITED'
  | 'PROVIDER_ERROR'
  | 'PROVIDER_UNAVAILABLE'
  | 'PROVIDER_TIMEOUT'
  | 'INTERNAL_SERVER_ERROR'
  | 'NETWORK_ERROR';

export interface MasFieldProblem {
  field: string;
  message: string;
}

const CODE_STATUS: Record<string, number> = {
  BAD_USER_INPUT: 400,
  GRAPHQL_PARSE_FAILED: 400,
  GRAPHQL_VALIDATION_FAILED: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  PROVIDER_ERROR: 502,
  PROVIDER_UNAVAILABLE: 503,
  PROVIDER_TIMEOUT: 504,
  INTERNAL_SERVER_ERROR: 500,
};

/** An error the service answered (or the network failed with), with the service's code. */
export class MasError extends Error {
  readonly code: MasErrorCode | (string & {});
  /** HTTP status of the answer; for a GraphQL error in a 200 answer, the status its code maps to; 0 for a network failure. */
  readonly status: number;
  readonly details?: MasFieldProblem[];
  /** Seconds the service asked to wait (429 / 503). */
  readonly retryAfter?: number;

  constructor(code: string, message: string, options: { status?: number; details?: MasFieldProblem[]; retryAfter?: number; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'MasError';
    this.code = code;
    this.status = options.status ?? CODE_STATUS[code] ?? 500;
    this.details = options.details;
    this.retryAfter = options.retryAfter;
  }
}

/** The status a code stands for, when a GraphQL answer was 200 with errors. */
export function statusOfCode(code: string): number {
  return CODE_STATUS[code] ?? 500;
}
