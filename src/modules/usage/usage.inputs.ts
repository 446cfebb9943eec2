import { z } from 'zod';

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
