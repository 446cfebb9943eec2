import type { EntityManager } from '@mikro-orm/postgresql';
import { requireViewer } from '../../auth/access';
import { viewerScope } from '../../auth/viewer';
import { AppError, forbidden, notFound } from '../../common/errors';
import { validate } from '../../common/validation';
import { pgArray } from '../../db/sql';
import { pagination, SuccessStatus } from '../../graphql/common.types';
import type { Context } from '../../graphql/context';
import { AccountKind } from '../account';
import { artistIdInput, createArtistInput, rosterInput, socialsByAccountInput, socialsByIdInput, upsertSocialInput } from './artist.inputs';
import { graphPageInput, withoutNulls } from '../../common/validation';
import { query } from '../../db/sql';
import { Artist, RosterArtist, SocialProfile, SocialsResult } from './artist.types';

type Args = Record<string, unknown>;

const SOCIAL_COLUMNS = `l.id, s.id as social_id, s.username, s.profile_url, s.avatar, s.bio, s.follower_count, s.following_count, s.region, s.updated_at`;

export class ArtistService {
  constructor(private readonly ctx: Context) {}

  /** GET /api/artist/socials */
  async socialsByAccount(args: Args): Promise<SocialsResult> {
    const input = validate(socialsByAccountInput, withoutNulls(args));
    return this.socialsPage(input.artist_account_id, input.page, input.limit);
  }

  /** GET /api/artists/{id}/socials */
  async socialsById(args: Args): Promise<SocialsResult> {
    const input = validate(socialsByIdInput, withoutNulls(args));
    return this.socialsPage(input.id, input.page, input.limit);
  }

  private async socialsPage(artistId: string, page: number, limit: number): Promise<SocialsResult> {
    await this.requireArtist(artistId);
    const result = await this.ctx.loaders.socialsPage.load({ id: artistId, page, limit });
    return { status: SuccessStatus.success, socials: result.rows, pagination: pagination(result.total, page, limit) };
  }

  /** Artist.socials in the graph: a page, empty for an artist the caller cannot reach. */
  async socialsOf(artist: Artist, args: Args): Promise<SocialProfile[]> {
    const { page, limit } = validate(graphPageInput, withoutNulls(args));
    if (!(await this.canReach(artist.id))) return [];
    return (await this.ctx.loaders.socialsPage.load({ id: artist.id, page, limit })).rows;
  }

  /** Query.artist: the id is validated first. */
  requireArtistById(id: unknown): Promise<Artist> {
    requireViewer(this.ctx.viewer);
    return this.requireArtist(validate(artistIdInput, { id }).id);
  }

  /** An artist account by id: 404 when absent (or not an artist), 403 when not reachable. */
  async requireArtist(artistId: string): Promise<Artist> {
    requireViewer(this.ctx.viewer);
    const account = await this.ctx.loaders.accountById.load(artistId);
    if (!account || account.kind !== AccountKind.artist) throw notFound('Artist');
    if (!(await this.canReach(artistId))) throw forbidden('Insufficient access to this artist');
    return { id: account.id, name: account.name };
  }

  canReach(accountId: string): Promise<boolean> {
    const viewer = requireViewer(this.ctx.viewer);
    if (viewerScope(viewer).includes(accountId)) return Promise.resolve(true);
    return this.ctx.access.canAccessAccountBatched(viewer, accountId);
  }

  /** The roster: of the caller and its organizations, or of account_id / organization_id. */
  async roster(args: Args): Promise<RosterArtist[]> {
    const viewer = requireViewer(this.ctx.viewer);
    const input = validate(rosterInput, withoutNulls(args));
    let owners: string[];
    if (input.organization_id) {
      this.ctx.access.assertOrganization(viewer, input.organization_id);
      owners = [input.organization_id];
    } else if (input.account_id) {
      owners = [await this.ctx.access.resolveAccount(viewer, input.account_id)];
    } else {
      owners = viewerScope(viewer);
    }
    return query<RosterArtist>(this.ctx.em, 
      `select a.id, a.name, a.image, a.created_at from accounts a
        where a.id in (select r.artist_id from roster_entries r where r.owner_id = any(?::uuid[]))
        order by a.name, a.id`,
      [pgArray(owners)],
    );
  }

  /** POST /api/artists: a new artist account on the caller's roster, or on the organization's. */
  async create(args: Args): Promise<RosterArtist> {
    const viewer = requireViewer(this.ctx.viewer);
    const input = validate(createArtistInput, withoutNulls(args));
    let owner = viewer.accountId;
    if (input.organization_id) {
      const org = await this.ctx.loaders.accountById.load(input.organization_id);
      if (!org || org.kind !== AccountKind.organization) throw notFound('Organization');
      this.ctx.access.assertOrganization(viewer, org.id);
      owner = org.id;
    }
    return this.ctx.em.transactional(async (tx) => {
      const [artist] = await query<RosterArtist>(tx as EntityManager, 
        `insert into accounts (id, kind, name, created_at, updated_at) values (gen_random_uuid(), 'artist', ?, now(), now())
         returning id, name, image, created_at`,
        [input.name],
      );
      await (tx as EntityManager).execute(
        `insert into roster_entries (id, owner_id, artist_id, created_at, updated_at) values (gen_random_uuid(), ?, ?, now(), now())`,
        [owner, artist.id],
      );
      return artist;
    });
  }

  /**
   * POST /api/artists/{id}/socials: upserts the artist's own profile with that URL (decisions §3);
   * another artist's profile with the same URL is a different row and is never touched.
   */
  async upsertSocial(args: Args): Promise<SocialProfile> {
    requireViewer(this.ctx.viewer);
    const input = validate(upsertSocialInput, withoutNulls(args));
    await this.requireArtist(input.id);
    return this.ctx.em.transactional(async (tx) => {
      const em = tx as EntityManager;
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
      const [row] = await query<SocialProfile>(em, 
        `select ${SOCIAL_COLUMNS} from account_socials l join socials s on s.id = l.social_id where l.account_id = ? and l.social_id = ?`,
        [input.id, social.id],
      );
      if (!row) throw new AppError('INTERNAL_SERVER_ERROR', 'The social profile could not be linked');
      return row;
    });
  }
}
