import { createTestApp, TestApp } from '../app';
import { as } from '../demo';

/**
 * Issue 30 finding 2 in the hostile suite: cheap writes that used to grow lists without bound
 * (one 1-point POST creating 25 000 artists, or one song 25 000 credits) are 400s naming the field
 * and write nothing, over REST and GraphQL, and concurrent writes cannot pass a cap together.
 */
describe('hostile growth: mass-artist and mass-credit writes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { ROSTER_MAX_ARTISTS: '60' } });
  });
  afterAll(async () => {
    await t.close();
  });

  const count = async (table: string) => (await t.orm.em.getConnection().execute(`select count(*)::int as n from ${table}`))[0].n as number;
  const counts = async () => ({ accounts: await count('accounts'), roster: await count('roster_entries'), entries: await count('catalog_songs'), credits: await count('catalog_song_artists') });
  const newCatalog = async (who: Record<string, string>) => (await t.http().post('/api/catalogs').set(who).send({ name: 'Hostile growth' })).body.catalog.id as string;
  const names = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix} ${i}`);

  it('500 songs × 50 new names over REST and GraphQL: 400 naming songs[i].artists, no account, roster entry, song or credit written', async () => {
    const catalogId = await newCatalog(as.nora);
    const songs = Array.from({ length: 500 }, (_, i) => ({ catalog_id: catalogId, isrc: `QZHST${String(i).padStart(7, '0')}`, name: `S${i}`, artists: names(`Flood ${i}`, 50) }));
    const before = await counts();
    const rest = await t.http().post('/api/catalogs/songs').set(as.nora).send({ songs });
    expect(rest.status).toBe(400);
    expect(rest.body.details).toEqual([{ field: expect.stringMatching(/^songs\[\d+\]\.artists$/), message: expect.any(String) }]);
    expect(JSON.stringify(rest.body)).not.toMatch(/insert|select|stack|at \w+ \(/i);
    // The same songs as GraphQL names their fields.
    const graphSongs = songs.map(({ catalog_id, ...song }) => ({ ...song, catalogId: catalog_id }));
    const graph = await t.graphql('mutation($s: [CatalogSongInput!]!) { addCatalogSongs(input: { songs: $s }) { isrc } }', { s: graphSongs }, as.nora);
    expect(graph.body.errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', details: [{ field: expect.stringMatching(/^songs\[\d+\]\.artists$/) }] });
    expect(await counts()).toEqual(before);
  });

  it('500 items of one ISRC with 50 names each: 400 naming songs[1].artists, nothing written; 500 copies of the same names credit once', async () => {
    const catalogId = await newCatalog(as.nora);
    const before = await counts();
    const spread = Array.from({ length: 500 }, (_, i) => ({ catalog_id: catalogId, isrc: 'QZHST9000001', name: 'One', artists: names(`Spread ${i}`, 50) }));
    const res = await t.http().post('/api/catalogs/songs').set(as.nora).send({ songs: spread });
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([{ field: 'songs[1].artists', message: expect.stringContaining('more than 50 artists') }]);
    expect(await counts()).toEqual(before);
    const same = Array.from({ length: 500 }, () => ({ catalog_id: catalogId, isrc: 'qz-hst-90-00001', name: 'One', artists: ['Same One', 'SAME ONE', 'same two'] }));
    const ok = await t.http().post('/api/catalogs/songs').set(as.nora).send({ songs: same });
    expect(ok.status).toBe(200);
    expect(ok.body.songs).toHaveLength(1);
    expect(await counts()).toEqual({ ...before, accounts: before.accounts + 2, roster: before.roster + 2, entries: before.entries + 1, credits: before.credits + 2 });
  });

  it('concurrent writes cannot pass a cap together: two 40-name writes on a 60-artist roster, two 30-credit writes on one song', async () => {
    const catalogId = await newCatalog(as.otto);
    const post = (songs: unknown[]) => t.http().post('/api/catalogs/songs').set(as.otto).send({ songs });
    const roster = await Promise.all([
      post([{ catalog_id: catalogId, isrc: 'QZHST9000010', name: 'A', artists: names('Race A', 40) }]),
      post([{ catalog_id: catalogId, isrc: 'QZHST9000011', name: 'B', artists: names('Race B', 40) }]),
    ]);
    expect(roster.map((r) => r.status).sort()).toEqual([200, 400]);
    const otto = (await t.http().get('/api/accounts/me').set(as.otto)).body.account.id as string;
    const held = (await t.orm.em.getConnection().execute('select count(*)::int as n from roster_entries where owner_id = ?', [otto]))[0].n as number;
    expect(held).toBeLessThanOrEqual(60);

    // Credits of artists on the roster already: only the song's bound (50) is at stake.
    const song = { catalog_id: catalogId, isrc: 'QZHST9000010', name: 'A' };
    const credits = await Promise.all([post([{ ...song, artists: names('Race A', 40).slice(0, 30) }]), post([{ ...song, artists: names('Race A', 40).slice(10, 40) }])]);
    expect(credits.every((r) => r.status === 200 || (r.status === 400 && r.body.details[0].field === 'songs[0].artists'))).toBe(true);
    const onSong = (await t.orm.em.getConnection().execute(
      `select count(*)::int as n from catalog_song_artists csa join catalog_songs cs on cs.id = csa.catalog_song_id where cs.catalog_id = ? and cs.isrc = 'QZHST9000010'`,
      [catalogId],
    ))[0].n as number;
    expect(onSong).toBeLessThanOrEqual(50);
  });
});
