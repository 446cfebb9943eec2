import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Account } from '../account';
import { Chat, ChatMessage, MessageRole, Session } from './session.entity';

/**
 * Every read and write of sessions, chats and messages. Sessions are private to their account, so
 * each read names the owner: another account's session is not found by the same statement.
 */
export class SessionRepository {
  constructor(private readonly em: EntityManager) {}

  /** Runs `work` in one transaction, on a repository bound to it. */
  transaction<T>(work: (repo: SessionRepository) => Promise<T>): Promise<T> {
    return this.em.transactional((tx) => work(new SessionRepository(tx as EntityManager)));
  }

  createSession(accountId: string, title: string): Promise<Session> {
    return this.transaction(async (repo) => repo.em.create(Session, { account: repo.em.getReference(Account, accountId), title }));
  }

  /** The account's sessions, newest first. */
  sessionsOf(accountId: string): Promise<Session[]> {
    return this.em.find(Session, { account: accountId }, { orderBy: { createdAt: 'desc', id: 'asc' } });
  }

  /** The session when `accountId` owns it; null when it does not exist or is another account's. */
  ownedSession(accountId: string, id: string): Promise<Session | null> {
    return this.em.findOne(Session, { id, account: accountId });
  }

  /** The chat of an owned session; with `lock`, locked for update until the transaction ends. */
  ownedChat(accountId: string, sessionId: string, chatId: string, lock = false): Promise<Chat | null> {
    return this.em.findOne(Chat, { id: chatId, session: { id: sessionId, account: accountId } }, lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {});
  }

  /** Every chat of the session, oldest first. */
  chatsOf(sessionId: string): Promise<Chat[]> {
    return this.em.find(Chat, { session: sessionId }, { orderBy: { createdAt: 'asc', id: 'asc' } });
  }

  createChat(session: Session, title: string, modelId: string | null): Chat {
    return this.em.create(Chat, { session, title, modelId });
  }

  createMessage(chat: Chat, role: MessageRole, content: string, at: Date): ChatMessage {
    return this.em.create(ChatMessage, { chat, role, content, createdAt: at, updatedAt: at });
  }
}
