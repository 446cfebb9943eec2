import DataLoader from 'dataloader';
import { ResearchLinkRow, ResearchRepository, StoredAnswer } from './research.repository';
import type { Db } from '../../db/request-db';

export type { StoredAnswer } from './research.repository';

/** `kind` and `key` of a stored answer joined into one loader key. */
export const answerKey = (kind: string, key: string) => `${kind}\u0000${key}`;

export function createResearchLoaders(db: Db) {
  const repo = new ResearchRepository(db);
  return {
    /** Stored provider answers by answerKey(kind, key): one query however many are asked for. */
    researchAnswer: new DataLoader<string, StoredAnswer | null>(async (keys) => {
      const rows = await repo.answers(keys.map((k) => k.split('\u0000') as [string, string]));
      const byKey = new Map(rows.map((r) => [answerKey(r.kind, r.key), r]));
      return keys.map((k) => byKey.get(k) ?? null);
    }),
    /** Stored research links by artist id: one statement for every artist of a request. */
    researchLink: new DataLoader<string, ResearchLinkRow | null>(async (ids) => {
      const byId = new Map((await repo.linksOf(ids)).map((r) => [r.artist_id, r]));
      return ids.map((id) => byId.get(id) ?? null);
    }),
    /** The research id each artist resolves to in this request (stored link, else one search): one search per artist however many fields ask. */
    researchLinkResolving: new Map<string, Promise<string | null>>(),
  };
}

export type ResearchLoaders = ReturnType<typeof createResearchLoaders>;

// The request's loaders (src/request/context.ts) include this module's: the context names no module.
declare module '../../request/context' {
  interface Loaders extends ReturnType<typeof createResearchLoaders> {}
}
