import { Arg, Authorized, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { Context } from '../../request/context';
import type { Viewer } from '../../auth/viewer';
import { CurrentViewer, type Parsed, ParsedArg, ParsedArgs, ParsedInput } from '../../graphql/params';
import { describe } from '../../common/validation';
import { MAX_ACTIVE_KEYS } from '../auth';
import { accountLimitsInput, setAccountLimitsInput, usageInput } from './usage.inputs';
import { UsageRepository } from './usage.repository';
import { configuredLimits, limitsInForce, LimitsService, UsageService } from './usage.service';
import { AccountLimitsType, AccountUsage, SetAccountLimitsInputType, UsageGranularity } from './usage.types';

const defaults = (ctx: Context) => configuredLimits(ctx.deps.config, MAX_ACTIVE_KEYS);
const usageService = (ctx: Context) =>
  new UsageService(new UsageRepository(ctx.db), (accountId) => limitsInForce(defaults(ctx), ctx.deps.limits.of(accountId)), Math.ceil(ctx.deps.config.usage.flushIntervalMs / 1000));
const limitsService = (ctx: Context) => new LimitsService(new UsageRepository(ctx.db), ctx.deps.limits, defaults(ctx));

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
    @CurrentViewer() viewer: Viewer,
    @ParsedArgs(usageInput, ['from', 'to', 'granularity']) input: Parsed<typeof usageInput>,
    @Arg('from', () => String, { nullable: true, description: describe(usageInput, 'from') }) _from?: string | null,
    @Arg('to', () => String, { nullable: true, description: describe(usageInput, 'to') }) _to?: string | null,
    @Arg('granularity', () => UsageGranularity, { nullable: true, description: describe(usageInput, 'granularity') }) _granularity?: UsageGranularity | null,
  ): Promise<AccountUsage> {
    return usageService(ctx).usage(viewer, input);
  }

  @Authorized()
  @Query(() => AccountLimitsType, { nullable: true, description: "An account's limit overrides and the limits in force for it (an admin, or the account itself)" })
  accountLimits(@Ctx() ctx: Context, @CurrentViewer() viewer: Viewer, @ParsedArg('accountId', () => ID, accountLimitsInput, { description: describe(accountLimitsInput, 'accountId') }) accountId: string): Promise<AccountLimitsType> {
    return limitsService(ctx).read(viewer, accountId);
  }

  @Authorized()
  @Mutation(() => AccountLimitsType, {
    description: "Sets an account's whole set of limit overrides (admins only): applied at once on every instance; a limit left out goes back to the default",
  })
  setAccountLimits(@Ctx() ctx: Context, @CurrentViewer() viewer: Viewer, @ParsedInput(() => SetAccountLimitsInputType, setAccountLimitsInput) input: Parsed<typeof setAccountLimitsInput>): Promise<AccountLimitsType> {
    return limitsService(ctx).set(viewer, input);
  }
}
