import { Arg, Authorized, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { Context } from '../../graphql/context';
import { requireViewer } from '../../auth/access';
import { describe, validate, withoutNulls } from '../../common/validation';
import { AFTER_DESCRIPTION, firstDescription, pageRequest } from '../../common/paging';
import type { PageOf } from '../../graphql/common.types';
import { createTemplateInput, setFavoriteInput, templateIdInput, TEMPLATES_PAGE_MAX, templatesInput, updateTemplateInput } from './agent.inputs';
import { AgentRepository } from './agent.repository';
import { AgentService } from './agent.service';
import { AgentTemplatePage, AgentTemplateType, CreateAgentTemplateInput, DeleteAgentTemplateInput, SetAgentTemplateFavoriteInput, UpdateAgentTemplateInput } from './agent.types';

/** The request's AgentService; the federation reference builds it the same way. */
export const agentService = (ctx: Context) => new AgentService(new AgentRepository(ctx.em), ctx.loaders, { adminOrgId: ctx.deps.config.auth.adminOrgId });

@Resolver()
export class AgentResolver {
  @Authorized()
  @Query(() => AgentTemplatePage, {
    nullable: true,
    description:
      'Agent templates visible to the caller: its own, public ones, and those shared with its e-mail; sorted by title, a page at a time: `limit` from `page` or `offset`, or `first` after a cursor',
  })
  agentTemplates(
    @Ctx() ctx: Context,
    @Arg('limit', () => Int, { nullable: true, description: describe(templatesInput, 'limit') }) limit?: number | null,
    @Arg('offset', () => Int, { nullable: true, description: describe(templatesInput, 'offset') }) offset?: number | null,
    @Arg('page', () => Int, { nullable: true, description: describe(templatesInput, 'page') }) page?: number | null,
    @Arg('first', () => Int, { nullable: true, description: firstDescription(TEMPLATES_PAGE_MAX, TEMPLATES_PAGE_MAX) }) first?: number | null,
    @Arg('after', () => String, { nullable: true, description: AFTER_DESCRIPTION }) after?: string | null,
  ): Promise<PageOf<AgentTemplateType>> {
    const parsed = validate(templatesInput, withoutNulls({ limit, offset, page }));
    return agentService(ctx).list(requireViewer(ctx.viewer), pageRequest(parsed, { limit, offset, page, first, after }, TEMPLATES_PAGE_MAX));
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
