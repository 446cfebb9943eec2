import { Extensions, Field, Float, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { describe } from '../../common/validation';
import { maxItems } from '../../common/bounds';
import { setAccountLimitsInput, USAGE_PERIODS_MAX } from './usage.inputs';

export enum UsageGranularity {
  day = 'day',
  hour = 'hour',
}

registerEnumType(UsageGranularity, {
  name: 'UsageGranularity',
  description: 'The length of a usage period',
  valuesConfig: {
    day: { description: 'A UTC day' },
    hour: { description: 'An hour' },
  },
});

@ObjectType('UsagePeriod', { description: "What the caller's account used in one period" })
export class UsagePeriod {
  @Field({ description: 'Start of the period (its end is the next period\'s start)' })
  start!: Date;

  @Field(() => Float, { description: 'Request points spent from the per-minute budget (GraphQL operations at their settled cost)' })
  requestPoints!: number;

  @Field(() => Float, { description: 'Research points spent from the research budget' })
  researchPoints!: number;

  @Field(() => Float, { description: 'Upstream provider calls made for the account' })
  providerCalls!: number;

  @Field(() => Float, { description: 'Research answers served from stored data, with no provider call' })
  storedAnswers!: number;

  @Field(() => Int, { description: 'Render runs started in the period' })
  renderRuns!: number;

  @Field(() => Float, { description: 'Pixel-frames (width × height × frames) of the render runs started in the period' })
  renderPixelFrames!: number;

  @Field(() => Float, { description: "Webhook delivery attempts made to the account's endpoints in the period (each request to a receiver, retries and pings included)" })
  webhookDeliveries!: number;
}

@ObjectType('UsageLimits', { description: "The limits in force for the caller's account" })
export class UsageLimits {
  @Field(() => Int, { description: 'Request points a minute (RATE_LIMIT_PER_MINUTE)' })
  requestPointsPerMinute!: number;

  @Field(() => Int, { description: 'Research points a minute (RESEARCH_RATE_LIMIT_PER_MINUTE)' })
  researchPointsPerMinute!: number;

  @Field(() => Int, { description: 'Renders queued or running at once (RENDER_MAX_ACTIVE_PER_ACCOUNT)' })
  renderMaxActive!: number;

  @Field(() => Float, { description: 'Pixel-frames of renders in a rolling 24 hours (RENDER_DAILY_PIXEL_FRAMES)' })
  renderDailyPixelFrames!: number;

  @Field(() => Int, { description: 'Active API keys at once' })
  apiKeysMax!: number;

  @Field(() => Int, { description: 'Unexpired Idempotency-Key values held at once (IDEMPOTENCY_MAX_KEYS_PER_ACCOUNT)' })
  idempotencyKeysMax!: number;

  @Field(() => Int, { nullable: true, description: "Webhook endpoints, when an admin set the account its own; null: the webhook module's default" })
  webhookEndpointsMax!: number | null;
}

@ObjectType('AccountUsage', { description: "The caller's usage per period, its totals, and the limits in force" })
export class AccountUsage {
  @Field({ description: 'Start of the first period' })
  from!: Date;

  @Field({ description: 'End (exclusive) of the last period' })
  to!: Date;

  @Field(() => UsageGranularity, { description: 'The length of each period' })
  granularity!: UsageGranularity;

  @Extensions(maxItems(USAGE_PERIODS_MAX))
  @Field(() => [UsagePeriod], { description: `The periods from \`from\` to \`to\`, oldest first, each present even when nothing was used (at most ${USAGE_PERIODS_MAX})` })
  periods!: UsagePeriod[];

  @Field(() => UsagePeriod, { description: 'The sums over every period (its start is `from`)' })
  totals!: UsagePeriod;

  @Field(() => UsageLimits, { description: 'The limits in force now' })
  limits!: UsageLimits;

  @Field(() => Int, { description: 'Usage is gathered in memory by each instance and stored every few seconds: the latest seconds may not be counted yet' })
  lagSeconds!: number;
}

@ObjectType('LimitOverrides', { description: 'The limits an admin set for one account; null: the deployment default applies' })
export class LimitOverridesType {
  @Field(() => Int, { nullable: true, description: 'Request points a minute' })
  requestPointsPerMinute!: number | null;

  @Field(() => Int, { nullable: true, description: 'Research points a minute' })
  researchPointsPerMinute!: number | null;

  @Field(() => Int, { nullable: true, description: 'Renders queued or running at once' })
  renderMaxActive!: number | null;

  @Field(() => Float, { nullable: true, description: 'Pixel-frames of renders in a rolling 24 hours' })
  renderDailyPixelFrames!: number | null;

  @Field(() => Int, { nullable: true, description: 'Active API keys at once' })
  apiKeysMax!: number | null;

  @Field(() => Int, { nullable: true, description: 'Webhook endpoints (applied by the webhook module)' })
  webhookEndpointsMax!: number | null;
}

@ObjectType('AccountLimits', { description: "One account's limit overrides and the limits in force for it" })
export class AccountLimitsType {
  @Field(() => ID, { description: 'The account (UUID)' })
  accountId!: string;

  @Field(() => LimitOverridesType, { description: 'What an admin set for this account' })
  overrides!: LimitOverridesType;

  @Field(() => UsageLimits, { description: 'The limits in force for this account (overrides over the defaults)' })
  inForce!: UsageLimits;
}

@InputType('SetAccountLimitsInput', { description: "An account's whole set of limit overrides (admins only): a limit absent or null goes back to the default" })
export class SetAccountLimitsInputType {
  @Field(() => ID, { description: describe(setAccountLimitsInput, 'accountId') })
  accountId!: string;

  @Field(() => Int, { nullable: true, description: describe(setAccountLimitsInput, 'request_points_per_minute') })
  requestPointsPerMinute?: number | null;

  @Field(() => Int, { nullable: true, description: describe(setAccountLimitsInput, 'research_points_per_minute') })
  researchPointsPerMinute?: number | null;

  @Field(() => Int, { nullable: true, description: describe(setAccountLimitsInput, 'render_max_active') })
  renderMaxActive?: number | null;

  @Field(() => Float, { nullable: true, description: describe(setAccountLimitsInput, 'render_daily_pixel_frames') })
  renderDailyPixelFrames?: number | null;

  @Field(() => Int, { nullable: true, description: describe(setAccountLimitsInput, 'api_keys_max') })
  apiKeysMax?: number | null;

  @Field(() => Int, { nullable: true, description: describe(setAccountLimitsInput, 'webhook_endpoints_max') })
  webhookEndpointsMax?: number | null;
}
