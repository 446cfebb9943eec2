import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { print } from 'graphql';
import { Client as WsClient, createClient } from 'graphql-ws';
import WebSocket from 'ws';
import {
  ApiKeysDocument, CancelRunDocument, CompositionsDocument, CreateApiKeyDocument, RenderRunDocument, RenderRunFieldsFragment, RenderRunsDocument,
  RenderVideoDocument, RenderVideoInput, RevokeApiKeyDocument, RunsDocument, SignupAgentDocument, TrackStatsDocument,
  RunStatus, TrackStatsInput, VerifyAgentDocument,
} from './generated.js';
import { MasError, MasFieldProblem, statusOfCode } from './mas.error.js';

export interface MasClientOptions {
  /** Base URL of the service, e.g. https://api.example.com (no trailing /graphql). */
  url: string;
  /** An API key (x-api-key); or `token` for a Bearer JWT. */
  apiKey?: string;
  token?: string;
  /**
   * Retries of a 429 or 503 answer (default 3); each waits Retry-After seconds. Every POST carries an
   * Idempotency-Key (one per call, the same on each retry), so a POST is also retried after a network
   * failure or timeout, and on a 409 with Retry-After (its first try still running): the service
   * answers a repeat with the first answer and does nothing twice.
   */
  retries?: number;
  /** Longest single wait for Retry-After, in ms (default 60 000); a longer ask fails at once. */
  maxRetryDelayMs?: number;
  /** Called before each retry wait (for logs and progress): `status` 0 is a network failure; `reason` says what happened in words. */
  onRetry?: (info: { attempt: number; status: number; delayMs: number; reason: string }) => void;
  /** Abort requests after this many ms (default 30 000). */
  timeoutMs?: number;
}

export type RenderRun = RenderRunFieldsFragment;
export type RenderRequest = RenderVideoInput;

const TERMINAL = new Set(['COMPLETED', 'FAILED', 'CANCELED']);
const RETRYABLE = new Set([429, 503]);

interface GraphQLAnswer<T> {
  data?: T | null;
  errors?: { message: string; extensions?: { code?: string; details?: MasFieldProblem[]; retryAfter?: number } }[];
}

/** One client for both transports: queries and mutations over HTTP, run status over graphql-ws. */
export class MasClient {
  private readonly base: string;
  private ws?: WsClient;

  constructor(private readonly options: MasClientOptions) {
    this.base = options.url.replace(/\/+$/, '');
  }

  private credentials(): Record<string, string> {
    if (this.options.apiKey) return { 'x-api-key': this.options.apiKey };
    if (this.options.token) return { authorization: `Bearer ${this.options.token}` };
    return {};
  }

  /**
   * fetch (a path under the base, or an absolute URL) with the credentials, retrying 429/503 after
   * Retry-After; a POST carries one Idempotency-Key on every try, and is also retried after a network
   * failure and on a 409 with Retry-After. A network failure with no retry left is a MasError NETWORK_ERROR.
   */
  private async send(path: string, init: RequestInit, withCredentials = true): Promise<Response> {
    const retries = this.options.retries ?? 3;
    const maxDelay = this.options.maxRetryDelayMs ?? 60_000;
    const keyed = init.method === 'POST';
    const idempotency: Record<string, string> = keyed ? { 'idempotency-key': globalThis.crypto.randomUUID() } : {};
    for (let attempt = 0; ; attempt += 1) {
      let res: Response;
      try {
        res = await fetch(/^https?:\/\//.test(path) ? path : `${this.base}${path}`, {
          ...init,
          headers: { ...(withCredentials ? this.credentials() : {}), ...idempotency, ...(init.headers as Record<string, string> | undefined) },
          signal: AbortSignal.timeout(this.options.timeoutMs ?? 30_000),
        });
      } catch (cause) {
        if (keyed && attempt < retries) {
          // The POST may or may not have been done: its key makes the retry answer the first answer.
          this.options.onRetry?.({ attempt: attempt + 1, status: 0, delayMs: 1000, reason: `cannot reach ${this.base} (${(cause as Error).message})` });
          await new Promise((r) => setTimeout(r, 1000));
          continue;
        }
        throw new MasError('NETWORK_ERROR', `cannot reach ${this.base}: ${(cause as Error).message}`, { status: 0, cause });
      }
      const stillRunning = keyed && res.status === 409 && res.headers.has('retry-after');
      if ((!RETRYABLE.has(res.status) && !stillRunning) || attempt >= retries) return res;
      const delayMs = retryAfterMs(res.headers.get('retry-after'));
      if (delayMs > maxDelay) return res;
      this.options.onRetry?.({ attempt: attempt + 1, status: res.status, delayMs, reason: `HTTP ${res.status}${stillRunning ? ' (the first request with this Idempotency-Key is still running)' : ''}` });
      await res.arrayBuffer(); // frees the connection before waiting
      await new Promise((r) => setTimeout(r, delayMs));
    }
  }

  /** Runs a typed operation over HTTP; any GraphQL error is thrown as a MasError with its code. */
  async request<TResult, TVariables>(document: TypedDocumentNode<TResult, TVariables> | string, variables?: TVariables): Promise<TResult> {
    const query = typeof document === 'string' ? document : print(document);
    const res = await this.send('/graphql', {
      method: 'POST',
      // GraphQL over HTTP: as application/graphql-response+json an answer without data has its code's
      // status (429 and 503 with Retry-After, which send() waits out); as application/json it would be 200.
      headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json, application/json;q=0.9' },
      body: JSON.stringify({ query, variables: variables ?? {} }),
    });
    const text = await res.text();
    let body: GraphQLAnswer<TResult>;
    try {
      body = JSON.parse(text) as GraphQLAnswer<TResult>;
    } catch {
      throw new MasError(res.status >= 500 ? 'INTERNAL_SERVER_ERROR' : 'BAD_USER_INPUT', `service answered ${res.status} without JSON`, { status: res.status || 500 });
    }
    const first = body.errors?.[0];
    if (first) {
      const code = first.extensions?.code ?? 'INTERNAL_SERVER_ERROR';
      throw new MasError(code, first.message, {
        status: res.status === 200 ? statusOfCode(code) : res.status,
        details: first.extensions?.details,
        retryAfter: first.extensions?.retryAfter ?? headerSeconds(res.headers.get('retry-after')),
      });
    }
    if (!res.ok || body.data == null) throw new MasError('INTERNAL_SERVER_ERROR', `service answered ${res.status} without data`, { status: res.status });
    return body.data;
  }

  /** A REST call (JSON in, JSON out) with the same credentials, retries and errors. */
  async rest<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await this.send(path, {
      method,
      headers: body === undefined ? { accept: 'application/json' } : { 'content-type': 'application/json', accept: 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const parsed = (await res.json().catch(() => null)) as { code?: string; error?: string; details?: MasFieldProblem[] } | null;
    if (!res.ok) {
      throw new MasError(parsed?.code ?? (res.status >= 500 ? 'INTERNAL_SERVER_ERROR' : 'BAD_USER_INPUT'), parsed?.error ?? `service answered ${res.status}`, {
        status: res.status, details: parsed?.details, retryAfter: headerSeconds(res.headers.get('retry-after')),
      });
    }
    return parsed as T;
  }

  /**
   * The bytes of a URL the service handed out (a render's output.url, a signed link); relative URLs
   * resolve against the base. Credentials go only to the service's own origin, never to another host.
   */
  async download(url: string): Promise<{ bytes: Uint8Array; contentType: string | null }> {
    let target: URL;
    try {
      target = new URL(url, `${this.base}/`);
    } catch {
      throw new MasError('BAD_USER_INPUT', `not a URL: ${url}`, { status: 400 });
    }
    if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new MasError('BAD_USER_INPUT', `not an http(s) URL: ${url}`, { status: 400 });
    const sameOrigin = target.origin === new URL(this.base).origin;
    const res = await this.send(target.href, { method: 'GET' }, sameOrigin);
    if (!res.ok) {
      const parsed = (await res.json().catch(() => null)) as { code?: string; error?: string } | null;
      throw new MasError(parsed?.code ?? (res.status >= 500 ? 'INTERNAL_SERVER_ERROR' : 'NOT_FOUND'), parsed?.error ?? `download answered ${res.status}`, { status: res.status });
    }
    return { bytes: new Uint8Array(await res.arrayBuffer()), contentType: res.headers.get('content-type') };
  }

  signup(email: string) {
    return this.request(SignupAgentDocument, { input: { email } }).then((d) => d.signupAgent);
  }

  verify(email: string, code: string) {
    return this.request(VerifyAgentDocument, { input: { email, code } }).then((d) => d.verifyAgent);
  }

  listKeys() {
    return this.request(ApiKeysDocument, {}).then((d) => answered(d.apiKeys, 'apiKeys').items);
  }

  createKey(name: string) {
    return this.request(CreateApiKeyDocument, { input: { name } }).then((d) => d.createApiKey);
  }

  revokeKey(id: string) {
    return this.request(RevokeApiKeyDocument, { input: { id } }).then((d) => d.revokeApiKey);
  }

  compositions() {
    return this.request(CompositionsDocument, {}).then((d) => answered(d.compositions, 'compositions'));
  }

  /** Starts a render; answers the run as queued (watch it with watchRun(run.id)). */
  render(request: RenderRequest): Promise<RenderRun> {
    return this.request(RenderVideoDocument, { input: request }).then((d) => d.renderVideo);
  }

  runs(options: { runId?: string; limit?: number } = {}) {
    return this.request(RunsDocument, { input: options }).then((d) => answered(d.runs, 'runs').items);
  }

  async run(runId: string): Promise<RenderRun> {
    const [run] = await this.runs({ runId });
    if (!run) throw new MasError('NOT_FOUND', `run ${runId} not found`, { status: 404 });
    return run;
  }

  cancelRun(runId: string) {
    return this.request(CancelRunDocument, { runId }).then((d) => d.cancelRun);
  }

  trackStats(input: TrackStatsInput) {
    return this.request(TrackStatsDocument, { input }).then((d) => answered(d.trackStats, 'trackStats'));
  }

  private wsClient(): WsClient {
    if (!this.ws) {
      const url = `${this.base.replace(/^http/, 'ws')}/graphql`;
      this.ws = createClient({
        url,
        webSocketImpl: WebSocket,
        connectionParams: this.credentials(),
        lazy: true,
        retryAttempts: 3,
        // A refusal the service meant (credentials, the connection cap) is final: reconnecting gets the same answer.
        shouldRetry: (event) => !(typeof (event as { code?: unknown })?.code === 'number' && REFUSED_CLOSE_CODES.has((event as { code: number }).code)),
      });
    }
    return this.ws;
  }

  /**
   * Every state of a run as the service pushes it over graphql-ws, ending after a terminal one
   * (COMPLETED, FAILED, CANCELED). A refused subscription throws a MasError with the service's code.
   */
  async *watchRun(runId: string): AsyncGenerator<RenderRun> {
    for await (const data of this.subscribe<{ renderRun: RenderRun }>(print(RenderRunDocument), { runId })) {
      yield data.renderRun;
      if (TERMINAL.has(data.renderRun.status)) return;
    }
  }

  /**
   * Every run the credential may see, live (the renderRuns subscription): the newest `initial` runs
   * first (default 20, at most 50; 0 for changes only), then each run as it changes state or
   * progress, runs started anywhere included, with one of `status` if given. Runs until the caller
   * stops iterating (break, return) or the service ends it (a revoked key: a MasError UNAUTHENTICATED).
   */
  async *watchRuns(options: { status?: RunStatus[]; initial?: number } = {}): AsyncGenerator<RenderRun> {
    for await (const data of this.subscribe<{ renderRuns: RenderRun }>(print(RenderRunsDocument), { status: options.status ?? null, initial: options.initial ?? null })) {
      yield data.renderRuns;
    }
  }

  /** A subscription's data, message by message; a refusal or an error in a message throws a MasError with the service's code. */
  private async *subscribe<T>(query: string, variables: Record<string, unknown>): AsyncGenerator<T> {
    const iterator = this.wsClient().iterate({ query, variables });
    try {
      for (;;) {
        let next: IteratorResult<{ data?: unknown; errors?: readonly { message: string; extensions?: Record<string, unknown> }[] | null }>;
        try {
          next = await iterator.next();
        } catch (error) {
          throw wsError(error);
        }
        if (next.done) return;
        const first = next.value.errors?.[0];
        if (first) {
          const code = typeof first.extensions?.code === 'string' ? first.extensions.code : 'INTERNAL_SERVER_ERROR';
          throw new MasError(code, first.message);
        }
        yield next.value.data as T;
      }
    } finally {
      await iterator.return?.();
    }
  }

  /** Closes the websocket, if one was opened. */
  async close(): Promise<void> {
    await this.ws?.dispose();
    this.ws = undefined;
  }
}

function headerSeconds(value: string | null): number | undefined {
  if (value === null) return undefined;
  const n = Number(value);
  return Number.isFinite(n) && n >= 0 ? n : undefined;
}

/** Retry-After in seconds or as an HTTP date; absent or unreadable waits one second. */
function retryAfterMs(value: string | null): number {
  const seconds = headerSeconds(value);
  if (seconds !== undefined) return seconds * 1000;
  const date = value === null ? NaN : Date.parse(value);
  return Number.isFinite(date) ? Math.max(0, date - Date.now()) : 1000;
}

/**
 * Close codes by which the service refuses a connection: 4401/4403 (credentials), 4029 (too many
 * connections or refused operations for the account, the service's code) and graphql-ws's 4429.
 */
const REFUSED_CLOSE_CODES = new Set([4401, 4403, 4029, 4429]);

/** graphql-ws rejects with an array of GraphQL errors, or a CloseEvent, or an Error. */
function wsError(error: unknown): MasError {
  if (Array.isArray(error) && error[0]) {
    const e = error[0] as { message?: string; extensions?: { code?: string } };
    return new MasError(e.extensions?.code ?? 'INTERNAL_SERVER_ERROR', e.message ?? 'subscription refused');
  }
  const close = error as { code?: number; reason?: string; message?: string };
  if (typeof close.code === 'number') {
    const code = close.code === 4401 || close.code === 4403 ? 'UNAUTHENTICATED' : close.code === 4029 || close.code === 4429 ? 'RATE_LIMITED' : 'NETWORK_ERROR';
    return new MasError(code, `websocket closed (${close.code}${close.reason ? `: ${close.reason}` : ''})`, { status: code === 'NETWORK_ERROR' ? 0 : undefined });
  }
  return new MasError('NETWORK_ERROR', close.message ?? 'websocket failed', { status: 0, cause: error });
}

/**
 * A query's root fields are nullable (a failing one is null beside the others, with its error);
 * request throws on any error, so an answered field is there. Null without an error is the service's fault.
 */
function answered<T>(value: T | null | undefined, field: string): T {
  if (value === null || value === undefined) throw new MasError('INTERNAL_SERVER_ERROR', `service answered no ${field}`, { status: 500 });
  return value;
}
