import { z } from 'zod';
import type { Logger } from '../common/logger';
import type { Orm } from '../db/orm';
import { PgListener } from '../db/listener';
import { LimitOverridesRepository } from './limit-overrides.repository';
import { poolDb } from '../db/request-db';

/** The channel the trigger on `account_limits` announces a changed account on (its id as the payload). */
export const LIMITS_CHANNEL = 'account_limits_changes';

/**
 * The limits an admin may set per account, by name, with their bounds. Stored generically (name →
 * value, `account_limits.limits`), so a module may read a limit it owns (the webhook module's
 * `webhookEndpointsMax`) without a migration here.
 */
export const LIMIT_BOUNDS = {
  requestPointsPerMinute: { min: 1, max: 10_000_000 },
  researchPointsPerMinute: { min: 1, max: 10_000_000 },
  renderMaxActive: { min: 0, max: 10_000 },
  renderDailyPixelFrames: { min: 0, max: 1e15 },
  apiKeysMax: { min: 0, max: 10_000 },
  webhookEndpointsMax: { min: 0, max: 10_000 },
} as const;

export type LimitName = keyof typeof LIMIT_BOUNDS;
export const LIMIT_NAMES = Object.keys(LIMIT_BOUNDS) as LimitName[];
export type LimitValues = Partial<Record<LimitName, number>>;

/** What a stored row may hold: known names with values in bounds (anything else in the column is ignored). */
const storedLimits = z.object(Object.fromEntries(LIMIT_NAMES.map((name) => [name, z.number().int().optional().catch(undefined)]))).catch({});

/**
 * Per-account limit overrides, kept in memory on every instance (no statement on a request) and
 * changed at once everywhere: a trigger on `account_limits` announces each changed account on
 * LIMITS_CHANNEL, and each instance reads that account's row again (the model of the viewer cache's
 * `viewer_changes`). Until LISTEN is active, and after a lost connection, every row is read again.
 */
export class LimitOverrides {
  private byAccount = new Map<string, LimitValues>();
  private readonly listener?: PgListener;
  private readonly changed = new Set<(accountId: string | null) => void>();

  constructor(
    private readonly orm: Orm,
    listenUrl: string | undefined,
    private readonly logger: Logger,
  ) {
    if (!listenUrl) return;
    this.listener = new PgListener(listenUrl, LIMITS_CHANNEL, logger, {
      applicationName: 'mas-limit-overrides',
      onNotification: (payload) => void this.reload(/^[0-9a-f-]{36}$/i.test(payload) ? payload : null),
      onReconnected: () => void this.reload(null),
    });
  }

  /** Listens, then reads every override (so none committed meanwhile is missed). */
  async start(): Promise<void> {
    await this.listener?.keepListening();
    await this.reload(null);
  }

  async close(): Promise<void> {
    await this.listener?.close();
  }

  /** The account's overrides (empty when it has none). */
  of(accountId: string): LimitValues {
    return this.byAccount.get(accountId) ?? {};
  }

  /** One limit of an account: its override, else the default given. */
  limit(accountId: string, name: LimitName, fallback: number): number {
    return this.byAccount.get(accountId)?.[name] ?? fallback;
  }

  /** Calls `listener` after an account's overrides changed here (null: any may have). */
  onChange(listener: (accountId: string | null) => void): void {
    this.changed.add(listener);
  }

  /** Reads one account's overrides again (or all of them), then tells the listeners. */
  async reload(accountId: string | null): Promise<void> {
    try {
      const rows = await new LimitOverridesRepository(poolDb(this.orm)).read(accountId);
      if (accountId) this.byAccount.delete(accountId);
      else this.byAccount = new Map();
      for (const row of rows) this.byAccount.set(row.account_id, this.clean(row.limits));
      for (const listener of this.changed) listener(accountId);
    } catch (error) {
      this.logger.warn({ err: error, accountId }, 'reading limit overrides failed');
    }
  }

  private clean(stored: unknown): LimitValues {
    const parsed = storedLimits.parse(stored) as LimitValues;
    return Object.fromEntries(Object.entries(parsed).filter(([, v]) => typeof v === 'number')) as LimitValues;
  }
}
