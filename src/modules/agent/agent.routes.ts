import type { RestRoute } from '../../http/rest/route';
import { createTemplateInput, setFavoriteInput, templateIdInput, updateTemplateInput } from './agent.inputs';

export const agentRoutes: RestRoute[] = [
  { operation: 'Query.agentTemplates', method: 'GET', path: '/agents/templates', tags: ['agent templates'] },
  {
    operation: 'Mutation.createAgentTemplate',
    method: 'POST',
    path: '/agents/templates',
    tags: ['agent templates'],
    input: createTemplateInput,
    errors: ['CONFLICT'],
  },
  {
    operation: 'Mutation.updateAgentTemplate',
    method: 'PATCH',
    path: '/agents/templates/:id',
    tags: ['agent templates'],
    input: updateTemplateInput,
    errors: ['CONFLICT'],
  },
  {
    operation: 'Mutation.deleteAgentTemplate',
    method: 'DELETE',
    path: '/agents/templates/:id',
    tags: ['agent templates'],
    input: templateIdInput,
  },
  {
    operation: 'Mutation.setAgentTemplateFavorite',
    method: 'PUT',
    path: '/agents/templates/:id/favorite',
    tags: ['agent templates'],
    input: setFavoriteInput,
  },
];
