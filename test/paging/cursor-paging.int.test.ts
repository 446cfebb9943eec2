import fc from 'fast-check';
import { createTestApp, TestApp } from '../app';
import { addSocial, addSong, createAccount, createArtist, createCatalog, CreatedAccount, createOrganization, createTemplate } from '../factories';

/**
 * Cursor paging (issue 27): `first`/`after` walk a list in its stable order with no gap and no
 * repeat while rows are inserted, a cursor only pages its own list under its own parent, and a
 * hostile cursor is a 400 naming `after`.
 */
interface Page<T> {
  items: T[];
  pagination: { totalCount: number; page: number; limit: number; totalPages: number };
  pageInfo: { endCursor: string | null; hasNextPage: boolean };
}

const SONGS = `query ($id: ID!, $first: Int, $after: String, $limit: Int, $page: Int) {
  catalog(id: $id) { songs(first: $first, after: $after, limit: $limit, page: $page) {
    items { isrc } pagination { totalCount page limit totalPages } pageInfo { endCursor hasNextPage } } } }`;
const ROOT_SONGS = `query ($input: CatalogSongsInput!) { catalogSongs(input: $input) {
  items { isrc } pagination { totalCount page limit totalPages } pageInfo { endCursor hasNextPage } } }`;
const SOCIALS = `query ($id: ID!, $first: Int, $after: String) {
  artist(id: $id) { socials(first: $first, after: $after) { items { id username } pageInfo { endCursor hasNextPage } } } }`;
const RUNS = `query ($first: Int, $after: String) { runs(input: { first: $first, after: $after }) {
  items { id } pagination { totalCount page } pageInfo { endCursor hasNextPage } } }`;

/** A valid ISRC whose order among others is its `serial` (7 digits). */
const isrcOf = (serial: number) => `QZPGE${String(serial).padStart(7, '0')}`;

describe('cursor paging', () => {
  let t: TestApp;
  let alice: CreatedAccount;
  let bob: CreatedAccount;

  beforeAll(async () => {
    t = await createTestApp({ seed: false });
    alice = await createAccount(t.orm);
    bob = await createAccount(t.orm);
  });
  afterAll(() => t?.close());

  async function songsPage(headers: Record<string, string>, variables: Record<string, unknown>): Promise<Page<{ isrc: string }>> {
    const res = await t.graphql(SONGS, variables, headers);
    expect(res.body.errors).toBeUndefined();
    return res.body.data.catalog.songs;
  }

  it('walks a catalog with first/after and no gap or repeat while songs are inserted before and after the position', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.integer({ min: 0, max: 999_999 }), { minLength: 1, maxLength: 25 }),
        fc.integer({ min: 1, max: 7 }),
        fc.array(fc.uniqueArray(fc.integer({ min: 0, max: 999_999 }), { maxLength: 3 }), { maxLength: 8 }),
        async (initial, size, inserts) => {
          const catalog = await createCatalog(t.orm, { linkedTo: [alice.account.id] });
          const present = new Set(initial.map(isrcOf));
          for (const isrc of present) await addSong(t.orm, catalog.id, { isrc });
          const seen: string[] = [];
          let after: string | null = null;
          for (let step = 0; ; step++) {
            if (step > 60) throw new Error(`the walk does not end: ${seen.join(' ')}`);
            const page = await songsPage(alice.headers, { id: catalog.id, first: size, after });
            seen.push(...page.items.map((s) => s.isrc));
            expect(page.pagination.totalCount).toBe(present.size);
            expect(page.pagination.limit).toBe(size);
            if (!page.pageInfo.hasNextPage) break;
            expect(page.pageInfo.endCursor).toEqual(expect.any(String));
            after = page.pageInfo.endCursor;
            // Songs added between two pages, before and after the position.
            for (const serial of inserts[step] ?? []) {
              const isrc = isrcOf(serial);
              if (present.has(isrc)) continue;
              present.add(isrc);
              await addSong(t.orm, catalog.id, { isrc });
            }
          }
          // In order, each once, and every song there from the start among them.
          expect(seen).toEqual([...seen].sort());
          expect(new Set(seen).size).toBe(seen.length);
          for (const isrc of initial.map(isrcOf)) expect(seen).toContain(isrc);
        },
      ),
      { numRuns: 12 },
    );
  });

  it('answers the same pages by offset and by cursor, with the page number and pageInfo on both', async () => {
    const catalog = await createCatalog(t.orm, { linkedTo: [alice.account.id] });
    const isrcs = Array.from({ length: 7 }, (_, i) => isrcOf(100 + i));
    for (const isrc of isrcs) await addSong(t.orm, catalog.id, { isrc });
    const first = await songsPage(alice.headers, { id: catalog.id, limit: 3 });
    expect(first.items.map((s) => s.isrc)).toEqual(isrcs.slice(0, 3));
    expect(first.pagination).toEqual({ totalCount: 7, page: 1, limit: 3, totalPages: 3 });
    expect(first.pageInfo.hasNextPage).toBe(true);
    const byCursor = await songsPage(alice.headers, { id: catalog.id, first: 3, after: first.pageInfo.endCursor });
    const byPage = await songsPage(alice.headers, { id: catalog.id, limit: 3, page: 2 });
    expect(byCursor).toEqual(byPage);
    expect(byCursor.pagination.page).toBe(2);
    const last = await songsPage(alice.headers, { id: catalog.id, limit: 3, page: 3 });
    expect(last.items.map((s) => s.isrc)).toEqual([isrcs[6]]);
    expect(last.pageInfo.hasNextPage).toBe(false);
    const past = await songsPage(alice.headers, { id: catalog.id, first: 3, after: last.pageInfo.endCursor });
    expect(past).toEqual({ items: [], pagination: { totalCount: 7, page: 3, limit: 3, totalPages: 3 }, pageInfo: { endCursor: null, hasNextPage: false } });
    // Query.catalogSongs pages the same list: its cursors and Catalog.songs' are interchangeable.
    const root = await t.graphql(ROOT_SONGS, { input: { catalogId: catalog.id, first: 3, after: first.pageInfo.endCursor } }, alice.headers);
    expect(root.body.data.catalogSongs).toEqual(byCursor);
  });

  it('keeps a cursor on its item when the item before it is removed, and when the cursor item itself is removed', async () => {
    const catalog = await createCatalog(t.orm, { linkedTo: [alice.account.id] });
    const isrcs = Array.from({ length: 6 }, (_, i) => isrcOf(200 + i));
    for (const isrc of isrcs) await addSong(t.orm, catalog.id, { isrc });
    const first = await songsPage(alice.headers, { id: catalog.id, first: 3 });
    await t.orm.em.getConnection().execute(`delete from catalog_songs where catalog_id = ? and isrc in (?, ?)`, [catalog.id, isrcs[0], isrcs[2]]);
    const next = await songsPage(alice.headers, { id: catalog.id, first: 3, after: first.pageInfo.endCursor });
    expect(next.items.map((s) => s.isrc)).toEqual(isrcs.slice(3));
    expect(next.pageInfo.hasNextPage).toBe(false);
  });

  it('orders ties by id: socials linked at the same instant walk in one order, each once', async () => {
    const artist = await createArtist(t.orm, { rosterOf: alice.account.id });
    for (let i = 0; i < 9; i++) await addSocial(t.orm, artist.id, { username: `tie_${i}` });
    await t.orm.em.getConnection().execute(`update account_socials set created_at = '2026-01-01T00:00:00.123456Z' where account_id = ?`, [artist.id]);
    const all = await t.graphql(SOCIALS, { id: artist.id, first: 100 }, alice.headers);
    const ids: string[] = all.body.data.artist.socials.items.map((s: { id: string }) => s.id);
    expect(ids).toEqual([...ids].sort());
    const walked: string[] = [];
    let after: string | null = null;
    for (let step = 0; step < 20; step++) {
      const res = await t.graphql(SOCIALS, { id: artist.id, first: 2, after }, alice.headers);
      expect(res.body.errors).toBeUndefined();
      const page = res.body.data.artist.socials as Page<{ id: string }>;
      walked.push(...page.items.map((s) => s.id));
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor;
    }
    expect(walked).toEqual(ids);
  });

  it('walks runs newest first while newer runs are started, and keeps the count of the whole list', async () => {
    const conn = t.orm.em.getConnection();
    const account = await createAccount(t.orm);
    const insertRuns = (n: number, at: string) =>
      conn.execute(
        `insert into render_runs (id, created_at, updated_at, account_id, task_identifier, payload)
         select gen_random_uuid(), ?::timestamptz - g * interval '1 microsecond', now(), ?, 'render-video', '{}'::jsonb from generate_series(1, ?) g`,
        [at, account.account.id, n],
      );
    await insertRuns(5, '2026-01-01T00:00:00Z');
    // Two runs created at the very same instant: the id breaks the tie.
    await conn.execute(
      `insert into render_runs (id, created_at, updated_at, account_id, task_identifier, payload)
       select gen_random_uuid(), '2025-12-31T00:00:00Z', now(), ?, 'render-video', '{}'::jsonb from generate_series(1, 2)`,
      [account.account.id],
    );
    const ordered = (await conn.execute<{ id: string }[]>(`select id from render_runs where account_id = ? order by created_at desc, id desc`, [account.account.id])).map((r) => r.id);
    const walked: string[] = [];
    let after: string | null = null;
    for (let step = 0; step < 20; step++) {
      const res = await t.graphql(RUNS, { first: 2, after }, account.headers);
      expect(res.body.errors).toBeUndefined();
      const page = res.body.data.runs as Page<{ id: string }>;
      walked.push(...page.items.map((r) => r.id));
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor;
      // A newer run starts between pages: it sorts before the position and shifts nothing.
      if (step === 0) await insertRuns(1, '2027-01-01T00:00:00Z');
    }
    expect(walked).toEqual(ordered);
  });

  it("walks the caller's sessions newest first while sessions are created, and refuses its cursor to another account", async () => {
    const conn = t.orm.em.getConnection();
    const owner = await createAccount(t.orm);
    await conn.execute(
      `insert into sessions (id, account_id, title, created_at, updated_at) select gen_random_uuid(), ?, 'S' || g, '2026-01-01'::timestamptz - (g / 2) * interval '1 second', now() from generate_series(1, 9) g`,
      [owner.account.id],
    );
    const ordered = (await conn.execute<{ id: string }[]>(`select id from sessions where account_id = ? order by created_at desc, id asc`, [owner.account.id])).map((r) => r.id);
    const SESSIONS = 'query ($first: Int, $after: String) { sessions(first: $first, after: $after) { items { id } pageInfo { endCursor hasNextPage } } }';
    const walked: string[] = [];
    let after: string | null = null;
    for (let step = 0; step < 20; step++) {
      const res = await t.graphql(SESSIONS, { first: 2, after }, owner.headers);
      expect(res.body.errors).toBeUndefined();
      const page = res.body.data.sessions as Page<{ id: string }>;
      walked.push(...page.items.map((x) => x.id));
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor;
      if (step === 1) await t.http().post('/api/sessions').set(owner.headers).send({ title: 'Newer' }).expect(200);
    }
    expect(walked).toEqual(ordered);
    const foreign = await t.graphql(SESSIONS, { first: 2, after }, alice.headers);
    expect(foreign.body.errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', details: [{ field: 'after' }] });
    // REST keeps its parameters and its plain list.
    const rest = await t.http().get('/api/sessions').query({ limit: 3, offset: 2 }).set(owner.headers);
    expect(Object.keys(rest.body).sort()).toEqual(['sessions', 'status']);
    expect(rest.body.sessions.map((x: { id: string }) => x.id)).toEqual((await conn.execute<{ id: string }[]>(`select id from sessions where account_id = ? order by created_at desc, id asc offset 2 limit 3`, [owner.account.id])).map((r) => r.id));
  });

  it("walks the templates a caller sees by title, never another's private ones, while templates are created", async () => {
    const writer = await createAccount(t.orm);
    for (const title of ['Beta', 'Delta', 'Foxtrot', 'Hotel']) await createTemplate(t.orm, writer.account.id, { title: `Paging ${title}` });
    await createTemplate(t.orm, bob.account.id, { title: 'Paging Private', isPrivate: true });
    const TEMPLATES = 'query ($first: Int, $after: String) { agentTemplates(first: $first, after: $after) { items { id title } pagination { totalCount } pageInfo { endCursor hasNextPage } } }';
    const titles: string[] = [];
    let after: string | null = null;
    let total = 0;
    for (let step = 0; step < 100; step++) {
      const res = await t.graphql(TEMPLATES, { first: 3, after }, alice.headers);
      expect(res.body.errors).toBeUndefined();
      const page = res.body.data.agentTemplates as Page<{ title: string }>;
      titles.push(...page.items.map((x) => x.title));
      total = page.pagination.totalCount;
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor;
      // A template titled before the position: it shifts nothing.
      if (step === 0) await createTemplate(t.orm, writer.account.id, { title: `!Paging first ${step}` });
    }
    expect(titles).not.toContain('Paging Private');
    expect(new Set(titles).size).toBe(titles.length);
    expect(titles.filter((x) => x.startsWith('Paging '))).toEqual(['Paging Beta', 'Paging Delta', 'Paging Foxtrot', 'Paging Hotel']);
    expect(titles.length).toBe(total - 1);
    const foreign = await t.graphql(TEMPLATES, { first: 3, after }, bob.headers);
    expect(foreign.body.errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', details: [{ field: 'after' }] });
  });

  it('walks a roster by name with its relations read ahead, while artists are added before the position', async () => {
    const owner = await createAccount(t.orm);
    for (const name of ['Band B', 'Band D', 'Band F', 'Band H', 'Band J']) {
      const artist = await createArtist(t.orm, { rosterOf: owner.account.id, name });
      await addSocial(t.orm, artist.id, { username: `${name.replace(' ', '_')}_social` });
    }
    const ROSTER = 'query ($first: Int, $after: String) { artists(first: $first, after: $after) { items { name socials { items { username } } } pagination { totalCount } pageInfo { endCursor hasNextPage } } }';
    const names: string[] = [];
    let after: string | null = null;
    for (let step = 0; step < 20; step++) {
      const res = await t.graphql(ROSTER, { first: 2, after }, owner.headers);
      expect(res.body.errors).toBeUndefined();
      const page = res.body.data.artists as Page<{ name: string; socials: { items: { username: string }[] } }>;
      for (const artist of page.items) expect(artist.socials.items).toEqual([{ username: `${artist.name.replace(' ', '_')}_social` }]);
      names.push(...page.items.map((a) => a.name));
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor;
      if (step === 0) await createArtist(t.orm, { rosterOf: owner.account.id, name: 'Band A' });
    }
    expect(names).toEqual(['Band B', 'Band D', 'Band F', 'Band H', 'Band J']);
    // The same cursor on another roster (an account_id the caller cannot reach, or its own organization's) is refused.
    const foreign = await t.graphql('query ($after: String) { artists(first: 2, after: $after) { items { name } } }', { after }, alice.headers);
    expect(foreign.body.errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', details: [{ field: 'after' }] });
    // REST: the plain list, by offset, as before.
    const rest = await t.http().get('/api/artists').query({ limit: 2, offset: 1 }).set(owner.headers);
    expect(rest.body.artists.map((a: { name: string }) => a.name)).toEqual(['Band B', 'Band D']);
  });

  it("pages a catalog's accounts and an artist's catalogs by cursor, each cursor bound to its parent", async () => {
    const extra = [await createAccount(t.orm, { name: 'Acct B' }), await createAccount(t.orm, { name: 'Acct C' })];
    const catalog = await createCatalog(t.orm, { linkedTo: [alice.account.id, ...extra.map((e) => e.account.id)] });
    const other = await createCatalog(t.orm, { linkedTo: [alice.account.id] });
    const ACCOUNTS = 'query ($id: ID!, $after: String) { catalog(id: $id) { accounts(first: 1, after: $after) { items { id } pageInfo { endCursor hasNextPage } } } }';
    const ids: string[] = [];
    let after: string | null = null;
    for (let step = 0; step < 10; step++) {
      const res = await t.graphql(ACCOUNTS, { id: catalog.id, after }, alice.headers);
      expect(res.body.errors).toBeUndefined();
      const page = res.body.data.catalog.accounts as Page<{ id: string }>;
      ids.push(...page.items.map((a) => a.id));
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor;
    }
    const all = await t.graphql('query ($id: ID!) { catalog(id: $id) { accounts { items { id } pagination { totalCount } } } }', { id: catalog.id }, alice.headers);
    expect(ids).toEqual(all.body.data.catalog.accounts.items.map((a: { id: string }) => a.id));
    expect(all.body.data.catalog.accounts.pagination.totalCount).toBe(3);
    const foreign = await t.graphql(ACCOUNTS, { id: other.id, after }, alice.headers);
    expect(foreign.body.errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', details: [{ field: 'after' }] });
  });

  it("walks the caller's organizations by name while it joins one named before the position", async () => {
    const member = await createAccount(t.orm);
    for (const name of ['Org B', 'Org D', 'Org F', 'Org H']) await createOrganization(t.orm, name, [member.account.id]);
    const ORGS = 'query ($after: String) { organizations(first: 2, after: $after) { items { name } pagination { totalCount } pageInfo { endCursor hasNextPage } } }';
    const names: string[] = [];
    let after: string | null = null;
    for (let step = 0; step < 10; step++) {
      const res = await t.graphql(ORGS, { after }, member.headers);
      expect(res.body.errors).toBeUndefined();
      const page = res.body.data.organizations as Page<{ name: string }>;
      names.push(...page.items.map((o) => o.name));
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor;
      if (step === 0) await createOrganization(t.orm, 'Org A', [member.account.id]);
    }
    expect(names).toEqual(['Org B', 'Org D', 'Org F', 'Org H']);
    const rest = await t.http().get('/api/organizations').set(member.headers);
    expect(rest.body.organizations.map((o: { name: string }) => o.name)).toEqual(['Org A', 'Org B', 'Org D', 'Org F', 'Org H']);
    const foreign = await t.graphql(ORGS, { after }, alice.headers);
    expect(foreign.body.errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', details: [{ field: 'after' }] });
  });

  it('pages past an item with a long name in four-byte characters', async () => {
    const owner = await createAccount(t.orm);
    const long = '\u{1F3B5}'.repeat(100); // 200 UTF-16 units, 400 bytes: a valid catalog name
    await createCatalog(t.orm, { linkedTo: [owner.account.id], name: long });
    await createCatalog(t.orm, { linkedTo: [owner.account.id], name: '\u{1F3B6}' });
    const CATALOGS = 'query ($after: String) { catalogs(first: 1, after: $after) { items { name } pageInfo { endCursor hasNextPage } } }';
    const first = await t.graphql(CATALOGS, {}, owner.headers);
    expect(first.body.data.catalogs.items).toEqual([{ name: long }]);
    const next = await t.graphql(CATALOGS, { after: first.body.data.catalogs.pageInfo.endCursor }, owner.headers);
    expect(next.body.errors).toBeUndefined();
    expect(next.body.data.catalogs).toEqual({ items: [{ name: '\u{1F3B6}' }], pageInfo: { endCursor: expect.any(String), hasNextPage: false } });
  });

  describe('a cursor never reaches another parent or another tenant', () => {
    let aliceCatalog: string;
    let bobCatalog: string;
    let aliceCursor: string;
    beforeAll(async () => {
      aliceCatalog = (await createCatalog(t.orm, { linkedTo: [alice.account.id] })).id;
      bobCatalog = (await createCatalog(t.orm, { linkedTo: [bob.account.id] })).id;
      for (let i = 0; i < 4; i++) {
        await addSong(t.orm, aliceCatalog, { isrc: isrcOf(300 + i) });
        await addSong(t.orm, bobCatalog, { isrc: isrcOf(400 + i) });
      }
      aliceCursor = (await songsPage(alice.headers, { id: aliceCatalog, first: 1 })).pageInfo.endCursor!;
    });

    it("refuses Alice's cursor on Bob's catalog, to Bob and to Alice, naming after", async () => {
      for (const headers of [bob.headers, alice.headers]) {
        const res = await t.graphql(ROOT_SONGS, { input: { catalogId: bobCatalog, first: 2, after: aliceCursor } }, headers);
        expect(res.body.data).toEqual({ catalogSongs: null });
        expect(res.body.errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', details: [{ field: 'after' }] });
      }
    });

    it("answers Bob nothing of Alice's catalog with Alice's own cursor", async () => {
      const res = await t.graphql(ROOT_SONGS, { input: { catalogId: aliceCatalog, first: 2, after: aliceCursor } }, bob.headers);
      expect(res.body.data).toEqual({ catalogSongs: null });
      expect(res.body.errors[0].extensions.code).toBe('FORBIDDEN');
      const nested = await t.graphql(SONGS, { id: aliceCatalog, first: 2, after: aliceCursor }, bob.headers);
      expect(JSON.stringify(nested.body)).not.toContain(isrcOf(301));
    });

    it("refuses a cursor of another list (runs, socials) on songs, and a songs cursor on runs", async () => {
      const runs = await t.graphql(RUNS, { first: 1, after: aliceCursor }, alice.headers);
      expect(runs.body.errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', details: [{ field: 'after' }] });
    });

    it('refuses hostile cursors with a 400 naming after, never a 500', async () => {
      const forged = (body: unknown) => Buffer.from(JSON.stringify(body)).toString('base64url');
      const hostile = [
        'not a cursor',
        '%%%',
        'x'.repeat(4097),
        Buffer.from('{"l":"Catalog.songs"').toString('base64url'),
        forged({ l: 'Catalog.songs', s: aliceCatalog, k: [] }),
        forged({ l: 'Catalog.songs', s: aliceCatalog, k: ["' or 1=1 --", 'extra'] }),
        forged({ l: 'Catalog.songs', s: aliceCatalog, k: [{ $gt: '' }] }),
        forged({ l: 'Catalog.songs', s: aliceCatalog, k: ['x'.repeat(41)] }),
        forged({ l: 'Catalog.songs', s: aliceCatalog, k: [isrcOf(300)], extra: 1 }),
        forged({ l: 'Catalog.songs', s: bobCatalog, k: [isrcOf(300)] }),
        forged({ l: 'Query.runs', s: alice.account.id, k: ['99999999999999999', 'not-a-uuid'] }),
        forged(['Catalog.songs', aliceCatalog, isrcOf(300)]),
        forged(null),
      ];
      for (const after of hostile) {
        const res = await t.graphql(SONGS, { id: aliceCatalog, first: 2, after }, alice.headers);
        expect({ after, code: res.body.errors?.[0]?.extensions?.code, field: res.body.errors?.[0]?.extensions?.details?.[0]?.field }).toEqual({ after, code: 'BAD_USER_INPUT', field: 'after' });
      }
      const runs = await t.graphql(RUNS, { first: 2, after: forged({ l: 'Query.runs', s: alice.account.id, k: ['99999999999999999999', '00000000-0000-4000-8000-000000000000'] }) }, alice.headers);
      expect(runs.body.errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', details: [{ field: 'after' }] });
      // A well-formed key of the right list and parent is only a position in it: it reads nothing the caller could not page to.
      const positioned = await songsPage(alice.headers, { id: aliceCatalog, first: 10, after: forged({ l: 'Catalog.songs', s: aliceCatalog, k: [isrcOf(301)] }) });
      expect(positioned.items.map((s) => s.isrc)).toEqual([isrcOf(302), isrcOf(303)]);
    });

    it('refuses both sizes or both starts, and bounds first like limit, naming the argument', async () => {
      const cases: [Record<string, unknown>, string][] = [
        [{ first: 2, limit: 2 }, 'first'],
        [{ after: aliceCursor, page: 2 }, 'after'],
        [{ first: 0 }, 'first'],
        [{ first: 101 }, 'first'],
      ];
      for (const [args, field] of cases) {
        const res = await t.graphql(SONGS, { id: aliceCatalog, ...args }, alice.headers);
        expect({ args, code: res.body.errors?.[0]?.extensions?.code, field: res.body.errors?.[0]?.extensions?.details?.[0]?.field }).toEqual({ args, code: 'BAD_USER_INPUT', field });
      }
      const root = await t.graphql(RUNS, { first: 101 }, alice.headers);
      expect(root.body.errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', details: [{ field: 'first' }] });
    });

    it('REST pages stay page and limit: cursor members are not REST parameters', async () => {
      const res = await t.http().get('/api/catalogs/songs').query({ catalog_id: aliceCatalog, limit: 2 }).set(alice.headers);
      expect(res.status).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual(['pagination', 'songs', 'status']);
      expect(res.body.pagination).toEqual({ total_count: 4, page: 1, limit: 2, total_pages: 2 });
    });
  });
});
