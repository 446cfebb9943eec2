import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { Pool, PoolClient } from 'pg';
import { createTestDatabase, TestDatabase } from './db';

/**
 * Issue 31: a catalog entry keeps its credits (`catalog_songs.credits_json`, `credit_count`) as the
 * songs page answers them, kept by triggers (migrations/Migration20261127100000_SongCredits.ts).
 * The stored value must always equal what the page read before, the credits read from their rows,
 * whatever writes them (credits inserted, moved, re-dated, deleted, truncated; accounts renamed or
 * deleted; entries and catalogs deleted) and whatever runs at the same time.
 */

/** The credits of each entry as the songs page wrote them from their rows (the read this column replaces). */
const REFERENCE = `
  select cs.id, cs.credits_json::text as stored, cs.credit_count as count,
         '[' || coalesce((select string_agg(row_to_json(v)::text, ',' order by k.created_at, k.name, k.id)
                            from (select a.id, a.name, csa.created_at, floor(extract(epoch from csa.created_at))::int as timestamp
                                    from catalog_song_artists csa join accounts a on a.id = csa.artist_id
                                   where csa.catalog_song_id = cs.id order by csa.created_at, a.name, a.id limit 50) k
                           cross join lateral (select k.id, k.name, k.timestamp) v), '') || ']' as reference
    from catalog_songs cs order by cs.id`;

interface StoredCredits {
  id: string;
  stored: string;
  count: number;
  reference: string;
}

describe('stored song credits (real PostgreSQL)', () => {
  let db: TestDatabase;
  let pool: Pool;
  beforeAll(async () => {
    db = await createTestDatabase();
    pool = new Pool({ connectionString: db.url, max: 12 });
  });
  afterAll(async () => {
    await pool?.end();
    await db?.drop();
  });

  const sql = async <T = Record<string, unknown>>(text: string, values: unknown[] = []): Promise<T[]> => (await pool.query(text, values)).rows as T[];
  const stored = () => sql<StoredCredits>(REFERENCE);
  /** Every entry's stored credits equal the reference, and the count is their length. */
  const expectAgreement = async () => {
    const rows = await stored();
    for (const row of rows) {
      expect({ id: row.id, stored: row.stored }).toEqual({ id: row.id, stored: row.reference });
      expect(row.count).toBe((JSON.parse(row.stored) as unknown[]).length);
    }
    return rows;
  };
  const creditsOf = async (song: string) => JSON.parse((await sql<{ c: string }>('select credits_json::text as c from catalog_songs where id = $1', [song]))[0].c) as { id: string; name: string; timestamp: number }[];

  const newAccount = async (name: string) => (await sql<{ id: string }>(`insert into accounts (id, kind, name, created_at, updated_at) values (gen_random_uuid(), 'artist', $1, now(), now()) returning id`, [name]))[0].id;
  const newCatalog = async () => (await sql<{ id: string }>(`insert into catalogs (id, name, created_at, updated_at) values (gen_random_uuid(), 'Credits', now(), now()) returning id`))[0].id;
  const newSong = async (catalog: string, isrc: string) =>
    (await sql<{ id: string }>(`insert into catalog_songs (id, catalog_id, isrc, name, created_at, updated_at) values (gen_random_uuid(), $1, $2, 'Song', now(), now()) returning id`, [catalog, isrc]))[0].id;
  const credit = (client: Pool | PoolClient, song: string, artist: string, at = 'now()') =>
    client.query(`insert into catalog_song_artists (id, catalog_song_id, artist_id, created_at, updated_at) values (gen_random_uuid(), $1, $2, ${at}, now()) on conflict do nothing`, [song, artist]);

  it('a new entry has none; each credit written in any way is there, in credit order, at most 50', async () => {
    const catalog = await newCatalog();
    const song = await newSong(catalog, 'QZCRD0000001');
    expect(await creditsOf(song)).toEqual([]);
    const [zed, amy] = [await newAccount('Zed'), await newAccount('Amy')];
    // One statement crediting two artists at the same time: ordered by name.
    await sql(`insert into catalog_song_artists (id, catalog_song_id, artist_id, created_at, updated_at)
               select gen_random_uuid(), $1, a, '2026-01-01T00:00:00.750Z', now() from unnest($2::uuid[]) a`, [song, [zed, amy]]);
    expect(await creditsOf(song)).toEqual([
      { id: amy, name: 'Amy', timestamp: 1767225600 },
      { id: zed, name: 'Zed', timestamp: 1767225600 },
    ]);
    // 55 credits: the first 50 in credit order are kept, and the count says 50.
    const many = [];
    for (let i = 0; i < 53; i++) many.push(await newAccount(`Many ${String(i).padStart(2, '0')}`));
    await sql(`insert into catalog_song_artists (id, catalog_song_id, artist_id, created_at, updated_at)
               select gen_random_uuid(), $1, a, '2025-06-01T00:00:00Z'::timestamptz + (o || ' seconds')::interval, now() from unnest($2::uuid[]) with ordinality as t(a, o)`, [song, many]);
    const rows = await expectAgreement();
    expect(rows.find((r) => r.id === song)?.count).toBe(50);
    expect((await creditsOf(song)).map((c) => c.id)).toEqual(many.slice(0, 50));
    // A rename reorders; deleting the account takes its credit; a truncate empties every entry's.
    await sql(`update accounts set name = 'Aaron' where id = $1`, [zed]);
    await sql(`delete from catalog_song_artists where catalog_song_id = $1 and artist_id = any($2::uuid[])`, [song, many]);
    expect((await creditsOf(song)).map((c) => c.name)).toEqual(['Aaron', 'Amy']);
    await sql('delete from accounts where id = $1', [amy]);
    expect((await creditsOf(song)).map((c) => c.name)).toEqual(['Aaron']);
    await sql('truncate catalog_song_artists');
    expect(await creditsOf(song)).toEqual([]);
    await expectAgreement();
  });

  it('holds through random sequences of credit writes, renames and deletes (fast-check commands)', async () => {
    type Model = { songs: number; artists: number };
    type Real = { catalog: string; songs: string[]; artists: string[] };
    const pick = <T>(list: T[], i: number) => list[i % list.length];
    const AT = ['2026-01-01T00:00:00Z', '2026-01-01T00:00:00.500Z', '2026-01-02T00:00:00Z'];
    const NAMES = ['Ann', 'ann', 'Bob', 'Zoë', 'Émile', 'a "quoted" \\ name', 'Bob'];

    class Command implements fc.AsyncCommand<Model, Real> {
      constructor(
        readonly label: string,
        readonly run_: (r: Real) => Promise<unknown>,
      ) {}
      check = () => true;
      async run(_m: Model, r: Real) {
        await this.run_(r);
        await expectAgreement();
      }
      toString = () => this.label;
    }
    const i = fc.nat(1000);
    const commands = [
      fc.tuple(i, i, fc.nat(AT.length - 1)).map(([s, a, t]) => new Command(`credit ${s} ${a} ${t}`, (r) => credit(pool, pick(r.songs, s), pick(r.artists, a), `'${AT[t]}'`))),
      fc.tuple(i, fc.array(i, { minLength: 1, maxLength: 6 })).map(([s, as]) => new Command(`credit many ${s} ${as}`, (r) =>
        sql(`insert into catalog_song_artists (id, catalog_song_id, artist_id, created_at, updated_at)
             select gen_random_uuid(), $1, a, now(), now() from (select distinct unnest($2::uuid[]) a) x on conflict do nothing`, [pick(r.songs, s), as.map((a) => pick(r.artists, a))]))),
      fc.tuple(i, i).map(([s, a]) => new Command(`uncredit ${s} ${a}`, (r) => sql('delete from catalog_song_artists where catalog_song_id = $1 and artist_id = $2', [pick(r.songs, s), pick(r.artists, a)]))),
      fc.tuple(i, i, i).map(([s, a, to]) => new Command(`move ${s} ${a} → ${to}`, (r) =>
        sql(`update catalog_song_artists set catalog_song_id = $3 where catalog_song_id = $1 and artist_id = $2
               and not exists (select 1 from catalog_song_artists x where x.catalog_song_id = $3 and x.artist_id = $2)`, [pick(r.songs, s), pick(r.artists, a), pick(r.songs, to)]))),
      fc.tuple(i, fc.nat(AT.length - 1)).map(([s, t]) => new Command(`redate ${s} ${t}`, (r) => sql(`update catalog_song_artists set created_at = $2 where catalog_song_id = $1`, [pick(r.songs, s), AT[t]]))),
      fc.tuple(i, fc.nat(NAMES.length - 1)).map(([a, n]) => new Command(`rename ${a} ${n}`, (r) => sql('update accounts set name = $2 where id = $1', [pick(r.artists, a), NAMES[n]]))),
      fc.tuple(i).map(([a]) => new Command(`touch ${a}`, (r) => sql('update accounts set updated_at = now() where id = $1', [pick(r.artists, a)]))),
      fc.tuple(i).map(([a]) => new Command(`delete account ${a}`, async (r) => {
        const gone = pick(r.artists, a);
        await sql('delete from accounts where id = $1', [gone]);
        r.artists[r.artists.indexOf(gone)] = await newAccount(`New ${a}`);
      })),
      fc.tuple(i).map(([s]) => new Command(`delete song ${s}`, async (r) => {
        const gone = pick(r.songs, s);
        await sql('delete from catalog_songs where id = $1', [gone]);
        r.songs[r.songs.indexOf(gone)] = await newSong(r.catalog, `QZMOD${randomUUID().slice(0, 7).toUpperCase()}`);
      })),
      fc.constant(new Command('truncate', () => sql('truncate catalog_song_artists'))),
    ];
    await fc.assert(
      fc.asyncProperty(fc.commands(commands, { maxCommands: 25 }), async (cmds) => {
        const catalog = await newCatalog();
        const real: Real = { catalog, songs: [], artists: [] };
        for (let n = 0; n < 3; n++) real.songs.push(await newSong(catalog, `QZMOD${randomUUID().slice(0, 7).toUpperCase()}`));
        for (let n = 0; n < 4; n++) real.artists.push(await newAccount(NAMES[n]));
        await fc.asyncModelRun(() => ({ model: { songs: 3, artists: 4 }, real }), cmds);
        await sql('delete from catalogs where id = $1', [catalog]);
        await expectAgreement();
      }),
      { numRuns: Number(process.env.SONG_CREDITS_RUNS ?? 25), seed: process.env.SONG_CREDITS_SEED ? Number(process.env.SONG_CREDITS_SEED) : 31 },
    );
  });

  /** Runs `work` in a transaction of its own connection. */
  const inTransaction = async (work: (c: PoolClient) => Promise<unknown>) => {
    const client = await pool.connect();
    try {
      await client.query('begin');
      await work(client);
      await client.query('commit');
    } catch (error) {
      await client.query('rollback');
      throw error;
    } finally {
      client.release();
    }
  };

  it('ten transactions crediting one entry at once each keep their credit (none reads before another commits)', async () => {
    const song = await newSong(await newCatalog(), 'QZCRD0000010');
    const artists = [];
    for (let n = 0; n < 10; n++) artists.push(await newAccount(`Concurrent ${n}`));
    // Each credits, then holds its transaction open a moment, so their refreshes overlap.
    await Promise.all(artists.map((artist, n) => inTransaction(async (c) => {
      await credit(c, song, artist);
      await c.query(`select pg_sleep(${(n % 4) * 0.03})`);
    })));
    expect((await creditsOf(song)).map((c) => c.id).sort()).toEqual([...artists].sort());
    // And removals racing additions.
    const more = [];
    for (let n = 0; n < 5; n++) more.push(await newAccount(`Later ${n}`));
    await Promise.all([
      ...artists.slice(0, 5).map((artist) => inTransaction(async (c) => {
        await c.query('delete from catalog_song_artists where catalog_song_id = $1 and artist_id = $2', [song, artist]);
        await c.query('select pg_sleep(0.03)');
      })),
      ...more.map((artist) => inTransaction(async (c) => {
        await credit(c, song, artist);
        await c.query('select pg_sleep(0.03)');
      })),
    ]);
    expect((await creditsOf(song)).map((c) => c.id).sort()).toEqual([...artists.slice(5), ...more].sort());
    await expectAgreement();
  });

  it('a rename racing a new credit of that account shows the new name, whichever commits first', async () => {
    const catalog = await newCatalog();
    for (const creditFirst of [true, false]) {
      const song = await newSong(catalog, creditFirst ? 'QZCRD0000020' : 'QZCRD0000021');
      const artist = await newAccount('Old name');
      const first = creditFirst
        ? inTransaction(async (c) => {
            await credit(c, song, artist);
            await c.query('select pg_sleep(0.2)');
          })
        : inTransaction(async (c) => {
            await c.query(`update accounts set name = 'New name' where id = $1`, [artist]);
            await c.query('select pg_sleep(0.2)');
          });
      await new Promise((resolve) => setTimeout(resolve, 50));
      const second = creditFirst
        ? inTransaction((c) => c.query(`update accounts set name = 'New name' where id = $1`, [artist]))
        : inTransaction((c) => credit(c, song, artist));
      await Promise.all([first, second]);
      expect(await creditsOf(song)).toEqual([{ id: artist, name: 'New name', timestamp: expect.any(Number) }]);
    }
    await expectAgreement();
  });
});
