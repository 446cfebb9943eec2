import DataLoader from 'dataloader';
import { AccountKind, type Viewer } from '../../auth/viewer';
import type { Page } from '../../db/pages';
import type { CatalogAccessRow, CatalogSongRow, CatalogSongWrites, EntryValues } from './catalog.repository';
import { CatalogAccess, CatalogLoaders, CatalogService, CatalogStore } from './catalog.service';
import type { SongCredit } from './catalog.types';

const NORA = '00000000-0000-4000-8000-000000000001';
const OWN = '00000000-0000-4000-8000-0000000000c1';
const FOREIGN = '00000000-0000-4000-8000-0000000000c2';
const MISSING = '00000000-0000-4000-8000-0000000000c3';
const LUNA = '00000000-0000-4000-8000-0000000000a1';
const KAI = '00000000-0000-4000-8000-0000000000a2';

const nora: Viewer = { accountId: NORA, kind: AccountKind.person, name: 'Nora', email: null, organizationIds: [], isAdmin: false, via: 'api_key' };
const at = new Date(0);
const catalogs = new Map<string, CatalogAccessRow>([
  [OWN, { id: OWN, name: 'Own', created_at: at, updated_at: at, reachable: true }],
  [FOREIGN, { id: FOREIGN, name: 'Foreign', created_at: at, updated_at: at, reachable: false }],
]);

/** A loader answering every key with `answer`. */
const loader = <K, V>(answer: (key: K) => V, cacheKeyFn?: (key: K) => string) =>
  new DataLoader<K, V, string>(async (keys) => keys.map(answer), { cacheKeyFn: cacheKeyFn ?? ((k) => JSON.stringify(k)) });

function loaders(): CatalogLoaders {
  const empty: Page<never> = { rows: [], total: 0, skipped: 0 };
  return {
    catalogAccess: loader(({ id }: { id: string; viewer: Viewer }) => catalogs.get(id) ?? null),
    creditsByEntry: loader((_entryId: string): SongCredit[] => []),
    catalogSongsPage: loader(() => empty),
    catalogsByAccount: loader(() => []),
    reachableCatalogsByArtist: loader(() => []),
    accountsByCatalog: loader(() => []),
    reachableCatalogsByIsrc: loader(() => []),
    songByIsrc: loader(() => null),
    artistSongsPage: loader(() => empty),
  };
}

/** Nora reaches Luna; Kai (another tenant's artist of the same name as a credit) she does not. */
const access: CatalogAccess = {
  requireAccess: async (viewer) => viewer.accountId,
  mayAccess: async (viewer, question) => 'organization' in question && (question.organization === viewer.accountId || viewer.organizationIds.includes(question.organization)),
  accessibleAccountIds: async (_viewer, ids) => new Set(ids.filter((id) => id === LUNA)),
  canAccessAccountBatched: async (_viewer, id) => id === LUNA,
};

/** An in-memory store: `existing` holds the (catalog, ISRC) pairs that have an entry; writes are recorded. */
function fakeStore(existing: string[] = []) {
  const upserts: EntryValues[][] = [];
  const rosterArtists: [string, string[]][] = [];
  const credited: { entryId: string; artistId: string }[] = [];
  const rows = new Map<string, CatalogSongRow>();
  const writes: CatalogSongWrites = {
    existingEntries: async (refs) => refs.filter((r) => existing.includes(`${r.catalog_id}|${r.isrc}`)),
    upsertEntries: async (entries) => {
      upserts.push(entries);
      return entries.map((e) => {
        const id = `entry:${e.catalog_id}|${e.isrc}`;
        rows.set(id, { catalog_id: e.catalog_id, entry_id: id, isrc: e.isrc, name: e.name ?? 'kept', album: e.album, lyrics: e.lyrics, updated_at: at });
        return { id, catalog_id: e.catalog_id, isrc: e.isrc };
      });
    },
    artistsNamed: async (keys) =>
      [
        { id: KAI, key: 'luna waves' },
        { id: LUNA, key: 'luna waves' },
      ].filter((a) => keys.includes(a.key)),
    createRosterArtists: async (ownerId, names) => {
      rosterArtists.push([ownerId, names]);
      return names.map((name) => ({ id: `new:${name}`, key: name.toLowerCase() }));
    },
    lockRosterSize: async () => 0,
    creditArtists: async (credits) => void credited.push(...credits),
    entriesCreditedOver: async (ids, max) => new Set(ids.filter((id) => credited.filter((c) => c.entryId === id).length > max)),
    touchCatalogs: async () => undefined,
  };
  const store: CatalogStore = {
    songsPageWithAccess: async (_viewer, catalogId) => {
      const catalog = catalogs.get(catalogId);
      return catalog ? { reachable: catalog.reachable, total: 0, skipped: 0, songs: [] } : null;
    },
    songsPageWithAccessSerialized: async (_viewer, catalogId) => {
      const catalog = catalogs.get(catalogId);
      return catalog ? { reachable: catalog.reachable, total: 0, skipped: 0, count: 0, last: null, objects: 0, items: '[]' } : null;
    },
    transaction: (work) => work(writes),
    entriesById: async (ids) => ids.map((id) => rows.get(id)!),
    linkCatalog: async () => null,
    holdersOf: async () => [],
    unlinkableAsHolder: async () => new Set(),
    createCatalog: async () => {
      throw new Error('not expected');
    },
    entriesOfCatalogs: async () => [],
    removeEntries: async () => undefined,
    unlinkCatalogs: async () => undefined,
    catalogsLinkedTo: async () => [],
  };
  return { store, upserts, rosterArtists, credited };
}

describe('CatalogService.addSongs (fake repository, no database)', () => {
  it('refuses a missing catalog (404) and an unreachable one (403) before any write', async () => {
    const fake = fakeStore();
    const service = new CatalogService(fake.store, access, loaders());
    await expect(service.addSongs(nora, { songs: [{ catalog_id: MISSING, isrc: 'GBNWR2400001', name: 'X' }] })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(service.addSongs(nora, { songs: [{ catalog_id: FOREIGN, isrc: 'GBNWR2400001', name: 'X' }] })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect(fake.upserts).toEqual([]);
  });

  it('requires a name for an ISRC the catalog has no entry for, naming each such item, and writes nothing', async () => {
    const fake = fakeStore([`${OWN}|GBNWR2400001`]);
    const service = new CatalogService(fake.store, access, loaders());
    const songs = [
      { catalog_id: OWN, isrc: 'gb-nwr-24-00001' },
      { catalog_id: OWN, isrc: 'GBNWR2400002' },
    ];
    await expect(service.addSongs(nora, { songs })).rejects.toMatchObject({
      code: 'BAD_USER_INPUT',
      details: [{ field: 'songs[1].name', message: 'is required for a new ISRC' }],
    });
    expect(fake.upserts).toEqual([]);
  });

  it('merges items for one entry (later values win, credits add up) and credits only artists the caller reaches', async () => {
    const fake = fakeStore();
    const service = new CatalogService(fake.store, access, loaders());
    const songs = await service.addSongs(nora, {
      songs: [
        { catalog_id: OWN, isrc: 'GBNWR2400001', name: 'First', album: 'A', artists: ['Luna Waves'] },
        { catalog_id: OWN, isrc: 'gbnwr2400001', name: 'Second', artists: ['luna waves', 'Brand New'] },
      ],
    });
    expect(fake.upserts).toEqual([[{ catalog_id: OWN, isrc: 'GBNWR2400001', name: 'Second', album: 'A', lyrics: null, artists: expect.any(Map), from: expect.any(Map) }]]);
    // Kai is the older "Luna Waves" but out of reach: Luna is credited, and the unknown name joins Nora's roster.
    expect(fake.rosterArtists).toEqual([[NORA, ['Brand New']]]);
    expect(fake.credited.map((c) => c.artistId)).toEqual([LUNA, 'new:Brand New']);
    expect(songs.map((s) => [s.catalog_id, s.isrc, s.name])).toEqual([[OWN, 'GBNWR2400001', 'Second']]);
  });
});

describe('CatalogService.songs (fake repository, no database)', () => {
  it('decides 404 for a missing catalog and 403 for an unreachable one from the one read', async () => {
    const service = new CatalogService(fakeStore().store, access, loaders());
    const input = { page: 1, limit: 20 };
    await expect(service.songs(nora, { catalog_id: MISSING, ...input })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(service.songs(nora, { catalog_id: FOREIGN, ...input })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(service.songs(nora, { catalog_id: OWN, ...input })).resolves.toEqual({
      items: [],
      pagination: { totalCount: 0, page: 1, limit: 20, totalPages: 0 },
      pageInfo: { endCursor: null, hasNextPage: false },
    });
  });
});
