import type { ApolloServer } from '@apollo/server';
import type { GetPromptResult, ListPromptsResult } from '@modelcontextprotocol/sdk/types.js';
import type { AppDeps } from '../deps';
import type { Context } from '../request/context';
import { AppError, badInput } from '../common/errors';

/** Templates a prompts/list page holds. */
export const PROMPTS_PAGE = 100;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The templates' page, through Apollo as /graphql runs it (weighed and charged the same). */
const LIST = `query McpPrompts($first: Int!, $after: String) {
  agentTemplates(first: $first, after: $after) { items { id title description } pageInfo { hasNextPage endCursor } }
}`;

/**
 * Agent templates as MCP prompts, with the visibility of every other read (the caller's own,
 * public ones, those shared with its proven e-mail): prompts/list pages Query.agentTemplates
 * (an MCP cursor is its cursor), prompts/get reads one template through the same visibility
 * loader as GraphQL and REST (absent or hidden: the same answer). A prompt's name is its template id.
 */
export function templatePrompts(deps: AppDeps, apollo: ApolloServer<Context>) {
  return {
    async list(ctx: Context, cursor: string | undefined): Promise<ListPromptsResult> {
      const response = await apollo.executeOperation({ query: LIST, variables: { first: PROMPTS_PAGE, after: cursor ?? null } }, { contextValue: { ...ctx, providerCalls: { made: 0 } } });
      const result = response.body.kind === 'single' ? response.body.singleResult : undefined;
      const page = (result?.data as { agentTemplates?: { items: { id: string; title: string; description: string | null }[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } } } | undefined)?.agentTemplates;
      if (!page) {
        const first = result?.errors?.[0];
        const code = String(first?.extensions?.code ?? 'INTERNAL_SERVER_ERROR');
        if (code === 'BAD_USER_INPUT') throw badInput('cursor', 'is not a cursor of this list');
        throw new AppError(code === 'RATE_LIMITED' ? 'RATE_LIMITED' : 'INTERNAL_SERVER_ERROR', first?.message ?? 'The templates could not be read', {
          ...(typeof first?.extensions?.retryAfter === 'number' ? { retryAfter: first.extensions.retryAfter } : {}),
        });
      }
      return {
        prompts: page.items.map((template) => ({ name: template.id, title: template.title, ...(template.description ? { description: template.description } : {}) })),
        ...(page.pageInfo.hasNextPage && page.pageInfo.endCursor ? { nextCursor: page.pageInfo.endCursor } : {}),
      };
    },
    async get(ctx: Context, name: string): Promise<GetPromptResult> {
      // Charged by the MCP request itself (one point of the general budget, src/mcp/server.ts).
      if (!UUID.test(name)) throw badInput('name', 'must be a prompt name from prompts/list (a template id)');
      const template = await ctx.loaders.visibleTemplateById.load({ id: name.toLowerCase(), viewer: ctx.viewer!, adminOrgId: deps.config.auth.adminOrgId });
      if (!template) throw new AppError('NOT_FOUND', 'Prompt not found');
      return {
        description: template.description ?? template.title,
        messages: [{ role: 'user', content: { type: 'text', text: template.prompt } }],
      };
    },
  };
}
