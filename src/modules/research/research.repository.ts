import { pgArray } from '../../db/sql';
import type { Db } from '../../db/request-db';

/** A provider answer as stored, by its kind and the normalized request that produced it. */
export interface StoredAnswer {
  kind: string;
  key: string;
  source: string;
  payload: unknown;
  capturedAt: Date;
}

/** An answer to store: its kind, its key, the provider that gave it and the payload as received. */
export interface AnswerRow {
  kind: string;
  key: string;
  source: string;
  payload: unknown;
}

/** The stored research link of a roster artist: `explicit` (set by a client) or `search` (found once by name). */
export interface ResearchLinkRow {
  artist_id: string;
  research_id: string | null;
  research_match: string;
  matched_at: Date;
}

const linked = (r: ResearchLinkRow): ResearchLinkRow => ({ ...r, matched_at: new Date(r.matched_at) });

/**
 * Every read and write of stored provider answers (research_answers) and of the artist research
 * links (artist_research_links). Answers are public provider data; who may read or set a link is
 * decided by the services before they get here.
 */
export class ResearchRepository {
  constructor(private readonly db: Db) {}

  /** Stored answers for (kind, key) pairs, in one statement; a pair with no answer is simply absent. */
  async answers(pairs: readonly (readonly [kind: string, key: string])[]): Promise<StoredAnswer[]> {
    const rows = await this.db.execute<{ kind: string; key: string; source: string; payload: unknown; captured_at: Date }>(
      `select a.kind, a.key, a.source, a.payload, a.captured_at from research_answers a
        join unnest(?::text[], ?::text[]) as w(kind, key) on a.kind = w.kind and a.key = w.key`,
      [pgArray(pairs.map((p) => p[0])), pgArray(pairs.map((p) => p[1]))],
    );
    return rows.map((r) => ({ kind: r.kind, key: r.key, source: r.source, payload: r.payload, capturedAt: new Date(r.captured_at) }));
  }

  /** Stores answers captured at `capturedAt` in one statement (all or none); keys must be distinct. */
  async saveAnswers(rows: readonly AnswerRow[], capturedAt: Date): Promise<void> {
    await this.db.execute(
      `insert into research_answers (id, created_at, updated_at, kind, key, source, payload, captured_at)
       select gen_random_uuid(), ?, ?, r.kind, r.key, r.source, r.payload::jsonb, ?
         from unnest(?::text[], ?::text[], ?::text[], ?::text[]) as r(kind, key, source, payload)
       on conflict (kind, key) do update set payload = excluded.payload, source = excluded.source,
         captured_at = excluded.captured_at, updated_at = excluded.updated_at`,
      [
        capturedAt,
        capturedAt,
        capturedAt,
        pgArray(rows.map((r) => r.kind)),
        pgArray(rows.map((r) => r.key)),
        pgArray(rows.map((r) => r.source)),
        pgArray(rows.map((r) => JSON.stringify(r.payload))),
      ],
    );
  }

  /** Stored links of these artists, in one statement. */
  async linksOf(artistIds: readonly string[]): Promise<ResearchLinkRow[]> {
    const rows = await this.db.execute<ResearchLinkRow>(
      `select artist_id, research_id, research_match, matched_at from artist_research_links where artist_id = any(?::uuid[])`,
      [pgArray([...artistIds])],
    );
    return rows.map(linked);
  }

  /** Sets (or with null clears) the link explicitly, replacing any stored one. */
  async setExplicitLink(artistId: string, researchId: string | null): Promise<ResearchLinkRow> {
    const [row] = await this.db.execute<ResearchLinkRow>(
      `insert into artist_research_links (artist_id, research_id, research_match, matched_at) values (?, ?, 'explicit', now())
       on conflict (artist_id) do update set research_id = excluded.research_id, research_match = excluded.research_match, matched_at = excluded.matched_at
       returning artist_id, research_id, research_match, matched_at`,
      [artistId, researchId],
    );
    return linked(row);
  }

  /** Stores what a search by name found, unless a link is stored already; null when one was. */
  async storeSearchedLink(artistId: string, researchId: string | null): Promise<ResearchLinkRow | null> {
    const [row] = await this.db.execute<ResearchLinkRow>(
      `insert into artist_research_links (artist_id, research_id, research_match, matched_at) values (?, ?, 'search', now())
       on conflict (artist_id) do nothing returning artist_id, research_id, research_match, matched_at`,
      [artistId, researchId],
    );
    return row ? linked(row) : null;
  }
}
