import { z } from 'zod';
import { LIMIT_BOUNDS, LimitName } from '../../auth/limit-overrides';
import { uuid } from '../../common/validation';

/** Periods one usage answer holds at most, per granularity: a week of hours, about three months of days. */
export const USAGE_MAX_PERIODS = { hour: 168, day: 93 } as const;
/** The longest list of periods an answer may hold (the larger of the two). */
export const USAGE_PERIODS_MAX = Math.max(USAGE_MAX_PERIODS.hour, USAGE_MAX_PERIODS.day);

const instant = z
  .string()
  .trim()
  .refine((value) => value.length <= 64 && /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/.test(value) && !Number.isNaN(Date.parse(value)), {
    message: 'must be an ISO 8601 date (2026-11-26) or date-time with a zone (2026-11-26T15:00:00Z)',
  });

/** GET /api/accounts/me/usage and Query.usage. */
export const usageInput = z.object({
  from: instant.optional().describe('Start of the first period (ISO 8601 date or date-time with a zone; taken back to its hour or UTC day). Default: 7 days (day) or 24 hours (hour) before `to`'),
  to: instant.optional().describe('End (exclusive) of the last period (ISO 8601 date or date-time with a zone). Default: now'),
  granularity: z.enum(['day', 'hour']).default('day').describe(`Period length: day (UTC days, at most ${USAGE_MAX_PERIODS.day} periods) or hour (at most ${USAGE_MAX_PERIODS.hour}); default day`),
});

export type UsageInput = z.output<typeof usageInput>;

const limitValue = (name: LimitName, what: string) => {
  const { min, max } = LIMIT_BOUNDS[name];
  return z
    .number()
    .int({ message: 'must be a whole number' })
    .min(min, { message: `must be at least ${min}` })
    .max(max, { message: `must be at most ${max}` })
    .optional()
    .describe(`${what}, ${min} to ${max}; absent or null: the deployment's default`);
};

/** GET /api/accounts/{account_id}/limits and Query.accountLimits. */
export const accountLimitsInput = z.object({ accountId: uuid().describe('The account (UUID)') });

/** PUT /api/accounts/{account_id}/limits and Mutation.setAccountLimits: the account's whole set of overrides (what is absent is cleared). */
export const setAccountLimitsInput = z.object({
  accountId: uuid().describe('The account whose limits are set (UUID)'),
  request_points_per_minute: limitValue('requestPointsPerMinute', 'Request points a minute'),
  research_points_per_minute: limitValue('researchPointsPerMinute', 'Research points a minute'),
  render_max_active: limitValue('renderMaxActive', 'Renders queued or running at once'),
  render_daily_pixel_frames: limitValue('renderDailyPixelFrames', 'Pixel-frames of renders in a rolling 24 hours'),
  api_keys_max: limitValue('apiKeysMax', 'Active API keys at once'),
  webhook_endpoints_max: limitValue('webhookEndpointsMax', 'Webhook endpoints (read by the webhook module)'),
});

export type SetAccountLimitsInput = z.output<typeof setAccountLimitsInput>;
