import { LRUCache } from 'lru-cache';
import type { Logger } from '../common/logger';
import type { Config } from '../config/config';
import type { Orm } from '../db/orm';
import { RateLimitRepository, WINDOW_S } from './rate-limit.repository';
import { AppError } from '../common/errors';
import type { Viewer } from './viewer';
import type { UsageRecorder } from './usage';
import type { LimitOverrides } from './limit-overrides';
import { poolDb } from '../db/request-db';

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
  /** The subject's window the charge was taken from (its start, µs since the epoch): a refund goes back to this window only. */
  window?: string;
}

/** Points to give back to one budget of one subject, in the window they were taken from (a decision's `window`). */
export interface Refund extends Charge {
  window: string;
}

const CLEANUP_INTERVAL_MS = 60_000;
/** A lease takes at most this share of what a window has left (1/16), so instances leave each other most of it. */
const LEASE_SHARE = 16;
/** Subjects an instance keeps a lease for; past it the least recently reserved is dropped (its points stay spent). */
const MAX_LEASES = 10_000;

/** Whose budget a request spends: the account behind the credential, else the client address. */
export function rateSubject(viewer: Pick<Viewer, 'accountId'> | null | undefined, clientIp: string | undefined): string {
  return viewer ? `acct:${viewer.accountId}` : `ip:${clientIp ?? 'unknown'}`;
}

/** What this instance knows of one budget of one subject in the current window. */
interface Lease {
  /** Points taken in the window as this instance last learnt it, its own charges since included. */
  used: number;
  /** Points this instance reserved in PostgreSQL ahead of use and may hand out without a statement. */
  allowance: number;
  /** When the window ends (ms since the epoch, by this instance's clock). */
  endsAt: number;
  /** The window's start as PostgreSQL holds it (µs since the epoch): which window a refund may go back to. */
  window: string;
  /** Points ahead the last reservation brought: once `allowance` falls below half of it, the next lease is reserved in the background. */
  brought: number;
}

/**
 * Per-minute budgets kept in PostgreSQL, so they hold across any number of API instances. Each
 * subject has a one-minute window starting at its first request; one statement (an upsert per
 * charged budget, in one round trip) takes the points and answers what is left. Refused requests
 * count too: a client hammering past the limit does not get in earlier.
 *
 * Leases: a charge that goes to PostgreSQL may reserve points for up to `leaseMax` more charges of
 * its size (at most 1/16 of what the window has left, none on a subject this instance has not seen
 * in the window), which
 * this instance then hands out with no statement; once it knows the window is spent it refuses with
 * no statement until the window ends. Every point handed out was reserved under the limit, so the
 * instances together never let more through than the limit. Reservations are single-flight per key
 * within an instance: concurrent charges wait for the one in flight and then spend from its lease,
 * so a burst reserves one lease, not one per charge.
 *
 * Refresh ahead: once a lease's allowance falls below half of what its last reservation brought,
 * the next lease is reserved in the background (the same single flight), so charges go on being
 * served from what is left and none waits for a refill while the window has points left. When it
 * lands, the points it took under the limit are added to the lease (those past the limit are not
 * this instance's); it adds nothing when an admin's override landed meanwhile or the lease was
 * dropped, and replaces the lease when PostgreSQL started a new window. A failed one is logged and
 * leaves the lease as it was. Points an instance reserved and did not
 * use count as spent, so a client spreading its requests over several instances may be refused a
 * little early (at most one lease per other instance).
 */
export class RateLimiter {
  private readonly counters: RateLimitRepository;
  private timer?: NodeJS.Timeout;
  private readonly leases = new LRUCache<string, Lease>({ max: MAX_LEASES });
  /** Keys whose reservation is on its way to PostgreSQL, with the promise that settles when it is back. */
  private readonly reserving = new Map<string, Promise<void>>();
  /** Background reservations on their way (refresh ahead): close() waits for them. */
  private readonly refreshing = new Set<Promise<void>>();
  private closed = false;

  constructor(
    orm: Orm,
    private readonly limits: Config['requestLimits'],
    private readonly logger: Logger,
    /** Where the points an account spends are recorded for its usage view (in memory: no statement). */
    private readonly usage?: Pick<UsageRecorder, 'add'>,
    /** Per-account budgets an admin set (src/auth/limit-overrides.ts): applied at once, a changed account's leases dropped. */
    private readonly overrides?: Pick<LimitOverrides, 'limit' | 'onChange'>,
  ) {
    this.counters = new RateLimitRepository(poolDb(orm));
    overrides?.onChange((accountId) => {
      if (accountId === null) this.leases.clear();
      else for (const budget of ['api', 'research'] as const) this.leases.delete(`${budget}:acct:${accountId}`);
    });
  }

  /** Records the points an account's charge took (allowed charges only), or gave back (negative). */
  private recordUsage(budget: Budget, subject: string, points: number): void {
    if (!this.usage || !subject.startsWith('acct:') || points === 0) return;
    this.usage.add(subject.slice('acct:'.length), budget === 'research' ? { researchPoints: points } : { requestPoints: points });
  }

  /** The per-minute limit of a budget for a subject: the account's override if an admin set one, else the deployment's. */
  limitOf(budget: Budget, subject?: string): number {
    const fallback = budget === 'research' ? this.limits.researchPerMinute : this.limits.perMinute;
    if (!this.overrides || !subject?.startsWith('acct:')) return fallback;
    return this.overrides.limit(subject.slice('acct:'.length), budget === 'research' ? 'researchPointsPerMinute' : 'requestPointsPerMinute', fallback);
  }

  async consume(charges: Charge[]): Promise<RateDecision[]> {
    const decisions = await this.decide(charges);
    // Decisions come one per budget and subject with points, in the order of their first charge (as decide merges them).
    const merged = new Map<string, Charge>();
    for (const c of charges) {
      const key = `${c.budget}:${c.subject}`;
      merged.set(key, { ...c, points: (merged.get(key)?.points ?? 0) + c.points });
    }
    [...merged.values()]
      .filter((c) => c.points > 0)
      .forEach((charge, i) => {
        if (decisions[i]?.allowed) this.recordUsage(charge.budget, charge.subject, charge.points);
      });
    return decisions;
  }

  private async decide(charges: Charge[]): Promise<RateDecision[]> {
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
    // RATE_LIMIT_LEASE_MAX=0: nothing is decided here, every charge is a statement.
    const leasing = this.limits.leaseMax > 0;
    // Single flight: while a reservation of one of these keys is on its way, a charge that would
    // reserve waits for it and then decides again (most often spending from the lease it brought).
    // Concurrent charges never reserve side by side, so no more is reserved than one lease at a time.
    for (;;) {
      const waits = leasing ? entries.filter(([key, charge]) => this.reserving.has(key) && !this.servedHere(key, charge, Date.now())).map(([key]) => this.reserving.get(key)!) : [];
      if (!waits.length) break;
      await Promise.all(waits);
    }
    const now = Date.now();
    const decisions = new Map<string, RateDecision>();
    const toReserve: { key: string; charge: Charge; limit: number; need: number; reserve: number }[] = [];
    for (const [key, charge] of entries) {
      const limit = this.limitOf(charge.budget, charge.subject);
      const lease = leasing ? this.leaseOf(key, now) : undefined;
      if (lease && (lease.allowance >= charge.points || lease.used >= limit)) {
        // Served here: from the points reserved ahead, or refused (the window's budget is spent).
        const allowed = lease.allowance >= charge.points;
        if (allowed) lease.allowance -= charge.points;
        lease.used += charge.points;
        decisions.set(key, { ...this.decision(charge.budget, allowed, limit, lease.used, (lease.endsAt - now) / 1000), window: lease.window });
        if (allowed) this.refreshAhead(key, lease, charge, limit);
        continue;
      }
      // What is left of a lease goes first; the rest, and the next lease, are reserved now.
      const carried = lease?.allowance ?? 0;
      if (lease) lease.allowance = 0;
      const need = charge.points - carried;
      // Up to leaseMax more charges of this size (a costly GraphQL page leases as many requests as a cheap one).
      const ahead = lease ? Math.max(0, Math.min(this.limits.leaseMax * charge.points, Math.floor((limit - lease.used - charge.points) / LEASE_SHARE))) : 0;
      toReserve.push({ key, charge, limit, need, reserve: need + ahead });
    }
    if (!toReserve.length) return entries.map(([key]) => decisions.get(key)!);
    // No await between the checks above and this: charges arriving from now on wait for this reservation.
    let done!: () => void;
    const flight = new Promise<void>((resolve) => (done = resolve));
    if (leasing) for (const r of toReserve) this.reserving.set(r.key, flight);
    try {
      const rows = await this.counters.reserve(toReserve.map((r) => ({ key: r.key, points: r.reserve })));
      const byKey = new Map(rows.map((r) => [r.key, r]));
      for (const r of toReserve) {
        const row = byKey.get(r.key)!;
        // Points taken before this statement, by every instance (a fresh window: none).
        const before = row.points - r.reserve;
        const used = before + r.need;
        // The limit in force now: an admin's override may have landed while the statement was on its
        // way (its change dropped the leases then). The lease set here must not carry points ahead
        // reserved under the old limit, or it would hand out what the new limit refuses.
        const limit = this.limitOf(r.charge.budget, r.charge.subject);
        const allowed = used <= limit;
        // Of the points reserved ahead, those under the limit are this instance's to hand out (none when the limit changed in flight).
        const allowance = allowed && limit === r.limit ? Math.min(r.reserve - r.need, limit - used) : 0;
        // Recency is that of the last reservation (reads peek): past MAX_LEASES the least recently reserved goes.
        if (leasing) this.leases.set(r.key, { used, allowance, endsAt: now + row.reset_s * 1000, window: row.window_us, brought: allowance });
        // (Points carried from the lease were reserved earlier: `before` holds them already.)
        decisions.set(r.key, { ...this.decision(r.charge.budget, allowed, limit, used, row.reset_s), window: row.window_us });
      }
    } finally {
      for (const r of toReserve) if (this.reserving.get(r.key) === flight) this.reserving.delete(r.key);
      done();
    }
    return entries.map(([key]) => decisions.get(key)!);
  }

  /**
   * Gives back points a charge took and the operation did not use (a GraphQL operation charged its
   * estimate's upper bound and settled on what it read), to the window they were taken from: into
   * this instance's lease when it holds that window (no statement: the points stay reserved in
   * PostgreSQL and are handed out again from here), else by one statement that lowers the row only
   * while it still holds that window (a window that has ended gives nothing back). Either way the
   * points were counted under the limit, so giving them back can never let more than the limit
   * through. Answers the decision after the refund for each budget, in the order given (none for a
   * window that has ended).
   */
  async refund(refunds: Refund[]): Promise<RateDecision[]> {
    const decisions = await this.giveBack(refunds);
    for (const r of refunds) if (r.points > 0) this.recordUsage(r.budget, r.subject, -r.points);
    return decisions;
  }

  private async giveBack(refunds: Refund[]): Promise<RateDecision[]> {
    const merged = new Map<string, Refund>();
    for (const r of refunds) {
      if (!(r.points > 0)) continue;
      const key = `${r.budget}:${r.subject}`;
      const prior = merged.get(key);
      // Refunds of one key from two windows cannot both apply: the later window's wins.
      merged.set(key, prior && prior.window === r.window ? { ...r, points: prior.points + r.points } : r);
    }
    if (!merged.size) return [];
    // A reservation on its way replaces the lease when it lands: give back into the lease it brings.
    // (One reserving ahead in the background adds to the lease it found, counting what was given back meanwhile: no wait.)
    for (;;) {
      const waits = [...merged.keys()].filter((key) => this.reserving.has(key) && !this.refreshing.has(this.reserving.get(key)!)).map((key) => this.reserving.get(key)!);
      if (!waits.length) break;
      await Promise.all(waits);
    }
    const now = Date.now();
    const decisions: RateDecision[] = [];
    const toStatement: { key: string; refund: Refund }[] = [];
    for (const [key, refund] of merged) {
      const lease = this.limits.leaseMax > 0 ? this.leaseOf(key, now) : undefined;
      if (lease && lease.window === refund.window) {
        const points = Math.min(refund.points, lease.used);
        lease.used -= points;
        lease.allowance += points;
        decisions.push({ ...this.decision(refund.budget, true, this.limitOf(refund.budget, refund.subject), lease.used, (lease.endsAt - now) / 1000), window: lease.window });
      } else {
        toStatement.push({ key, refund });
      }
    }
    if (!toStatement.length) return decisions;
    const rows = await this.counters.refund(toStatement.map(({ key, refund }) => ({ key, points: refund.points, window: refund.window })));
    for (const row of rows) {
      const { refund } = toStatement.find((s) => s.key === row.key)!;
      decisions.push({ ...this.decision(refund.budget, true, this.limitOf(refund.budget, refund.subject), row.points, row.reset_s), window: row.window_us });
    }
    return decisions;
  }

  /** Drops windows that have ended; every instance runs it once a minute. Returns the rows removed. */
  async cleanup(): Promise<number> {
    const now = Date.now();
    for (const [key, lease] of [...this.leases.entries()]) if (lease.endsAt <= now) this.leases.delete(key);
    return this.counters.dropEndedWindows();
  }

  /** Stops the cleanup and starts no more background reservations; settles when those on their way have landed. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.idle();
  }

  /** Settles when no background reservation (refresh ahead) is on its way: what this instance holds is then known. */
  async idle(): Promise<void> {
    while (this.refreshing.size) await Promise.all([...this.refreshing]);
  }

  /**
   * Reserves the next lease of a key in the background when the allowance of this one has fallen
   * below half of what its reservation brought (and the window has points this instance has not
   * reserved), unless a reservation of the key is already on its way. Charges go on being served
   * from the allowance meanwhile; one that finds too little waits for this reservation as for any.
   */
  private refreshAhead(key: string, lease: Lease, charge: Charge, limit: number): void {
    if (this.closed || this.reserving.has(key) || !(lease.allowance * 2 < lease.brought)) return;
    // Points of the window neither taken nor held by this instance.
    const rest = limit - lease.used - lease.allowance;
    if (rest <= 0) return;
    // As a charge's lease: up to leaseMax charges of this size, at most 1/16 of what is left (at least a point, so the last ones of a window are reserved ahead too).
    const reserve = Math.min(rest, this.limits.leaseMax * charge.points, Math.max(1, Math.floor(rest / LEASE_SHARE)));
    // The single flight: charges that find too little in the lease wait for this one and decide again
    // (it settles once the lease has what it brought and the key is free to reserve again).
    const flight: Promise<void> = this.refill(key, lease, charge, limit, reserve)
      .catch((err: unknown) => this.logger.warn({ err, key }, 'rate limit refresh-ahead reservation failed; the lease stays as it was'))
      .then(() => {
        if (this.reserving.get(key) === flight) this.reserving.delete(key);
        this.refreshing.delete(flight);
      });
    this.reserving.set(key, flight);
    this.refreshing.add(flight);
  }

  /** A background reservation: takes `reserve` points of the key's window and adds those under the limit to the lease. */
  private async refill(key: string, lease: Lease, charge: Charge, limit: number, reserve: number): Promise<void> {
    const rows = await this.counters.reserve([{ key, points: reserve }]);
    const row = rows.find((r) => r.key === key);
    if (!row) return;
    const now = Date.now();
    // An admin's override landed while the statement was on its way (its change dropped the lease):
    // nothing reserved under the old limit is handed out; the next charge decides under the new one.
    if (this.limitOf(charge.budget, charge.subject) !== limit) return;
    // Points taken before this statement by every instance, this one's allowance included.
    const before = row.points - reserve;
    // Of the points this statement took, those under the limit are this instance's.
    const added = Math.max(0, Math.min(reserve, limit - before));
    const current = this.leases.peek(key);
    if (row.window_us !== lease.window) {
      // PostgreSQL started a new window: the lease of the old one is over, this reservation is the new one's lease.
      // (Unless the lease was replaced meanwhile by one that already holds the new window.)
      if (current && current !== lease) return;
      this.leases.set(key, { used: before, allowance: added, endsAt: now + row.reset_s * 1000, window: row.window_us, brought: added });
      return;
    }
    // The lease was dropped (an override, the cleanup, past MAX_LEASES) or replaced while this was on its way: leave it be.
    if (current !== lease) return;
    // What every instance has taken: all reserved before this statement, less what this instance still holds (refunds into
    // the lease meanwhile included). Its own charges since the statement left are in `before` as reserved and out of the allowance.
    lease.used = Math.max(0, before - lease.allowance);
    lease.allowance += added;
    lease.brought = added;
  }

  private decision(budget: Budget, allowed: boolean, limit: number, used: number, secondsLeft: number): RateDecision {
    return {
      budget,
      allowed,
      limit,
      remaining: Math.max(0, limit - used),
      used,
      resetS: Math.min(WINDOW_S, Math.max(1, Math.ceil(secondsLeft))),
    };
  }

  /** This instance's lease on a key while its window lasts. */
  private leaseOf(key: string, now: number): Lease | undefined {
    const lease = this.leases.peek(key);
    if (lease && lease.endsAt <= now) {
      this.leases.delete(key);
      return undefined;
    }
    return lease;
  }

  /** Whether a charge would be decided from this instance's lease (handed out, or refused as spent) with no statement. */
  private servedHere(key: string, charge: Charge, now: number): boolean {
    const lease = this.leaseOf(key, now);
    return Boolean(lease && (lease.allowance >= charge.points || lease.used >= this.limitOf(charge.budget, charge.subject)));
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

/**
 * What every 429 says in `details`: which budget ran out (`budget`) and in how many seconds it
 * refills (`refills_in`, as Retry-After says). Budget names: request_points_per_minute,
 * research_points_per_minute, render_max_active, render_daily_pixel_frames, idempotency_keys,
 * signups_per_address, signups_per_email, verification_attempts.
 */
export function budgetDetails(budget: string, refillsInS: number): { field: string; message: string }[] {
  return [
    { field: 'budget', message: budget },
    { field: 'refills_in', message: `${Math.max(0, Math.ceil(refillsInS))} s` },
  ];
}

/** RATE_LIMITED (429 with Retry-After), carrying the decision for the RateLimit-* headers. */
export class RateLimitExceeded extends AppError {
  constructor(readonly decision: RateDecision) {
    const what = decision.budget === 'research' ? 'Research rate limit' : 'Rate limit';
    super('RATE_LIMITED', `${what} of ${decision.limit} points a minute exceeded; retry after ${decision.resetS} s`, {
      retryAfter: decision.resetS,
      details: budgetDetails(decision.budget === 'research' ? 'research_points_per_minute' : 'request_points_per_minute', decision.resetS),
    });
  }
}

export function rateLimitedError(d: RateDecision): RateLimitExceeded {
  return new RateLimitExceeded(d);
}
