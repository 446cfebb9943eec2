import { badInput, forbidden, notFound } from '../../common/errors';
import { LIMIT_NAMES, LimitValues } from '../../auth/limit-overrides';
import type { Config } from '../../config/config';
import type { Viewer } from '../../auth/viewer';
import { SetAccountLimitsInput, USAGE_MAX_PERIODS, UsageInput } from './usage.inputs';
import type { UsageRepository, UsageRow } from './usage.repository';
import { AccountLimitsType, AccountUsage, LimitOverridesType, UsageGranularity, UsageLimits, UsagePeriod } from './usage.types';

const PERIOD_MS = { hour: 3_600_000, day: 86_400_000 } as const;
const DEFAULT_SPAN = { hour: 24, day: 7 } as const;

/** The limits in force for an account, as the usage view shows them. */
export type LimitsOf = (accountId: string) => UsageLimits;

/** The default limits of the deployment (before any per-account override). */
export function configuredLimits(config: Config, apiKeysMax: number): UsageLimits {
  return {
    webhookEndpointsMax: config.webhook.maxEndpointsPerAccount,
    requestPointsPerMinute: config.requestLimits.perMinute,
    researchPointsPerMinute: config.requestLimits.researchPerMinute,
    renderMaxActive: config.render.maxActivePerAccount,
    renderDailyPixelFrames: config.render.dailyPixelFrames,
    apiKeysMax,
    idempotencyKeysMax: config.idempotency.maxKeysPerAccount,
  };
}

const figures = (row: UsageRow): UsagePeriod => ({
  start: new Date(row.start),
  requestPoints: Number(row.request_points),
  researchPoints: Number(row.research_points),
  providerCalls: Number(row.provider_calls),
  storedAnswers: Number(row.stored_answers),
  renderRuns: Number(row.render_runs),
  renderPixelFrames: Number(row.render_pixel_frames),
  webhookDeliveries: Number(row.webhook_deliveries),
});

/** The caller's usage per period (docs/api/usage.md). */
export class UsageService {
  constructor(
    private readonly repo: UsageRepository,
    private readonly limitsOf: LimitsOf,
    private readonly lagSeconds: number,
  ) {}

  async usage(viewer: Viewer, input: UsageInput, now = Date.now()): Promise<AccountUsage> {
    const granularity = input.granularity;
    const period = PERIOD_MS[granularity];
    const to = input.to ? new Date(input.to) : new Date(now);
    // Whole periods (UTC): from is taken back to its period's start, to forward to the end of its period.
    const end = new Date(Math.ceil(to.getTime() / period) * period);
    const start = new Date(Math.floor((input.from ? new Date(input.from).getTime() : end.getTime() - DEFAULT_SPAN[granularity] * period) / period) * period);
    if (start.getTime() >= end.getTime()) throw badInput('from', 'must be before to');
    const count = (end.getTime() - start.getTime()) / period;
    if (count > USAGE_MAX_PERIODS[granularity]) {
      throw badInput('from', `at most ${USAGE_MAX_PERIODS[granularity]} ${granularity === 'day' ? 'days' : 'hours'} before to (asked: ${count})`);
    }
    const periods = (await this.repo.periods(viewer.accountId, start, end, granularity)).map(figures);
    const totals: UsagePeriod = { start, requestPoints: 0, researchPoints: 0, providerCalls: 0, storedAnswers: 0, renderRuns: 0, renderPixelFrames: 0, webhookDeliveries: 0 };
    for (const p of periods) {
      totals.requestPoints += p.requestPoints;
      totals.researchPoints += p.researchPoints;
      totals.providerCalls += p.providerCalls;
      totals.storedAnswers += p.storedAnswers;
      totals.renderRuns += p.renderRuns;
      totals.renderPixelFrames += p.renderPixelFrames;
      totals.webhookDeliveries += p.webhookDeliveries;
    }
    return { from: start, to: end, granularity: granularity as UsageGranularity, periods, totals, limits: this.limitsOf(viewer.accountId), lagSeconds: this.lagSeconds };
  }
}

/** A limit's name in the operation's input (REST's snake_case: the zod schema's keys). */
const restKey = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** The limits in force: the account's overrides over the deployment's defaults. */
export function limitsInForce(defaults: UsageLimits, overrides: LimitValues): UsageLimits {
  return {
    ...defaults,
    requestPointsPerMinute: overrides.requestPointsPerMinute ?? defaults.requestPointsPerMinute,
    researchPointsPerMinute: overrides.researchPointsPerMinute ?? defaults.researchPointsPerMinute,
    renderMaxActive: overrides.renderMaxActive ?? defaults.renderMaxActive,
    renderDailyPixelFrames: overrides.renderDailyPixelFrames ?? defaults.renderDailyPixelFrames,
    apiKeysMax: overrides.apiKeysMax ?? defaults.apiKeysMax,
    webhookEndpointsMax: overrides.webhookEndpointsMax ?? defaults.webhookEndpointsMax,
  };
}

/** Where overrides live: read from this instance's memory, re-read after a write (the others hear the trigger). */
export interface OverrideStore {
  of(accountId: string): LimitValues;
  reload(accountId: string): Promise<void>;
}

/** Per-account limit overrides (docs/api/usage.md): admins set them; an account reads its own. */
export class LimitsService {
  constructor(
    private readonly repo: Pick<UsageRepository, 'accountExists' | 'setLimits'>,
    private readonly overrides: OverrideStore,
    private readonly defaults: UsageLimits,
  ) {}

  async read(viewer: Viewer, accountId: string): Promise<AccountLimitsType> {
    if (!viewer.isAdmin && viewer.accountId !== accountId) throw forbidden('Only an admin, or the account itself, may read its limits');
    if (!(await this.repo.accountExists(accountId))) throw notFound('Account');
    return this.view(accountId);
  }

  async set(viewer: Viewer, input: SetAccountLimitsInput): Promise<AccountLimitsType> {
    if (!viewer.isAdmin) throw forbidden('Only an admin may set an account\'s limits');
    if (!(await this.repo.accountExists(input.accountId))) throw notFound('Account');
    const limits: Record<string, number> = {};
    for (const name of LIMIT_NAMES) {
      const value = (input as Record<string, unknown>)[restKey(name)];
      if (typeof value === 'number') limits[name] = value;
    }
    await this.repo.setLimits(input.accountId, limits, viewer.accountId);
    // Applied here before answering; every other instance applies it on the trigger's announcement.
    await this.overrides.reload(input.accountId);
    return this.view(input.accountId);
  }

  private view(accountId: string): AccountLimitsType {
    const set = this.overrides.of(accountId);
    const overrides = Object.fromEntries(LIMIT_NAMES.map((name) => [name, set[name] ?? null])) as unknown as LimitOverridesType;
    return { accountId, overrides, inForce: limitsInForce(this.defaults, set) };
  }
}
