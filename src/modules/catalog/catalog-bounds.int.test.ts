import { as } from '../../../test/demo';
import { createTestApp, TestApp } from '../../../test/app';

const TABLES = ['accounts', 'roster_entries', 'catalogs', 'account_catalogs', 'catalog_songs', 'catalog_song_artists'];
const ROSTER_MAX = 150;

/** Issue 30 finding 2 (growth): what one catalog-songs write may create, and the per-song credit bound. */
describe('bounds on what a catalog-songs write creates (real PostgreSQL)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { ROSTER_MAX_ARTISTS: String(ROSTER_MAX) } });
  });
  afterAll(async () => {
    await t.close();
  });

  const snapshot = async () => {
    const conn = t.orm.em.getConnection();
    const out: Record<string, unknown> = {};
    for (const table of TABLES) out[table] = (await conn.execute(`select count(*)::int as n, md5(coalesce(string_agg(x::text, ',' order by x::text), '')) as digest from ${table} x`))[0];
    return out;
  };
  const newCatalog = async (who: Record<string, string>, name: string) => {
    const res = await t.http().post('/api/catalogs').set(who).send({ name });
    expect(res.status).toBe(200);
    return res.body.catalog.id as string;
  };
  const names = (prefix: string, n: number, from = 0) => Array.from({ length: n }, (_, i) => `${prefix} ${from + i}`);
  const isrc = (n: number) => `QZBND${String(n).padStart(7, '0')}`;
  const creditsOf = async (catalogId: string, code: string) =>
    (await t.orm.em.getConnection().execute(
      `select count(*)::int as n from catalog_song_artists csa join catalog_songs cs on cs.id = csa.catalog_song_id where cs.catalog_id = ? and cs.isrc = ?`,
      [catalogId, code],
    ))[0].n as number;
  const rosterOf = async (accountKey: Record<string, string>) => {
    const me = await t.http().get('/api/accounts/me').set(accountKey);
    return (await t.orm.em.getConnection().execute('select count(*)::int as n from roster_entries where owner_id = ?', [me.body.account.id]))[0].n as number;
  };

  it('500 songs × 50 new artist names (25 000 artists) is a 400 naming the item past the bound, and creates nothing', async () => {
    const catalogId = await newCatalog(as.nora, 'Mass artists');
    const before = await snapshot();
    const songs = Array.from({ length: 500 }, (_, i) => ({ catalog_id: catalogId, isrc: isrc(i), name: `Song ${i}`, artists: names(`Mass ${i}`, 50) }));
    const res = await t.http().post('/api/catalogs/songs').set(as.nora).send({ songs });
    expect(res.status).toBe(400);
    // The 101st new name (CATALOG_MAX_NEW_ARTISTS_PER_WRITE, 100) is the first of songs[2].
    expect(res.body).toMatchObject({ status: 'error', code: 'BAD_USER_INPUT', details: [{ field: 'songs[2].artists', message: expect.stringContaining('more than 100 new artists') }] });
    expect(await snapshot()).toEqual(before);
  });

  it('500 items of one ISRC with 50 names each (25 000 credits) is a 400 naming the item past 50 credits, and writes nothing', async () => {
    const catalogId = await newCatalog(as.nora, 'Mass credits');
    const before = await snapshot();
    const songs = Array.from({ length: 500 }, (_, i) => ({ catalog_id: catalogId, isrc: isrc(1), name: 'One song', artists: names(`Credit ${i}`, 50) }));
    const res = await t.http().post('/api/catalogs/songs').set(as.nora).send({ songs });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'BAD_USER_INPUT', details: [{ field: 'songs[1].artists', message: expect.stringContaining('more than 50 artists') }] });
    expect(await snapshot()).toEqual(before);
  });

  it('the same ISRC 500 times with the same names credits each name once', async () => {
    const catalogId = await newCatalog(as.nora, 'Repeated');
    const songs = Array.from({ length: 500 }, () => ({ catalog_id: catalogId, isrc: isrc(2), name: 'Repeated', artists: ['Echo One', 'echo one', 'Echo Two', 'ECHO THREE'] }));
    const res = await t.http().post('/api/catalogs/songs').set(as.nora).send({ songs });
    expect(res.status).toBe(200);
    expect(res.body.songs).toHaveLength(1);
    expect(res.body.songs[0].artists.map((a: { name: string }) => a.name).sort()).toEqual(['ECHO THREE', 'Echo One', 'Echo Two']);
    expect(await creditsOf(catalogId, isrc(2))).toBe(3);
  });

  it('a write at the bounds succeeds: 100 new artists, a song with 50 credits; one more credit later is a 400 and changes nothing', async () => {
    const catalogId = await newCatalog(as.sam, 'At the bound');
    const songs = [
      { catalog_id: catalogId, isrc: isrc(3), name: 'Full', artists: names('Bound', 50) },
      { catalog_id: catalogId, isrc: isrc(4), name: 'Other', artists: names('Bound', 50, 50) },
    ];
    const res = await t.http().post('/api/catalogs/songs').set(as.sam).send({ songs });
    expect(res.status).toBe(200);
    expect(res.body.songs.map((s: { artists: unknown[] }) => s.artists.length)).toEqual([50, 50]);
    expect(await creditsOf(catalogId, isrc(3))).toBe(50);

    const before = await snapshot();
    const more = await t.http().post('/api/catalogs/songs').set(as.sam).send({ songs: [{ catalog_id: catalogId, isrc: isrc(3), artists: ['Bound 0', 'Bound 99'] }] });
    expect(more.status).toBe(400);
    expect(more.body).toMatchObject({ code: 'BAD_USER_INPUT', details: [{ field: 'songs[0].artists', message: expect.stringContaining('more than 50 artists') }] });
    expect(await snapshot()).toEqual(before);
    // Names the song has already are no new credits: re-posting them is fine.
    const same = await t.http().post('/api/catalogs/songs').set(as.sam).send({ songs: [{ catalog_id: catalogId, isrc: isrc(3), artists: ['Bound 0', 'bound 49'] }] });
    expect(same.status).toBe(200);
    expect(await creditsOf(catalogId, isrc(3))).toBe(50);
  });

  it('the same over GraphQL: BAD_USER_INPUT naming songs[i].artists, nothing written', async () => {
    const catalogId = await newCatalog(as.nora, 'Graph bound');
    const before = await snapshot();
    const songs = Array.from({ length: 3 }, (_, i) => ({ catalogId: catalogId, isrc: isrc(10 + i), name: 'G', artists: names(`Graph ${i}`, 50) }));
    const res = await t.graphql('mutation($s: [CatalogSongInput!]!) { addCatalogSongs(input: { songs: $s }) { isrc } }', { s: songs }, as.nora);
    expect(res.body.errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', details: [{ field: 'songs[2].artists' }] });
    expect(await snapshot()).toEqual(before);
  });

  it('a GraphQL write is weighed by the songs it posts (the bounds survive into the served subgraph schema)', async () => {
    const catalogId = await newCatalog(as.sam, 'Weighed write');
    const add = 'mutation($s: [CatalogSongInput!]!) { addCatalogSongs(input: { songs: $s }) { isrc artists { name } } }';
    const one = (n: number) => ({ s: [{ catalogId: catalogId, isrc: isrc(500 + n), name: 'Weighed' }] });
    const first = await t.graphql(add, one(1), as.sam);
    const second = await t.graphql(add, one(2), as.sam);
    expect(second.body.errors).toBeUndefined();
    // One song with at most 50 artists: 1 point (as 500 songs it would weigh 251, refused past GRAPHQL_MAX_COST only above that).
    expect(Number(first.headers['ratelimit-remaining']) - Number(second.headers['ratelimit-remaining'])).toBe(1);
    const page = await t.graphql(`{ catalog(id: "${catalogId}") { songs(limit: 100) { items { artists { name } } } } }`, {}, as.sam);
    // 100 songs × 50 artists (Song.artists' declared bound) = 5 100 objects: 1 + 51, charged up front; the page holds
    // two songs without artists, so it settles on its root field and gives the rest back.
    expect(page.body.extensions.cost).toMatchObject({ requestedQueryCost: 52, actualQueryCost: 1 });
    expect(Number(second.headers['ratelimit-remaining']) - Number(page.headers['ratelimit-remaining'])).toBe(1);
  });

  it('a roster at ROSTER_MAX_ARTISTS takes no new artist, from a catalog write or POST /api/artists', async () => {
    const catalogId = await newCatalog(as.otto, 'Roster');
    const start = await rosterOf(as.otto);
    const fill = ROSTER_MAX - start;
    for (let done = 0; done < fill; done += 50) {
      const n = Math.min(50, fill - done);
      const res = await t.http().post('/api/catalogs/songs').set(as.otto).send({ songs: [{ catalog_id: catalogId, isrc: isrc(100 + done), name: 'Fill', artists: names('Roster', n, done) }] });
      expect(res.status).toBe(200);
    }
    expect(await rosterOf(as.otto)).toBe(ROSTER_MAX);
    const before = await snapshot();
    const write = await t.http().post('/api/catalogs/songs').set(as.otto).send({ songs: [{ catalog_id: catalogId, isrc: isrc(99), name: 'Over', artists: ['Roster 0', 'One Too Many'] }] });
    expect(write.status).toBe(400);
    expect(write.body.details).toEqual([{ field: 'songs[0].artists', message: expect.stringContaining(`more than ${ROSTER_MAX} artists on the roster`) }]);
    const create = await t.http().post('/api/artists').set(as.otto).send({ name: 'One Too Many' });
    expect(create.status).toBe(400);
    expect(create.body.details).toEqual([{ field: 'name', message: expect.stringContaining(`more than ${ROSTER_MAX} artists`) }]);
    expect(await snapshot()).toEqual(before);
    // Credits of artists already on the roster still go through.
    const known = await t.http().post('/api/catalogs/songs').set(as.otto).send({ songs: [{ catalog_id: catalogId, isrc: isrc(99), name: 'Known', artists: ['Roster 0'] }] });
    expect(known.status).toBe(200);
  });
});
