import DataLoader from 'dataloader';
import { forbidden } from '../../common/errors';
import type { Page, PageKey } from '../../db/pages';
import { AccountKind, type Account } from '../account';
import type { Viewer } from '../../auth/viewer';
import { ArtistAccess, ArtistService, ArtistStore } from './artist.service';
import type { RosterArtist, SocialProfile } from './artist.types';

const NORA = '00000000-0000-4000-8000-000000000001';
const NORTHWIND = '00000000-0000-4000-8000-000000000002';
const LUNA = '00000000-0000-4000-8000-000000000003';
const KAI = '00000000-0000-4000-8000-000000000004';
const PERSON = '00000000-0000-4000-8000-000000000005';

const nora: Viewer = { accountId: NORA, kind: AccountKind.person, name: 'Nora', email: null, organizationIds: [NORTHWIND], isAdmin: false, via: 'api_key' };

const accounts = new Map<string, Pick<Account, 'id' | 'name' | 'kind'>>([
  [LUNA, { id: LUNA, name: 'Luna Waves', kind: AccountKind.artist }],
  [KAI, { id: KAI, name: 'Kai Rivers', kind: AccountKind.artist }],
  [PERSON, { id: PERSON, name: 'Pat', kind: AccountKind.person }],
  [NORTHWIND, { id: NORTHWIND, name: 'Northwind', kind: AccountKind.organization }],
]);

/** Nora reaches Luna (her organization's roster), not Kai; the rules of AccessPolicy are not under test here. */
function fakeAccess(): ArtistAccess & { reachChecks: string[] } {
  const reachChecks: string[] = [];
  return {
    reachChecks,
    canAccessAccountBatched: async (_viewer, id) => {
      reachChecks.push(id);
      return id === LUNA;
    },
    requireAccess: async (viewer, question) => {
      if ('organization' in question) {
        if (!viewer.organizationIds.includes(question.organization)) throw forbidden('Not a member of the requested organization');
        return question.organization;
      }
      const accountId = question.account;
      if (!accountId || accountId === viewer.accountId) return viewer.accountId;
      if (accountId !== LUNA) throw forbidden();
      return accountId;
    },
  };
}

/** A repository that records what it was asked. */
function fakeStore(social: SocialProfile | null = null): ArtistStore & { rosters: string[][]; created: [string, string][] } {
  const rosters: string[][] = [];
  const created: [string, string][] = [];
  return {
    rosters,
    created,
    socialsPageWithAccess: async (_viewer, artistId) =>
      accounts.get(artistId)?.kind === AccountKind.artist ? { reachable: artistId === LUNA, total: 0, skipped: 0, socials: [] } : null,
    rosterPage: async (owners) => {
      rosters.push(owners);
      return { total: 0, skipped: 0, artists: [] };
    },
    createArtist: async (owner, name) => {
      created.push([owner, name]);
      return { id: 'new', name, image: null, created_at: new Date(0) } satisfies RosterArtist;
    },
    upsertSocial: async () => social,
  };
}

const loaders = () => ({
  accountById: new DataLoader<string, Account | null>(async (ids) => ids.map((id) => (accounts.get(id) as Account | undefined) ?? null)),
  socialsPage: new DataLoader<PageKey, Page<SocialProfile>, string>(async (keys) => keys.map(() => ({ rows: [], total: 0, skipped: 0 }))),
});

describe('ArtistService (fake repository, no database)', () => {
  it("reads the roster of the caller's scope, of account_id once resolved, or of organization_id once asserted", async () => {
    const store = fakeStore();
    const service = new ArtistService(store, fakeAccess(), loaders());
    const page = { limit: 100, offset: 0, page: 1 };
    await service.roster(nora, page);
    await service.roster(nora, { account_id: LUNA, ...page });
    await service.roster(nora, { organization_id: NORTHWIND, ...page });
    expect(store.rosters).toEqual([[NORA, NORTHWIND], [LUNA], [NORTHWIND]]);
    await expect(service.roster(nora, { organization_id: KAI, ...page })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(service.roster(nora, { account_id: KAI, ...page })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect(store.rosters).toHaveLength(3);
  });

  it('puts a new artist on the organization only when it is one the caller belongs to', async () => {
    const store = fakeStore();
    const service = new ArtistService(store, fakeAccess(), loaders());
    await service.create(nora, { name: 'Own' });
    await service.create(nora, { name: 'Org', organization_id: NORTHWIND });
    await expect(service.create(nora, { name: 'Not an org', organization_id: PERSON })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(store.created).toEqual([
      [NORA, 'Own'],
      [NORTHWIND, 'Org'],
    ]);
  });

  it('answers 404 for a missing or non-artist account, 403 for an unreachable artist, and never writes a social for either', async () => {
    const social: SocialProfile = { id: 'l', social_id: 's', username: 'u', profile_url: 'https://x.test/u', avatar: null, bio: null, follower_count: null, following_count: null, region: null, updated_at: new Date(0) };
    const access = fakeAccess();
    const store = fakeStore(social);
    const upserts = jest.spyOn(store, 'upsertSocial');
    const service = new ArtistService(store, access, loaders());
    const input = { profile_url: 'https://x.test/u', username: 'u' };
    await expect(service.upsertSocial(nora, { id: PERSON, ...input })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(service.upsertSocial(nora, { id: KAI, ...input })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect(upserts).not.toHaveBeenCalled();
    await expect(service.upsertSocial(nora, { id: LUNA, ...input })).resolves.toBe(social);
    // The graph's answer for an unreachable artist is empty, not an error.
    await expect(service.socialsOf(nora, { id: KAI, name: 'Kai Rivers' }, { page: 1, limit: 20, after: null })).resolves.toEqual({
      items: [],
      pagination: { totalCount: 0, page: 1, limit: 20, totalPages: 0 },
      pageInfo: { endCursor: null, hasNextPage: false },
    });
    await expect(service.reachableArtist(nora, KAI)).resolves.toBeNull();
  });

  it('answers the socials routes 404 for a missing or non-artist account and 403 for an unreachable artist, from the one read', async () => {
    const service = new ArtistService(fakeStore(), fakeAccess(), loaders());
    const page = { page: 1, limit: 20 };
    await expect(service.socialsById(nora, { id: PERSON, ...page })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(service.socialsById(nora, { id: KAI, ...page })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(service.socialsByAccount(nora, { artist_account_id: LUNA, ...page })).resolves.toEqual({
      items: [],
      pagination: { totalCount: 0, page: 1, limit: 20, totalPages: 0 },
      pageInfo: { endCursor: null, hasNextPage: false },
    });
  });
});
