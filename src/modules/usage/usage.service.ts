import { badInput } from '../../common/errors';
import type { Config } from '../../config/config';
import type { Viewer } from '../../auth/viewer';
import { USAGE_MAX_PERIODS, UsageInput } from './usage.inputs';
import type { UsageRepository, UsageRow } from './usage.repository';
import { AccountUsage, UsageGranularity, UsageLimits, UsagePeriod } from './usage.types';

const PERIOD_MS = { hour: 3_600_000, day: 86_400_000 } as const;
const DEFAULT_SPAN = { hour: 24, day: 7 } as const;

/** The limits in force for an account, as the usage view shows them. */
export type LimitsOf = (accountId: string) => UsageLimits;

/** The default limits of the deployment (before any per-account override). */
export function configuredLimits(config: Config, apiKeysMax: number): UsageLimits {
  return {
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
});

/** The caller's usage per period (README: Usage and limits). */
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
    const totals: UsagePeriod = { start, requestPoints: 0, researchPoints: 0, providerCalls: 0, storedAnswers: 0, renderRuns: 0, renderPixelFrames: 0 };
    for (const p of periods) {
      totals.requestPoints += p.requestPoints;
      totals.researchPoints += p.researchPoints;
      totals.providerCalls += p.providerCalls;
      totals.storedAnswers += p.storedAnswers;
      totals.renderRuns += p.renderRuns;
      totals.renderPixelFrames += p.renderPixelFrames;
    }
    return { from: start, to: end, granularity: granularity as UsageGranularity, periods, totals, limits: this.limitsOf(viewer.accountId), lagSeconds: this.lagSeconds };
  }
}
