import { as, DEMO } from '../../../test/demo';
import { createTestApp, TestApp } from '../../../test/app';
import { createAccount } from '../../../test/factories';
import { AddChatMessageDocument, CreateChatDocument, CreateSessionDocument, MarkChatReadDocument, SessionChatsDocument } from '../../../test/generated/graphql';

type Chat = { id: string; title: string; hasUnread: boolean; isStreaming: boolean; lastAssistantMessageAt: string | null; createdAt: string };
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe('sessions and chats (real PostgreSQL)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { DEFAULT_MODEL_ID: 'studio-model-7' } });
  });
  afterAll(async () => {
    await t.close();
  });

  const chatsOf = async (sessionId: string, headers: Record<string, string>): Promise<Chat[]> => {
    const res = await t.http().get(`/api/sessions/${sessionId}/chats`).set(headers);
    expect(res.status).toBe(200);
    return res.body.chats;
  };

  it('lists every chat of a session by createdAt with unread and streaming state (REST = GraphQL)', async () => {
    const res = await t.http().get(`/api/sessions/${DEMO.sessionNora}/chats`).set(as.nora);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      defaultModelId: 'studio-model-7',
      chats: [
        {
          id: DEMO.chatPlan,
          sessionId: DEMO.sessionNora,
          title: 'Shoreline rollout',
          createdAt: expect.stringMatching(ISO),
          updatedAt: expect.stringMatching(ISO),
          // The last assistant message (90 min ago) is newer than the read marker (100 min ago).
          hasUnread: true,
          isStreaming: false,
          modelId: 'studio-model-7',
          activeStreamId: null,
          lastAssistantMessageAt: expect.stringMatching(ISO),
        },
        expect.objectContaining({ id: DEMO.chatPitch, title: 'Curator pitches', hasUnread: false, modelId: null }),
      ],
    });
    expect(Date.parse(res.body.chats[0].createdAt)).toBeLessThan(Date.parse(res.body.chats[1].createdAt));
    const gql = await t.graphql(SessionChatsDocument, { sessionId: DEMO.sessionNora }, as.nora);
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data.sessionChats).toEqual(res.body);
  });

  it("refuses another account's session with 404, admins and organization peers included", async () => {
    const liam = await createAccount(t.orm, { organizations: [DEMO.northwind] });
    for (const headers of [as.sam, as.ada, as.otto, liam.headers]) {
      const res = await t.http().get(`/api/sessions/${DEMO.sessionNora}/chats`).set(headers);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('NOT_FOUND');
      const chat = await t.http().post(`/api/sessions/${DEMO.sessionNora}/chats`).set(headers).send({ title: 'sneaky' });
      expect(chat.status).toBe(404);
      const read = await t.http().post(`/api/sessions/${DEMO.sessionNora}/chats/${DEMO.chatPlan}/read`).set(headers).send({});
      expect(read.status).toBe(404);
      const msg = await t.http().post(`/api/sessions/${DEMO.sessionNora}/chats/${DEMO.chatPlan}/messages`).set(headers).send({ role: 'user', content: 'hi' });
      expect(msg.status).toBe(404);
    }
    const gql = await t.graphql(SessionChatsDocument, { sessionId: DEMO.sessionNora }, as.ada);
    expect(gql.body.errors[0].extensions.code).toBe('NOT_FOUND');
    const gqlMsg = await t.graphql(AddChatMessageDocument, { sessionId: DEMO.sessionNora, chatId: DEMO.chatPlan, role: 'user', content: 'hi' }, as.sam);
    expect(gqlMsg.body.errors[0].extensions.code).toBe('NOT_FOUND');
    // Nothing was written by the refused calls.
    expect((await chatsOf(DEMO.sessionNora, as.nora)).map((c) => c.title)).toEqual(['Shoreline rollout', 'Curator pitches']);
    const messages = await t.orm.em.getConnection().execute('select count(*)::int as n from chat_messages where chat_id = ?', [DEMO.chatPlan]);
    expect(messages[0].n).toBe(2);
    expect((await t.http().get(`/api/sessions/${DEMO.sessionNora}/chats`)).status).toBe(401);
    expect((await t.http().get('/api/sessions/5f0c6d3e-2b1a-4c9d-8e7f-6a5b4c3d2e1f/chats').set(as.nora)).status).toBe(404);
  });

  it('creates sessions and chats, and derives unread state from messages and the read marker', async () => {
    const me = await createAccount(t.orm);
    const session = await t.http().post('/api/sessions').set(me.headers).send({ title: '  Launch week  ' });
    expect(session.status).toBe(200);
    expect(session.body).toEqual({
      status: 'success',
      session: { id: expect.any(String), title: 'Launch week', createdAt: expect.stringMatching(ISO), updatedAt: expect.stringMatching(ISO) },
    });
    const sessionId = session.body.session.id;
    const listed = await t.http().get('/api/sessions').set(me.headers);
    expect(listed.body.sessions.map((s: { id: string }) => s.id)).toEqual([sessionId]);

    const first = await t.http().post(`/api/sessions/${sessionId}/chats`).set(me.headers).send({ title: 'Ideas' });
    expect(first.status).toBe(200);
    expect(first.body.chat).toMatchObject({ sessionId, title: 'Ideas', modelId: null, hasUnread: false, isStreaming: false, activeStreamId: null, lastAssistantMessageAt: null });
    const second = await t.graphql(CreateChatDocument, { sessionId, title: 'Copy', modelId: 'gpt-4o' }, me.headers);
    expect(second.body.data.createChat.chat).toMatchObject({ title: 'Copy', modelId: 'gpt-4o' });
    const third = await t.http().post(`/api/sessions/${sessionId}/chats`).set(me.headers).send({ title: 'Budget' });
    expect((await chatsOf(sessionId, me.headers)).map((c) => c.title)).toEqual(['Ideas', 'Copy', 'Budget']);

    const chatId: string = first.body.chat.id;
    const post = (role: string, content: string) =>
      t.http().post(`/api/sessions/${sessionId}/chats/${chatId}/messages`).set(me.headers).send({ role, content });
    const userMsg = await post('user', 'What should we post on Monday?');
    expect(userMsg.status).toBe(200);
    expect(userMsg.body.message).toMatchObject({ chatId, role: 'user', content: 'What should we post on Monday?' });
    expect(userMsg.body.chat).toMatchObject({ hasUnread: false, lastAssistantMessageAt: null });

    const reply = await post('assistant', 'A teaser clip and a pre-save link.');
    expect(reply.status).toBe(200);
    expect(reply.body.chat.hasUnread).toBe(true);
    expect(reply.body.chat.lastAssistantMessageAt).toBe(reply.body.message.createdAt);
    let chat = (await chatsOf(sessionId, me.headers)).find((c) => c.id === chatId)!;
    expect(chat).toMatchObject({ hasUnread: true, lastAssistantMessageAt: reply.body.message.createdAt });

    const read = await t.http().post(`/api/sessions/${sessionId}/chats/${chatId}/read`).set(me.headers).send({});
    expect(read.status).toBe(200);
    expect(read.body.chat.hasUnread).toBe(false);
    chat = (await chatsOf(sessionId, me.headers)).find((c) => c.id === chatId)!;
    expect(chat.hasUnread).toBe(false);

    // A user message after reading keeps it read; the next assistant message makes it unread again.
    await post('user', 'Thanks');
    expect((await chatsOf(sessionId, me.headers)).find((c) => c.id === chatId)!.hasUnread).toBe(false);
    const again = await t.graphql(AddChatMessageDocument, { sessionId, chatId, role: 'assistant', content: 'Anything else?' }, me.headers);
    expect(again.body.data.addChatMessage.chat.hasUnread).toBe(true);
    const gqlRead = await t.graphql(MarkChatReadDocument, { sessionId, chatId }, me.headers);
    expect(gqlRead.body.data.markChatRead.chat.hasUnread).toBe(false);

    // A chat of one session is not reachable through another session of the same account.
    const other = await t.graphql(CreateSessionDocument, { title: 'Other' }, me.headers);
    const otherId = other.body.data.createSession.session.id;
    const crossed = await t.http().post(`/api/sessions/${otherId}/chats/${third.body.chat.id}/read`).set(me.headers).send({});
    expect(crossed.status).toBe(404);
  });

  it('reports a chat as streaming while activeStreamId is set', async () => {
    await t.orm.em.getConnection().execute('update chats set active_stream_id = ? where id = ?', ['stream-42', DEMO.chatPitch]);
    const chat = (await chatsOf(DEMO.sessionNora, as.nora)).find((c) => c.id === DEMO.chatPitch)!;
    expect(chat).toMatchObject({ isStreaming: true, activeStreamId: 'stream-42' });
    await t.orm.em.getConnection().execute('update chats set active_stream_id = null where id = ?', [DEMO.chatPitch]);
    expect((await chatsOf(DEMO.sessionNora, as.nora)).find((c) => c.id === DEMO.chatPitch)!.isStreaming).toBe(false);
  });

  it('answers 400 naming the field for bad ids and bodies', async () => {
    const base = `/api/sessions/${DEMO.sessionNora}/chats`;
    const cases: [() => Promise<{ status: number; body: { details?: { field: string }[] } }>, string][] = [
      [() => t.http().get('/api/sessions/nope/chats').set(as.nora), 'sessionId'],
      [() => t.http().post('/api/sessions').set(as.nora).send({}), 'title'],
      [() => t.http().post('/api/sessions').set(as.nora).send({ title: '   ' }), 'title'],
      [() => t.http().post('/api/sessions').set(as.nora).send({ title: 'x'.repeat(201) }), 'title'],
      [() => t.http().post(base).set(as.nora).send({ title: 7 }), 'title'],
      [() => t.http().post(base).set(as.nora).send({ title: 'ok', modelId: 'has spaces' }), 'modelId'],
      [() => t.http().post('/api/sessions/123/chats').set(as.nora).send({ title: 'ok' }), 'sessionId'],
      [() => t.http().post(`${base}/abc/read`).set(as.nora).send({}), 'chatId'],
      [() => t.http().post(`${base}/${DEMO.chatPlan}/messages`).set(as.nora).send({ role: 'robot', content: 'hi' }), 'role'],
      [() => t.http().post(`${base}/${DEMO.chatPlan}/messages`).set(as.nora).send({ role: 'user', content: '  ' }), 'content'],
      [() => t.http().post(`${base}/${DEMO.chatPlan}/messages`).set(as.nora).send({ role: 'user' }), 'content'],
    ];
    for (const [call, field] of cases) {
      const res = await call();
      expect({ field, status: res.status, fields: res.body.details?.map((d) => d.field) }).toEqual({ field, status: 400, fields: [field] });
    }
    const gql = await t.graphql(SessionChatsDocument, { sessionId: 'nope' }, as.nora);
    expect(gql.body.errors[0].extensions).toEqual({ code: 'BAD_USER_INPUT', details: [{ field: 'sessionId', message: 'must be a UUID' }] });
  });
});
