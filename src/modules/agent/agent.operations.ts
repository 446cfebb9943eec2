import type { OperationSpecs } from '../../common/operations';
import { createTemplateInput, setFavoriteInput, templateIdInput, updateTemplateInput } from './agent.inputs';

/** The zod schema each operation's input is parsed with (its resolver validates with this one, once), by root field. */
export const agentOperations: OperationSpecs = {
  'Mutation.createAgentTemplate': { input: createTemplateInput },
  'Mutation.updateAgentTemplate': { input: updateTemplateInput },
  'Mutation.deleteAgentTemplate': { input: templateIdInput },
  'Mutation.setAgentTemplateFavorite': { input: setFavoriteInput },
};
