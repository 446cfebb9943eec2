import { createTestApp, TestApp } from '../../../test/app';
import { addMessage, createAccount, CreatedAccount, createChat, createOrganization, createSession } from '../../../test/factories';
import { MessageRole } from './session.entity';
import { AddChatMessageDocument, CreateChatDocument, CreateSessionDocument, MarkChatReadDocument, SessionChatsDocument } from '../../../test/generated/graphql';

type Chat = { id: string; title: string; hasUnread: boolean; isStreaming: boolean; lastAssistantMessageAt: string | null; createdAt: string };
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe('sessions and chats (real PostgreSQL)', () => {
  let t: TestApp;
  // The world: an owner with one session of two chats; an organization peer, an admin and a stranger.
  let owner: CreatedAccount;
  let others: Record<'peer' | 'admin' | 'stranger', CreatedAccount>;
  let sessionId: string;
  let planChat: string;
  let pitchChat: string;
  const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000);
  beforeAll(async () => {
    // deterministicBudgets: every charge is its statement, so a request's statement count is the same whatever ran before (production's leases take a lease with a
    // statement now and then, and charge from it with none in between).
    t = await createTestApp({ seed: false, deterministicBudgets: true, env: { DEFAULT_MODEL_ID: 'studio-model-7' } });
    owner = await createAccount(t.orm);
    const label = await createOrganization(t.orm, 'Label', [owner.account.id]);
    const admins = await createOrganization(t.orm, 'Admins', [], t.config.auth.adminOrgId);
    others = {
      peer: await createAccount(t.orm, { organizations: [label.id] }),
      admin: await createAccount(t.orm, { organizations: [admins.id] }),
      stranger: await createAccount(t.orm),
    };
    sessionId = (await createSession(t.orm, owner.account.id, 'Q1 release planning')).id;
    // Unread: the last assistant message (90 min ago) is newer than the read marker (100 min ago).
    const plan = await createChat(t.orm, sessionId, { title: 'Shoreline rollout', modelId: 'studio-model-7', lastAssistantMessageAt: minutesAgo(90), lastReadAt: minutesAgo(100), createdAt: minutesAgo(110) });
    await addMessage(t.orm, plan.id, MessageRole.USER, 'Plan the Shoreline release for March.', minutesAgo(100));
    await addMessage(t.orm, plan.id, MessageRole.ASSISTANT, 'Week 1: announce the single and pre-save...', minutesAgo(90));
    // Read: the read marker (20 min ago) is newer than the last assistant message (30 min ago).
    const pitch = await createChat(t.orm, sessionId, { title: 'Curator pitches', lastAssistantMessageAt: minutesAgo(30), lastReadAt: minutesAgo(20), createdAt: minutesAgo(40) });
    planChat = plan.id;
    pitchChat = pitch.id;
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
    const res = await t.http().get(`/api/sessions/${sessionId}/chats`).set(owner.headers);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      defaultModelId: 'studio-model-7',
      chats: [
        {
          id: planChat,
          sessionId,
          title: 'Shoreline rollout',
          createdAt: expect.stringMatching(ISO),
          updatedAt: expect.stringMatching(ISO),
          hasUnread: true,
          isStreaming: false,
          modelId: 'studio-model-7',
          activeStreamId: null,
          lastAssistantMessageAt: expect.stringMatching(ISO),
        },
        expect.objectContaining({ id: pitchChat, title: 'Curator pitches', hasUnread: false, modelId: null }),
      ],
    });
    expect(Date.parse(res.body.chats[0].createdAt)).toBeLessThan(Date.parse(res.body.chats[1].createdAt));
    const gql = await t.graphql(SessionChatsDocument, { sessionId }, owner.headers);
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data.sessionChats).toEqual(res.body);
  });

  it("refuses another account's session with 404, admins and organization peers included", async () => {
    for (const { headers } of Object.values(others)) {
      const res = await t.http().get(`/api/sessions/${sessionId}/chats`).set(headers);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('NOT_FOUND');
      const chat = await t.http().post(`/api/sessions/${sessionId}/chats`).set(headers).send({ title: 'sneaky' });
      expect(chat.status).toBe(404);
      const read = await t.http().post(`/api/sessions/${sessionId}/chats/${planChat}/read`).set(headers).send({});
      expect(read.status).toBe(404);
      const msg = await t.http().post(`/api/sessions/${sessionId}/chats/${planChat}/messages`).set(headers).send({ role: 'user', content: 'hi' });
      expect(msg.status).toBe(404);
    }
    const gql = await t.graphql(SessionChatsDocument, { sessionId }, others.admin.headers);
    expect(gql.body.errors[0].extensions.code).toBe('NOT_FOUND');
    const gqlMsg = await t.graphql(AddChatMessageDocument, { input: { sessionId, chatId: planChat, role: 'user', content: 'hi' } }, others.peer.headers);
    expect(gqlMsg.body.errors[0].extensions.code).toBe('NOT_FOUND');
    // Nothing was written by the refused calls.
    expect((await chatsOf(sessionId, owner.headers)).map((c) => c.title)).toEqual(['Shoreline rollout', 'Curator pitches']);
    const messages = await t.orm.em.getConnection().execute('select count(*)::int as n from chat_messages where chat_id = ?', [planChat]);
    expect(messages[0].n).toBe(2);
    expect((await t.http().get(`/api/sessions/${sessionId}/chats`)).status).toBe(401);
    expect((await t.http().get('/api/sessions/5f0c6d3e-2b1a-4c9d-8e7f-6a5b4c3d2e1f/chats').set(owner.headers)).status).toBe(404);
  });

  it('creates sessions and chats, and derives unread state from messages and the read marker', async () => {
    const me = await createAccount(t.orm);
    const session = await t.http().post('/api/sessions').set(me.headers).send({ title: '  Launch week  ' });
    expect(session.status).toBe(200);
    expect(session.body).toEqual({
      status: 'success',
      session: { id: expect.any(String), title: 'Launch week', createdAt: expect.stringMatching(ISO), updatedAt: expect.stringMatching(ISO) },
    });
    const newSession: string = session.body.session.id;
    const listed = await t.http().get('/api/sessions').set(me.headers);
    expect(listed.body.sessions.map((s: { id: string }) => s.id)).toEqual([newSession]);

    const first = await t.http().post(`/api/sessions/${newSession}/chats`).set(me.headers).send({ title: 'Ideas' });
    expect(first.status).toBe(200);
    expect(first.body.chat).toMatchObject({ sessionId: newSession, title: 'Ideas', modelId: null, hasUnread: false, isStreaming: false, activeStreamId: null, lastAssistantMessageAt: null });
    const second = await t.graphql(CreateChatDocument, { input: { sessionId: newSession, title: 'Copy', modelId: 'gpt-4o' } }, me.headers);
    expect(second.body.data.createChat).toMatchObject({ title: 'Copy', modelId: 'gpt-4o' });
    const third = await t.http().post(`/api/sessions/${newSession}/chats`).set(me.headers).send({ title: 'Budget' });
    expect((await chatsOf(newSession, me.headers)).map((c) => c.title)).toEqual(['Ideas', 'Copy', 'Budget']);

    const chatId: string = first.body.chat.id;
    const post = (role: string, content: string) =>
      t.http().post(`/api/sessions/${newSession}/chats/${chatId}/messages`).set(me.headers).send({ role, content });
    const userMsg = await post('user', 'What should we post on Monday?');
    expect(userMsg.status).toBe(200);
    expect(userMsg.body.message).toMatchObject({ chatId, role: 'user', content: 'What should we post on Monday?' });
    expect(userMsg.body.chat).toMatchObject({ hasUnread: false, lastAssistantMessageAt: null });

    const reply = await post('assistant', 'A teaser clip and a pre-save link.');
    expect(reply.status).toBe(200);
    expect(reply.body.chat.hasUnread).toBe(true);
    expect(reply.body.chat.lastAssistantMessageAt).toBe(reply.body.message.createdAt);
    let chat = (await chatsOf(newSession, me.headers)).find((c) => c.id === chatId)!;
    expect(chat).toMatchObject({ hasUnread: true, lastAssistantMessageAt: reply.body.message.createdAt });

    const read = await t.http().post(`/api/sessions/${newSession}/chats/${chatId}/read`).set(me.headers).send({});
    expect(read.status).toBe(200);
    expect(read.body.chat.hasUnread).toBe(false);
    chat = (await chatsOf(newSession, me.headers)).find((c) => c.id === chatId)!;
    expect(chat.hasUnread).toBe(false);

    // A user message after reading keeps it read; the next assistant message makes it unread again.
    await post('user', 'Thanks');
    expect((await chatsOf(newSession, me.headers)).find((c) => c.id === chatId)!.hasUnread).toBe(false);
    const again = await t.graphql(AddChatMessageDocument, { input: { sessionId: newSession, chatId, role: 'assistant', content: 'Anything else?' } }, me.headers);
    expect(again.body.data.addChatMessage.chat.hasUnread).toBe(true);
    const gqlRead = await t.graphql(MarkChatReadDocument, { input: { sessionId: newSession, chatId } }, me.headers);
    expect(gqlRead.body.data.markChatRead.hasUnread).toBe(false);

    // A chat of one session is not reachable through another session of the same account.
    const other = await t.graphql(CreateSessionDocument, { input: { title: 'Other' } }, me.headers);
    const otherId = other.body.data.createSession.id;
    const crossed = await t.http().post(`/api/sessions/${otherId}/chats/${third.body.chat.id}/read`).set(me.headers).send({});
    expect(crossed.status).toBe(404);
  });

  it('reaches the chats of every listed session in the graph, in one read whatever the number of sessions', async () => {
    const me = await createAccount(t.orm);
    const query = '{ sessions { items { id title chats { id sessionId title } defaultModelId } } }';
    const first = await createSession(t.orm, me.account.id, 'First');
    await createChat(t.orm, first.id, { title: 'One', createdAt: minutesAgo(3) });
    await createChat(t.orm, first.id, { title: 'Two', createdAt: minutesAgo(2) });
    await t.graphql(query, {}, me.headers); // the key's last-used stamp is written once a minute
    const one = await t.sql.measure(() => t.graphql(query, {}, me.headers));
    expect(one.result.body.errors).toBeUndefined();
    expect(one.result.body.data.sessions.items).toEqual([
      { id: first.id, title: 'First', chats: [{ id: expect.any(String), sessionId: first.id, title: 'One' }, { id: expect.any(String), sessionId: first.id, title: 'Two' }], defaultModelId: 'studio-model-7' },
    ]);
    for (const title of ['Second', 'Third']) {
      const session = await createSession(t.orm, me.account.id, title);
      await createChat(t.orm, session.id, { title: `${title} chat` });
    }
    const three = await t.sql.measure(() => t.graphql(query, {}, me.headers));
    expect(three.result.body.data.sessions.items.map((x: { title: string; chats: { title: string }[] }) => [x.title, x.chats.map((c) => c.title)])).toEqual([
      ['Third', ['Third chat']],
      ['Second', ['Second chat']],
      ['First', ['One', 'Two']],
    ]);
    expect(three.count).toBe(one.count);
    // The same chats as the REST read of each session.
    expect((await chatsOf(first.id, me.headers)).map((c) => c.id)).toEqual(one.result.body.data.sessions.items[0].chats.map((c: { id: string }) => c.id));
  });

  it('reports a chat as streaming while activeStreamId is set', async () => {
    await t.orm.em.getConnection().execute('update chats set active_stream_id = ? where id = ?', ['stream-42', pitchChat]);
    const chat = (await chatsOf(sessionId, owner.headers)).find((c) => c.id === pitchChat)!;
    expect(chat).toMatchObject({ isStreaming: true, activeStreamId: 'stream-42' });
    await t.orm.em.getConnection().execute('update chats set active_stream_id = null where id = ?', [pitchChat]);
    expect((await chatsOf(sessionId, owner.headers)).find((c) => c.id === pitchChat)!.isStreaming).toBe(false);
  });

  it('answers 400 naming the field for bad ids and bodies', async () => {
    const base = `/api/sessions/${sessionId}/chats`;
    const cases: [() => Promise<{ status: number; body: { details?: { field: string }[] } }>, string][] = [
      [() => t.http().get('/api/sessions/nope/chats').set(owner.headers), 'sessionId'],
      [() => t.http().post('/api/sessions').set(owner.headers).send({}), 'title'],
      [() => t.http().post('/api/sessions').set(owner.headers).send({ title: '   ' }), 'title'],
      [() => t.http().post('/api/sessions').set(owner.headers).send({ title: 'x'.repeat(201) }), 'title'],
      [() => t.http().post(base).set(owner.headers).send({ title: 7 }), 'title'],
      [() => t.http().post(base).set(owner.headers).send({ title: 'ok', modelId: 'has spaces' }), 'modelId'],
      [() => t.http().post('/api/sessions/123/chats').set(owner.headers).send({ title: 'ok' }), 'sessionId'],
      [() => t.http().post(`${base}/abc/read`).set(owner.headers).send({}), 'chatId'],
      [() => t.http().post(`${base}/${planChat}/messages`).set(owner.headers).send({ role: 'robot', content: 'hi' }), 'role'],
      [() => t.http().post(`${base}/${planChat}/messages`).set(owner.headers).send({ role: 'user', content: '  ' }), 'content'],
      [() => t.http().post(`${base}/${planChat}/messages`).set(owner.headers).send({ role: 'user' }), 'content'],
    ];
    for (const [call, field] of cases) {
      const res = await call();
      expect({ field, status: res.status, fields: res.body.details?.map((d) => d.field) }).toEqual({ field, status: 400, fields: [field] });
    }
    const gql = await t.graphql(SessionChatsDocument, { sessionId: 'nope' }, owner.headers);
    expect(gql.body.errors[0].extensions).toEqual({ code: 'BAD_USER_INPUT', details: [{ field: 'sessionId', message: 'must be a UUID' }] });
  });
});
