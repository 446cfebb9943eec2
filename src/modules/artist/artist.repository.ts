import { LIST_BOUNDS } from '../../common/bounds';
import type { EntityManager } from '@mikro-orm/postgresql';
import { reachCondition, SqlCondition } from '../../auth/access';
import type { Viewer } from '../../auth/viewer';
import { epochMicros, fromEpochMicros, Position } from '../../common/paging';
import { PagedRow, skippedSql } from '../../db/pages';
import { hotQuery, pgArray, query, withDates } from '../../db/sql';
import type { UpsertSocialInput } from './artist.inputs';
import type { RosterArtist, SocialProfile } from './artist.types';

const SOCIAL_COLUMNS = `l.id, s.id as social_id, s.username, s.profile_url, s.avatar, s.bio, s.follower_count, s.following_count, s.region, s.updated_at`;

interface SocialRow extends SocialProfile {
  owner: string;
  total: string;
  skipped: string;
}

/** After a cursor on a socials list: the links at or before its (link time, link id), as counted by `count`. */
const socialsBefore = (count: (condition: string) => string) => ([at, id]: readonly string[]) => ({
  sql: count(`(created_at, id) <= (${fromEpochMicros}, ?::uuid)`),
  bindings: [at, id],
});

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
  constructor(private readonly em: EntityManager) {}

  /** A page of each artist's socials, oldest link first, in one statement (a row with a null item for an artist past its end). */
  async socialsPages(artistIds: string[], position: Position<readonly string[]>, limit: number): Promise<PagedRow<SocialProfile>[]> {
    const skip = skippedSql(position, socialsBefore((condition) => `count(*) filter (where ${condition}) over (partition by l.account_id)`));
    const rows = await query<SocialRow>(
      this.em,
      `with f as (
         select l.account_id, l.id, l.social_id, l.created_at,
                row_number() over (partition by l.account_id order by l.created_at, l.id) as rn,
                count(*) over (partition by l.account_id) as total,
                ${skip.sql} as skipped
           from account_socials l where l.account_id = any(?::uuid[]))
       select t.account_id as owner, t.total, t.skipped, p.id, p.social_id, s.username, s.profile_url, s.avatar, s.bio,
              s.follower_count, s.following_count, s.region, s.updated_at, ${epochMicros('p.created_at')} as linked_at
         from (select distinct account_id, total, skipped from f) t
         left join f p on p.account_id = t.account_id and p.rn > t.skipped and p.rn <= t.skipped + ?
         left join socials s on s.id = p.social_id
        order by t.account_id, p.rn`,
      [...skip.bindings, pgArray(artistIds), limit],
    );
    return rows.map(({ owner, total, skipped, ...social }) => ({ owner, total, skipped, item: social.id ? social : null }));
  }

  /**
   * GET /api/artists/{id}/socials in one statement: whether the artist account exists (null when
   * not, or not an artist) and the viewer reaches it, then, only when reachable, the page of its
   * socials (oldest link first) and its total.
   */
  async socialsPageWithAccess(viewer: Viewer, artistId: string, position: Position<readonly string[]>, limit: number): Promise<ArtistSocialsPage | null> {
    const reach = reachCondition(viewer, 'a.id');
    const skip = skippedSql(position, socialsBefore((condition) => `(select count(*)::int from links where ${condition})`));
    const rows = withDates(
      await hotQuery<SocialProfile & { reachable: boolean; total: string; skipped: number }>(
        this.em,
        `with artist as (
           select a.id, ${reach.sql} as reachable from accounts a where a.id = ? and a.kind = 'artist'),
         links as (
           select l.id, l.social_id, l.created_at from account_socials l
            where l.account_id = ? and (select reachable from artist)),
         skip as (select ${skip.sql} as n),
         page as (
           select * from links order by created_at, id offset (select n from skip) limit ?)
         select artist.reachable, (select count(*) from links) as total, (select n from skip) as skipped,
                page.id, s.id as social_id, s.username, s.profile_url, s.avatar, s.bio, s.follower_count, s.following_count, s.region, s.updated_at,
                ${epochMicros('page.created_at')} as linked_at
           from artist
           left join page on true
           left join socials s on s.id = page.social_id
          order by page.created_at, page.id`,
        [...reach.bindings, artistId, artistId, ...skip.bindings, limit],
      ),
    );
    if (rows.length === 0) return null;
    const socials = rows.filter((row) => row.id !== null).map(({ reachable: _r, total: _t, skipped: _s, ...social }) => social);
    return { reachable: rows[0].reachable, total: Number(rows[0].total), skipped: Number(rows[0].skipped), socials };
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
      this.em,
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
   * the SQL expression `artistId`, giving `{reachable, total, items}`: whether the viewer reaches
   * the artist and (only then) one page of its socials, oldest link first, and their total.
   */
  socialsJson(viewer: Viewer, artistId: string, offset: number, limit: number): SqlCondition {
    const reach = reachCondition(viewer, artistId);
    return {
      sql: `select json_build_object(
              'reachable', ${reach.sql},
              'total', case when ${reach.sql} then (select count(*) from account_socials pf_l where pf_l.account_id = ${artistId}) else 0 end,
              'items', case when ${reach.sql} then coalesce((
                 select json_agg(json_build_object('id', pf_p.id, 'social_id', pf_s.id, 'username', pf_s.username, 'profile_url', pf_s.profile_url,
                                                   'avatar', pf_s.avatar, 'bio', pf_s.bio, 'follower_count', pf_s.follower_count,
                                                   'following_count', pf_s.following_count, 'region', pf_s.region, 'updated_at', pf_s.updated_at,
                                                   'linked_at', ${epochMicros('pf_p.created_at')})
                                 order by pf_p.created_at, pf_p.id)
                   from (select pf_l.id, pf_l.social_id, pf_l.created_at from account_socials pf_l where pf_l.account_id = ${artistId}
                          order by pf_l.created_at, pf_l.id offset ? limit ?) pf_p
                   join socials pf_s on pf_s.id = pf_p.social_id), '[]'::json) else '[]'::json end)`,
      bindings: [...reach.bindings, ...reach.bindings, ...reach.bindings, offset, limit],
    };
  }

  /** A new artist account on the owner's roster, in one transaction. */
  /** Null, writing nothing, when the owner's roster holds `rosterMax` artists already. */
  createArtist(ownerId: string, name: string, rosterMax = Number.MAX_SAFE_INTEGER): Promise<RosterArtist | null> {
    return this.em.transactional(async (tx) => {
      const em = tx as EntityManager;
      if ((await new ArtistRepository(em).lockRosterSize(ownerId)) >= rosterMax) return null;
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
    await this.em.execute(`select 1 from accounts where id = ? for update`, [ownerId]);
    // Counted by a statement of its own: its snapshot is taken after the lock, so it sees what the writer before us committed.
    const [row] = await this.em.execute<{ n: number }[]>(`select count(*)::int as n from roster_entries where owner_id = ?`, [ownerId]);
    return row?.n ?? 0;
  }

  /**
   * New artist accounts with these names on the owner's roster, answered with their lower-cased
   * names as `key`. Runs on this repository's entity manager, inside the caller's transaction if any.
   */
  async createRosterArtists(ownerId: string, names: string[]): Promise<{ id: string; key: string }[]> {
    const created = await this.em.execute<{ id: string; key: string }[]>(
      `insert into accounts (id, kind, name, created_at, updated_at)
       select gen_random_uuid(), 'artist', t.name, now(), now() from unnest(?::text[]) as t(name)
       returning id, lower(name) as key`,
      [pgArray(names)],
    );
    await this.em.execute(
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
    return this.em.transactional(async (tx) => {
      const em = tx as EntityManager;
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
