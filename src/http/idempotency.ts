import { createHash } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { getOperationAST, parse } from 'graphql';
import { AppError } from '../common/errors';
import type { Logger } from '../common/logger';
import type { Config } from '../config/config';
import type { Orm } from '../db/orm';
import { IdempotencyRepository } from './idempotency.repository';
import { budgetDetails } from '../auth/rate-limit';
import { requestDb, poolDb } from '../db/request-db';
import type { Viewer } from '../auth/viewer';
import { headerValue, RequestDeps } from '../request/context';
import { retryAfterSeconds, toAppError, toHttpError } from '../common/error-status';

/** The request header (IETF draft "The Idempotency-Key HTTP Header Field") and the one a replay carries. */
export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const REPLAYED_HEADER = 'idempotency-replayed';

/** Printable ASCII, no spaces at either end: what the draft's sf-string may carry, and all a client needs. */
const KEY_CHARACTERS = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;
/** Answer headers kept with the answer and sent again on a replay. */
const KEPT_HEADERS = ['content-type', 'location'];
/** Codes of answers that did nothing for sure or may do better on a retry: the key is let go, a repeat runs again. */
const TRANSIENT_CODES = new Set(['RATE_LIMITED', 'INTERNAL_SERVER_ERROR', 'PROVIDER_UNAVAILABLE', 'PROVIDER_TIMEOUT', 'UNAUTHENTICATED']);
const PRUNE_INTERVAL_MS = 60_000;
const PRUNE_BATCH = 1000;

export type IdempotencyLimits = Config['idempotency'];

/** What the first request with a key left behind, as a repeat finds it. */
export type Claim =
  | { kind: 'mine' }
  | { kind: 'replay'; status: number; headers: Record<string, string>; body: Buffer }
  | { kind: 'mismatch' }
  | { kind: 'running'; retryAfterS: number }
  | { kind: 'unkept' }
  | { kind: 'full' };

/**
 * Idempotency keys shared by every instance (the table `idempotency_keys`): one row per account and
 * key, claimed by the first request in one statement (an insert that a concurrent duplicate cannot
 * also win), then holding that request's answer for IDEMPOTENCY_TTL_HOURS.
 */
export class IdempotencyStore {
  private timer?: NodeJS.Timeout;
  private readonly keys: IdempotencyRepository;

  constructor(
    orm: Orm,
    readonly limits: IdempotencyLimits,
    readonly logger: Logger,
  ) {
    this.keys = new IdempotencyRepository(poolDb(orm));
  }

  /**
   * Claims `key` for the account's request on `route` with this body `fingerprint`: `mine` (run it),
   * or what a repeat gets. An expired key, or one whose first request has been running past
   * IDEMPOTENCY_RUNNING_TIMEOUT_S (its instance died), is claimed afresh.
   */
  async claim(accountId: string, key: string, route: string, fingerprint: string): Promise<Claim> {
    this.startPruning();
    const { ttlHours, maxKeysPerAccount, runningTimeoutS } = this.limits;
    const row = await this.keys.claim(accountId, key, route, fingerprint, { ttlHours, maxKeysPerAccount, runningTimeoutS });
    if (row.mine) return { kind: 'mine' };
    if (row.state === null) {
      // No row this statement could see: a concurrent first request holds it (committed after our snapshot), or the account is full.
      return Number(row.held) >= maxKeysPerAccount ? { kind: 'full' } : { kind: 'running', retryAfterS: 1 };
    }
    if (row.route !== route || row.fingerprint !== fingerprint) return { kind: 'mismatch' };
    if (row.state === 'running') return { kind: 'running', retryAfterS: Math.min(Number(row.wait_s ?? 1), runningTimeoutS) };
    if (row.state === 'unkept') return { kind: 'unkept' };
    return { kind: 'replay', status: Number(row.status), headers: row.headers ?? {}, body: row.body ?? Buffer.alloc(0) };
  }

  /** Keeps the first request's answer (or, past IDEMPOTENCY_MAX_ANSWER_BYTES, that there was one). */
  async complete(accountId: string, key: string, status: number, headers: Record<string, string>, body: Buffer): Promise<void> {
    const kept = body.length <= this.limits.maxAnswerBytes;
    await this.keys.complete(accountId, key, kept ? 'done' : 'unkept', status, headers, kept ? body : null);
  }

  /** Lets the key go: the first request did nothing a repeat could not do again (refused, failed). */
  async release(accountId: string, key: string): Promise<void> {
    await this.keys.release(accountId, key);
  }

  /** Deletes expired keys, a batch a minute from each instance (they are never answered once expired anyway). */
  async prune(): Promise<number> {
    return this.keys.prune(PRUNE_BATCH);
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  private startPruning(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      this.prune().catch((error: unknown) => this.logger.warn({ err: error }, 'pruning idempotency keys failed'));
    }, PRUNE_INTERVAL_MS);
    this.timer.unref();
  }
}

/** A JSON value with its object members in sorted order, so `{"a":1,"b":2}` and `{"b":2,"a":1}` are the same body. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

/** The fingerprint of a request: its route and its JSON body (and query string) in canonical form. */
export function fingerprintOf(route: string, query: unknown, body: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify([route, canonical(query ?? {}), canonical(body ?? null)]))
    .digest('hex');
}

/** The Idempotency-Key of a request, checked: undefined when absent; a 400 naming the header when malformed. */
export function idempotencyKeyOf(req: Request, maxLength: number): string | undefined {
  const raw = req.headers[IDEMPOTENCY_HEADER];
  if (raw === undefined) return undefined;
  const problem = (message: string) => new AppError('BAD_USER_INPUT', `Idempotency-Key: ${message}`, { details: [{ field: 'Idempotency-Key', message }] });
  if (Array.isArray(raw)) throw problem('send it once');
  // The draft's sf-string form ("…") is accepted as well as the bare token clients commonly send.
  const key = /^".*"$/.test(raw) ? raw.slice(1, -1) : raw;
  if (key.length === 0) throw problem('must not be empty');
  if (key.length > maxLength) throw problem(`must be at most ${maxLength} characters`);
  if (!KEY_CHARACTERS.test(key)) throw problem('must be printable ASCII without leading or trailing spaces');
  return key;
}

/** Whether a POST /graphql body runs a mutation (or may: a persisted-query hash alone, an unparsable document is Apollo's to refuse). */
export function mayMutate(body: unknown): boolean {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return false;
  const { query, operationName } = body as { query?: unknown; operationName?: unknown };
  if (typeof query !== 'string') return true;
  try {
    const document = parse(query, { maxTokens: 100_000 });
    const operation = getOperationAST(document, typeof operationName === 'string' ? operationName : undefined);
    return operation?.operation === 'mutation';
  } catch {
    // Apollo answers the parse error; nothing runs.
    return false;
  }
}

/** Whether an answer says nothing was done, or that a retry may do better: the key is let go instead of kept. */
export function transientAnswer(status: number, body: Buffer): boolean {
  if (status === 401 || status === 429 || status >= 500) return true;
  if (status !== 200) return false;
  // GraphQL answers refusals as 200 application/json: an answer without data whose errors are all transient.
  try {
    const answer = JSON.parse(body.toString('utf8')) as { data?: unknown; errors?: { extensions?: { code?: unknown } }[] };
    if (answer.data !== undefined && answer.data !== null) return false;
    return Boolean(answer.errors?.length) && answer.errors!.every((e) => TRANSIENT_CODES.has(String(e.extensions?.code)));
  } catch {
    return false;
  }
}

/**
 * The Idempotency-Key handling of one POST, for the REST router and /graphql alike: claims the key
 * for `accountId`, then either lets the request run (keeping its answer: the answer is written only
 * once the key holds it, so a client that saw it and repeats gets the replay), or answers the repeat:
 * the first answer again with `Idempotency-Replayed: true`, 422 for another body or route, 409 with
 * Retry-After while the first runs, 429 when the account holds IDEMPOTENCY_MAX_KEYS_PER_ACCOUNT keys.
 */
export async function idempotent(store: IdempotencyStore, req: Request, res: Response, next: NextFunction, accountId: string, key: string): Promise<void> {
  const route = `${req.method} ${req.baseUrl}${req.path}`;
  const claim = await store.claim(accountId, key, route, fingerprintOf(route, req.query, req.body));
  switch (claim.kind) {
    case 'mine':
      keepAnswer(store, res, accountId, key);
      next();
      return;
    case 'replay':
      res.status(claim.status).set(claim.headers).set(REPLAYED_HEADER, 'true').set('cache-control', 'no-store').end(claim.body);
      return;
    case 'mismatch':
      throw new AppError('UNPROCESSABLE_CONTENT', 'This Idempotency-Key was used with another request body or route; use a new key for a new request', {
        details: [{ field: 'Idempotency-Key', message: 'was used with another request body or route' }],
      });
    case 'running':
      throw new AppError('CONFLICT', 'A request with this Idempotency-Key is still being processed; retry later', {
        retryAfter: claim.retryAfterS,
        details: [{ field: 'Idempotency-Key', message: 'its first request is still being processed' }],
      });
    case 'unkept':
      throw new AppError('CONFLICT', `The request with this Idempotency-Key was done, but its answer was larger than ${store.limits.maxAnswerBytes} bytes and was not kept`, {
        details: [{ field: 'Idempotency-Key', message: 'was used; its answer was not kept' }],
      });
    case 'full':
      throw new AppError('RATE_LIMITED', `This account holds ${store.limits.maxKeysPerAccount} unexpired idempotency keys; retry once some expire`, {
        retryAfter: 3600,
        details: budgetDetails('idempotency_keys', 3600),
      });
  }
}

/** Holds the answer back until the key keeps it (or lets the key go when the answer is transient). */
function keepAnswer(store: IdempotencyStore, res: Response, accountId: string, key: string): void {
  const chunks: Buffer[] = [];
  const write = res.write.bind(res) as (chunk: unknown, ...rest: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => Response;
  const toBuffer = (chunk: unknown, encoding?: unknown) =>
    Buffer.isBuffer(chunk) ? chunk : chunk instanceof Uint8Array ? Buffer.from(chunk) : Buffer.from(String(chunk), typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
  let settled = false;
  const settle = (promise: Promise<void>) =>
    promise.catch((error: unknown) => {
      store.logger.warn({ err: error }, 'keeping an idempotent answer failed');
    });
  res.write = ((chunk: unknown, encoding?: unknown, callback?: unknown) => {
    if (chunk !== undefined && chunk !== null && typeof chunk !== 'function') chunks.push(toBuffer(chunk, encoding));
    return write(chunk, encoding, callback);
  }) as Response['write'];
  res.end = ((chunk?: unknown, encoding?: unknown, callback?: unknown) => {
    if (settled) return end(chunk, encoding, callback);
    settled = true;
    if (chunk !== undefined && chunk !== null && typeof chunk !== 'function') chunks.push(toBuffer(chunk, encoding));
    const body = Buffer.concat(chunks);
    const status = res.statusCode;
    const headers: Record<string, string> = {};
    for (const name of KEPT_HEADERS) {
      const value = res.getHeader(name);
      if (value !== undefined) headers[name] = String(value);
    }
    const keeping = transientAnswer(status, body) ? store.release(accountId, key) : store.complete(accountId, key, status, headers, body);
    void settle(keeping).then(() => end(chunk, encoding, callback));
    return res;
  }) as Response['end'];
  // A client gone before the answer changes nothing: the operation goes on, and its answer is kept when it ends.
}

/** What the /graphql gate uses of the app's collaborators (src/deps.ts's AppDeps is one). */
export type IdempotencyDeps = Pick<RequestDeps, 'config' | 'orm' | 'logger' | 'authenticator'> & { idempotency: IdempotencyStore };

/**
 * Idempotency-Key on POST /graphql: honoured for a mutation of an authenticated caller (a query, or a
 * request without credentials, goes on as if the header were absent). A refusal (400, 409, 422, 429)
 * is a GraphQL answer with that HTTP status: nothing ran.
 */
export function graphqlIdempotency(deps: IdempotencyDeps) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    if (req.method !== 'POST' || req.headers[IDEMPOTENCY_HEADER] === undefined || !mayMutate(req.body)) {
      next();
      return;
    }
    try {
      const key = idempotencyKeyOf(req, deps.config.idempotency.maxKeyLength)!;
      let viewer: Viewer | null;
      try {
        viewer = await deps.authenticator.authenticate(requestDb(deps.orm), {
          apiKey: headerValue(req.headers['x-api-key']),
          authorization: req.headers.authorization,
        });
      } catch {
        // Apollo's context answers the bad credentials (and charges for them).
        viewer = null;
      }
      if (!viewer) {
        next();
        return;
      }
      await idempotent(deps.idempotency, req, res, next, viewer.accountId, key);
    } catch (error) {
      const http = toHttpError(error);
      if (http.unexpected) deps.logger.error({ err: error }, 'unexpected error in idempotency');
      const appError = toAppError(error);
      const extensions = {
        code: http.body.code,
        ...(appError?.details ? { details: appError.details } : {}),
        ...(appError?.retryAfter !== undefined ? { retryAfter: retryAfterSeconds(appError) } : {}),
      };
      res.status(http.status).set(http.headers).set('cache-control', 'no-store').json({ errors: [{ message: http.body.error, extensions }] });
    }
  };
}
