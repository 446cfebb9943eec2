import { z } from 'zod';
import { Arg, Authorized, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import { LIST_BOUNDS } from '../../common/bounds';
import type { Context } from '../../request/context';
import type { Viewer } from '../../auth/viewer';
import { CurrentViewer, type Paged, type Parsed, ParsedInput, ParsedPage } from '../../graphql/params';
import { describe, limitArg, pageArg } from '../../common/validation';
import { AFTER_DESCRIPTION, firstDescription } from '../../common/paging';
import type { PageOf } from '../../graphql/common.types';
import { ApiKeyService, MAX_ACTIVE_KEYS } from './api-key.service';
import { createApiKeyInput, revokeApiKeyInput, signupInput, verifyInput } from './auth.inputs';
import { AuthRepository } from './auth.repository';
import { OnboardingService } from './onboarding.service';
import {
  AgentOnboarding,
  ApiKeyInfo,
  ApiKeyPage,
  CreateApiKeyInputType,
  IssuedApiKey,
  RevokeApiKeyInputType,
  SignupAgentInputType,
  VerifyAgentInputType,
} from './auth.types';

/** Query.apiKeys' page (GET /api/keys answers all of them by default). */
const keysPageInput = z.object({
  page: pageArg().describe('Page number, from 1'),
  limit: limitArg(LIST_BOUNDS.apiKeysListed, LIST_BOUNDS.apiKeysListed).describe(`Keys per page, 1 to ${LIST_BOUNDS.apiKeysListed} (default ${LIST_BOUNDS.apiKeysListed})`),
});

const apiKeys = (ctx: Context) =>
  new ApiKeyService(new AuthRepository(ctx.db), ctx.deps.config.auth, (accountId) => ctx.deps.limits.limit(accountId, 'apiKeysMax', MAX_ACTIVE_KEYS));
const onboarding = (ctx: Context) => new OnboardingService(new AuthRepository(ctx.db), ctx.deps.config.auth, ctx.deps.mailer, ctx.log);

@Resolver()
export class AuthResolver {
  @Mutation(() => AgentOnboarding, {
    description:
      'Agent signup, no credentials needed: an agent+… address gets an account and its first API key at once; any other address gets a 6-digit code by e-mail (and no API key yet)',
  })
  signupAgent(@Ctx() ctx: Context, @ParsedInput(() => SignupAgentInputType, signupInput) input: Parsed<typeof signupInput>): Promise<AgentOnboarding> {
    return onboarding(ctx).signup(input, ctx.clientIp);
  }

  @Mutation(() => AgentOnboarding, { description: 'Exchanges the e-mailed code for an account and its first API key (no credentials needed)' })
  verifyAgent(@Ctx() ctx: Context, @ParsedInput(() => VerifyAgentInputType, verifyInput) input: Parsed<typeof verifyInput>): Promise<AgentOnboarding> {
    return onboarding(ctx).verify(input);
  }

  @Authorized()
  @Query(() => ApiKeyPage, {
    nullable: true,
    description: `The caller's API keys, newest first, without secrets (revoked ones included): the newest ${LIST_BOUNDS.apiKeysListed}, a page at a time (all of them by default)`,
  })
  apiKeys(
    @Ctx() ctx: Context,
    @CurrentViewer() viewer: Viewer,
    @ParsedPage(keysPageInput, { args: ['limit', 'page'], maxFirst: LIST_BOUNDS.apiKeysListed }) paged: Paged<Parsed<typeof keysPageInput>>,
    @Arg('limit', () => Int, { nullable: true, description: describe(keysPageInput, 'limit') }) _limit?: number | null,
    @Arg('page', () => Int, { nullable: true, description: describe(keysPageInput, 'page') }) _page?: number | null,
    @Arg('first', () => Int, { nullable: true, description: firstDescription(LIST_BOUNDS.apiKeysListed, LIST_BOUNDS.apiKeysListed) }) _first?: number | null,
    @Arg('after', () => String, { nullable: true, description: AFTER_DESCRIPTION }) _after?: string | null,
  ): Promise<PageOf<ApiKeyInfo>> {
    return apiKeys(ctx).list(viewer, paged.page);
  }

  @Authorized()
  @Mutation(() => IssuedApiKey, { description: 'Creates a personal API key for the caller; the secret is in the answer (shown once). At most 25 active keys per account (CONFLICT past it)' })
  createApiKey(@Ctx() ctx: Context, @CurrentViewer() viewer: Viewer, @ParsedInput(() => CreateApiKeyInputType, createApiKeyInput) input: Parsed<typeof createApiKeyInput>): Promise<IssuedApiKey> {
    return apiKeys(ctx).create(viewer, input);
  }

  @Authorized()
  @Mutation(() => ApiKeyInfo, { description: "Revokes one of the caller's API keys, effective immediately" })
  revokeApiKey(@Ctx() ctx: Context, @CurrentViewer() viewer: Viewer, @ParsedInput(() => RevokeApiKeyInputType, revokeApiKeyInput) input: Parsed<typeof revokeApiKeyInput>): Promise<ApiKeyInfo> {
    return apiKeys(ctx).revoke(viewer, input);
  }
}
