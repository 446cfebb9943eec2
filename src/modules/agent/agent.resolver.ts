import { Arg, Authorized, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { Context } from '../../graphql/context';
import { SuccessStatus } from '../../graphql/common.types';
import { requireViewer } from '../../auth/access';
import { validate } from '../../common/validation';
import { createTemplateInput, setFavoriteInput, templateIdInput, updateTemplateInput } from './agent.inputs';
import { AgentRepository } from './agent.repository';
import { AgentService } from './agent.service';
import { AgentTemplateFavoriteResult, AgentTemplateResult, AgentTemplatesResult, AgentTemplateStatusResult } from './agent.types';

/** The request's AgentService; the federation reference builds it the same way. */
export const agentService = (ctx: Context) => new AgentService(new AgentRepository(ctx.em), ctx.loaders, { adminOrgId: ctx.deps.config.auth.adminOrgId });

@Resolver()
export class AgentResolver {
  @Authorized()
  @Query(() => AgentTemplatesResult, {
    description: "Agent templates visible to the caller: its own, public ones, and those shared with its e-mail; sorted by title",
  })
  async agentTemplates(@Ctx() ctx: Context): Promise<AgentTemplatesResult> {
    return { status: SuccessStatus.success, templates: await agentService(ctx).list(requireViewer(ctx.viewer)) };
  }

  @Authorized()
  @Mutation(() => AgentTemplateFavoriteResult, {
    description: "Sets the caller's favorite state of a template it can see (idempotent) and answers it with the new favorites_count; a template it cannot see is NOT_FOUND",
  })
  async setAgentTemplateFavorite(
    @Ctx() ctx: Context,
    @Arg('id', () => ID, { description: 'Template id (UUID)' }) id: string,
    @Arg('is_favourite', () => Boolean, { description: 'The desired favorite state' }) isFavourite: boolean,
  ): Promise<AgentTemplateFavoriteResult> {
    const favorite = await agentService(ctx).setFavorite(requireViewer(ctx.viewer), validate(setFavoriteInput, { id, is_favourite: isFavourite }));
    return { status: SuccessStatus.success, ...favorite };
  }

  @Authorized()
  @Mutation(() => AgentTemplateResult, { description: 'Creates a template owned by the caller; a title it already uses is CONFLICT' })
  async createAgentTemplate(
    @Ctx() ctx: Context,
    @Arg('title', () => String, { description: '1-120 characters, unique among the caller\'s templates' }) title: string,
    @Arg('description', () => String, { description: '1-2000 characters' }) description: string,
    @Arg('prompt', () => String, { description: '1-20000 characters' }) prompt: string,
    @Arg('tags', () => [String], { nullable: true, description: 'At most 20 tags of 1-40 characters' }) tags?: string[] | null,
    @Arg('is_private', () => Boolean, { nullable: true, description: 'Default false' }) isPrivate?: boolean | null,
    @Arg('shared_emails', () => [String], { nullable: true, description: 'At most 100 e-mail addresses that may see it' })
    sharedEmails?: string[] | null,
  ): Promise<AgentTemplateResult> {
    const viewer = requireViewer(ctx.viewer);
    const input = validate(createTemplateInput, { title, description, prompt, tags, is_private: isPrivate, shared_emails: sharedEmails });
    const template = await agentService(ctx).create(viewer, input);
    return { status: SuccessStatus.success, template };
  }

  @Authorized()
  @Mutation(() => AgentTemplateResult, {
    description: 'Changes the given fields of a template (owner only; shared_emails replaces the list)',
  })
  async updateAgentTemplate(
    @Ctx() ctx: Context,
    @Arg('id', () => ID, { description: 'Template id (UUID)' }) id: string,
    @Arg('title', () => String, { nullable: true }) title?: string | null,
    @Arg('description', () => String, { nullable: true }) description?: string | null,
    @Arg('prompt', () => String, { nullable: true }) prompt?: string | null,
    @Arg('tags', () => [String], { nullable: true }) tags?: string[] | null,
    @Arg('is_private', () => Boolean, { nullable: true }) isPrivate?: boolean | null,
    @Arg('shared_emails', () => [String], { nullable: true }) sharedEmails?: string[] | null,
  ): Promise<AgentTemplateResult> {
    const viewer = requireViewer(ctx.viewer);
    const input = validate(updateTemplateInput, { id, title, description, prompt, tags, is_private: isPrivate, shared_emails: sharedEmails });
    const template = await agentService(ctx).update(viewer, input);
    return { status: SuccessStatus.success, template };
  }

  @Authorized()
  @Mutation(() => AgentTemplateStatusResult, { description: 'Deletes a template with its shares and favourites (owner only)' })
  async deleteAgentTemplate(
    @Ctx() ctx: Context,
    @Arg('id', () => ID, { description: 'Template id (UUID)' }) id: string,
  ): Promise<AgentTemplateStatusResult> {
    await agentService(ctx).remove(requireViewer(ctx.viewer), validate(templateIdInput, { id }));
    return { status: SuccessStatus.success };
  }
}
