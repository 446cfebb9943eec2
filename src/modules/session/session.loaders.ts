import DataLoader from 'dataloader';
import { LIST_BOUNDS } from '../../common/bounds';
import type { Chat } from './session.entity';
import { SessionRepository } from './session.repository';
import type { Db } from '../../db/request-db';

export type SessionLoaders = ReturnType<typeof createSessionLoaders>;

export function createSessionLoaders(db: Db) {
  const repo = new SessionRepository(db);
  return {
    /**
     * Every chat of each session asked for, oldest first, in one statement per batch. Keys are ids
     * of sessions the graph already reached (the caller's own: sessions are private), so the read
     * needs no owner.
     */
    chatsBySession: new DataLoader<string, Chat[]>(async (sessionIds) => {
      const chats = await repo.chatsOfSessions(sessionIds);
      const bySession = new Map<string, Chat[]>(sessionIds.map((id) => [id, []]));
      for (const chat of chats) bySession.get(chat.session.id)?.push(chat);
      // A session holds at most LIST_BOUNDS.chatsPerSession chats (createChat refuses more).
      return sessionIds.map((id) => bySession.get(id)!.slice(0, LIST_BOUNDS.chatsPerSession));
    }),
  };
}

// The request's loaders (src/request/context.ts) include this module's: the context names no module.
declare module '../../request/context' {
  interface Loaders extends ReturnType<typeof createSessionLoaders> {}
}
