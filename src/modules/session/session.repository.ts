import { epochMicros, fromEpochMicros, Position } from '../../common/paging';
import { skippedSql } from '../../db/pages';
import { query } from '../../db/sql';
import { LockMode } from '@mikro-orm/core';
import { LIST_BOUNDS } from '../../common/bounds';
import { Account } from '../account';
import { Chat, ChatMessage, MessageRole, Session } from './session.entity';
import type { Db } from '../../db/request-db';

interface SessionRow {
  total: number;
  skipped: number;
  id: string | null;
  title: string | null;
  created_at: Date | null;
  updated_at: Date | null;
  created_micros: string | null;
}

/** A page of an account's sessions: each with its creation time in microseconds since the epoch (its cursor's sort key). */
export interface SessionsPage {
  total: number;
  skipped: number;
  sessions: { id: string; title: string; createdAt: Date; updatedAt: Date; createdMicros: string }[];
}

/**
 * Every read and write of sessions, chats and messages. Sessions are private to their account, so
 * each read names the owner: another account's session is not found by the same statement.
 */
export class SessionRepository {
  constructor(private readonly db: Db) {}

  /**
   * Every chat of the given sessions, oldest first, in one statement. The ids are of sessions the
   * graph already reached (the caller's own: sessions are private), so the read needs no owner.
   */
  chatsOfSessions(sessionIds: readonly string[]): Promise<Chat[]> {
    return this.db.em.find(Chat, { session: { $in: [...sessionIds] } }, { orderBy: { createdAt: 'asc', id: 'asc' } });
  }

  /** Runs `work` in one transaction, on a repository bound to it. */
  transaction<T>(work: (repo: SessionRepository) => Promise<T>): Promise<T> {
    return this.db.transactional((tx) => work(new SessionRepository(tx)));
  }

  /** A new session; null (nothing written) when the account holds LIST_BOUNDS.sessionsPerAccount already. */
  createSession(accountId: string, title: string): Promise<Session | null> {
    return this.transaction(async (repo) => {
      // The account row is locked, so concurrent creations count each other (counted after the lock, in a statement of its own).
      await repo.db.em.execute(`select 1 from accounts where id = ? for update`, [accountId]);
      const [held] = await repo.db.em.execute<{ n: number }[]>(`select count(*)::int as n from sessions where account_id = ?`, [accountId]);
      if ((held?.n ?? 0) >= LIST_BOUNDS.sessionsPerAccount) return null;
      return repo.db.em.create(Session, { account: repo.db.em.getReference(Account, accountId), title });
    });
  }

  /**
   * A page of the account's sessions, newest first (then by id), with their total and the sessions
   * before the page, in one statement (an account holds at most LIST_BOUNDS.sessionsPerAccount).
   * After a cursor, the page starts after the sessions at or before its (creation time, id).
   */
  async sessionsPage(accountId: string, position: Position<readonly string[]>, limit: number): Promise<SessionsPage> {
    const skip = skippedSql(position, ([at, id]) => ({
      sql: `(select count(*)::int from mine where created_at > ${fromEpochMicros} or (created_at = ${fromEpochMicros} and id <= ?::uuid))`,
      bindings: [at, at, id],
    }));
    const rows = await query<SessionRow>(
      this.db.em,
      `with mine as (select id, title, created_at, updated_at from sessions where account_id = ?),
       skip as (select ${skip.sql} as n),
       page as (select * from mine order by created_at desc, id asc offset (select n from skip) limit ?)
       select (select count(*)::int from mine) as total, (select n from skip) as skipped,
              page.id, page.title, page.created_at, page.updated_at, ${epochMicros('page.created_at')} as created_micros
         from (select 1) one left join page on true
        order by page.created_at desc, page.id asc`,
      [accountId, ...skip.bindings, limit],
    );
    return {
      total: rows[0]!.total,
      skipped: rows[0]!.skipped,
      sessions: rows.filter((row) => row.id !== null).map((row) => ({ id: row.id!, title: row.title!, createdAt: row.created_at!, updatedAt: row.updated_at!, createdMicros: row.created_micros! })),
    };
  }

  /** The session's chats, counted with the session locked until the transaction ends (concurrent chat creations wait). */
  async lockedChatCount(session: Session): Promise<number> {
    await this.db.em.lock(session, LockMode.PESSIMISTIC_WRITE);
    return this.db.em.count(Chat, { session: session.id });
  }

  /** The session when `accountId` owns it; null when it does not exist or is another account's. */
  ownedSession(accountId: string, id: string): Promise<Session | null> {
    return this.db.em.findOne(Session, { id, account: accountId });
  }

  /** The chat of an owned session; with `lock`, locked for update until the transaction ends. */
  ownedChat(accountId: string, sessionId: string, chatId: string, lock = false): Promise<Chat | null> {
    return this.db.em.findOne(Chat, { id: chatId, session: { id: sessionId, account: accountId } }, lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {});
  }

  /** Every chat of the session, oldest first (a session holds at most LIST_BOUNDS.chatsPerSession). */
  chatsOf(sessionId: string): Promise<Chat[]> {
    return this.db.em.find(Chat, { session: sessionId }, { orderBy: { createdAt: 'asc', id: 'asc' }, limit: LIST_BOUNDS.chatsPerSession });
  }

  createChat(session: Session, title: string, modelId: string | null): Chat {
    return this.db.em.create(Chat, { session, title, modelId });
  }

  createMessage(chat: Chat, role: MessageRole, content: string, at: Date): ChatMessage {
    return this.db.em.create(ChatMessage, { chat, role, content, createdAt: at, updatedAt: at });
  }
}
