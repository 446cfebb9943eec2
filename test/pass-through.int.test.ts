import fc from 'fast-check';
import { parse, type GraphQLSchema } from 'graphql';
import { createTestApp, type TestApp } from './app';
import { addSong, createAccount, createCatalog, type CreatedAccount } from './factories';
import { compileOperation, isCompiled } from '../src/graphql/compile';
import { answerCost, providerFieldsOf } from '../src/graphql/cost';
import { SerializedList, stringifyJson } from '../src/graphql/pass-through';
import { buildPlainSchema } from '../src/graphql/schema';
import { restRouteCalls } from '../src/http/rest/rest.router';
import { routeTable } from '../src/http/rest/routes';
import { createContext } from '../src/request/context';
import { AccountKind } from '../src/modules/account/account.entity';
import { operations, resolvers } from '../src/modules';

/**
 * Issue 31, the data path's pass-through: a songs page's items written by PostgreSQL in the answer's
 * shape answer exactly what the executor answers from the rows (same bytes, same cost), for the REST
 * route, GraphQL over HTTP and any selection; a selection the database cannot write goes the usual way.
 */
describe('songs pages passed through as the JSON the database wrote', () => {
  let t: TestApp;
  let schema: GraphQLSchema;
  let owner: CreatedAccount;
  let catalogId: string;

  // Values a serializer could get wrong: quotes, backslashes, control characters, line separators, astral characters, HTML.
  const NAMES = ['Plain', 'Quote " and \\ backslash', 'Tab\tNew\nline\r\u0001\u001f\u007f', 'Line\u2028sep\u2029', 'Astral 😀 𝄞', '</script><b>&amp;', '\\u0000abc:0', 'Ünïcödé ß'];

  beforeAll(async () => {
    t = await createTestApp({ seed: false });
    schema = await buildPlainSchema({ resolvers });
    owner = await createAccount(t.orm, { name: 'Owner "O"' });
    const second = await createAccount(t.orm, { kind: AccountKind.artist, name: 'Second "Artist" 😀' });
    catalogId = (await createCatalog(t.orm, { linkedTo: [owner.account.id] })).id;
    for (const [i, name] of NAMES.entries()) {
      await addSong(t.orm, catalogId, {
        isrc: `QZPAS26${String(i).padStart(5, '0')}`,
        name,
        album: i % 3 === 0 ? null : `Album ${name}`,
        lyrics: i % 2 === 0 ? null : `Lyrics\n${name}`,
        artistIds: i % 4 === 0 ? [] : i % 4 === 1 ? [owner.account.id] : [owner.account.id, second.account.id],
      });
    }
  });
  afterAll(() => t?.close());

  const context = () => createContext(t.deps, { credentials: { apiKey: owner.headers['x-api-key'] } });

  it('REST: GET /api/catalogs/songs answers the same bytes as the route run without it, in one statement that writes the items', async () => {
    const route = routeTable(operations).find((r) => r.method === 'GET' && r.path === '/catalogs/songs')!;
    const call = restRouteCalls(t.deps, schema, [route]).get(route)!;
    for (const query of [{ catalog_id: catalogId, limit: '3' }, { catalog_id: catalogId, limit: '3', page: '3' }, { catalog_id: catalogId, artistName: 'second "artist" 😀' }, { catalog_id: catalogId, limit: '100', page: '9' }]) {
      const usual = await call.execute(await context(), { params: {}, query, body: undefined });
      expect(usual.ok).toBe(true);
      const measured = await t.sql.measure(() => t.http().get('/api/catalogs/songs').query(query).set(owner.headers));
      expect(measured.result.status).toBe(200);
      expect(measured.result.text).toBe(JSON.stringify(usual.ok && usual.answer));
      expect(measured.statements.filter((sql) => sql.includes('row_to_json(sg_r)'))).toHaveLength(1);
      expect(measured.statements.filter((sql) => sql.includes('json_build_object'))).toHaveLength(0);
    }
  });

  it('REST: 404 for an absent catalog and 403 for one out of reach, as before', async () => {
    const stranger = await createAccount(t.orm, { name: 'Stranger' });
    const absent = await t.http().get('/api/catalogs/songs').query({ catalog_id: '00000000-0000-4000-8000-00000000dead' }).set(owner.headers);
    expect([absent.status, absent.body.code]).toEqual([404, 'NOT_FOUND']);
    const out = await t.http().get('/api/catalogs/songs').query({ catalog_id: catalogId }).set(stranger.headers);
    expect([out.status, out.body.code]).toEqual([403, 'FORBIDDEN']);
    expect(out.text).not.toContain('QZPAS');
  });

  it('GraphQL over HTTP: a compiled run answers the bytes and the cost of the interpreted first run, and writes the items in the database', async () => {
    const query = `query Songs($input: CatalogSongsInput!) {
      catalogSongs(input: $input) { items { isrc name album lyrics updatedAt catalogId artists: credits { id name timestamp __typename } __typename } pageInfo { endCursor hasNextPage } }
    }`;
    const run = () => t.sql.measure(() => t.graphql(query, { input: { catalogId, limit: 100 } }, owner.headers));
    const interpreted = await run();
    const compiled = await run();
    for (const answer of [interpreted, compiled]) expect(answer.result.status).toBe(200);
    // The same bytes (but for the budget left, which each request spends), the same charge (extensions.cost) included.
    const withoutBudget = (text: string) => text.replace(/"throttleStatus":\{[^}]*\}/, '');
    expect(withoutBudget(compiled.result.text)).toBe(withoutBudget(interpreted.result.text));
    expect(compiled.result.body.data.catalogSongs.items).toHaveLength(NAMES.length);
    expect(interpreted.statements.some((sql) => sql.includes('row_to_json(sg_r)'))).toBe(false);
    expect(compiled.statements.filter((sql) => sql.includes('row_to_json(sg_r)'))).toHaveLength(1);
  });

  it('two pages in one operation each go to their own place, and a page whose field is selected twice under one key goes the usual way', async () => {
    const run = async (query: string) => {
      const compiled = compileOperation(schema, parse(query));
      if (!isCompiled(compiled)) throw new Error(compiled.refused);
      const variables = { catalogId };
      const usual = await compiled.run(await context(), variables);
      const passed = await compiled.run(await context(), variables, undefined, { passThrough: true });
      expect(usual.errors).toBeUndefined();
      expect(stringifyJson(passed)).toBe(JSON.stringify(usual));
      return passed.data as Record<string, { items: unknown }>;
    };
    const two = await run(`query Two($catalogId: ID!) {
      a: catalogSongs(input: { catalogId: $catalogId, limit: 2 }) { items { isrc } }
      b: catalogSongs(input: { catalogId: $catalogId, limit: 3, page: 2 }) { items { name credits { name } } }
    }`);
    expect(two.a.items).toBeInstanceOf(SerializedList);
    expect(two.b.items).toBeInstanceOf(SerializedList);
    const merged = await run(`query Merged($catalogId: ID!) {
      catalogSongs(input: { catalogId: $catalogId, limit: 2 }) { items { isrc } }
      catalogSongs(input: { catalogId: $catalogId, limit: 2 }) { items { name } }
    }`);
    expect(Array.isArray(merged.catalogSongs.items)).toBe(true);
  });

  it('two operations at once on one context each put their own lists in place (a run finds its lists by its own root value)', async () => {
    const one = compileOperation(schema, parse(`query One($catalogId: ID!) { catalogSongs(input: { catalogId: $catalogId, limit: 3 }) { items { isrc name } } }`));
    const other = compileOperation(schema, parse(`query Other($catalogId: ID!) { catalogSongs(input: { catalogId: $catalogId, limit: 2, page: 2 }) { items { album } } }`));
    if (!isCompiled(one) || !isCompiled(other)) throw new Error('not compiled');
    const usual = [JSON.stringify(await one.run(await context(), { catalogId })), JSON.stringify(await other.run(await context(), { catalogId }))];
    const shared = await context();
    const answers = await Promise.all([one, other, one].map((operation) => operation.run(shared, { catalogId }, undefined, { passThrough: true })));
    expect(answers.map((answer) => stringifyJson(answer))).toEqual([usual[0], usual[1], usual[0]]);
    for (const answer of answers) expect((answer.data as { catalogSongs: { items: unknown } }).catalogSongs.items).toBeInstanceOf(SerializedList);
  });

  // Song's fields the database writes, a credit's, and fields it does not (which send the page the usual way).
  const SONG = ['isrc', 'name', 'album', 'lyrics', 'updatedAt', 'catalogId', '__typename'];
  const CREDIT = ['id', 'name', 'timestamp', '__typename'];
  const ALIASES = ['a', 'b', 'name', 'isrc', 'x_1'];
  const field = (names: string[]) =>
    // Mostly without a directive (an @include sends the page the usual way).
    fc.record({ name: fc.constantFrom(...names), alias: fc.option(fc.constantFrom(...ALIASES), { nil: undefined }), include: fc.constantFrom(true, true, true, false) });
  // Mostly each response key once (a key twice sends the page the usual way).
  const fields = (names: string[], maxLength: number) =>
    fc.oneof(
      { weight: 4, arbitrary: fc.uniqueArray(field(names), { minLength: 1, maxLength, selector: (f) => f.alias ?? f.name }) },
      { weight: 1, arbitrary: fc.array(field(names), { minLength: 1, maxLength }) },
    );
  const selection = fc.record({
    song: fields(SONG, 7),
    credits: fc.option(fc.record({ alias: fc.option(fc.constantFrom('artists', 'c'), { nil: undefined }), fields: fields(CREDIT, 4) }), { nil: undefined }),
    otherField: fc.constantFrom(false, false, false, true),
    wrap: fc.constantFrom('none', 'inline', 'typed', 'spread'),
    limit: fc.integer({ min: 1, max: 4 }),
    page: fc.integer({ min: 1, max: 3 }),
    filter: fc.boolean(),
  });
  type Selection = typeof selection extends fc.Arbitrary<infer S> ? S : never;
  type Picked = { name: string; alias?: string; include: boolean };

  const fieldText = (f: Picked, directive: boolean) => `${f.alias ? `${f.alias}: ` : ''}${f.name}${directive && !f.include ? ' @include(if: true)' : ''}`;
  const documentOf = (s: Selection, directives: boolean) => {
    const credits = s.credits ? `${s.credits.alias ? `${s.credits.alias}: ` : ''}credits { ${s.credits.fields.map((f) => fieldText(f, directives)).join(' ')} }` : '';
    const inner = [...s.song.map((f) => fieldText(f, directives)), credits, s.otherField ? 'artists { name }' : ''].filter(Boolean).join(' ');
    const items = s.wrap === 'none' ? inner : s.wrap === 'inline' ? `... { ${inner} }` : s.wrap === 'typed' ? `... on Song { ${inner} }` : '...Picked';
    return `query Page($input: CatalogSongsInput!) {
      catalogSongs(input: $input) { items { ${items} } pageInfo { endCursor hasNextPage } pagination { totalCount page limit totalPages } }
    }${s.wrap === 'spread' ? ` fragment Picked on Song { ${inner} }` : ''}`;
  };
  /** Whether the database can write the selection: no directive, each response key once, only the fields it writes. */
  const writable = (s: Selection) => {
    const keys = (fields: Picked[]) => fields.map((f) => f.alias ?? f.name);
    const songKeys = [...keys(s.song), ...(s.credits ? [s.credits.alias ?? 'credits'] : [])];
    const unique = (list: string[]) => new Set(list).size === list.length;
    const noDirective = (fields: Picked[]) => fields.every((f) => f.include);
    return !s.otherField && unique(songKeys) && noDirective(s.song) && (!s.credits || (unique(keys(s.credits.fields)) && noDirective(s.credits.fields)));
  };

  it('any selection of a songs page answers the same bytes passed through as from the rows, and is passed through exactly when the database can write it', async () => {
    await fc.assert(
      fc.asyncProperty(selection, fc.boolean(), async (s, directives) => {
        const document = parse(documentOf(s, directives));
        const compiled = compileOperation(schema, document);
        // A selection graphql-js would refuse (two fields under one response key) is not an operation a client can send.
        if (!isCompiled(compiled)) return;
        const variables = { input: { catalogId, limit: s.limit, page: s.page, ...(s.filter ? { artistName: 'SECOND "artist" 😀' } : {}) } };
        const usual = await compiled.run(await context(), variables);
        const passed = await compiled.run(await context(), variables, undefined, { passThrough: true });
        if (usual.errors?.length) {
          expect(passed.errors?.map((e) => e.message)).toEqual(usual.errors.map((e) => e.message));
          return;
        }
        expect(stringifyJson(passed)).toBe(JSON.stringify(usual));
        // The cost model counts the same objects either way (the items and the credits they hold).
        const providers = providerFieldsOf(schema);
        expect(answerCost(schema, document, undefined, passed.data, providers, 0)).toBe(answerCost(schema, document, undefined, usual.data, providers, 0));
        const items = (passed.data as { catalogSongs: { items: unknown } }).catalogSongs.items;
        if (items instanceof SerializedList) {
          const rows = (usual.data as { catalogSongs: { items: Record<string, unknown>[] } }).catalogSongs.items;
          const creditsKey = s.credits && (s.credits.alias ?? 'credits');
          expect(items.length).toBe(rows.length);
          expect(items.objects).toBe(rows.length + rows.reduce((sum, row) => sum + (creditsKey ? (row[creditsKey] as unknown[]).length : 0), 0));
        }
        expect(items instanceof SerializedList).toBe(writable({ ...s, song: s.song.map((f) => ({ ...f, include: f.include || !directives })), credits: s.credits && { ...s.credits, fields: s.credits.fields.map((f) => ({ ...f, include: f.include || !directives })) } }));
      }),
      { numRuns: 80 },
    );
  });
});
