import { Arg, Authorized, Ctx, Query, Resolver } from 'type-graphql';
import type { Context } from '../../graphql/context';
import { requireViewer } from '../../auth/access';
import { describe, validate, withoutNulls } from '../../common/validation';
import { MAX_ACTIVE_KEYS } from '../auth';
import { usageInput } from './usage.inputs';
import { UsageRepository } from './usage.repository';
import { configuredLimits, UsageService } from './usage.service';
import { AccountUsage, UsageGranularity } from './usage.types';

const usageService = (ctx: Context) =>
  new UsageService(new UsageRepository(ctx.em), () => configuredLimits(ctx.deps.config, MAX_ACTIVE_KEYS), Math.ceil(ctx.deps.config.usage.flushIntervalMs / 1000));

@Resolver()
export class UsageResolver {
  @Authorized()
  @Query(() => AccountUsage, {
    nullable: true,
    description:
      "The caller's usage per day or hour: request and research points, provider calls made and answers served from stored data, render runs and pixel-frames; with the limits in force. Lags by up to a few seconds",
  })
  usage(
    @Ctx() ctx: Context,
    @Arg('from', () => String, { nullable: true, description: describe(usageInput, 'from') }) from?: string | null,
    @Arg('to', () => String, { nullable: true, description: describe(usageInput, 'to') }) to?: string | null,
    @Arg('granularity', () => UsageGranularity, { nullable: true, description: describe(usageInput, 'granularity') }) granularity?: UsageGranularity | null,
  ): Promise<AccountUsage> {
    return usageService(ctx).usage(requireViewer(ctx.viewer), validate(usageInput, withoutNulls({ from, to, granularity })));
  }
}
