import { as, DEMO, router } from '../../../test/demo';
import { createTestApp, TestApp } from '../../../test/app';
import { addSong, createAccount, createCatalog, createOrganization } from '../../../test/factories';
import { AddCatalogSongsDocument, CatalogGraphDocument, CatalogSongsDocument, MyArtistsCatalogsDocument, RemoveCatalogsDocument } from '../../../test/generated/graphql';

const SONG_KEYS = ['album', 'artists', 'catalog_id', 'isrc', 'lyrics', 'name', 'updated_at'];
const TABLES = ['accounts', 'roster_entries', 'catalogs', 'account_catalogs', 'catalog_songs', 'catalog_song_artists'];
/** Statements every request makes (API key look-up, its last-used stamp, the viewer, the rate-limit charge). */
const AUTH_SQL = /api_keys|array_agg\(m\.organization_id\)|rate_limit_counters/;

describe('catalogs and songs (real PostgreSQL)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  /** Row counts and a digest of every table these routes write: "nothing changed" means equal snapshots. */
  const snapshot = async () => {
    const conn = t.orm.em.getConnection();
    const out: Record<string, unknown> = {};
    for (const table of TABLES) {
      const [row] = await conn.execute(`select count(*)::int as n, md5(coalesce(string_agg(x::text, ',' order by x::text), '')) as digest from ${table} x`);
      out[table] = row;
    }
    return out;
  };
  const songsOf = async (catalogId: string, who = as.nora, query: Record<string, unknown> = {}) =>
    t.http().get('/api/catalogs/songs').query({ catalog_id: catalogId, ...query }).set(who);
  const newCatalog = async (name: string, who = as.nora, extra: Record<string, unknown> = {}) => {
    const res = await t.http().post('/api/catalogs').set(who).send({ name, ...extra });
    expect(res.status).toBe(200);
    return res.body.catalog.id as string;
  };

  describe('GET /api/catalogs/songs', () => {
    it('answers {status, songs, pagination} by ISRC; nested artists keep id, name and an integer timestamp', async () => {
      const res = await songsOf(DEMO.catalogNorthwind);
      expect(res.status).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual(['pagination', 'songs', 'status']);
      expect(res.body.status).toBe('success');
      expect(res.body).not.toHaveProperty('error');
      expect(res.body.pagination).toEqual({ total_count: 5, page: 1, limit: 20, total_pages: 1 });
      expect(res.body.songs.map((s: { isrc: string }) => s.isrc)).toEqual(['GBNWR2400001', 'GBNWR2400002', 'GBNWR2400003', 'USNWR2400004', 'USNWR2400005']);
      for (const song of res.body.songs) expect(Object.keys(song).sort()).toEqual(SONG_KEYS);
      const salt = res.body.songs[2];
      expect(salt).toEqual({
        catalog_id: DEMO.catalogNorthwind,
        isrc: 'GBNWR2400003',
        name: 'Salt & Static',
        album: 'Shoreline',
        lyrics: 'Salt & Static\n(demo lyrics)',
        updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        artists: [
          { id: expect.any(String), name: expect.any(String), timestamp: expect.any(Number) },
          { id: expect.any(String), name: expect.any(String), timestamp: expect.any(Number) },
        ],
      });
      expect(salt.artists.map((a: { name: string }) => a.name).sort()).toEqual(['Kai Rivers', 'Luna Waves']);
      for (const artist of salt.artists) {
        expect(Number.isInteger(artist.timestamp)).toBe(true);
        expect(Math.abs(artist.timestamp - Date.now() / 1000)).toBeLessThan(3600);
      }
      // The graph gives the same songs as a page of Song (credits named as the domain names them).
      const gql = await t.graphql(CatalogSongsDocument, { input: { catalogId: DEMO.catalogNorthwind } }, as.nora);
      const { items, pagination } = gql.body.data.catalogSongs;
      expect({ status: 'success', songs: items.map(({ credits, ...song }: { credits: unknown[] }) => ({ ...song, artists: credits })), pagination }).toEqual(res.body);
    });

    it('filters by artist name, case-insensitively', async () => {
      const luna = await songsOf(DEMO.catalogNorthwind, as.nora, { artistName: 'luna WAVES' });
      expect(luna.body.songs.map((s: { isrc: string }) => s.isrc)).toEqual(['GBNWR2400001', 'GBNWR2400002', 'GBNWR2400003']);
      expect(luna.body.pagination.total_count).toBe(3);
      // The filter keeps the song; its credits stay complete.
      expect(luna.body.songs[2].artists).toHaveLength(2);
      const kai = await songsOf(DEMO.catalogNorthwind, as.nora, { artistName: 'Kai Rivers' });
      expect(kai.body.songs.map((s: { isrc: string }) => s.isrc)).toEqual(['GBNWR2400003']);
      const none = await songsOf(DEMO.catalogNorthwind, as.nora, { artistName: 'Luna' });
      expect(none.body).toEqual({ status: 'success', songs: [], pagination: { total_count: 0, page: 1, limit: 20, total_pages: 0 } });
      const paged = await songsOf(DEMO.catalogNorthwind, as.nora, { artistName: 'Luna Waves', limit: 2, page: 2 });
      expect(paged.body.songs.map((s: { isrc: string }) => s.isrc)).toEqual(['GBNWR2400003']);
      expect(paged.body.pagination).toEqual({ total_count: 3, page: 2, limit: 2, total_pages: 2 });
    });

    it('pages at and beyond the edges; refuses limit 0 and 101, page 0 and bad ids', async () => {
      for (const [query, expected] of [
        [{ limit: 1 }, ['GBNWR2400001']],
        [{ limit: 100 }, ['GBNWR2400001', 'GBNWR2400002', 'GBNWR2400003', 'USNWR2400004', 'USNWR2400005']],
        [{ page: 1, limit: 2 }, ['GBNWR2400001', 'GBNWR2400002']],
        [{ page: 3, limit: 2 }, ['USNWR2400005']],
        [{ page: 4, limit: 2 }, []],
      ] as const) {
        const res = await songsOf(DEMO.catalogNorthwind, as.nora, query);
        expect({ query, status: res.status, isrcs: res.body.songs?.map((s: { isrc: string }) => s.isrc) }).toEqual({ query, status: 200, isrcs: expected });
      }
      const cases: [Record<string, unknown>, string, string][] = [
        [{ catalog_id: DEMO.catalogNorthwind, limit: 0 }, 'limit', 'must be at least 1'],
        [{ catalog_id: DEMO.catalogNorthwind, limit: 101 }, 'limit', 'must be at most 100'],
        [{ catalog_id: DEMO.catalogNorthwind, page: 0 }, 'page', 'must be at least 1'],
        [{ catalog_id: DEMO.catalogNorthwind, page: -1 }, 'page', 'must be at least 1'],
        [{ catalog_id: 'northwind' }, 'catalog_id', 'must be a UUID'],
        [{}, 'catalog_id', 'is required'],
      ];
      for (const [query, field, message] of cases) {
        const res = await t.http().get('/api/catalogs/songs').query(query).set(as.nora);
        expect({ query, status: res.status, body: res.body }).toEqual({
          query,
          status: 400,
          body: { status: 'error', code: 'BAD_USER_INPUT', error: expect.stringContaining(field), details: [{ field, message }] },
        });
      }
    });

    it('answers 401, then 400, then 404 for an unknown catalog and 403 for one the caller cannot reach', async () => {
      expect((await t.http().get('/api/catalogs/songs').query({ catalog_id: 'x' })).status).toBe(401);
      const unknown = await songsOf('00000000-0000-4000-8000-0000000000ff');
      expect(unknown.status).toBe(404);
      expect(unknown.body).toMatchObject({ status: 'error', code: 'NOT_FOUND', error: expect.any(String) });
      const refused = await songsOf(DEMO.catalogKai, as.nora);
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({ status: 'error', code: 'FORBIDDEN', error: expect.any(String) });
      expect((await songsOf(DEMO.catalogNorthwind, as.otto)).status).toBe(403);
      expect((await songsOf(DEMO.catalogKai, as.sam)).status).toBe(200);
      expect((await songsOf(DEMO.catalogKai, as.ada)).status).toBe(200);
      // The shared catalog is reachable from both organizations.
      expect((await songsOf(DEMO.catalogShared, as.nora)).body.pagination.total_count).toBe(3);
      expect((await songsOf(DEMO.catalogShared, as.sam)).body.pagination.total_count).toBe(3);
    });
  });

  describe('statements per request do not grow with the page size', () => {
    let catalogId: string;
    beforeAll(async () => {
      catalogId = await newCatalog('Perf catalog');
      const songs = Array.from({ length: 120 }, (_, i) => ({
        catalog_id: catalogId,
        isrc: `QZPRF26${String(i).padStart(5, '0')}`,
        name: `Perf song ${i}`,
        artists: ['Luna Waves', `Perf Artist ${i % 7}`],
      }));
      const res = await t.http().post('/api/catalogs/songs').set(as.nora).send({ songs });
      expect(res.status).toBe(200);
      expect(res.body.songs).toHaveLength(120);
      await songsOf(catalogId); // the key's last-used stamp is written at most once a minute: not in the figures
    });

    it('REST and GraphQL: pages of 20, 50 and 100 songs cost the same; the root read is 1 statement besides authentication, the graph at most 3', async () => {
      const counts: Record<string, number> = {};
      for (const limit of [20, 50, 100]) {
        const rest = await t.sql.measure(() => songsOf(catalogId, as.nora, { limit }));
        expect(rest.result.body.songs).toHaveLength(limit);
        expect(rest.result.body.songs.every((s: { artists: unknown[] }) => s.artists.length === 2)).toBe(true);
        counts[`rest ${limit}`] = rest.statements.filter((s) => !AUTH_SQL.test(s)).length;

        const envelope = await t.sql.measure(() => t.graphql(CatalogSongsDocument, { input: { catalogId: catalogId, limit } }, as.nora));
        expect(envelope.result.body.data.catalogSongs.items).toHaveLength(limit);
        counts[`graphql catalogSongs ${limit}`] = envelope.statements.filter((s) => !AUTH_SQL.test(s)).length;

        const graph = await t.sql.measure(() => t.graphql(CatalogGraphDocument, { id: catalogId, limit }, as.nora));
        expect(graph.result.body.data.catalog.songs.items).toHaveLength(limit);
        expect(graph.result.body.data.catalog.songs.items[0].artists).toHaveLength(2);
        counts[`graphql catalog.songs.artists ${limit}`] = graph.statements.filter((s) => !AUTH_SQL.test(s)).length;
      }
      const byPath = (prefix: string) => [20, 50, 100].map((limit) => counts[`${prefix} ${limit}`]);
      expect(byPath('rest')).toEqual([1, 1, 1]);
      expect(byPath('graphql catalogSongs')).toEqual([1, 1, 1]);
      const graph = byPath('graphql catalog.songs.artists');
      expect(new Set(graph).size).toBe(1);
      expect(graph[0]).toBeLessThanOrEqual(3);
    });

    it('a roster query for every catalog with its songs and their artists stays flat too', async () => {
      const run = await t.sql.measure(() => t.graphql(MyArtistsCatalogsDocument, {}, as.nora));
      expect(run.result.body.errors).toBeUndefined();
      const luna = run.result.body.data.artists.items.find((a: { id: string }) => a.id === DEMO.luna);
      expect(luna.catalogs.items.map((c: { name: string }) => c.name)).toEqual(['Northwind Masters', 'Perf catalog', 'Shared Sync Catalog']);
      const shared = luna.catalogs.items.find((c: { name: string }) => c.name === 'Shared Sync Catalog');
      expect(shared.accounts.items.map((a: { name: string }) => a.name)).toEqual(['Northwind Records', 'Southside Management']);
      const spree = shared.songs.items.find((s: { isrc: string }) => s.isrc === 'DEKAI2400006');
      expect(spree.artists).toEqual([{ id: DEMO.kai, name: 'Kai Rivers' }]);
      // Spree Nights is also in Kai's catalog, which Nora cannot reach: it is not shown.
      expect(spree.catalogs).toEqual({ items: [{ id: DEMO.catalogShared }] });
      // Roster, access, catalog ids, catalog rows, accounts, songs, credits, song catalogs: a constant, not per row.
      expect(run.statements.filter((s) => !AUTH_SQL.test(s)).length).toBeLessThanOrEqual(10);
    });
  });

  describe('POST /api/catalogs/songs', () => {
    it('upserts by normalized ISRC, credits artists by name (new names become artists on the caller roster)', async () => {
      const catalogId = await newCatalog('Upserts');
      const first = await t.http().post('/api/catalogs/songs').set(as.nora).send({
        songs: [{ catalog_id: catalogId, isrc: 'gb-nwr-26-00077', name: 'Harbour', album: 'Docks', artists: ['luna waves', 'Brand New Act'] }],
      });
      expect(first.status).toBe(200);
      expect(first.body).toEqual({
        status: 'success',
        songs: [
          {
            catalog_id: catalogId,
            isrc: 'GBNWR2600077',
            name: 'Harbour',
            album: 'Docks',
            lyrics: null,
            updated_at: expect.any(String),
            artists: [
              { id: expect.any(String), name: expect.any(String), timestamp: expect.any(Number) },
              { id: expect.any(String), name: expect.any(String), timestamp: expect.any(Number) },
            ],
          },
        ],
      });
      const credited = first.body.songs[0].artists;
      expect(credited.find((a: { name: string }) => a.name === 'Luna Waves').id).toBe(DEMO.luna);
      const newAct = credited.find((a: { name: string }) => a.name === 'Brand New Act');
      const roster = await t.http().get('/api/artists').query({ account_id: DEMO.nora }).set(as.nora);
      expect(roster.body.artists.map((a: { id: string }) => a.id)).toContain(newAct.id);

      const again = await t.graphql(
        AddCatalogSongsDocument,
        { input: { songs: [{ catalogId: catalogId, isrc: 'GBNWR2600077', name: 'Harbour (remaster)', artists: ['BRAND NEW ACT'] }] } },
        as.nora,
      );
      expect(again.body.errors).toBeUndefined();
      expect(again.body.data.addCatalogSongs[0]).toMatchObject({ isrc: 'GBNWR2600077', name: 'Harbour (remaster)' });
      expect(again.body.data.addCatalogSongs[0].credits.map((a: { id: string }) => a.id).sort()).toEqual([DEMO.luna, newAct.id].sort());
      const listed = await songsOf(catalogId);
      expect(listed.body.songs).toHaveLength(1);
      expect(listed.body.songs[0]).toMatchObject({ name: 'Harbour (remaster)', album: 'Docks' });
    });

    it('refuses bad input, unknown and unreachable catalogs, changing nothing', async () => {
      const catalogId = await newCatalog('Guarded');
      const before = await snapshot();
      const good = { catalog_id: catalogId, isrc: 'GBNWR2600088', name: 'Fine' };
      const cases: [unknown, number, string | undefined][] = [
        [{ songs: [] }, 400, 'songs'],
        [{}, 400, 'songs'],
        [{ songs: [{ ...good, isrc: 'GBNWR26000' }] }, 400, 'songs[0].isrc'],
        [{ songs: [{ ...good, isrc: '1BNWR2600088' }] }, 400, 'songs[0].isrc'],
        [{ songs: [good, { ...good, isrc: 'GBNWR260008X' }] }, 400, 'songs[1].isrc'],
        [{ songs: [{ ...good, catalog_id: 'abc' }] }, 400, 'songs[0].catalog_id'],
        [{ songs: [{ ...good, isrc: 'GBNWR2600089', name: undefined }] }, 400, 'songs[0].name'],
        [{ songs: [{ ...good, artists: [''] }] }, 400, 'songs[0].artists[0]'],
        [{ songs: [good, { ...good, catalog_id: '00000000-0000-4000-8000-0000000000ff' }] }, 404, undefined],
        [{ songs: [good, { ...good, catalog_id: DEMO.catalogKai }] }, 403, undefined],
      ];
      for (const [body, status, field] of cases) {
        const res = await t.http().post('/api/catalogs/songs').set(as.nora).send(body as object);
        expect({ body, status: res.status, field: res.body.details?.[0]?.field, shape: res.body.status }).toEqual({ body, status, field, shape: 'error' });
      }
      expect((await t.http().post('/api/catalogs/songs').set(as.otto).send({ songs: [good] })).status).toBe(403);
      expect(await snapshot()).toEqual(before);
    });
  });

  describe('DELETE /api/catalogs/songs', () => {
    it('removes songs and answers the songs left in each affected catalog; another account is refused', async () => {
      const catalogId = await newCatalog('Trim me');
      const isrcs = ['GBNWR2600101', 'GBNWR2600102', 'GBNWR2600103'];
      await t.http().post('/api/catalogs/songs').set(as.nora).send({ songs: isrcs.map((isrc) => ({ catalog_id: catalogId, isrc, name: isrc, artists: ['Luna Waves'] })) });

      const before = await snapshot();
      expect((await t.http().delete('/api/catalogs/songs').set(as.sam).send({ songs: [{ catalog_id: catalogId, isrc: isrcs[0] }] })).status).toBe(403);
      expect((await t.http().delete('/api/catalogs/songs').set(as.nora).send({ songs: [] })).status).toBe(400);
      expect((await t.http().delete('/api/catalogs/songs').set(as.nora).send({ songs: [{ catalog_id: catalogId, isrc: 'nope' }] })).status).toBe(400);
      expect(await snapshot()).toEqual(before);

      const res = await t.http().delete('/api/catalogs/songs').set(as.nora).send({ songs: [{ catalog_id: catalogId, isrc: 'gb-nwr-26-00102' }] });
      expect(res.status).toBe(200);
      expect(res.body.status).toBe('success');
      expect(res.body.songs.map((s: { isrc: string }) => s.isrc)).toEqual(['GBNWR2600101', 'GBNWR2600103']);
      expect(res.body.songs[0].artists).toEqual([{ id: DEMO.luna, name: 'Luna Waves', timestamp: expect.any(Number) }]);
    });
  });

  describe('GET and POST /api/catalogs', () => {
    it('lists the caller catalogs (or account_id), creates and links', async () => {
      const mine = await t.http().get('/api/catalogs').set(as.sam);
      expect(mine.body).toEqual({ status: 'success', catalogs: [] });
      const org = await t.http().get('/api/catalogs').query({ account_id: DEMO.southside }).set(as.sam);
      expect(org.body.catalogs.map((c: { name: string }) => c.name)).toEqual(['Kai Rivers Singles', 'Shared Sync Catalog']);
      expect(Object.keys(org.body.catalogs[0]).sort()).toEqual(['created_at', 'id', 'name', 'updated_at']);
      expect((await t.http().get('/api/catalogs').query({ account_id: DEMO.southside }).set(as.nora)).status).toBe(403);

      const created = await t.http().post('/api/catalogs').set(as.sam).send({ name: 'Sam Sketches' });
      expect(created.body).toEqual({ status: 'success', catalog: { id: expect.any(String), name: 'Sam Sketches', created_at: expect.any(String), updated_at: expect.any(String) } });
      const linked = await t.http().post('/api/catalogs').set(as.sam).send({ catalog_id: DEMO.catalogKai });
      expect(linked.status).toBe(200);
      expect(linked.body.catalog.id).toBe(DEMO.catalogKai);
      const now = await t.http().get('/api/catalogs').set(as.sam);
      expect(now.body.catalogs.map((c: { name: string }) => c.name)).toEqual(['Kai Rivers Singles', 'Sam Sketches']);
    });

    it('refuses bad input and catalogs or accounts out of reach, changing nothing', async () => {
      const before = await snapshot();
      expect((await t.http().post('/api/catalogs').set(as.otto).send({ catalog_id: DEMO.catalogKai })).status).toBe(403);
      expect((await t.http().post('/api/catalogs').set(as.otto).send({ name: 'X', account_id: DEMO.nora })).status).toBe(403);
      expect((await t.http().post('/api/catalogs').set(as.otto).send({ catalog_id: '00000000-0000-4000-8000-0000000000ff' })).status).toBe(404);
      expect((await t.http().post('/api/catalogs').set(as.otto).send({ name: 'X', catalog_id: DEMO.catalogKai })).status).toBe(400);
      expect((await t.http().post('/api/catalogs').set(as.otto).send({})).status).toBe(400);
      expect((await t.http().post('/api/catalogs').set(as.otto).send({ name: '' })).body.details).toEqual([{ field: 'name', message: 'must not be empty' }]);
      expect(await snapshot()).toEqual(before);
    });
  });

  describe('DELETE /api/catalogs', () => {
    it('a shared catalog survives its first unlink; the last unlink deletes it and the songs only it held', async () => {
      const before = await songsOf(DEMO.catalogShared, as.sam);
      expect(before.body.songs.map((s: { isrc: string }) => s.isrc)).toEqual(['DEKAI2400006', 'GBNWR2400001', 'GBNWR2400003']);
      const exclusive = 'GBNWR2600999';
      expect((await t.http().post('/api/catalogs/songs').set(as.sam).send({ songs: [{ catalog_id: DEMO.catalogShared, isrc: exclusive, name: 'Only here', artists: ['Kai Rivers'] }] })).status).toBe(200);

      const first = await t.http().delete('/api/catalogs').set(as.nora).send({ catalogs: [{ catalog_id: DEMO.catalogShared, account_id: DEMO.northwind }] });
      expect(first.status).toBe(200);
      expect(first.body.status).toBe('success');
      expect(first.body.catalogs.map((c: { id: string }) => c.id)).not.toContain(DEMO.catalogShared);
      expect((await songsOf(DEMO.catalogShared, as.nora)).status).toBe(403);
      expect((await songsOf(DEMO.catalogShared, as.sam)).body.pagination.total_count).toBe(4);

      const last = await t.graphql(RemoveCatalogsDocument, { input: { catalogs: [{ catalogId: DEMO.catalogShared, accountId: DEMO.southside }] } }, as.sam);
      expect(last.body.errors).toBeUndefined();
      expect(last.body.data.removeCatalogs.map((c: { id: string }) => c.id)).toEqual([DEMO.catalogKai]);
      expect((await songsOf(DEMO.catalogShared, as.ada)).status).toBe(404);
      const conn = t.orm.em.getConnection();
      expect(await conn.execute('select isrc from catalog_songs where isrc = ?', [exclusive])).toEqual([]);
      expect(await conn.execute('select id from catalog_songs where catalog_id = ?', [DEMO.catalogShared])).toEqual([]);
      // Entries of the same ISRCs in other catalogs survive, with their credits.
      expect((await conn.execute(`select distinct isrc from catalog_songs where isrc in ('DEKAI2400006', 'GBNWR2400001', 'GBNWR2400003') order by isrc`)).length).toBe(3);
      expect((await songsOf(DEMO.catalogKai, as.sam)).body.songs.map((s: { isrc: string }) => s.isrc)).toContain('DEKAI2400006');
    });

    it('refuses the whole request when one pair names an account out of reach; a missing link changes nothing', async () => {
      const before = await snapshot();
      const refused = await t.http().delete('/api/catalogs').set(as.nora).send({
        catalogs: [
          { catalog_id: DEMO.catalogNorthwind, account_id: DEMO.nora },
          { catalog_id: DEMO.catalogKai, account_id: DEMO.southside },
        ],
      });
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({ status: 'error', code: 'FORBIDDEN', error: expect.any(String) });
      for (const body of [{ catalogs: [] }, { catalogs: [{ catalog_id: 'x', account_id: DEMO.nora }] }, { catalogs: [{ catalog_id: DEMO.catalogNorthwind }] }]) {
        expect((await t.http().delete('/api/catalogs').set(as.nora).send(body)).status).toBe(400);
      }
      expect(await snapshot()).toEqual(before);
      const noop = await t.http().delete('/api/catalogs').set(as.otto).send({ catalogs: [{ catalog_id: DEMO.catalogNorthwind, account_id: DEMO.otto }] });
      expect(noop.body).toEqual({ status: 'success', catalogs: [] });
      expect(await snapshot()).toEqual(before);
    });
  });

  describe('the graph', () => {
    it('resolves Catalog and Song references; a catalog out of reach resolves to null', async () => {
      const res = await t.graphql(
        'query($r: [_Any!]!) { _entities(representations: $r) { ... on Catalog { id name } ... on Song { isrc name } } }',
        {
          r: [
            { __typename: 'Catalog', id: DEMO.catalogNorthwind },
            { __typename: 'Catalog', id: DEMO.catalogKai },
            { __typename: 'Song', isrc: 'gb-nwr-24-00002' },
            { __typename: 'Song', isrc: 'ZZZZZ0000000' },
          ],
        },
        { ...as.nora, ...router },
      );
      expect(res.body.data._entities).toEqual([
        { id: DEMO.catalogNorthwind, name: 'Northwind Masters' },
        null,
        { isrc: 'GBNWR2400002', name: 'Paper Moons' },
        null,
      ]);
      const song = await t.graphql('{ song(isrc: "GBNWR2400003") { name artists { name } catalogs { items { name } } } }', {}, as.nora);
      expect(song.body.data.song).toEqual({ name: 'Salt & Static', artists: [{ name: 'Kai Rivers' }, { name: 'Luna Waves' }], catalogs: { items: [{ name: 'Northwind Masters' }] } });
      const refused = await t.graphql(CatalogGraphDocument, { id: DEMO.catalogKai }, as.nora);
      expect(refused.body.errors[0].extensions.code).toBe('FORBIDDEN');
    });

    it("answers a Song reference's credits from the store, never from fields its representation carries", async () => {
      const forged = [{ id: DEMO.otto, name: 'Forged Credit', timestamp: 0 }];
      const res = await t.graphql(
        'query($r: [_Any!]!) { _entities(representations: $r) { ... on Song { isrc credits { name } } } }',
        { r: [{ __typename: 'Song', isrc: 'GBNWR2400002', credits: forged }] },
        { ...as.nora, ...router },
      );
      const stored = await t.graphql('{ song(isrc: "GBNWR2400002") { credits { name } } }', {}, as.nora);
      expect(stored.body.data.song.credits.length).toBeGreaterThan(0);
      expect(res.body.data._entities).toEqual([{ isrc: 'GBNWR2400002', credits: stored.body.data.song.credits }]);
    });

    it('keeps the relations of an artist out of reach empty when reached through a song', async () => {
      const res = await t.graphql('{ song(isrc: "GBNWR2400003") { artists { name socials { items { username } } songs { items { isrc } pagination { total_count: totalCount } } } } }', {}, as.nora);
      expect(res.body.errors).toBeUndefined();
      const [kai, luna] = res.body.data.song.artists;
      expect(kai).toEqual({ name: 'Kai Rivers', socials: { items: [] }, songs: { items: [], pagination: { total_count: 0 } } });
      expect(luna.socials.items.length).toBeGreaterThan(0);
      // The shared catalog was deleted above: no catalog Sam reaches holds the song any more.
      const asSam = await t.graphql('{ song(isrc: "GBNWR2400003") { artists { name socials { items { username } } } } }', {}, as.sam);
      expect(asSam.body.errors.map((e: { extensions: { code: string } }) => e.extensions.code)).toEqual(['NOT_FOUND']);
      const kaiAsSam = await t.graphql('{ song(isrc: "DEKAI2400007") { artists { name socials { items { username } } } } }', {}, as.sam);
      expect(kaiAsSam.body.data.song.artists[0].socials.items.map((s: { username: string }) => s.username)).toEqual(['kairivers', 'kairivers']);
    });
  });

  describe('indexes', () => {
    it('serve the artist-name filter and the catalog page without scanning whole tables', async () => {
      const plan = await t.orm.em.fork().transactional(async (em) => {
        const conn = em.getConnection();
        const ctx = em.getTransactionContext();
        await conn.execute('set local enable_seqscan = off', [], 'run', ctx);
        const rows = await conn.execute<{ 'QUERY PLAN': string }[]>(
          `explain select cs.isrc from catalog_songs cs where cs.catalog_id = ? and cs.id in
             (select csa.catalog_song_id from catalog_song_artists csa join accounts a on a.id = csa.artist_id where a.kind = 'artist' and lower(a.name) = ?)`,
          [DEMO.catalogNorthwind, 'luna waves'],
          'all',
          ctx,
        );
        return rows.map((r) => r['QUERY PLAN']).join('\n');
      });
      expect(plan).toContain('accounts_artist_lower_name_idx');
      expect(plan).toContain('catalog_song_artists_artist_idx');
      expect(plan).not.toMatch(/Seq Scan/);
    });
  });
});

describe('catalog links end with the membership they were made through (issue 30)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const link = (who: Record<string, string>, body: Record<string, unknown>) => t.http().post('/api/catalogs').set(who).send(body);
  const unlink = (who: Record<string, string>, catalogs: { catalog_id: string; account_id: string }[]) => t.http().delete('/api/catalogs').set(who).send({ catalogs });
  const removeMember = (who: Record<string, string>, org: string, member: string) => t.http().delete(`/api/organizations/${org}/members/${member}`).set(who);
  const songs = (who: Record<string, string>, catalog: string) => t.http().get('/api/catalogs/songs').query({ catalog_id: catalog }).set(who);
  const catalogIds = async (who: Record<string, string>) => (await t.http().get('/api/catalogs').set(who)).body.catalogs.map((c: { id: string }) => c.id);

  /** An organization with an owner and a member, its catalog holding one song with lyrics. */
  async function label() {
    const owner = await createAccount(t.orm, { name: 'Label Owner' });
    const member = await createAccount(t.orm, { name: 'Label Member' });
    const org = await createOrganization(t.orm, undefined, [owner.account.id, member.account.id]);
    const catalog = await createCatalog(t.orm, { linkedTo: [org.id] });
    const song = await addSong(t.orm, catalog.id, { name: 'Original', lyrics: 'label lyrics' });
    return { owner, member, org, catalog, song };
  }

  async function expectLockedOut(who: Record<string, string>, catalog: string, isrc: string) {
    expect((await songs(who, catalog)).status).toBe(403);
    const rename = await t.http().post('/api/catalogs/songs').set(who).send({ songs: [{ catalog_id: catalog, isrc, name: 'Renamed by ex-member' }] });
    expect(rename.status).toBe(403);
    expect(await catalogIds(who)).not.toContain(catalog);
  }

  it('a member who linked the organization’s catalog to himself loses it when removed; the removal answers the link', async () => {
    const { owner, member, org, catalog, song } = await label();
    expect((await link(member.headers, { catalog_id: catalog.id })).status).toBe(200);
    expect(await catalogIds(member.headers)).toContain(catalog.id);
    const removed = await removeMember(owner.headers, org.id, member.account.id);
    expect(removed.status).toBe(200);
    expect(removed.body.revoked.catalog_links).toEqual([{ catalog_id: catalog.id, account_id: member.account.id }]);
    await expectLockedOut(member.headers, catalog.id, song.isrc);
    // The organization keeps its catalog, unchanged.
    const kept = await songs(owner.headers, catalog.id);
    expect(kept.body.songs.map((s: { name: string; lyrics: string }) => [s.name, s.lyrics])).toEqual([['Original', 'label lyrics']]);
  });

  it('the same when the member leaves or the organization is deleted', async () => {
    const left = await label();
    await link(left.member.headers, { catalog_id: left.catalog.id });
    expect((await removeMember(left.member.headers, left.org.id, left.member.account.id)).body.revoked.catalog_links).toHaveLength(1);
    await expectLockedOut(left.member.headers, left.catalog.id, left.song.isrc);

    const gone = await label();
    await link(gone.member.headers, { catalog_id: gone.catalog.id });
    const deleted = await t.http().delete(`/api/organizations/${gone.org.id}`).set(gone.owner.headers);
    expect(deleted.body.catalog_links).toEqual([{ catalog_id: gone.catalog.id, account_id: gone.member.account.id }]);
    expect(deleted.body.deleted_catalogs).toEqual([gone.catalog.id]);
    expect((await songs(gone.member.headers, gone.catalog.id)).status).toBe(404);
  });

  it('a member’s own catalog shared with the organization leaves it with him; he keeps his catalog', async () => {
    const { owner, member, org } = await label();
    const own = await createCatalog(t.orm, { linkedTo: [member.account.id] });
    const own_song = await addSong(t.orm, own.id, { lyrics: 'member lyrics' });
    expect((await link(member.headers, { catalog_id: own.id, account_id: org.id })).status).toBe(200);
    expect((await songs(owner.headers, own.id)).status).toBe(200);
    const left = await removeMember(member.headers, org.id, member.account.id);
    expect(left.body.revoked.catalog_links).toEqual([{ catalog_id: own.id, account_id: org.id }]);
    await expectLockedOut(owner.headers, own.id, own_song.isrc);
    expect((await songs(member.headers, own.id)).body.songs).toHaveLength(1);
  });

  it('refuses links the caller may not make, changing nothing (403)', async () => {
    const { member, org } = await label();
    const colleague = await createAccount(t.orm, { organizations: [org.id] });
    const personal = await createCatalog(t.orm, { linkedTo: [colleague.account.id] });
    const otherOrg = await createOrganization(t.orm, undefined, [member.account.id]);
    const orgCatalog = (await createCatalog(t.orm, { linkedTo: [org.id] })).id;
    const own = await createCatalog(t.orm, { linkedTo: [member.account.id] });
    const before = await t.orm.em.fork().getConnection().execute(`select count(*)::int as n from account_catalogs`);
    for (const [body, why] of [
      // Reached only through a co-member's account: its owner must link it.
      [{ catalog_id: personal.id }, 'a co-member’s personal catalog'],
      // Linked to an account the caller does not act for.
      [{ catalog_id: own.id, account_id: colleague.account.id }, 'to a co-member'],
      // Between two organizations: it would hang on two memberships.
      [{ catalog_id: orgCatalog, account_id: otherOrg.id }, 'from one organization to another'],
    ] as const) {
      const res = await link(member.headers, body);
      expect([why, res.status, res.body.code]).toEqual([why, 403, 'FORBIDDEN']);
    }
    expect(await t.orm.em.fork().getConnection().execute(`select count(*)::int as n from account_catalogs`)).toEqual(before);
  });

  it('a link made through a membership cannot be laundered into a link of one’s own right', async () => {
    const { owner, member, org, catalog, song } = await label();
    const side = await createOrganization(t.orm, undefined, [member.account.id]);
    await link(member.headers, { catalog_id: catalog.id });
    // His link hangs on the membership: it is no ground to pass the catalog on to his other organization.
    expect((await link(member.headers, { catalog_id: catalog.id, account_id: side.id })).status).toBe(403);
    await removeMember(owner.headers, org.id, member.account.id);
    await expectLockedOut(member.headers, catalog.id, song.isrc);
  });

  it('the organization unlinks a link to its catalog made before these rules, even by an account it no longer reaches', async () => {
    const { owner, member, org, catalog, song } = await label();
    const conn = t.orm.em.fork().getConnection();
    // As the old POST /api/catalogs made it: no membership recorded, then the member was removed.
    await conn.execute(`insert into account_catalogs (id, account_id, catalog_id, created_at, updated_at) values (gen_random_uuid(), ?, ?, now(), now())`, [
      member.account.id,
      catalog.id,
    ]);
    await removeMember(owner.headers, org.id, member.account.id);
    expect((await songs(member.headers, catalog.id)).status).toBe(200);
    const unlinked = await unlink(owner.headers, [{ catalog_id: catalog.id, account_id: member.account.id }]);
    expect(unlinked.status).toBe(200);
    await expectLockedOut(member.headers, catalog.id, song.isrc);
    // The ex-member cannot do the same to the organization's older link.
    const refused = await unlink(member.headers, [{ catalog_id: catalog.id, account_id: org.id }]);
    expect(refused.status).toBe(403);
    expect((await songs(owner.headers, catalog.id)).status).toBe(200);
  });
});
