import type { Logger } from '../common/logger';
import type { Config } from '../config/config';
import type { Orm } from '../db/orm';
import { hotQuery } from '../db/sql';
import { AppError } from '../common/errors';
import type { Viewer } from './viewer';

/** `api`: every request; `research`: routes and fields that spend provider quota. */
export type Budget = 'api' | 'research';

/** Points to take from one budget of one subject (an account, or a client IP when unauthenticated). */
export interface Charge {
  budget: Budget;
  subject: string;
  points: number;
}

export interface RateDecision {
  budget: Budget;
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Points taken in the current window, this charge included (past `limit` when refused). */
  used: number;
  /** Seconds until the subject's window starts afresh. */
  resetS: number;
}

const WINDOW_S = 60;
const CLEANUP_INTERVAL_MS = 60_000;

/** Whose budget a request spends: the account behind the credential, else the client address. */
export function rateSubject(viewer: Pick<Viewer, 'accountId'> | null | undefined, clientIp: string | undefined): string {
  return viewer ? `acct:${viewer.accountId}` : `ip:${clientIp ?? 'unknown'}`;
}

/**
 * Per-minute budgets kept in PostgreSQL, so they hold across any number of API instances. Each
 * subject has a one-minute window starting at its first request; one statement (an upsert per
 * charged budget, in one round trip) takes the points and answers what is left. Refused requests
 * count too: a client hammering past the limit does not get in earlier.
 */
export class RateLimiter {
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly orm: Orm,
    private readonly limits: Config['requestLimits'],
    private readonly logger: Logger,
  ) {}

  limitOf(budget: Budget): number {
    return budget === 'research' ? this.limits.researchPerMinute : this.limits.perMinute;
  }

  async consume(charges: Charge[]): Promise<RateDecision[]> {
    this.startCleanup();
    // One row per key: a statement may not upsert the same row twice.
    const merged = new Map<string, Charge>();
    for (const c of charges) {
      const key = `${c.budget}:${c.subject}`;
      const prior = merged.get(key);
      merged.set(key, { ...c, points: (prior?.points ?? 0) + c.points });
    }
    const entries = [...merged.entries()].filter(([, c]) => c.points > 0);
    if (!entries.length) return [];
    const rows = await hotQuery<{ key: string; points: number; reset_s: number }>(
      this.orm.em,
      `insert into rate_limit_counters as c (key, window_start, points)
       values ${entries.map(() => '(?, now(), ?)').join(', ')}
       on conflict (key) do update set
         points = case when c.window_start > now() - interval '${WINDOW_S} seconds' then c.points + excluded.points else excluded.points end,
         window_start = case when c.window_start > now() - interval '${WINDOW_S} seconds' then c.window_start else now() end
       returning key, points, extract(epoch from window_start + interval '${WINDOW_S} seconds' - now())::float8 as reset_s`,
      entries.flatMap(([key, c]) => [key, c.points]),
    );
    const byKey = new Map(rows.map((r) => [r.key, r]));
    return entries.map(([key, c]) => {
      const row = byKey.get(key)!;
      const limit = this.limitOf(c.budget);
      return {
        budget: c.budget,
        allowed: row.points <= limit,
        limit,
        remaining: Math.max(0, limit - row.points),
        used: row.points,
        resetS: Math.min(WINDOW_S, Math.max(1, Math.ceil(row.reset_s))),
      };
    });
  }

  /** Drops windows that have ended; every instance runs it once a minute. Returns the rows removed. */
  async cleanup(): Promise<number> {
    const rows = await this.orm.em
      .getConnection()
      .execute<{ n: number }[]>(`with gone as (delete from rate_limit_counters where window_start <= now() - interval '${WINDOW_S} seconds' returning 1) select count(*)::int as n from gone`);
    return rows[0]?.n ?? 0;
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  private startCleanup(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      this.cleanup().catch((err: unknown) => this.logger.warn({ err }, 'rate limit cleanup failed'));
    }, CLEANUP_INTERVAL_MS);
    this.timer.unref();
  }
}

/** The decision a client should see: the refused one if any, else the tightest. */
export function decisive(decisions: RateDecision[]): RateDecision | undefined {
  const refused = decisions.find((d) => !d.allowed);
  if (refused) return refused;
  return [...decisions].sort((a, b) => a.remaining / a.limit - b.remaining / b.limit)[0];
}

/** RateLimit-* response headers (IETF draft names) of a decision. */
export function rateLimitHeaders(d: RateDecision): Record<string, string> {
  return { 'RateLimit-Limit': String(d.limit), 'RateLimit-Remaining': String(d.remaining), 'RateLimit-Reset': String(d.resetS) };
}

/** RATE_LIMITED (429 with Retry-After), carrying the decision for the RateLimit-* headers. */
export class RateLimitExceeded extends AppError {
  constructor(readonly decision: RateDecision) {
    const what = decision.budget === 'research' ? 'Research rate limit' : 'Rate limit';
    super('RATE_LIMITED', `${what} of ${decision.limit} points a minute exceeded; retry after ${decision.resetS} s`, { retryAfter: decision.resetS });
  }
}

export function rateLimitedError(d: RateDecision): RateLimitExceeded {
  return new RateLimitExceeded(d);
}
