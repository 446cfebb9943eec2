import type { EntityManager } from '@mikro-orm/postgresql';
import DataLoader from 'dataloader';
import { pgArray } from '../../db/sql';

export interface StoredAnswer {
  kind: string;
  key: string;
  source: string;
  payload: unknown;
  capturedAt: Date;
}

/** `kind` and `key` of a stored answer joined into one loader key. */
export const answerKey = (kind: string, key: string) => `${kind}\u0000${key}`;

export function createResearchLoaders(em: EntityManager) {
  return {
    /** Stored provider answers by answerKey(kind, key): one query however many are asked for. */
    researchAnswer: new DataLoader<string, StoredAnswer | null>(async (keys) => {
      const pairs = keys.map((k) => k.split('\u0000') as [string, string]);
      const rows = await em.getConnection().execute<{ kind: string; key: string; source: string; payload: unknown; captured_at: Date }[]>(
        `select a.kind, a.key, a.source, a.payload, a.captured_at from research_answers a
          join unnest(?::text[], ?::text[]) as w(kind, key) on a.kind = w.kind and a.key = w.key`,
        [pgArray(pairs.map((p) => p[0])), pgArray(pairs.map((p) => p[1]))],
      );
      const byKey = new Map(
        rows.map((r) => [answerKey(r.kind, r.key), { kind: r.kind, key: r.key, source: r.source, payload: r.payload, capturedAt: new Date(r.captured_at) }]),
      );
      return keys.map((k) => byKey.get(k) ?? null);
    }),
  };
}
