import { scratchDatabase, ScratchDatabase } from './scratch';

/** Migration20261127100000_SongCredits on entries credited before it: each gets its credits stored; down takes the columns and triggers away. */
describe('song credits migration on existing data', () => {
  let db: ScratchDatabase;
  const exec = <T = Record<string, unknown>>(sql: string, bindings: unknown[] = []) => db.exec<T>(sql, bindings);
  const id = (n: number) => `00000000-0000-4000-a000-${String(n).padStart(12, '0')}`;

  beforeAll(async () => {
    db = await scratchDatabase();
    await db.up('Migration20261126160000_UsageWebhookDeliveries');
    await exec(`insert into accounts (id, kind, name, created_at, updated_at) values (?, 'artist', 'Zed', now(), now()), (?, 'artist', 'Amy', now(), now())`, [id(1), id(2)]);
    await exec(`insert into catalogs (id, name, created_at, updated_at) values (?, 'Old', now(), now())`, [id(11)]);
    await exec(
      `insert into catalog_songs (id, catalog_id, isrc, name, created_at, updated_at) values (?, ?, 'QZOLD0000001', 'Credited', now(), now()), (?, ?, 'QZOLD0000002', 'Alone', now(), now())`,
      [id(21), id(11), id(22), id(11)],
    );
    await exec(
      `insert into catalog_song_artists (id, catalog_song_id, artist_id, created_at, updated_at) values (?, ?, ?, '2026-01-01T00:00:01Z', now()), (?, ?, ?, '2026-01-01T00:00:01Z', now())`,
      [id(31), id(21), id(1), id(32), id(21), id(2)],
    );
    await db.up('Migration20261127100000_SongCredits');
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('stores the credits of entries credited before it, in credit order', async () => {
    const rows = await exec<{ id: string; credits: string; n: number }>('select id, credits_json::text as credits, credit_count as n from catalog_songs order by id');
    expect(rows).toEqual([
      { id: id(21), credits: `[{"id":"${id(2)}","name":"Amy","timestamp":1767225601},{"id":"${id(1)}","name":"Zed","timestamp":1767225601}]`, n: 2 },
      { id: id(22), credits: '[]', n: 0 },
    ]);
  });

  it('goes down and up again', async () => {
    await db.orm.getMigrator().down({ to: 'Migration20261126160000_UsageWebhookDeliveries' });
    const columns = await exec(`select column_name from information_schema.columns where table_name = 'catalog_songs' and column_name like 'credit%'`);
    expect(columns).toEqual([]);
    await exec(`delete from catalog_song_artists where id = ?`, [id(31)]);
    await db.up();
    expect(await exec('select credits_json::text as credits from catalog_songs where id = ?', [id(21)])).toEqual([
      { credits: `[{"id":"${id(2)}","name":"Amy","timestamp":1767225601}]` },
    ]);
  });
});
