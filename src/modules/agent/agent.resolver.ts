import { Arg, Authorized, Ctx, Extensions, Int, Mutation, Query, Resolver } from 'type-graphql';
import { maxItems } from '../../common/bounds';
import type { Context } from '../../graphql/context';
import { requireViewer } from '../../auth/access';
import { describe, validate, withoutNulls } from '../../common/validation';
import { createTemplateInput, setFavoriteInput, templateIdInput, TEMPLATES_PAGE_MAX, templatesInput, updateTemplateInput } from './agent.inputs';
import { AgentRepository } from './agent.repository';
import { AgentService } from './agent.service';
import { AgentTemplateType, CreateAgentTemplateInput, DeleteAgentTemplateInput, SetAgentTemplateFavoriteInput, UpdateAgentTemplateInput } from './agent.types';

/** The request's AgentService; the federation reference builds it the same way. */
export const agentService = (ctx: Context) => new AgentService(new AgentRepository(ctx.em), ctx.loaders, { adminOrgId: ctx.deps.config.auth.adminOrgId });

@Resolver()
export class AgentResolver {
  @Authorized()
  @Extensions(maxItems(TEMPLATES_PAGE_MAX))
  @Query(() => [AgentTemplateType], { nullable: true,
    description: 'Agent templates visible to the caller: its own, public ones, and those shared with its e-mail; sorted by title, `limit` of them from `offset`',
  })
  agentTemplates(
    @Ctx() ctx: Context,
    @Arg('limit', () => Int, { nullable: true, defaultValue: TEMPLATES_PAGE_MAX, description: describe(templatesInput, 'limit') }) limit?: number | null,
    @Arg('offset', () => Int, { nullable: true, defaultValue: 0, description: describe(templatesInput, 'offset') }) offset?: number | null,
  ): Promise<AgentTemplateType[]> {
    return agentService(ctx).list(requireViewer(ctx.viewer), validate(templatesInput, withoutNulls({ limit, offset })));
  }

  @Authorized()
  @Mutation(() => AgentTemplateType, {
    description:
      "Sets the caller's favorite state of a template it can see (idempotent) and answers the template with it and its new favorites count; a template it cannot see is NOT_FOUND",
  })
  setAgentTemplateFavorite(@Ctx() ctx: Context, @Arg('input', () => SetAgentTemplateFavoriteInput) input: SetAgentTemplateFavoriteInput): Promise<AgentTemplateType> {
    return agentService(ctx).setFavorite(requireViewer(ctx.viewer), validate(setFavoriteInput, withoutNulls({ ...input })));
  }

  @Authorized()
  @Mutation(() => AgentTemplateType, { description: 'Creates a template owned by the caller; a title it already uses is CONFLICT' })
  createAgentTemplate(@Ctx() ctx: Context, @Arg('input', () => CreateAgentTemplateInput) input: CreateAgentTemplateInput): Promise<AgentTemplateType> {
    const viewer = requireViewer(ctx.viewer);
    return agentService(ctx).create(viewer, validate(createTemplateInput, withoutNulls({ ...input })));
  }

  @Authorized()
  @Mutation(() => AgentTemplateType, {
    description: 'Changes the given fields of a template (owner only; the shared e-mails given replace the list)',
  })
  updateAgentTemplate(@Ctx() ctx: Context, @Arg('input', () => UpdateAgentTemplateInput) input: UpdateAgentTemplateInput): Promise<AgentTemplateType> {
    const viewer = requireViewer(ctx.viewer);
    return agentService(ctx).update(viewer, validate(updateTemplateInput, withoutNulls({ ...input })));
  }

  @Authorized()
  @Mutation(() => Boolean, { description: 'Deletes a template with its shares and favourites (owner only); true once deleted' })
  async deleteAgentTemplate(@Ctx() ctx: Context, @Arg('input', () => DeleteAgentTemplateInput) input: DeleteAgentTemplateInput): Promise<boolean> {
    await agentService(ctx).remove(requireViewer(ctx.viewer), validate(templateIdInput, withoutNulls({ ...input })));
    return true;
  }
}
