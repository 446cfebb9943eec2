import type { OperationSpecs } from '../../common/operations';
import { addMessageInput, chatRefInput, createChatInput, createSessionInput, sessionChatsInput } from './session.inputs';

/** The zod schema each operation's input is parsed with (its resolver validates with this one, once), by root field. */
export const sessionOperations: OperationSpecs = {
  'Mutation.createSession': { input: createSessionInput },
  'Query.sessionChats': { input: sessionChatsInput },
  'Mutation.createChat': { input: createChatInput },
  'Mutation.markChatRead': { input: chatRefInput },
  'Mutation.addChatMessage': { input: addMessageInput },
};
