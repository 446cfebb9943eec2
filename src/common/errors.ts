/**
 * The one error model. Services throw AppError with a code; the REST face maps the code to an
 * HTTP status (src/common/error-status.ts), the GraphQL face carries it in extensions.code.
 */
export const ERROR_CODES = [
  'BAD_USER_INPUT',
  'UNAUTHENTICATED',
  'FORBIDDEN',
  'NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'CONFLICT',
  'UNPROCESSABLE_CONTENT',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'RATE_LIMITED',
  'PROVIDER_ERROR',
  'PROVIDER_UNAVAILABLE',
  'PROVIDER_TIMEOUT',
  'INTERNAL_SERVER_ERROR',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export interface FieldProblem {
  field: string;
  message: string;
}

export interface AppErrorOptions {
  details?: FieldProblem[];
  /** Seconds a client should wait before retrying (429 / 503). */
  retryAfter?: number;
  cause?: unknown;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details?: FieldProblem[];
  readonly retryAfter?: number;
  /** graphql-js copies `extensions` of an original error onto the GraphQLError it wraps it in. */
  readonly extensions: Record<string, unknown>;

  constructor(code: ErrorCode, message: string, options: AppErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.details = options.details;
    this.retryAfter = options.retryAfter;
    this.extensions = {
      code,
      ...(options.details ? { details: options.details } : {}),
      ...(options.retryAfter !== undefined ? { retryAfter: options.retryAfter } : {}),
    };
  }
}

/** The most fields one 400 lists: a body with thousands of bad items must not make a megabyte of error. */
export const MAX_DETAILS = 20;

/** The BAD_USER_INPUT naming each invalid field (the first MAX_DETAILS of them). */
export function invalidInput(problems: FieldProblem[]): AppError {
  const details = problems.slice(0, MAX_DETAILS);
  const more = problems.length > details.length ? ` (and ${problems.length - details.length} more)` : '';
  return new AppError('BAD_USER_INPUT', `Invalid input: ${details.map((p) => `${p.field}: ${p.message}`).join('; ')}${more}`, { details });
}

export const badInput = (field: string, message: string): AppError =>
  new AppError('BAD_USER_INPUT', `${field}: ${message}`, { details: [{ field, message }] });

export const notFound = (what: string): AppError => new AppError('NOT_FOUND', `${what} not found`);

export const forbidden = (message = 'Insufficient access to the requested account or organization'): AppError =>
  new AppError('FORBIDDEN', message);

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}

/** Walks GraphQLError.originalError / cause chains to the AppError that started it, if any. */
export function findAppError(error: unknown): AppError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current; depth += 1) {
    if (current instanceof AppError) return current;
    const next = (current as { originalError?: unknown }).originalError;
    current = next ?? undefined;
  }
  return undefined;
}
