import { Arg, Authorized, Ctx, Extensions, Mutation, Query, Resolver } from 'type-graphql';
import { LIST_BOUNDS, maxItems } from '../../common/bounds';
import type { Context } from '../../graphql/context';
import { requireViewer } from '../../auth/access';
import { validate, withoutNulls } from '../../common/validation';
import { ApiKeyService } from './api-key.service';
import { createApiKeyInput, revokeApiKeyInput, signupInput, verifyInput } from './auth.inputs';
import { AuthRepository } from './auth.repository';
import { OnboardingService } from './onboarding.service';
import {
  AgentOnboarding,
  ApiKeyInfo,
  CreateApiKeyInputType,
  IssuedApiKey,
  RevokeApiKeyInputType,
  SignupAgentInputType,
  VerifyAgentInputType,
} from './auth.types';

const apiKeys = (ctx: Context) => new ApiKeyService(new AuthRepository(ctx.em), ctx.deps.config.auth);
const onboarding = (ctx: Context) => new OnboardingService(new AuthRepository(ctx.em), ctx.deps.config.auth, ctx.deps.mailer, ctx.log);

@Resolver()
export class AuthResolver {
  @Mutation(() => AgentOnboarding, {
    description:
      'Agent signup, no credentials needed: an agent+… address gets an account and its first API key at once; any other address gets a 6-digit code by e-mail (and no API key yet)',
  })
  signupAgent(@Ctx() ctx: Context, @Arg('input', () => SignupAgentInputType) input: SignupAgentInputType): Promise<AgentOnboarding> {
    return onboarding(ctx).signup(validate(signupInput, withoutNulls({ ...input })), ctx.clientIp);
  }

  @Mutation(() => AgentOnboarding, { description: 'Exchanges the e-mailed code for an account and its first API key (no credentials needed)' })
  verifyAgent(@Ctx() ctx: Context, @Arg('input', () => VerifyAgentInputType) input: VerifyAgentInputType): Promise<AgentOnboarding> {
    return onboarding(ctx).verify(validate(verifyInput, withoutNulls({ ...input })));
  }

  @Authorized()
  @Extensions(maxItems(LIST_BOUNDS.apiKeysListed))
  @Query(() => [ApiKeyInfo], { nullable: true, description: `The caller's API keys, newest first, without secrets (revoked ones included): the newest ${LIST_BOUNDS.apiKeysListed}` })
  apiKeys(@Ctx() ctx: Context): Promise<ApiKeyInfo[]> {
    return apiKeys(ctx).list(requireViewer(ctx.viewer));
  }

  @Authorized()
  @Mutation(() => IssuedApiKey, { description: 'Creates a personal API key for the caller; the secret is in the answer (shown once). At most 25 active keys per account (CONFLICT past it)' })
  createApiKey(@Ctx() ctx: Context, @Arg('input', () => CreateApiKeyInputType) input: CreateApiKeyInputType): Promise<IssuedApiKey> {
    return apiKeys(ctx).create(requireViewer(ctx.viewer), validate(createApiKeyInput, withoutNulls({ ...input })));
  }

  @Authorized()
  @Mutation(() => ApiKeyInfo, { description: "Revokes one of the caller's API keys, effective immediately" })
  revokeApiKey(@Ctx() ctx: Context, @Arg('input', () => RevokeApiKeyInputType) input: RevokeApiKeyInputType): Promise<ApiKeyInfo> {
    return apiKeys(ctx).revoke(requireViewer(ctx.viewer), validate(revokeApiKeyInput, withoutNulls({ ...input })));
  }
}
