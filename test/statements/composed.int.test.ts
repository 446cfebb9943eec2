import { createTestApp, TestApp } from '../app';
import { as, DEMO } from '../demo';
import { addSong, createCatalog } from '../factories';

/**
 * Issue #31: a composed query reads its database rows in at most two statements whatever its depth and page size.
 * The rate-limit charge (and the settlement of what the upper bound charged and the answer did not read) are the
 * budget's, counted aside as the other statement tests count them.
 */
const DATA_STATEMENTS = 2;
const PAGES = [20, 50, 100];
const ROWS = 120;
/** A demo song with stored track stats for platform_a and platform_b (the demo data set's research answers). */
const STORED = 'GBNWR2400001';

/** The composed research query of docs/api/research.md (Research composed across the graph), its songs' page size a variable. */
const RESEARCH = `query Research($limit: Int) { artists(limit: 5) { items { name catalogs(limit: 5) { items { name songs(limit: $limit) { items { isrc name
    stats(source: "platform_a,platform_b") { stats { source data dataSource capturedAt } } } } } } } } }`;

/** The same query with the catalogs selected a second time under an alias: nothing is read ahead, every level goes through its resolver. */
const UNPLANNED = RESEARCH.replace('catalogs(limit: 5)', 'again: catalogs(limit: 5) { items { name } } catalogs(limit: 5)');

/** Budget statements: the charge before the operation, the settlement after it. */
const isBudget = (sql: string) => /rate_limit_counters/.test(sql);

type Measured = { result: { status: number; body: Record<string, unknown> }; count: number; statements: string[] };

describe('statements per request: composed queries (real PostgreSQL)', () => {
  let t: TestApp;
  let catalogId: string;

  beforeAll(async () => {
    // No provider: every song's stats come from stored answers (the research budget is not spent).
    t = await createTestApp({
      // The viewer cache's longest TTL: an entry cached by an earlier request expiring between `warm` and the measured
      // request (5 s by default, set when cached, not when read) added the credential lookup to the count under load.
      env: { GRAPHQL_MAX_COST: '1000000', AUTH_CACHE_TTL_MS: '60000' },
    });
    const catalog = await createCatalog(t.orm, { linkedTo: [DEMO.northwind], name: 'Composed catalog' });
    catalogId = catalog.id;
    const isrcs: string[] = [];
    for (let i = 0; i < ROWS; i++) {
      const isrc = `QZCMP26${String(i).padStart(5, '0')}`;
      isrcs.push(isrc);
      await addSong(t.orm, catalogId, { isrc, name: `Composed ${i}`, artistIds: [DEMO.luna] });
    }
    // Each new song gets the stored answers the demo song has (the key names the ISRC), so no song needs a provider.
    await t.orm.em.getConnection().execute(
      `insert into research_answers (id, created_at, updated_at, kind, key, source, payload, captured_at)
       select gen_random_uuid(), now(), now(), a.kind, replace(a.key, ?, t.isrc), a.source, a.payload, now()
         from research_answers a, unnest(?::text[]) as t(isrc)
        where a.kind = 'track_stats' and a.key like ?`,
      [STORED, `{${isrcs.join(',')}}`, `%${STORED}%`],
    );
  });
  afterAll(async () => {
    await t.close();
  });

  /** One request with Nora's key so the measured one finds her viewer cached and her key's use recorded. */
  const warm = async () => expect((await t.http().get('/api/accounts/me').set(as.nora)).status).toBe(200);
  const measure = (run: () => Promise<{ status: number; body: Record<string, unknown> }>) => t.sql.measure(run) as Promise<Measured>;

  describe("the research query of docs/api/research.md: roster → catalogs → songs page → stats", () => {
    it.each(PAGES)('page of %i: at most two statements read its rows, every song answered from stored data', async (limit) => {
      await warm();
      const m = await measure(() => t.graphql(RESEARCH, { limit }, as.nora));
      expect(m.result.body.errors).toBeUndefined();
      const data = m.statements.filter((sql) => !isBudget(sql));
      expect({ count: data.length, data }).toEqual({ count: Math.min(data.length, DATA_STATEMENTS), data });
      const artists = (m.result.body.data as { artists: { items: { name: string; catalogs: { items: { name: string; songs: { items: { isrc: string; stats: { stats: { dataSource: string }[] } | null }[] } }[] } }[] } }).artists.items;
      const songs = artists.find((a) => a.name === 'Luna Waves')!.catalogs.items.find((c) => c.name === 'Composed catalog')!.songs.items;
      expect(songs).toHaveLength(limit);
      expect(songs.every((s) => s.stats?.stats.length === 2 && s.stats.stats.every((r) => r.dataSource === 'stored'))).toBe(true);

      // Level by level (roster, reach, catalogs, songs, stored answers), the same answer.
      await warm();
      const slow = await measure(() => t.graphql(UNPLANNED, { limit }, as.nora));
      expect(slow.result.body.errors).toBeUndefined();
      expect(slow.statements.filter((sql) => !isBudget(sql)).length).toBeGreaterThan(DATA_STATEMENTS);
      const plain = (slow.result.body.data as { artists: { items: Record<string, unknown>[] } }).artists.items.map(({ again: _a, ...artist }) => artist);
      expect(artists).toEqual(plain);
    });
  });
});
