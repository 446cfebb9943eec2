import { createTestApp, TestApp } from './app';
import { as, DEMO } from './demo';

/**
 * Issue 30 finding 2: every list the graph and REST return is paged or held to a per-parent cap,
 * enforced at write time (400 naming the field, nothing written) and again by the read's LIMIT.
 */
describe('bounds on every list (real PostgreSQL)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => t.orm.em.getConnection().execute(text, params) as Promise<T[]>;
  const count = async (text: string, params: unknown[] = []) => (await sql<{ n: number }>(text, params))[0].n;
  const dummyAccounts = (n: number, kind = 'person') =>
    sql<{ id: string }>(`insert into accounts (id, kind, name, created_at, updated_at) select gen_random_uuid(), ?, 'Bound ' || g, now(), now() from generate_series(1, ?) g returning id`, [kind, n]);

  describe('the roster: GET /api/artists and Query.artists take limit and offset', () => {
    it('answers `limit` artists from `offset`, by name; past the maximum a 400 naming the parameter', async () => {
      const all = await t.http().get('/api/artists').set(as.nora);
      expect(all.status).toBe(200);
      expect(all.body.artists.length).toBeGreaterThanOrEqual(2);
      const second = await t.http().get('/api/artists').query({ limit: 1, offset: 1 }).set(as.nora);
      expect(second.status).toBe(200);
      expect(second.body.artists).toEqual([all.body.artists[1]]);
      const over = await t.http().get('/api/artists').query({ limit: 501 }).set(as.nora);
      expect(over.status).toBe(400);
      expect(over.body).toMatchObject({ code: 'BAD_USER_INPUT', details: [{ field: 'limit' }] });
      const graph = await t.graphql('{ artists(limit: 1, offset: 1) { items { id } } }', {}, as.nora);
      expect(graph.body.data.artists.items).toEqual([{ id: all.body.artists[1].id }]);
    });

    it('answers at most 100 artists without a limit, however long the roster', async () => {
      const me = (await t.http().get('/api/accounts/me').set(as.sam)).body.account.id as string;
      const artists = await dummyAccounts(120, 'artist');
      await sql(`insert into roster_entries (id, owner_id, artist_id, created_at, updated_at) select gen_random_uuid(), ?, t.id, now(), now() from unnest(?::uuid[]) t(id)`, [
        me,
        `{${artists.map((a) => a.id).join(',')}}`,
      ]);
      const res = await t.http().get('/api/artists').set(as.sam);
      expect(res.status).toBe(200);
      expect(res.body.artists).toHaveLength(100);
      const full = (await t.http().get('/api/artists').query({ limit: 500 }).set(as.sam)).body.artists;
      expect(full.length).toBeGreaterThanOrEqual(120);
      expect(res.body.artists).toEqual(full.slice(0, 100));
      const rest = await t.http().get('/api/artists').query({ limit: 500, offset: 100 }).set(as.sam);
      expect(rest.body.artists).toEqual(full.slice(100));
    });
  });

  describe('catalogs of an account (100) and accounts of a catalog (50)', () => {
    it('an account holding 100 catalogs cannot create or link one more (400 naming the field); GET /api/catalogs answers the 100', async () => {
      const me = (await t.http().get('/api/accounts/me').set(as.otto)).body.account.id as string;
      const held = await count('select count(*)::int as n from account_catalogs where account_id = ?', [me]);
      const catalogs = await sql<{ id: string }>(`insert into catalogs (id, name, created_at, updated_at) select gen_random_uuid(), 'Held ' || lpad(g::text, 3, '0'), now(), now() from generate_series(1, ?) g returning id`, [99 - held]);
      await sql(`insert into account_catalogs (id, account_id, catalog_id, created_at, updated_at) select gen_random_uuid(), ?, t.id, now(), now() from unnest(?::uuid[]) t(id)`, [
        me,
        `{${catalogs.map((c) => c.id).join(',')}}`,
      ]);
      // The 100th is at the bound: it is created.
      const last = await t.http().post('/api/catalogs').set(as.otto).send({ name: 'The hundredth' });
      expect(last.status).toBe(200);
      const before = await count('select count(*)::int as n from catalogs');
      const over = await t.http().post('/api/catalogs').set(as.otto).send({ name: 'One too many' });
      expect(over.status).toBe(400);
      expect(over.body).toMatchObject({ code: 'BAD_USER_INPUT', details: [{ field: 'name', message: expect.stringContaining('100 catalogs') }] });
      const link = await t.http().post('/api/catalogs').set(as.otto).send({ catalog_id: last.body.catalog.id === catalogs[0].id ? catalogs[1].id : catalogs[0].id });
      expect(link.status).toBe(200); // linked already: nothing new, not refused
      expect(await count('select count(*)::int as n from catalogs')).toBe(before);
      const list = await t.http().get('/api/catalogs').set(as.otto);
      expect(list.body.catalogs).toHaveLength(100);
      expect((await t.graphql('{ catalogs { items { id } } }', {}, as.otto)).body.data.catalogs.items).toHaveLength(100);
    });

    it('a catalog linked to 50 accounts takes no 51st link (400 naming catalog_id); Catalog.accounts answers the 50', async () => {
      const created = await t.http().post('/api/catalogs').set(as.nora).send({ name: 'Widely linked' });
      const catalogId = created.body.catalog.id as string;
      const others = await dummyAccounts(49);
      await sql(`insert into account_catalogs (id, account_id, catalog_id, created_at, updated_at) select gen_random_uuid(), t.id, ?, now(), now() from unnest(?::uuid[]) t(id)`, [
        catalogId,
        `{${others.map((a) => a.id).join(',')}}`,
      ]);
      const links = () => count('select count(*)::int as n from account_catalogs where catalog_id = ?', [catalogId]);
      expect(await links()).toBe(50);
      // Nora may act for Northwind, which is not linked yet: the 51st link is refused.
      const link = await t.http().post('/api/catalogs').set(as.nora).send({ catalog_id: catalogId, account_id: DEMO.northwind });
      expect(link.status).toBe(400);
      expect(link.body).toMatchObject({ code: 'BAD_USER_INPUT', details: [{ field: 'catalog_id', message: expect.stringContaining('50 accounts') }] });
      expect(await links()).toBe(50);
      const graph = await t.graphql(`{ catalog(id: "${catalogId}") { accounts { items { id } pagination { totalCount } } } }`, {}, as.nora);
      expect(graph.body.data.catalog.accounts.items).toHaveLength(50);
      expect(graph.body.data.catalog.accounts.pagination.totalCount).toBe(50);
    });
  });

  it('a song credited to more artists than the bound (older data) answers the first 50, on REST and in the graph', async () => {
    const [entry] = await sql<{ id: string; isrc: string }>(`select id, isrc from catalog_songs where catalog_id = ? order by isrc limit 1`, [DEMO.catalogNorthwind]);
    const artists = await dummyAccounts(60, 'artist');
    await sql(`insert into catalog_song_artists (id, catalog_song_id, artist_id, created_at, updated_at) select gen_random_uuid(), ?, t.id, now(), now() from unnest(?::uuid[]) t(id)`, [
      entry.id,
      `{${artists.map((a) => a.id).join(',')}}`,
    ]);
    const rest = await t.http().get('/api/catalogs/songs').query({ catalog_id: DEMO.catalogNorthwind }).set(as.nora);
    expect(rest.body.songs.find((s: { isrc: string }) => s.isrc === entry.isrc).artists).toHaveLength(50);
    const graph = await t.graphql(`{ song(isrc: "${entry.isrc}") { credits { id } artists { id } } }`, {}, as.nora);
    expect(graph.body.data.song.credits).toHaveLength(50);
    expect(graph.body.data.song.artists).toHaveLength(50);
  });

  describe('sessions (500 an account) and chats (200 a session)', () => {
    it('a 501st session and a 201st chat are 400s naming the field, nothing written; the lists answer the bound', async () => {
      const me = (await t.http().get('/api/accounts/me').set(as.ada)).body.account.id as string;
      const held = await count('select count(*)::int as n from sessions where account_id = ?', [me]);
      await sql(`insert into sessions (id, account_id, title, created_at, updated_at) select gen_random_uuid(), ?, 'S' || g, now(), now() from generate_series(1, ?) g`, [me, 499 - held]);
      const atBound = await t.http().post('/api/sessions').set(as.ada).send({ title: 'The 500th' });
      expect(atBound.status).toBe(200);
      const over = await t.http().post('/api/sessions').set(as.ada).send({ title: 'One too many' });
      expect(over.status).toBe(400);
      expect(over.body).toMatchObject({ code: 'BAD_USER_INPUT', details: [{ field: 'title', message: expect.stringContaining('500 sessions') }] });
      expect(await count('select count(*)::int as n from sessions where account_id = ?', [me])).toBe(500);
      expect((await t.graphql('{ sessions(limit: 500) { items { id } } }', {}, as.ada)).body.data.sessions.items).toHaveLength(500);
      // Paged: 100 without a limit, the rest from an offset; GET /api/sessions takes the same parameters.
      const firstPage = (await t.graphql('{ sessions { items { id } pagination { totalCount totalPages } pageInfo { hasNextPage } } }', {}, as.ada)).body.data.sessions;
      expect(firstPage.items).toHaveLength(100);
      expect(firstPage).toMatchObject({ pagination: { totalCount: 500, totalPages: 5 }, pageInfo: { hasNextPage: true } });
      const tail = await t.http().get('/api/sessions').query({ limit: 500, offset: 450 }).set(as.ada);
      expect(tail.body.sessions).toHaveLength(50);

      const sessionId = atBound.body.session?.id ?? atBound.body.id;
      await sql(`insert into chats (id, session_id, title, created_at, updated_at) select gen_random_uuid(), ?, 'C' || g, now(), now() from generate_series(1, 199) g`, [sessionId]);
      const lastChat = await t.http().post(`/api/sessions/${sessionId}/chats`).set(as.ada).send({ title: 'The 200th' });
      expect(lastChat.status).toBe(200);
      const chatOver = await t.http().post(`/api/sessions/${sessionId}/chats`).set(as.ada).send({ title: 'One too many' });
      expect(chatOver.status).toBe(400);
      expect(chatOver.body).toMatchObject({ code: 'BAD_USER_INPUT', details: [{ field: 'sessionId', message: expect.stringContaining('200 chats') }] });
      const chats = await t.http().get(`/api/sessions/${sessionId}/chats`).set(as.ada);
      expect(chats.body.chats).toHaveLength(200);
    });
  });

  it('an artist with 500 social profiles takes no new one (400 naming profile_url); an existing URL still updates', async () => {
    const held = await count('select count(*)::int as n from socials where account_id = ?', [DEMO.luna]);
    const rows = await sql<{ id: string }>(
      `insert into socials (id, account_id, profile_url, username, created_at, updated_at)
       select gen_random_uuid(), ?, 'https://social.test/luna/' || g, 'luna' || g, now(), now() from generate_series(1, ?) g returning id`,
      [DEMO.luna, 499 - held],
    );
    await sql(`insert into account_socials (id, account_id, social_id, created_at, updated_at) select gen_random_uuid(), ?, t.id, now(), now() from unnest(?::uuid[]) t(id)`, [
      DEMO.luna,
      `{${rows.map((r) => r.id).join(',')}}`,
    ]);
    const post = (url: string) => t.http().post(`/api/artists/${DEMO.luna}/socials`).set(as.nora).send({ profile_url: url, username: 'luna' });
    expect((await post('https://social.test/luna/the-500th')).status).toBe(200);
    const over = await post('https://social.test/luna/one-too-many');
    expect(over.status).toBe(400);
    expect(over.body).toMatchObject({ code: 'BAD_USER_INPUT', details: [{ field: 'profile_url', message: expect.stringContaining('500 social profiles') }] });
    expect(await count('select count(*)::int as n from socials where account_id = ?', [DEMO.luna])).toBe(500);
    expect((await post('https://social.test/luna/1')).status).toBe(200);
  });

  it('agent templates take limit and offset (default 500), by title', async () => {
    const all = await t.http().get('/api/agents/templates').set(as.nora);
    expect(all.status).toBe(200);
    expect(all.body.templates.length).toBeGreaterThanOrEqual(2);
    const second = await t.http().get('/api/agents/templates').query({ limit: 1, offset: 1 }).set(as.nora);
    expect(second.body.templates.map((x: { id: string }) => x.id)).toEqual([all.body.templates[1].id]);
    const over = await t.http().get('/api/agents/templates').query({ limit: 501 }).set(as.nora);
    expect(over.status).toBe(400);
    expect(over.body.details).toEqual([{ field: 'limit', message: 'must be at most 500' }]);
  });

  it('Artist.catalogs and Song.catalogs answer the first `limit` by name (default 20, at most 100)', async () => {
    const res = await t.graphql(`{ artist(id: "${DEMO.luna}") { catalogs(limit: 1) { items { name } } all: catalogs { items { name } } } }`, {}, as.nora);
    expect(res.body.data.artist.catalogs.items).toEqual([res.body.data.artist.all.items[0]]);
    const over = await t.graphql(`{ artist(id: "${DEMO.luna}") { catalogs(limit: 101) { items { name } } } }`, {}, as.nora);
    expect(over.body.errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', details: [{ field: 'limit' }] });
  });
});
