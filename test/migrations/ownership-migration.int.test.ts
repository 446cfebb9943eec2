import { scratchDatabase, ScratchDatabase } from './scratch';

/**
 * Migration20261123100000_Ownership on data written before it: every catalog holding an ISRC
 * keeps showing the song's values and credits, and every artist keeps its social profiles.
 */
describe('ownership migration keeps the meaning of existing data', () => {
  let db: ScratchDatabase;
  const exec = <T = Record<string, unknown>>(sql: string, bindings: unknown[] = []) => db.exec<T>(sql, bindings);

  const id = (n: number) => `00000000-0000-4000-a000-${String(n).padStart(12, '0')}`;
  const [orgA, orgB, artistX, artistY, catalog1, catalog2] = [1, 2, 3, 4, 5, 6].map(id);
  const t0 = '2026-01-01T00:00:00.000Z';
  const t1 = '2026-02-01T00:00:00.000Z';
  const t2 = '2026-03-01T00:00:00.000Z';
  const epoch = (iso: string) => Date.parse(iso) / 1000;

  beforeAll(async () => {
    db = await scratchDatabase();
    await db.up('Migration20261121050000_RenderRuns');

    await exec(`insert into accounts (id, kind, name, created_at, updated_at) values
      (?, 'organization', 'Org A', now(), now()), (?, 'organization', 'Org B', now(), now()),
      (?, 'artist', 'Artist X', now(), now()), (?, 'artist', 'Artist Y', now(), now())`, [orgA, orgB, artistX, artistY]);
    await exec(`insert into catalogs (id, name, created_at, updated_at) values (?, 'One', now(), now()), (?, 'Two', now(), now())`, [catalog1, catalog2]);
    await exec(`insert into account_catalogs (id, account_id, catalog_id, created_at, updated_at) values (?, ?, ?, now(), now()), (?, ?, ?, now(), now())`, [
      id(11), orgA, catalog1, id(12), orgB, catalog2,
    ]);
    await exec(`insert into songs (isrc, name, album, lyrics, created_at, updated_at) values
      ('QZAAA2600001', 'Shared song', 'Album', 'words', ?, ?),
      ('QZAAA2600002', 'Only in one', null, null, ?, ?),
      ('QZAAA2600003', 'In no catalog', null, 'orphan', ?, ?)`, [t0, t1, t0, t2, t0, t0]);
    await exec(`insert into catalog_songs (id, catalog_id, song_isrc, created_at, updated_at) values
      (?, ?, 'QZAAA2600001', now(), now()), (?, ?, 'QZAAA2600001', now(), now()), (?, ?, 'QZAAA2600002', now(), now())`, [
      id(21), catalog1, id(22), catalog2, id(23), catalog1,
    ]);
    await exec(`insert into song_artists (id, song_isrc, artist_id, created_at, updated_at) values
      (?, 'QZAAA2600001', ?, ?, ?), (?, 'QZAAA2600001', ?, ?, ?), (?, 'QZAAA2600003', ?, ?, ?)`, [
      id(31), artistX, t0, t0, id(32), artistY, t1, t1, id(33), artistX, t0, t0,
    ]);
    await exec(`insert into socials (id, profile_url, username, avatar, bio, follower_count, following_count, region, created_at, updated_at) values
      (?, 'https://social.test/shared', 'shared', 'a.png', 'bio', 10, 1, 'GB', ?, ?),
      (?, 'https://social.test/x-only', 'xonly', null, null, 5, null, null, ?, ?),
      (?, 'https://social.test/unlinked', 'nobody', null, null, null, null, null, ?, ?)`, [id(41), t0, t1, id(42), t0, t0, id(43), t0, t0]);
    await exec(`insert into account_socials (id, account_id, social_id, created_at, updated_at) values
      (?, ?, ?, ?, ?), (?, ?, ?, ?, ?), (?, ?, ?, ?, ?)`, [id(51), artistX, id(41), t0, t0, id(52), artistY, id(41), t1, t1, id(53), artistX, id(42), t0, t0]);

    await db.up();
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('copies each song into every catalog entry holding its ISRC, with its credits and their times', async () => {
    const entries = await exec(
      `select cs.id, cs.catalog_id, cs.isrc, cs.name, cs.album, cs.lyrics, extract(epoch from cs.updated_at)::int as updated_at from catalog_songs cs order by cs.isrc, cs.catalog_id`,
    );
    expect(entries).toEqual([
      { id: id(21), catalog_id: catalog1, isrc: 'QZAAA2600001', name: 'Shared song', album: 'Album', lyrics: 'words', updated_at: epoch(t1) },
      { id: id(22), catalog_id: catalog2, isrc: 'QZAAA2600001', name: 'Shared song', album: 'Album', lyrics: 'words', updated_at: epoch(t1) },
      { id: id(23), catalog_id: catalog1, isrc: 'QZAAA2600002', name: 'Only in one', album: null, lyrics: null, updated_at: epoch(t2) },
    ]);
    const credits = await exec(`select catalog_song_id, artist_id, extract(epoch from created_at)::int as created_at from catalog_song_artists order by catalog_song_id, created_at`);
    expect(credits).toEqual([
      { catalog_song_id: id(21), artist_id: artistX, created_at: epoch(t0) },
      { catalog_song_id: id(21), artist_id: artistY, created_at: epoch(t1) },
      { catalog_song_id: id(22), artist_id: artistX, created_at: epoch(t0) },
      { catalog_song_id: id(22), artist_id: artistY, created_at: epoch(t1) },
    ]);
    expect(await exec(`select to_regclass('songs') as songs, to_regclass('song_artists') as credits`)).toEqual([{ songs: null, credits: null }]);
  });

  it('gives every linked account its own copy of a shared social profile, keeping link ids and values', async () => {
    const rows = await exec(
      `select l.id as link_id, l.account_id, s.id as social_id, s.account_id as owner, s.profile_url, s.username, s.avatar, s.bio, s.follower_count, s.region
         from account_socials l join socials s on s.id = l.social_id order by l.id`,
    );
    const values = { profile_url: 'https://social.test/shared', username: 'shared', avatar: 'a.png', bio: 'bio', follower_count: 10, region: 'GB' };
    expect(rows).toEqual([
      { link_id: id(51), account_id: artistX, social_id: id(41), owner: artistX, ...values },
      { link_id: id(52), account_id: artistY, social_id: expect.any(String), owner: artistY, ...values },
      { link_id: id(53), account_id: artistX, social_id: id(42), owner: artistX, profile_url: 'https://social.test/x-only', username: 'xonly', avatar: null, bio: null, follower_count: 5, region: null },
    ]);
    expect(rows[1].social_id).not.toBe(id(41));
    expect(await exec(`select count(*)::int as n from socials`)).toEqual([{ n: 3 }]);
  });

  it('enforces one profile per artist and URL, and one entry per catalog and ISRC', async () => {
    await expect(
      exec(`insert into socials (id, account_id, profile_url, username, created_at, updated_at) values (gen_random_uuid(), ?, 'https://social.test/shared', 'dup', now(), now())`, [artistX]),
    ).rejects.toThrow(/socials_account_profile_url_unique/);
    await exec(`insert into socials (id, account_id, profile_url, username, created_at, updated_at) values (gen_random_uuid(), ?, 'https://social.test/x-only', 'y too', now(), now())`, [artistY]);
    await expect(
      exec(`insert into catalog_songs (id, catalog_id, isrc, name, created_at, updated_at) values (gen_random_uuid(), ?, 'QZAAA2600001', 'dup', now(), now())`, [catalog1]),
    ).rejects.toThrow(/catalog_songs_catalog_isrc_unique/);
  });

  it('migrates down and up again', async () => {
    await exec(`delete from socials where username = 'y too'`);
    // Down to (and including) the ownership migration, whatever came after it.
    await db.orm.getMigrator().down({ to: 'Migration20261123100000_Ownership' });
    expect(await exec(`select isrc, name from songs order by isrc`)).toEqual([
      { isrc: 'QZAAA2600001', name: 'Shared song' },
      { isrc: 'QZAAA2600002', name: 'Only in one' },
    ]);
    expect(await exec(`select count(*)::int as n from song_artists`)).toEqual([{ n: 2 }]);
    expect(await exec(`select count(*)::int as n from socials`)).toEqual([{ n: 2 }]);
    await db.up();
    expect(await exec(`select count(*)::int as n from catalog_song_artists`)).toEqual([{ n: 4 }]);
  });
});
