import type { RestRoute } from '../../http/rest/route';
import { addMessageInput, chatRefInput, createChatInput, createSessionInput, sessionChatsInput } from './session.inputs';

export const sessionRoutes: RestRoute[] = [
  { operation: 'Query.sessions', method: 'GET', path: '/sessions', tags: ['sessions'] },
  { operation: 'Mutation.createSession', method: 'POST', path: '/sessions', tags: ['sessions'], input: createSessionInput },
  {
    operation: 'Query.sessionChats',
    method: 'GET',
    path: '/sessions/:sessionId/chats',
    tags: ['sessions'],
    input: sessionChatsInput,
  },
  {
    operation: 'Mutation.createChat',
    method: 'POST',
    path: '/sessions/:sessionId/chats',
    tags: ['sessions'],
    input: createChatInput,
  },
  {
    operation: 'Mutation.markChatRead',
    method: 'POST',
    path: '/sessions/:sessionId/chats/:chatId/read',
    tags: ['sessions'],
    input: chatRefInput,
  },
  {
    operation: 'Mutation.addChatMessage',
    method: 'POST',
    path: '/sessions/:sessionId/chats/:chatId/messages',
    tags: ['sessions'],
    input: addMessageInput,
  },
];
