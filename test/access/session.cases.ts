import type { AccessCases, Situation } from './registry';
import { made } from './support';

/** Alice's session with one chat, made once. */
const aliceChat = (s: Situation) =>
  s.once('session:alice', async () => {
    const http = s.t.http();
    const headers = s.world.alice.headers;
    const session = await made<{ session: { id: string } }>('POST /api/sessions', await http.post('/api/sessions').set(headers).send({ title: 'Matrix Session' }));
    const chat = await made<{ chat: { id: string } }>(
      'POST /api/sessions/:sessionId/chats',
      await http.post(`/api/sessions/${session.session.id}/chats`).set(headers).send({ title: 'Matrix Chat' }),
    );
    return { sessionId: session.session.id, chatId: chat.chat.id };
  });

/**
 * Sessions are private to their account, admins included (decisions §6): they take no account_id
 * (an unknown key: refused, and the case runs without it), and Dave asking for Alice's session gets a 404, as for a missing one.
 */
const privateToAlice = { 'admin account_id': 404 } as const;

export const cases: AccessCases = {
  'GET /api/sessions': {},
  'POST /api/sessions': { request: (s) => ({ body: { title: `Matrix Session ${s.unique}` } }) },
  'GET /api/sessions/:sessionId/chats': {
    request: async (s) => ({ path: `/api/sessions/${(await aliceChat(s)).sessionId}/chats` }),
    expect: privateToAlice,
  },
  'POST /api/sessions/:sessionId/chats': {
    request: async (s) => ({ path: `/api/sessions/${(await aliceChat(s)).sessionId}/chats`, body: { title: `Matrix Chat ${s.unique}` } }),
    expect: privateToAlice,
  },
  'POST /api/sessions/:sessionId/chats/:chatId/read': {
    request: async (s) => {
      const { sessionId, chatId } = await aliceChat(s);
      return { path: `/api/sessions/${sessionId}/chats/${chatId}/read` };
    },
    expect: privateToAlice,
  },
  'POST /api/sessions/:sessionId/chats/:chatId/messages': {
    request: async (s) => {
      const { sessionId, chatId } = await aliceChat(s);
      return { path: `/api/sessions/${sessionId}/chats/${chatId}/messages`, body: { role: 'user', content: `Hello ${s.unique}` } };
    },
    expect: privateToAlice,
  },
};
