import type { EntityManager } from '@mikro-orm/postgresql';
import { Account } from '../../src/modules/account/account.entity';
import { Chat, ChatMessage, MessageRole, Session } from '../../src/modules/session/session.entity';
import type { Orm } from '../../src/db/orm';

/** A session owned by `accountId`. */
export async function createSession(orm: Orm, accountId: string, title = 'Test session'): Promise<Session> {
  const em = orm.em.fork() as EntityManager;
  const session = em.create(Session, { account: em.getReference(Account, accountId), title });
  await em.flush();
  return session;
}

/**
 * A chat of the session with its read state: `lastAssistantMessageAt` after `lastReadAt` (or no
 * read marker) makes it unread.
 */
export async function createChat(
  orm: Orm,
  sessionId: string,
  options: { title?: string; modelId?: string | null; lastAssistantMessageAt?: Date | null; lastReadAt?: Date | null; createdAt?: Date } = {},
): Promise<Chat> {
  const em = orm.em.fork() as EntityManager;
  const chat = em.create(Chat, {
    session: em.getReference(Session, sessionId),
    title: options.title ?? 'Test chat',
    modelId: options.modelId ?? null,
    lastAssistantMessageAt: options.lastAssistantMessageAt ?? null,
    lastReadAt: options.lastReadAt ?? null,
    ...(options.createdAt ? { createdAt: options.createdAt, updatedAt: options.createdAt } : {}),
  });
  await em.flush();
  return chat;
}

/** A message in the chat (the chat's read state is the caller's to set). */
export async function addMessage(orm: Orm, chatId: string, role: MessageRole, content: string, at = new Date()): Promise<ChatMessage> {
  const em = orm.em.fork() as EntityManager;
  const message = em.create(ChatMessage, { chat: em.getReference(Chat, chatId), role, content, createdAt: at, updatedAt: at });
  await em.flush();
  return message;
}
