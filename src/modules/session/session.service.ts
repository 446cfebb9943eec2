import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { requireViewer } from '../../auth/access';
import type { Viewer } from '../../auth/viewer';
import { notFound } from '../../common/errors';
import { validate } from '../../common/validation';
import type { Context } from '../../graphql/context';
import { Account } from '../account';
import { Chat, ChatMessage, MessageRole, Session } from './session.entity';
import { addMessageInput, chatRefInput, createChatInput, createSessionInput, sessionChatsInput } from './session.inputs';
import { ChatMessageRole, ChatMessageType, SessionChat, SessionType } from './session.types';

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
  constructor(private readonly ctx: Context) {}

  async create(title: string): Promise<SessionType> {
    const viewer = requireViewer(this.ctx.viewer);
    const input = validate(createSessionInput, { title });
    const session = await this.ctx.em.transactional((tx) =>
      Promise.resolve(tx.create(Session, { account: tx.getReference(Account, viewer.accountId), title: input.title })),
    );
    return toSession(session);
  }

  /** The caller's sessions, newest first. */
  async list(): Promise<SessionType[]> {
    const viewer = requireViewer(this.ctx.viewer);
    const sessions = await this.ctx.em.find(Session, { account: viewer.accountId }, { orderBy: { createdAt: 'desc', id: 'asc' } });
    return sessions.map(toSession);
  }

  /** Every chat of the session by createdAt ascending, and the configured default model. */
  async chats(sessionId: string): Promise<{ chats: SessionChat[]; defaultModelId: string }> {
    const viewer = requireViewer(this.ctx.viewer);
    const input = validate(sessionChatsInput, { sessionId });
    const session = await this.ownedSession(this.ctx.em, viewer, input.sessionId);
    const chats = await this.ctx.em.find(Chat, { session: session.id }, { orderBy: { createdAt: 'asc', id: 'asc' } });
    return { chats: chats.map((c) => toChat(c, session.id)), defaultModelId: this.ctx.deps.config.sessions.defaultModelId };
  }

  async createChat(sessionId: string, title: string, modelId?: string | null): Promise<SessionChat> {
    const viewer = requireViewer(this.ctx.viewer);
    const input = validate(createChatInput, { sessionId, title, modelId });
    const chat = await this.ctx.em.transactional(async (tx) => {
      const session = await this.ownedSession(tx, viewer, input.sessionId);
      return tx.create(Chat, { session, title: input.title, modelId: input.modelId ?? null });
    });
    return toChat(chat, input.sessionId);
  }

  /** Marks everything in the chat so far as read by the session owner. */
  async markRead(sessionId: string, chatId: string): Promise<SessionChat> {
    const viewer = requireViewer(this.ctx.viewer);
    const input = validate(chatRefInput, { sessionId, chatId });
    const chat = await this.ctx.em.transactional(async (tx) => {
      const found = await this.ownedChat(tx, viewer, input.sessionId, input.chatId);
      found.lastReadAt = later(new Date(), found.lastAssistantMessageAt);
      return found;
    });
    return toChat(chat, input.sessionId);
  }

  /** Appends a message; an assistant message moves lastAssistantMessageAt, so the chat turns unread. */
  async addMessage(
    sessionId: string,
    chatId: string,
    role: ChatMessageRole,
    content: string,
  ): Promise<{ message: ChatMessageType; chat: SessionChat }> {
    const viewer = requireViewer(this.ctx.viewer);
    const input = validate(addMessageInput, { sessionId, chatId, role, content });
    const { message, chat } = await this.ctx.em.transactional(async (tx) => {
      // Locked so concurrent appends move lastAssistantMessageAt forward only.
      const found = await this.ownedChat(tx, viewer, input.sessionId, input.chatId, true);
      const now = new Date();
      const created = tx.create(ChatMessage, { chat: found, role: input.role as MessageRole, content: input.content, createdAt: now, updatedAt: now });
      if (input.role === 'assistant') found.lastAssistantMessageAt = later(now, found.lastAssistantMessageAt);
      found.updatedAt = now;
      return { message: created, chat: found };
    });
    return {
      message: { id: message.id, chatId: chat.id, role: message.role as unknown as ChatMessageRole, content: message.content, createdAt: message.createdAt },
      chat: toChat(chat, input.sessionId),
    };
  }

  private async ownedSession(em: EntityManager, viewer: Viewer, id: string): Promise<Session> {
    const session = await em.findOne(Session, { id });
    if (!session || !this.ctx.access.ownsSession(viewer, session.account.id)) throw notFound('Session');
    return session;
  }

  private async ownedChat(em: EntityManager, viewer: Viewer, sessionId: string, chatId: string, lock = false): Promise<Chat> {
    await this.ownedSession(em, viewer, sessionId);
    const chat = await em.findOne(
      Chat,
      { id: chatId, session: sessionId },
      lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {},
    );
    if (!chat) throw notFound('Chat');
    return chat;
  }
}
