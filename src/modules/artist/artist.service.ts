import { z } from 'zod';
import type { AccessPolicy, SqlCondition } from '../../auth/access';
import { Viewer, viewerScope } from '../../auth/viewer';
import { LIST_BOUNDS } from '../../common/bounds';
import { AppError, forbidden, invalidInput, notFound } from '../../common/errors';
import { cursorKeys, cursorOf, PageRequest, positionOf, sortKeys } from '../../common/paging';
import { emptyPage, PageOf, pageOf } from '../../graphql/common.types';
import type { Context } from '../../request/context';
import { AccountKind } from '../account';
import type { CreateArtistInput, RosterInput, SocialsByAccountInput, SocialsByIdInput, UpsertSocialInput } from './artist.inputs';
import type { ArtistRepository } from './artist.repository';
import type { Artist, RosterArtist, SocialProfile } from './artist.types';

/** What the service asks of the repository (a test hands it a fake of the same shape). */
export type ArtistStore = Pick<ArtistRepository, 'socialsPageWithAccess' | 'rosterPage' | 'createArtist' | 'upsertSocial'>;

/** A page of a roster, and its rows as read (with the columns read ahead, for the resolver to hand to the loaders). */
export interface RosterPageOf {
  rows: (RosterArtist & Record<string, unknown>)[];
  page: PageOf<RosterArtist & Record<string, unknown>>;
}

/** The list name of a roster in cursors (its parent: the organization, account or caller whose roster it is); by name, then id. */
const ROSTER = 'Query.artists';
/** The access rules the service applies. */
export type ArtistAccess = Pick<AccessPolicy, 'canAccessAccountBatched' | 'requireAccess'>;
/** The request's loaders the service reads through (batched across the rows of one request). */
export type ArtistLoaders = Pick<Context['loaders'], 'accountById' | 'socialsPage'>;

/** The list name of an artist's socials in cursors (Query.artistSocials, Query.artistSocialsById and Artist.socials page the same list). */
const SOCIALS = 'Artist.socials';
/** Socials are ordered by when each was linked, then by link id: the cursor holds both. */
const SOCIAL_KEY = z.tuple([cursorKeys.micros, cursorKeys.uuid]);
const socialCursor = (artistId: string) => (social: SocialProfile) => cursorOf(SOCIALS, artistId, [social.linked_at ?? '0', social.id]);
const offsetRequest = ({ page, limit, offset }: { page: number; limit: number; offset?: number }): PageRequest => ({ page, limit, after: null, ...(offset !== undefined ? { offset } : {}) });

/** Artists, rosters and socials. An artist the caller cannot reach is 403 on its routes and empty in the graph. */
export class ArtistService {
  constructor(
    private readonly repo: ArtistStore,
    private readonly access: ArtistAccess,
    private readonly loaders: ArtistLoaders,
    /** Artists one roster may hold (ROSTER_MAX_ARTISTS). */
    private readonly rosterMax = Number.MAX_SAFE_INTEGER,
  ) {}

  /** Query.artistSocials (GET /api/artist/socials) */
  socialsByAccount(viewer: Viewer, input: SocialsByAccountInput, request: PageRequest = offsetRequest(input)): Promise<PageOf<SocialProfile>> {
    return this.socialsPage(viewer, input.artist_account_id, request);
  }

  /** Query.artistSocialsById (GET /api/artists/{id}/socials) */
  socialsById(viewer: Viewer, input: SocialsByIdInput, request: PageRequest = offsetRequest(input)): Promise<PageOf<SocialProfile>> {
    return this.socialsPage(viewer, input.id, request);
  }

  /** 404 absent (or not an artist), 403 unreachable; the check and the page are one read. */
  private async socialsPage(viewer: Viewer, artistId: string, request: PageRequest): Promise<PageOf<SocialProfile>> {
    const position = positionOf(request, SOCIALS, artistId, SOCIAL_KEY);
    const result = await this.repo.socialsPageWithAccess(viewer, artistId, position, request.limit);
    if (!result) throw notFound('Artist');
    if (!result.reachable) throw forbidden('Insufficient access to this artist');
    return pageOf(result.socials, { total: result.total, skipped: result.skipped, limit: request.limit }, socialCursor(artistId));
  }

  /** Artist.socials in the graph: a page, empty for an artist the caller cannot reach. */
  async socialsOf(viewer: Viewer, artist: Artist, request: PageRequest): Promise<PageOf<SocialProfile>> {
    const position = positionOf(request, SOCIALS, artist.id, SOCIAL_KEY);
    if (!(await this.canReach(viewer, artist.id))) return emptyPage('offset' in position ? position.offset : 0, request.limit);
    const found = await this.loaders.socialsPage.load({ id: artist.id, position, limit: request.limit });
    return pageOf(found.rows, { total: found.total, skipped: found.skipped, limit: request.limit }, socialCursor(artist.id));
  }

  /** Artist.image and Artist.created_at: from the artist when its read had them, else from its account. */
  async account(artist: Artist): Promise<RosterArtist> {
    if (artist.image !== undefined && artist.created_at !== undefined) return { id: artist.id, name: artist.name, image: artist.image, created_at: artist.created_at };
    const account = await this.loaders.accountById.load(artist.id);
    if (!account) throw notFound('Artist');
    return { id: account.id, name: account.name, image: account.image, created_at: account.createdAt };
  }

  /** An artist account by id: 404 when absent (or not an artist), 403 when not reachable. */
  async requireArtist(viewer: Viewer, artistId: string): Promise<RosterArtist> {
    const account = await this.loaders.accountById.load(artistId);
    if (!account || account.kind !== AccountKind.artist) throw notFound('Artist');
    if (!(await this.canReach(viewer, artistId))) throw forbidden('Insufficient access to this artist');
    return { id: account.id, name: account.name, image: account.image, created_at: account.createdAt };
  }

  /** Federation: the artist when it exists and the caller reaches it, else null (as Query.artist, without the errors). */
  async reachableArtist(viewer: Viewer, artistId: string): Promise<Artist | null> {
    const account = await this.loaders.accountById.load(artistId);
    if (!account || account.kind !== AccountKind.artist) return null;
    return (await this.canReach(viewer, account.id)) ? { id: account.id, name: account.name, image: account.image, created_at: account.createdAt } : null;
  }

  /** The caller reaches the account: its own scope without a statement, else the batched reach check. */
  canReach(viewer: Viewer, accountId: string): Promise<boolean> {
    return this.access.canAccessAccountBatched(viewer, accountId);
  }

  /** Query.artists (GET /api/artists): the roster of the caller and its organizations, or of account_id / organization_id. */
  async roster(viewer: Viewer, input: RosterInput, request: PageRequest = offsetRequest(input), readAhead: SqlCondition[] = []): Promise<RosterPageOf> {
    let owners: string[];
    if (input.organization_id) {
      await this.access.requireAccess(viewer, { organization: input.organization_id });
      owners = [input.organization_id];
    } else if (input.account_id) {
      owners = [await this.access.requireAccess(viewer, { account: input.account_id })];
    } else {
      owners = viewerScope(viewer);
    }
    // The cursor's parent: the roster asked for (an organization's, an account's, or the caller's scope).
    const scope = input.organization_id ?? input.account_id ?? viewer.accountId;
    const position = positionOf(request, ROSTER, scope, sortKeys.nameThenUuid);
    const page = await this.repo.rosterPage(owners, readAhead, position, request.limit);
    return {
      rows: page.artists,
      page: pageOf(page.artists, { total: page.total, skipped: page.skipped, limit: request.limit }, (artist) => cursorOf(ROSTER, scope, [artist.name, artist.id])),
    };
  }

  /** Mutation.createArtist (POST /api/artists): a new artist account on the caller's roster, or on the organization's. */
  async create(viewer: Viewer, input: CreateArtistInput): Promise<RosterArtist> {
    let owner = viewer.accountId;
    if (input.organization_id) {
      const org = await this.loaders.accountById.load(input.organization_id);
      if (!org || org.kind !== AccountKind.organization) throw notFound('Organization');
      await this.access.requireAccess(viewer, { organization: org.id });
      owner = org.id;
    }
    const artist = await this.repo.createArtist(owner, input.name, this.rosterMax);
    if (!artist) throw invalidInput([{ field: 'name', message: `would put more than ${this.rosterMax} artists on the roster` }]);
    return artist;
  }

  /**
   * Mutation.upsertArtistSocial (POST /api/artists/{id}/socials): upserts the artist's own profile with that URL (decisions §3);
   * another artist's profile with the same URL is a different row and is never touched.
   */
  async upsertSocial(viewer: Viewer, input: UpsertSocialInput): Promise<SocialProfile> {
    await this.requireArtist(viewer, input.id);
    const social = await this.repo.upsertSocial(input);
    if (social === 'full') throw invalidInput([{ field: 'profile_url', message: `the artist has ${LIST_BOUNDS.socialsPerArtist} social profiles already` }]);
    if (!social) throw new AppError('INTERNAL_SERVER_ERROR', 'The social profile could not be linked');
    return social;
  }
}
