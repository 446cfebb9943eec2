import { BrokenCircuitError, circuitBreaker, CircuitBreakerPolicy, ConsecutiveBreaker, handleWhen, IsolatedCircuitError } from 'cockatiel';
import { AppError } from '../../common/errors';
import type { Logger } from '../../common/logger';
import type { ProvidersConfig } from '../../config/config';

export type QueryValue = string | number | boolean | undefined | null | readonly (string | number)[];

export interface ProviderRequest {
  method?: 'GET' | 'POST';
  url: string;
  query?: Record<string, QueryValue>;
  headers?: Record<string, string>;
  json?: unknown;
  form?: Record<string, string>;
}

export interface ProviderResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}

/** One failed attempt that may be retried and counts towards the circuit breaker. */
export class UpstreamFailure extends Error {
  constructor(
    readonly kind: 'status' | 'timeout' | 'network',
    readonly status?: number,
    readonly retryAfterMs?: number,
  ) {
    super(kind === 'status' ? `upstream answered ${status}` : `upstream ${kind}`);
    this.name = 'UpstreamFailure';
  }
}

/** Retry-After is either delay-seconds or an HTTP date. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

export function buildUrl(url: string, query: Record<string, QueryValue> = {}): string {
  const target = new URL(url);
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const item of value) target.searchParams.append(key, String(item));
    else target.searchParams.set(key, String(value));
  }
  return target.toString();
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The one HTTP client under every provider: a timeout per attempt, retries with exponential
 * backoff on 429/5xx and network errors (waiting out Retry-After when the upstream sends one), and
 * a circuit breaker per provider. Failures leave as AppErrors: PROVIDER_ERROR (502),
 * PROVIDER_UNAVAILABLE (503, with Retry-After) or PROVIDER_TIMEOUT (504); never a 500.
 * Answers below 500 other than 429 are returned to the caller, which knows what a 401 or 404 means.
 */
export class ResilientHttpClient {
  private readonly breaker: CircuitBreakerPolicy;

  constructor(
    /** The neutral name used in messages and logs (never the upstream URL, which may carry keys). */
    readonly provider: string,
    private readonly policy: ProvidersConfig['http'],
    private readonly log: Logger,
  ) {
    // A 429 is the upstream pacing us, not a sign that it is down: it does not open the circuit.
    this.breaker = circuitBreaker(
      handleWhen((error) => error instanceof UpstreamFailure && error.status !== 429),
      { halfOpenAfter: policy.breakerOpenMs, breaker: new ConsecutiveBreaker(policy.breakerFailures) },
    );
  }

  get circuitState() {
    return this.breaker.state;
  }

  async request<T = unknown>(req: ProviderRequest): Promise<ProviderResponse<T>> {
    for (let attempt = 0; ; attempt += 1) {
      try {
        return (await this.breaker.execute(() => this.attempt(req))) as ProviderResponse<T>;
      } catch (error) {
        if (error instanceof BrokenCircuitError || error instanceof IsolatedCircuitError) {
          throw new AppError('PROVIDER_UNAVAILABLE', `The ${this.provider} provider is failing; calls are paused`, {
            retryAfter: Math.ceil(this.policy.breakerOpenMs / 1000),
          });
        }
        if (!(error instanceof UpstreamFailure)) throw error;
        this.log.warn({ provider: this.provider, failure: error.kind, status: error.status, attempt }, 'provider call failed');
        if (error.kind === 'timeout') {
          throw new AppError('PROVIDER_TIMEOUT', `The ${this.provider} provider did not answer within ${this.policy.timeoutMs} ms`);
        }
        const tooLong = error.retryAfterMs !== undefined && error.retryAfterMs > this.policy.retryMaxWaitMs;
        if (attempt >= this.policy.retries || tooLong) throw this.finalError(error);
        const backoff = this.policy.retryBaseMs * 2 ** attempt;
        await sleep(error.retryAfterMs ?? backoff + Math.random() * backoff * 0.2);
      }
    }
  }

  private finalError(error: UpstreamFailure): AppError {
    if (error.kind === 'network') {
      return new AppError('PROVIDER_UNAVAILABLE', `The ${this.provider} provider could not be reached`, {
        retryAfter: Math.ceil(this.policy.breakerOpenMs / 1000),
      });
    }
    if (error.status === 429) {
      return new AppError('PROVIDER_UNAVAILABLE', `The ${this.provider} provider is rate limiting requests`, {
        retryAfter: Math.ceil((error.retryAfterMs ?? 60_000) / 1000),
      });
    }
    return new AppError('PROVIDER_ERROR', `The ${this.provider} provider answered with an error (${error.status})`);
  }

  private async attempt(req: ProviderRequest): Promise<ProviderResponse> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), this.policy.timeoutMs);
    const headers: Record<string, string> = { accept: 'application/json', ...req.headers };
    let body: string | undefined;
    if (req.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(req.json);
    } else if (req.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(req.form).toString();
    }
    try {
      const res = await fetch(buildUrl(req.url, req.query), { method: req.method ?? 'GET', headers, body, signal: controller.signal });
      const text = await res.text();
      if (res.status === 429 || res.status >= 500) {
        throw new UpstreamFailure('status', res.status, parseRetryAfter(res.headers.get('retry-after')));
      }
      let parsed: unknown = null;
      if (text) {
        try {
          parsed = JSON.parse(text);
        } catch {
          if (res.ok) throw new AppError('PROVIDER_ERROR', `The ${this.provider} provider sent an unreadable answer`);
        }
      }
      return { status: res.status, headers: res.headers, body: parsed };
    } catch (error) {
      if (error instanceof UpstreamFailure || error instanceof AppError) throw error;
      if (controller.signal.aborted) throw new UpstreamFailure('timeout');
      throw new UpstreamFailure('network');
    } finally {
      clearTimeout(timer);
    }
  }
}

/** A 4xx the caller did not expect: 404 is the client's NOT_FOUND, anything else the provider's error. */
export function unexpectedStatus(provider: string, res: ProviderResponse, what: string): AppError {
  if (res.status === 404) return new AppError('NOT_FOUND', `${what} not found at the ${provider} provider`);
  return new AppError('PROVIDER_ERROR', `The ${provider} provider refused the request (${res.status})`);
}
