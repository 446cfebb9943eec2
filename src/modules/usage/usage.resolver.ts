import { Arg, Authorized, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { Context } from '../../graphql/context';
import { requireViewer } from '../../auth/access';
import { describe, validate, withoutNulls } from '../../common/validation';
import { MAX_ACTIVE_KEYS } from '../auth';
import { accountLimitsInput, setAccountLimitsInput, usageInput } from './usage.inputs';
import { UsageRepository } from './usage.repository';
import { configuredLimits, limitsInForce, LimitsService, UsageService } from './usage.service';
import { AccountLimitsType, AccountUsage, SetAccountLimitsInputType, UsageGranularity } from './usage.types';

const defaults = (ctx: Context) => configuredLimits(ctx.deps.config, MAX_ACTIVE_KEYS);
const usageService = (ctx: Context) =>
  new UsageService(new UsageRepository(ctx.em), (accountId) => limitsInForce(defaults(ctx), ctx.deps.limits.of(accountId)), Math.ceil(ctx.deps.config.usage.flushIntervalMs / 1000));
const limitsService = (ctx: Context) => new LimitsService(new UsageRepository(ctx.em), ctx.deps.limits, defaults(ctx));

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

  @Authorized()
  @Query(() => AccountLimitsType, { nullable: true, description: "An account's limit overrides and the limits in force for it (an admin, or the account itself)" })
  accountLimits(@Ctx() ctx: Context, @Arg('accountId', () => ID, { description: describe(accountLimitsInput, 'accountId') }) accountId: string): Promise<AccountLimitsType> {
    return limitsService(ctx).read(requireViewer(ctx.viewer), validate(accountLimitsInput, { accountId }).accountId);
  }

  @Authorized()
  @Mutation(() => AccountLimitsType, {
    description: "Sets an account's whole set of limit overrides (admins only): applied at once on every instance; a limit left out goes back to the default",
  })
  setAccountLimits(@Ctx() ctx: Context, @Arg('input', () => SetAccountLimitsInputType) input: SetAccountLimitsInputType): Promise<AccountLimitsType> {
    return limitsService(ctx).set(requireViewer(ctx.viewer), validate(setAccountLimitsInput, withoutNulls({ ...input })));
  }
}
