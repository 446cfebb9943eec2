import { LIST_BOUNDS } from '../../common/bounds';
import { reachCondition, SqlCondition } from '../../auth/access';
import type { Viewer } from '../../auth/viewer';
import { epochMicros, fromEpochMicros, Position } from '../../common/paging';
import { pagedRows, PagedRow, skippedSql } from '../../db/pages';
import { pgArray, query } from '../../db/sql';
import type { UpsertSocialInput } from './artist.inputs';
import type { RosterArtist, SocialProfile } from './artist.types';
import type { Db } from '../../db/request-db';

const SOCIAL_COLUMNS = `l.id, s.id as social_id, s.username, s.profile_url, s.avatar, s.bio, s.follower_count, s.following_count, s.region, s.updated_at`;

/** One page of an artist's socials as socialsPageJson answers it (timestamps as JSON text). */
export interface SocialsPageJson {
  total: number;
  skipped: number;
  items: (Omit<SocialProfile, 'updated_at'> & { updated_at: string })[];
}

/** The socials of a page read as JSON, their timestamps as Dates. */
export const socialsOf = (page: SocialsPageJson): SocialProfile[] => page.items.map((social) => ({ ...social, updated_at: new Date(social.updated_at) }));

/**
 * Artist.socials, the relation's one SQL text: one page of the socials of the artist whose id is
 * the SQL expression `artistId`, oldest link first (after an offset, or after a cursor's link time
 * and id), as JSON `{total, skipped, items}`. The REST read (socialsPageWithAccess), the batched
 * loader (socialsPages) and the read-ahead (socialsJson) compose it with their own parents and
 * reach; its aliases (sp_*) are its own, so the caller's `artistId` is never shadowed.
 */
export function socialsPageJson(artistId: string, position: Position<readonly string[]>, limit: number): SqlCondition {
  const skip = skippedSql(position, ([at, id]) => ({
    sql: `(select count(*)::int from account_socials sp_b where sp_b.account_id = ${artistId} and (sp_b.created_at, sp_b.id) <= (${fromEpochMicros}, ?::uuid))`,
    bindings: [at, id],
  }));
  return {
    sql: `(select json_build_object(
        'total', (select count(*)::int from account_socials sp_t where sp_t.account_id = ${artistId}),
        'skipped', sp_k.n,
        'items', coalesce((
          select json_agg(json_build_object('id', sp_p.id, 'social_id', sp_s.id, 'username', sp_s.username, 'profile_url', sp_s.profile_url,
                                            'avatar', sp_s.avatar, 'bio', sp_s.bio, 'follower_count', sp_s.follower_count,
                                            'following_count', sp_s.following_count, 'region', sp_s.region, 'updated_at', sp_s.updated_at,
                                            'linked_at', ${epochMicros('sp_p.created_at')})
                          order by sp_p.created_at, sp_p.id)
            from (select sp_l.id, sp_l.social_id, sp_l.created_at from account_socials sp_l where sp_l.account_id = ${artistId}
                   order by sp_l.created_at, sp_l.id offset sp_k.n limit ?) sp_p
            join socials sp_s on sp_s.id = sp_p.social_id), '[]'::json))
      from (select ${skip.sql} as n) sp_k)`,
    bindings: [limit, ...skip.bindings],
  };
}

/** A page of a roster: its artists (with the columns read ahead), its total and the artists before it. */
export interface RosterPage {
  total: number;
  skipped: number;
  artists: (RosterArtist & Record<string, unknown>)[];
}

/** A page of one artist's socials, read with the artist's reach (no socials when unreachable). */
export interface ArtistSocialsPage {
  reachable: boolean;
  total: number;
  skipped: number;
  socials: SocialProfile[];
}

/** Every read and write of rosters (roster_entries), artist accounts and their social profiles. */
export class ArtistRepository {
  constructor(private readonly db: Db) {}

  /** A page of each artist's socials, oldest link first, in one statement (a row with a null item for an artist past its end). */
  async socialsPages(artistIds: string[], position: Position<readonly string[]>, limit: number): Promise<PagedRow<SocialProfile>[]> {
    const page = socialsPageJson('pg_t.id', position, limit);
    const rows = await query<{ owner: string; page: SocialsPageJson }>(
      this.db.em,
      `select pg_t.id as owner, ${page.sql} as page from unnest(?::uuid[]) as pg_t(id)`,
      [...page.bindings, pgArray(artistIds)],
    );
    return rows.flatMap(({ owner, page }) => pagedRows(owner, page, socialsOf(page)));
  }

  /**
   * GET /api/artists/{id}/socials in one statement: whether the artist account exists (null when
   * not, or not an artist) and the viewer reaches it, then, only when reachable, the page of its
   * socials (oldest link first) and its total.
   */
  async socialsPageWithAccess(viewer: Viewer, artistId: string, position: Position<readonly string[]>, limit: number): Promise<ArtistSocialsPage | null> {
    const reach = reachCondition(viewer, 'a.id');
    const page = socialsPageJson('a.id', position, limit);
    const rows = await this.db.hot<{ reachable: boolean; page: SocialsPageJson | null }>(`select r.reachable, case when r.reachable then ${page.sql} end as page
         from accounts a cross join lateral (select ${reach.sql} as reachable) r
        where a.id = ? and a.kind = 'artist'`,
      [...page.bindings, ...reach.bindings, artistId],
    );
    if (rows.length === 0) return null;
    const { reachable, page: found } = rows[0];
    return found ? { reachable, total: found.total, skipped: found.skipped, socials: socialsOf(found) } : { reachable, total: 0, skipped: 0, socials: [] };
  }

  /**
   * A page of the artists on the rosters of these owners, by name then id, with the roster's
   * total and the artists before the page, in one statement; `extra` adds select-list expressions
   * over the artist row `a` (relations read ahead), computed for the page's artists only. After a
   * cursor, the page starts after the artists at or before its (name, id).
   */
  async rosterPage(ownerIds: string[], extra: SqlCondition[], position: Position<readonly string[]>, limit: number): Promise<RosterPage> {
    const skip = skippedSql(position, ([name, id]) => ({ sql: '(select count(*)::int from roster where (name, id) <= (?, ?::uuid))', bindings: [name, id] }));
    const rows = await query<RosterArtist & Record<string, unknown> & { total: number; skipped: number }>(
      this.db.em,
      `with roster as (
         select a.id, a.name from accounts a where a.id in (select r.artist_id from roster_entries r where r.owner_id = any(?::uuid[]))),
       skip as (select ${skip.sql} as n),
       page as (select a.* from accounts a join (select id from roster order by name, id offset (select n from skip) limit ?) p on p.id = a.id)
       select tot.total, tot.skipped, a.id, a.name, a.image, a.created_at${extra.map((e) => `, ${e.sql}`).join('')}
         from (select (select count(*)::int from roster) as total, (select n from skip) as skipped) tot
         left join page a on true
        order by a.name, a.id`,
      [pgArray(ownerIds), ...skip.bindings, limit, ...extra.flatMap((e) => e.bindings)],
    );
    return {
      total: rows[0]!.total,
      skipped: rows[0]!.skipped,
      artists: rows.filter((row) => row.id !== null).map(({ total: _t, skipped: _s, ...artist }) => artist),
    };
  }

  /**
   * Artist.socials read ahead (graphql/prefetch.ts): a SQL expression, for the artist whose id is
   * the SQL expression `artistId`, giving `{reachable, page}`: whether the viewer reaches the
   * artist and (only then) one page of its socials (socialsPageJson), oldest link first.
   */
  socialsJson(viewer: Viewer, artistId: string, offset: number, limit: number): SqlCondition {
    const reach = reachCondition(viewer, artistId);
    const page = socialsPageJson(artistId, { offset }, limit);
    return {
      sql: `select json_build_object('reachable', pf_r.ok, 'page', case when pf_r.ok then ${page.sql} end) from (select ${reach.sql} as ok) pf_r`,
      bindings: [...page.bindings, ...reach.bindings],
    };
  }

  /** A new artist account on the owner's roster, in one transaction. */
  /** Null, writing nothing, when the owner's roster holds `rosterMax` artists already. */
  createArtist(ownerId: string, name: string, rosterMax = Number.MAX_SAFE_INTEGER): Promise<RosterArtist | null> {
    return this.db.transactional(async (tx) => {
      const em = tx.em;
      if ((await new ArtistRepository(tx).lockRosterSize(ownerId)) >= rosterMax) return null;
      const [artist] = await query<RosterArtist>(
        em,
        `insert into accounts (id, kind, name, created_at, updated_at) values (gen_random_uuid(), 'artist', ?, now(), now())
         returning id, name, image, created_at`,
        [name],
      );
      await em.execute(`insert into roster_entries (id, owner_id, artist_id, created_at, updated_at) values (gen_random_uuid(), ?, ?, now(), now())`, [
        ownerId,
        artist.id,
      ]);
      return artist;
    });
  }

  /** The owner's roster size, with the owner's account row locked until the transaction ends (concurrent roster writes wait). */
  async lockRosterSize(ownerId: string): Promise<number> {
    await this.db.em.execute(`select 1 from accounts where id = ? for update`, [ownerId]);
    // Counted by a statement of its own: its snapshot is taken after the lock, so it sees what the writer before us committed.
    const [row] = await this.db.em.execute<{ n: number }[]>(`select count(*)::int as n from roster_entries where owner_id = ?`, [ownerId]);
    return row?.n ?? 0;
  }

  /**
   * New artist accounts with these names on the owner's roster, answered with their lower-cased
   * names as `key`. Runs on this repository's entity manager, inside the caller's transaction if any.
   */
  async createRosterArtists(ownerId: string, names: string[]): Promise<{ id: string; key: string }[]> {
    const created = await this.db.em.execute<{ id: string; key: string }[]>(
      `insert into accounts (id, kind, name, created_at, updated_at)
       select gen_random_uuid(), 'artist', t.name, now(), now() from unnest(?::text[]) as t(name)
       returning id, lower(name) as key`,
      [pgArray(names)],
    );
    await this.db.em.execute(
      `insert into roster_entries (id, owner_id, artist_id, created_at, updated_at)
       select gen_random_uuid(), ?, t.id, now(), now() from unnest(?::uuid[]) as t(id)`,
      [ownerId, pgArray(created.map((c) => c.id))],
    );
    return created;
  }

  /**
   * Upserts the artist's own profile with that URL and links it, in one transaction; another
   * artist's profile with the same URL is a different row and is never touched. Null when the
   * link could not be read back; 'full' (nothing written) when the URL is new and the artist has
   * LIST_BOUNDS.socialsPerArtist profiles already.
   */
  upsertSocial(input: UpsertSocialInput): Promise<SocialProfile | 'full' | null> {
    return this.db.transactional(async (tx) => {
      const em = tx.em;
      // The artist is locked, so concurrent upserts count each other (counted after the lock, in a statement of its own).
      await em.execute(`select 1 from accounts where id = ? for update`, [input.id]);
      const [held] = await em.execute<{ n: number; known: boolean }[]>(
        `select (select count(*)::int from socials where account_id = ?) as n,
                exists (select 1 from socials where account_id = ? and profile_url = ?) as known`,
        [input.id, input.id, input.profile_url],
      );
      if (!held.known && held.n >= LIST_BOUNDS.socialsPerArtist) return 'full';
      const [social] = await em.execute<{ id: string }[]>(
        `insert into socials (id, account_id, profile_url, username, avatar, bio, follower_count, following_count, region, created_at, updated_at)
         values (gen_random_uuid(), ?, ?, ?, ?, ?, ?, ?, ?, now(), now())
         on conflict (account_id, profile_url) do update set
           username = excluded.username,
           avatar = coalesce(excluded.avatar, socials.avatar),
           bio = coalesce(excluded.bio, socials.bio),
           follower_count = coalesce(excluded.follower_count, socials.follower_count),
           following_count = coalesce(excluded.following_count, socials.following_count),
           region = coalesce(excluded.region, socials.region),
           updated_at = now()
         returning id`,
        [
          input.id,
          input.profile_url,
          input.username,
          input.avatar ?? null,
          input.bio ?? null,
          input.follower_count ?? null,
          input.following_count ?? null,
          input.region ?? null,
        ],
      );
      await em.execute(
        `insert into account_socials (id, account_id, social_id, created_at, updated_at) values (gen_random_uuid(), ?, ?, now(), now())
         on conflict (account_id, social_id) do nothing`,
        [input.id, social.id],
      );
      const [row] = await query<SocialProfile>(
        em,
        `select ${SOCIAL_COLUMNS} from account_socials l join socials s on s.id = l.social_id where l.account_id = ? and l.social_id = ?`,
        [input.id, social.id],
      );
      return row ?? null;
    });
  }
}
