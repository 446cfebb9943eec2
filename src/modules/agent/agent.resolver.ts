import { Arg, Authorized, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { Context } from '../../request/context';
import type { Viewer } from '../../auth/viewer';
import { CurrentViewer, type Paged, type Parsed, ParsedInput, ParsedPage } from '../../graphql/params';
import { describe } from '../../common/validation';
import { AFTER_DESCRIPTION, firstDescription } from '../../common/paging';
import type { PageOf } from '../../graphql/common.types';
import { createTemplateInput, setFavoriteInput, templateIdInput, TEMPLATES_PAGE_MAX, templatesInput, updateTemplateInput } from './agent.inputs';
import { AgentRepository } from './agent.repository';
import { AgentService } from './agent.service';
import { AgentTemplatePage, AgentTemplateType, CreateAgentTemplateInput, DeleteAgentTemplateInput, SetAgentTemplateFavoriteInput, UpdateAgentTemplateInput } from './agent.types';

/** The request's AgentService; the federation reference builds it the same way. */
export const agentService = (ctx: Context) => new AgentService(new AgentRepository(ctx.db), ctx.loaders, { adminOrgId: ctx.deps.config.auth.adminOrgId });

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
    @CurrentViewer() viewer: Viewer,
    @ParsedPage(templatesInput, { args: ['limit', 'offset', 'page'], maxFirst: TEMPLATES_PAGE_MAX }) paged: Paged<Parsed<typeof templatesInput>>,
    @Arg('limit', () => Int, { nullable: true, description: describe(templatesInput, 'limit') }) _limit?: number | null,
    @Arg('offset', () => Int, { nullable: true, description: describe(templatesInput, 'offset') }) _offset?: number | null,
    @Arg('page', () => Int, { nullable: true, description: describe(templatesInput, 'page') }) _page?: number | null,
    @Arg('first', () => Int, { nullable: true, description: firstDescription(TEMPLATES_PAGE_MAX, TEMPLATES_PAGE_MAX) }) _first?: number | null,
    @Arg('after', () => String, { nullable: true, description: AFTER_DESCRIPTION }) _after?: string | null,
  ): Promise<PageOf<AgentTemplateType>> {
    return agentService(ctx).list(viewer, paged.page);
  }

  @Authorized()
  @Mutation(() => AgentTemplateType, {
    description:
      "Sets the caller's favorite state of a template it can see (idempotent) and answers the template with it and its new favorites count; a template it cannot see is NOT_FOUND",
  })
  setAgentTemplateFavorite(@Ctx() ctx: Context, @CurrentViewer() viewer: Viewer, @ParsedInput(() => SetAgentTemplateFavoriteInput, setFavoriteInput) input: Parsed<typeof setFavoriteInput>): Promise<AgentTemplateType> {
    return agentService(ctx).setFavorite(viewer, input);
  }

  @Authorized()
  @Mutation(() => AgentTemplateType, { description: 'Creates a template owned by the caller; a title it already uses is CONFLICT' })
  createAgentTemplate(@Ctx() ctx: Context, @CurrentViewer() viewer: Viewer, @ParsedInput(() => CreateAgentTemplateInput, createTemplateInput) input: Parsed<typeof createTemplateInput>): Promise<AgentTemplateType> {
    return agentService(ctx).create(viewer, input);
  }

  @Authorized()
  @Mutation(() => AgentTemplateType, {
    description: 'Changes the given fields of a template (owner only; the shared e-mails given replace the list)',
  })
  updateAgentTemplate(@Ctx() ctx: Context, @CurrentViewer() viewer: Viewer, @ParsedInput(() => UpdateAgentTemplateInput, updateTemplateInput) input: Parsed<typeof updateTemplateInput>): Promise<AgentTemplateType> {
    return agentService(ctx).update(viewer, input);
  }

  @Authorized()
  @Mutation(() => Boolean, { description: 'Deletes a template with its shares and favourites (owner only); true once deleted' })
  async deleteAgentTemplate(@Ctx() ctx: Context, @CurrentViewer() viewer: Viewer, @ParsedInput(() => DeleteAgentTemplateInput, templateIdInput) input: Parsed<typeof templateIdInput>): Promise<boolean> {
    await agentService(ctx).remove(viewer, input);
    return true;
  }
}
