import { Arg, Authorized, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { Context } from '../../graphql/context';
import { SuccessStatus } from '../../graphql/common.types';
import { requireViewer } from '../../auth/access';
import { validate } from '../../common/validation';
import { ApiKeyService } from './api-key.service';
import { createApiKeyInput, revokeApiKeyInput, signupInput, verifyInput } from './auth.inputs';
import { AuthRepository } from './auth.repository';
import { OnboardingService } from './onboarding.service';
import { ApiKeysResult, CreateApiKeyResult, OnboardingResult, RevokeApiKeyResult } from './auth.types';

const apiKeys = (ctx: Context) => new ApiKeyService(new AuthRepository(ctx.em), ctx.deps.config.auth);
const onboarding = (ctx: Context) => new OnboardingService(new AuthRepository(ctx.em), ctx.deps.config.auth, ctx.deps.mailer, ctx.log);

@Resolver()
export class AuthResolver {
  @Mutation(() => OnboardingResult, {
    description:
      'Agent signup, no credentials needed: an agent+… address gets an account and its first API key at once; any other address gets a 6-digit code by e-mail (api_key null)',
  })
  async signupAgent(@Ctx() ctx: Context, @Arg('email', () => String) email: string): Promise<OnboardingResult> {
    return onboarding(ctx).signup(validate(signupInput, { email }), ctx.clientIp);
  }

  @Mutation(() => OnboardingResult, { description: 'Exchanges the e-mailed code for an account and its first API key (no credentials needed)' })
  async verifyAgent(
    @Ctx() ctx: Context,
    @Arg('email', () => String) email: string,
    @Arg('code', () => String) code: string,
  ): Promise<OnboardingResult> {
    return onboarding(ctx).verify(validate(verifyInput, { email, code }));
  }

  @Authorized()
  @Query(() => ApiKeysResult, { description: "The caller's API keys, newest first, without secrets (revoked ones included)" })
  async apiKeys(@Ctx() ctx: Context): Promise<ApiKeysResult> {
    return { status: SuccessStatus.success, keys: await apiKeys(ctx).list(requireViewer(ctx.viewer)) };
  }

  @Authorized()
  @Mutation(() => CreateApiKeyResult, { description: 'Creates a personal API key for the caller; the secret is in api_key, shown once. At most 25 active keys per account (CONFLICT past it)' })
  async createApiKey(@Ctx() ctx: Context, @Arg('name', () => String) name: string): Promise<CreateApiKeyResult> {
    const { key, raw } = await apiKeys(ctx).create(requireViewer(ctx.viewer), validate(createApiKeyInput, { name }));
    return { status: SuccessStatus.success, key, api_key: raw };
  }

  @Authorized()
  @Mutation(() => RevokeApiKeyResult, { description: "Revokes one of the caller's API keys, effective immediately" })
  async revokeApiKey(@Ctx() ctx: Context, @Arg('id', () => ID) id: string): Promise<RevokeApiKeyResult> {
    return { status: SuccessStatus.success, key: await apiKeys(ctx).revoke(requireViewer(ctx.viewer), validate(revokeApiKeyInput, { id })) };
  }
}
