import { AppError } from '../common/errors';

/** Seconds a client is told to wait while PostgreSQL is unreachable. */
export const DATABASE_RETRY_AFTER_S = 5;

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNABORTED']);
// pg and knex/tarn report a lost or unobtainable connection only in the message.
const MESSAGES = [
  /Connection terminated/i,
  /Connection ended unexpectedly/i,
  /timeout exceeded when trying to connect/i,
  // pg.Client's own connectionTimeoutMillis (a server that accepts but never answers).
  /^timeout expired$/i,
  /Client has encountered a connection error/i,
  /Client was closed and is not queryable/i,
  /Timeout acquiring a connection/i,
  /the database system is (starting up|shutting down|in recovery mode)/i,
  /terminating connection due to administrator command/i,
];

/**
 * Whether an error means PostgreSQL is unreachable (not that a statement was wrong): network
 * errors, lost connections, pool acquire timeouts, SQLSTATE classes 08 (connection exception) and
 * 57P0x (server shutting down or starting). Walks cause/originalError/thrownValue chains.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current && typeof current === 'object'; depth += 1) {
    const e = current as { code?: unknown; sqlState?: unknown; name?: unknown; message?: unknown; cause?: unknown; originalError?: unknown; thrownValue?: unknown };
    const code = typeof e.code === 'string' ? e.code : typeof e.sqlState === 'string' ? e.sqlState : '';
    if (NETWORK_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code) || /^57P0[1-4]$/.test(code)) return true;
    if (e.name === 'KnexTimeoutError' || e.name === 'ConnectionException') return true;
    if (typeof e.message === 'string' && MESSAGES.some((m) => m.test(e.message as string))) return true;
    // graphql-js wraps a thrown non-Error (pg's connect failure can be one) in NonErrorThrown.thrownValue.
    current = e.originalError ?? e.thrownValue ?? e.cause;
  }
  return false;
}

/** The error table's answer for an unreachable database (503, Retry-After); undefined for any other error. */
export function databaseUnavailable(error: unknown): AppError | undefined {
  if (!isDatabaseUnavailable(error)) return undefined;
  return new AppError('PROVIDER_UNAVAILABLE', 'The database is unavailable; try again shortly', { retryAfter: DATABASE_RETRY_AFTER_S, cause: error });
}

/** Seconds a client is told to wait after a statement ran past DATABASE_STATEMENT_TIMEOUT_MS. */
const TIMEOUT_RETRY_AFTER_S = 5;

/**
 * PROVIDER_TIMEOUT (504) for a statement PostgreSQL cancelled (SQLSTATE 57014: statement_timeout, or
 * cancelled because its client went away); undefined for any other error. The message names no SQL.
 */
export function databaseTimeout(error: unknown): AppError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current && typeof current === 'object'; depth += 1) {
    const e = current as { code?: unknown; sqlState?: unknown; cause?: unknown; originalError?: unknown; thrownValue?: unknown };
    if (e.code === '57014' || e.sqlState === '57014') {
      return new AppError('PROVIDER_TIMEOUT', 'The database did not answer in time; narrow the request (a smaller page) or try again', {
        retryAfter: TIMEOUT_RETRY_AFTER_S,
        cause: error,
      });
    }
    current = e.originalError ?? e.thrownValue ?? e.cause;
  }
  return undefined;
}
