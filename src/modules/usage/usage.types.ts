import { Extensions, Field, Float, Int, ObjectType, registerEnumType } from 'type-graphql';
import { maxItems } from '../../common/bounds';
import { USAGE_PERIODS_MAX } from './usage.inputs';

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
