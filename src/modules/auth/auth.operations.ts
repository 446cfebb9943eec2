import type { OperationSpecs } from '../../common/operations';
import { createApiKeyInput, revokeApiKeyInput, signupInput, verifyInput } from './auth.inputs';

/** The zod schema each operation's input is parsed with (its resolver validates with this one, once), by root field. */
export const authOperations: OperationSpecs = {
  'Mutation.signupAgent': { input: signupInput },
  'Mutation.verifyAgent': { input: verifyInput },
  'Mutation.createApiKey': { input: createApiKeyInput },
  'Mutation.revokeApiKey': { input: revokeApiKeyInput },
};
