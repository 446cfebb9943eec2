import type { Viewer } from '../../auth/viewer';
import { AccountKind } from '../../auth/viewer';
import { AppError } from '../../common/errors';
import type { Chat, Session } from './session.entity';
import type { SessionRepository } from './session.repository';
import { SessionService } from './session.service';

const viewer: Viewer = { accountId: 'a1', kind: AccountKind.person, name: 'Nora', email: null, organizationIds: [], isAdmin: false, via: 'api_key' };
const session = { id: 's1', title: 'Plan', createdAt: new Date(0), updatedAt: new Date(0) } as Session;

/** A repository over two maps: sessions by owner and id, chats by session and id. */
function fakeRepository(chats: Chat[]): SessionRepository {
  const repo = {
    transaction: (work: (r: SessionRepository) => Promise<unknown>) => work(repo as unknown as SessionRepository),
    ownedSession: async (accountId: string, id: string) => (accountId === 'a1' && id === 's1' ? session : null),
    ownedChat: async (accountId: string, sessionId: string, chatId: string) =>
      accountId === 'a1' && sessionId === 's1' ? (chats.find((c) => c.id === chatId) ?? null) : null,
  };
  return repo as unknown as SessionRepository;
}

describe('SessionService rules (no database)', () => {
  it('marks a chat read no earlier than its last assistant message, so a clock behind the database cannot leave it unread', async () => {
    const future = new Date(Date.now() + 60_000);
    const chat = { id: 'c1', title: 'x', createdAt: new Date(0), updatedAt: new Date(0), lastAssistantMessageAt: future, lastReadAt: null, activeStreamId: null, modelId: null } as unknown as Chat;
    const service = new SessionService(fakeRepository([chat]), { defaultModelId: 'm' }, { chatsBySession: { load: async () => [] } as never });
    const answer = await service.markRead(viewer, { sessionId: 's1', chatId: 'c1' });
    expect(chat.lastReadAt).toEqual(future);
    expect(answer.hasUnread).toBe(false);
  });

  it("answers NOT_FOUND for another account's session and for a chat outside the session", async () => {
    const service = new SessionService(fakeRepository([]), { defaultModelId: 'm' }, { chatsBySession: { load: async () => [] } as never });
    const stranger = { ...viewer, accountId: 'a2' };
    await expect(service.withChats(stranger, { sessionId: 's1' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(service.markRead(viewer, { sessionId: 's1', chatId: 'nope' })).rejects.toBeInstanceOf(AppError);
  });
});
