import type { Logger } from '../common/logger';
import type { Orm } from '../db/orm';
import { addUsage, USAGE_FIELDS, type UsageCounts } from './usage.repository';

export type { UsageCounts } from './usage.repository';

/** Account-hours one flush writes at most; a bigger backlog goes in the next statements of the same flush. */
const FLUSH_BATCH = 500;
const HOUR_MS = 3_600_000;

/** The hour an instant falls in (UTC), as the table keys it. */
export function hourOf(at: number): number {
  return Math.floor(at / HOUR_MS) * HOUR_MS;
}

export interface UsageOptions {
  /** How often the figures gathered in memory are added to PostgreSQL (USAGE_FLUSH_INTERVAL_MS). */
  flushIntervalMs: number;
  /** Account-hours kept in memory between flushes at most (USAGE_MAX_PENDING); past it a flush starts at once. */
  maxPending: number;
}

/**
 * An account's usage, counted without a statement on the request: each instance adds the figures
 * in memory per account and hour, and every `flushIntervalMs` adds them to `account_usage` in one
 * upsert (the sums of every instance meet there). A crash loses at most what the instance gathered
 * since its last flush (one interval); a failed flush keeps its figures for the next one (up to
 * `maxPending` account-hours, past which the oldest are dropped and logged). Shutdown flushes.
 */
export class UsageRecorder {
  private pending = new Map<string, UsageCounts & { accountId: string; hour: number }>();
  private timer?: NodeJS.Timeout;
  private flushing?: Promise<void>;

  constructor(
    private readonly orm: Orm,
    private readonly options: UsageOptions,
    private readonly logger: Logger,
  ) {}

  /** Adds figures for an account at an instant (now by default); negative figures give back (a refund). */
  add(accountId: string, counts: Partial<UsageCounts>, at = Date.now()): void {
    const hour = hourOf(at);
    const key = `${accountId}|${hour}`;
    let entry = this.pending.get(key);
    if (!entry) {
      entry = { accountId, hour, requestPoints: 0, researchPoints: 0, providerCalls: 0, storedAnswers: 0 };
      this.pending.set(key, entry);
    }
    for (const field of USAGE_FIELDS) entry[field] += counts[field] ?? 0;
    this.startTimer();
    if (this.pending.size >= this.options.maxPending) void this.flush();
  }

  /** Adds what this instance gathered to PostgreSQL now (one statement per FLUSH_BATCH account-hours). */
  flush(): Promise<void> {
    if (this.flushing) return this.flushing.then(() => this.flushNow());
    return this.flushNow();
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.flush().catch((error: unknown) => this.logger.warn({ err: error }, 'usage flush at shutdown failed'));
  }

  private flushNow(): Promise<void> {
    if (!this.pending.size) return Promise.resolve();
    const taken = [...this.pending.values()];
    this.pending = new Map();
    const run = (async () => {
      for (let i = 0; i < taken.length; i += FLUSH_BATCH) {
        const batch = taken.slice(i, i + FLUSH_BATCH);
        try {
          await this.write(batch);
        } catch (error) {
          this.logger.warn({ err: error, accountHours: batch.length }, 'usage flush failed: kept for the next one');
          for (const entry of batch) {
            const { accountId, hour, ...counts } = entry;
            if (this.pending.size < this.options.maxPending) this.add(accountId, counts, hour);
          }
        }
      }
    })();
    this.flushing = run.finally(() => {
      if (this.flushing === guarded) this.flushing = undefined;
    });
    const guarded = this.flushing;
    return run;
  }

  /**
   * One upsert of a batch, through a connection of the pool but outside the ORM's query log (it
   * belongs to no request: the statement tests count a request's statements, and a flush landing
   * inside one would count there). Rows of accounts deleted meanwhile are skipped.
   */
  private write(batch: (UsageCounts & { accountId: string; hour: number })[]): Promise<void> {
    return addUsage(this.orm, batch);
  }

  private startTimer(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      this.flush().catch((error: unknown) => this.logger.warn({ err: error }, 'usage flush failed'));
    }, this.options.flushIntervalMs);
    this.timer.unref();
  }
}
