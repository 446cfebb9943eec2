import { z } from 'zod';
import { cursorKeys, cursorOf, PageRequest, positionOf } from '../../common/paging';
import { PageOf, pageOf } from '../../graphql/common.types';
import type { Viewer } from '../../auth/viewer';
import { LIST_BOUNDS } from '../../common/bounds';
import { invalidInput, notFound } from '../../common/errors';
import { Chat, MessageRole, Session } from './session.entity';
import type { AddMessageInput, ChatRefInput, CreateChatInput, CreateSessionInput, SessionChatsInput } from './session.inputs';
import type { SessionLoaders } from './session.loaders';
import type { SessionRepository } from './session.repository';
import { ChatMessageAdded, ChatMessageRole, SessionChat, SessionType } from './session.types';

/** The list name of an account's sessions in cursors; sessions are ordered newest first by creation time, then by id. */
const SESSIONS = 'Query.sessions';
const SESSION_KEY = z.tuple([cursorKeys.micros, cursorKeys.uuid]);

export const toSession = (s: Session): SessionType => ({ id: s.id, title: s.title, createdAt: s.createdAt, updatedAt: s.updatedAt });

/** Unread: the last assistant message is newer than the read marker, or the chat was never read. */
export function hasUnread(lastAssistantMessageAt: Date | null, lastReadAt: Date | null): boolean {
  if (!lastAssistantMessageAt) return false;
  return !lastReadAt || lastAssistantMessageAt.getTime() > lastReadAt.getTime();
}

export const toChat = (c: Chat, sessionId: string): SessionChat => ({
  id: c.id,
  sessionId,
  title: c.title,
  createdAt: c.createdAt,
  updatedAt: c.updatedAt,
  hasUnread: hasUnread(c.lastAssistantMessageAt, c.lastReadAt),
  isStreaming: c.activeStreamId !== null,
  modelId: c.modelId,
  activeStreamId: c.activeStreamId,
  lastAssistantMessageAt: c.lastAssistantMessageAt,
});

const later = (a: Date, b: Date | null): Date => (b && b.getTime() > a.getTime() ? b : a);

/** Sessions and their chats. A session belongs to one account; anyone else (admins too) gets a 404. */
export class SessionService {
  constructor(
    private readonly repo: SessionRepository,
    private readonly settings: { defaultModelId: string },
    private readonly loaders: Pick<SessionLoaders, 'chatsBySession'>,
  ) {}

  async create(viewer: Viewer, input: CreateSessionInput): Promise<SessionType> {
    const session = await this.repo.createSession(viewer.accountId, input.title);
    if (!session) throw invalidInput([{ field: 'title', message: `the account holds ${LIST_BOUNDS.sessionsPerAccount} sessions already` }]);
    return toSession(session);
  }

  /** The caller's sessions, newest first. */
  async list(viewer: Viewer, request: PageRequest): Promise<PageOf<SessionType>> {
    const position = positionOf(request, SESSIONS, viewer.accountId, SESSION_KEY);
    const page = await this.repo.sessionsPage(viewer.accountId, position, request.limit);
    const items = page.sessions.map(({ createdMicros: _m, ...session }) => session);
    const cursors = new Map(page.sessions.map((s) => [s.id, cursorOf(SESSIONS, viewer.accountId, [s.createdMicros, s.id])]));
    return pageOf(items, { total: page.total, skipped: page.skipped, limit: request.limit }, (session) => cursors.get(session.id)!);
  }

  /** One of the caller's sessions with every chat of it, by createdAt ascending. */
  async withChats(viewer: Viewer, input: SessionChatsInput): Promise<SessionType> {
    const session = await this.ownedSession(this.repo, viewer, input.sessionId);
    const chats = await this.repo.chatsOf(session.id);
    return { ...toSession(session), chats: chats.map((c) => toChat(c, session.id)) };
  }

  /** The model a chat uses when it names none. */
  defaultModelId(): string {
    return this.settings.defaultModelId;
  }

  /** The chats of a session the graph reached (the caller's own), those the read had, else batched by the loader. */
  async chatsOf(session: SessionType): Promise<SessionChat[]> {
    if (session.chats) return session.chats;
    return (await this.loaders.chatsBySession.load(session.id)).map((c) => toChat(c, session.id));
  }

  async createChat(viewer: Viewer, input: CreateChatInput): Promise<SessionChat> {
    const chat = await this.repo.transaction(async (repo) => {
      const session = await this.ownedSession(repo, viewer, input.sessionId);
      if ((await repo.lockedChatCount(session)) >= LIST_BOUNDS.chatsPerSession) {
        throw invalidInput([{ field: 'sessionId', message: `the session holds ${LIST_BOUNDS.chatsPerSession} chats already` }]);
      }
      return repo.createChat(session, input.title, input.modelId ?? null);
    });
    return toChat(chat, input.sessionId);
  }

  /** Marks everything in the chat so far as read by the session owner. */
  async markRead(viewer: Viewer, input: ChatRefInput): Promise<SessionChat> {
    const chat = await this.repo.transaction(async (repo) => {
      const found = await this.ownedChat(repo, viewer, input);
      found.lastReadAt = later(new Date(), found.lastAssistantMessageAt);
      return found;
    });
    return toChat(chat, input.sessionId);
  }

  /** Appends a message; an assistant message moves lastAssistantMessageAt, so the chat turns unread. */
  async addMessage(viewer: Viewer, input: AddMessageInput): Promise<ChatMessageAdded> {
    const { message, chat } = await this.repo.transaction(async (repo) => {
      // Locked so concurrent appends move lastAssistantMessageAt forward only.
      const found = await this.ownedChat(repo, viewer, input, true);
      const now = new Date();
      const created = repo.createMessage(found, input.role as MessageRole, input.content, now);
      if (input.role === 'assistant') found.lastAssistantMessageAt = later(now, found.lastAssistantMessageAt);
      found.updatedAt = now;
      return { message: created, chat: found };
    });
    return {
      message: { id: message.id, chatId: chat.id, role: message.role as unknown as ChatMessageRole, content: message.content, createdAt: message.createdAt },
      chat: toChat(chat, input.sessionId),
    };
  }

  private async ownedSession(repo: SessionRepository, viewer: Viewer, id: string): Promise<Session> {
    const session = await repo.ownedSession(viewer.accountId, id);
    if (!session) throw notFound('Session');
    return session;
  }

  private async ownedChat(repo: SessionRepository, viewer: Viewer, ref: ChatRefInput, lock = false): Promise<Chat> {
    await this.ownedSession(repo, viewer, ref.sessionId);
    const chat = await repo.ownedChat(viewer.accountId, ref.sessionId, ref.chatId, lock);
    if (!chat) throw notFound('Chat');
    return chat;
  }
}
