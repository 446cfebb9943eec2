import { createTestApp, TestApp } from './app';
import { addSong, createAccount, createCatalog, CreatedAccount } from './factories';

/** An answer with the budget left taken out of its extensions.cost: that changes with every request, the rest must not. */
const withoutBudget = (body: { extensions?: { cost?: Record<string, unknown> } }) =>
  JSON.stringify({ ...body, extensions: { ...body.extensions, cost: { ...body.extensions?.cost, throttleStatus: undefined } } });

/** How many GraphQL operations an app ran compiled and interpreted, and how many it compiled (its /metrics). */
async function readOperations(app: TestApp): Promise<{ compiled: number; interpreted: number; compilations: number }> {
  const text = (await app.http().get('/metrics')).text;
  const read = (pattern: string) => Number(new RegExp(`^${pattern} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);
  return {
    compiled: read('graphql_operations_total\\{execution="compiled"\\}'),
    interpreted: read('graphql_operations_total\\{execution="interpreted"\\}'),
    compilations: read('graphql_compilations_total'),
  };
}

/**
 * Apollo runs an operation on graphql-js until its document comes back GRAPHQL_COMPILE_AFTER
 * times (1 by default), then compiled by graphql-jit (src/graphql/executor.ts). A client cannot
 * tell which: the same answers, errors and statuses either way. The whole suite runs the default,
 * as production does; this file checks the two runs of one document against each other.
 */
describe('GraphQL operations compiled once their document comes back', () => {
  let t: TestApp;
  let owner: CreatedAccount;
  let stranger: CreatedAccount;
  let catalogId: string;

  const SONGS = `query Songs($input: CatalogSongsInput!) {
    catalogSongs(input: $input) { items { isrc name artists: credits { name } } pagination { total_count: totalCount page limit total_pages: totalPages } }
  }`;

  const operations = () => readOperations(t);

  beforeAll(async () => {
    t = await createTestApp({ seed: false, env: { GRAPHQL_COMPILE_AFTER: '1' } });
    owner = await createAccount(t.orm, { name: 'Owner' });
    stranger = await createAccount(t.orm, { name: 'Stranger' });
    const catalog = await createCatalog(t.orm, { linkedTo: [owner.account.id] });
    catalogId = catalog.id;
    for (const name of ['One', 'Two', 'Three']) await addSong(t.orm, catalogId, { name, artistIds: [owner.account.id] });
  });
  afterAll(() => t?.close());

  it('answers the same before and after the compilation, and compiles at the second run', async () => {
    const before = await operations();
    const answers = [];
    for (let i = 0; i < 3; i += 1) answers.push(await t.graphql(SONGS, { input: { catalogId: catalogId, limit: 2 } }, owner.headers));
    const after = await operations();
    expect(after.interpreted - before.interpreted).toBe(1);
    expect(after.compiled - before.compiled).toBe(2);
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(withoutBudget(answer.body)).toBe(withoutBudget(answers[0].body));
    }
    expect(answers[0].body.data.catalogSongs.items).toHaveLength(2);
    expect(answers[0].body.data.catalogSongs.items[0].artists).toEqual([{ name: 'Owner' }]);
    expect(answers[0].body.data.catalogSongs.pagination).toEqual({ total_count: 3, page: 1, limit: 2, total_pages: 2 });
  });

  it('runs the compiled operation with each request’s own variables and viewer', async () => {
    const page2 = await t.graphql(SONGS, { input: { catalogId: catalogId, limit: 2, page: 2 } }, owner.headers);
    expect(page2.body.data.catalogSongs.items).toHaveLength(1);
    // The stranger reaches no song of the catalog, compiled or not.
    const refused = await t.graphql(SONGS, { input: { catalogId: catalogId, limit: 2 } }, stranger.headers);
    expect(refused.body.data).toEqual({ catalogSongs: null });
    expect(refused.body.errors).toEqual([
      expect.objectContaining({ path: ['catalogSongs'], extensions: expect.objectContaining({ code: expect.stringMatching(/^(FORBIDDEN|NOT_FOUND)$/) }) }),
    ]);
    expect(JSON.stringify(refused.body)).not.toContain('One');
  });

  it('gives a resolver’s error the same answer whether the operation runs compiled or not', async () => {
    const query = `query Missing($input: CatalogSongsInput!) { catalogSongs(input: $input) { items { isrc } } }`;
    const variables = { input: { catalogId: '00000000-0000-4000-8000-00000000dead', limit: 1 } };
    const before = await operations();
    const first = await t.graphql(query, variables, owner.headers);
    const second = await t.graphql(query, variables, owner.headers);
    expect((await operations()).compiled - before.compiled).toBe(1);
    expect(second.status).toBe(first.status);
    expect(withoutBudget(second.body)).toEqual(withoutBudget(first.body));
    expect(first.body.errors).toEqual([
      {
        message: 'Catalog 00000000-0000-4000-8000-00000000dead not found',
        locations: [{ line: 1, column: 45 }],
        path: ['catalogSongs'],
        extensions: { code: 'NOT_FOUND' },
      },
    ]);
  });

  it('answers variables that do not coerce as graphql-js does (400, the variable named), compiled document or not', async () => {
    // Compiled by its first two runs with good variables.
    await t.graphql(SONGS, { input: { catalogId: catalogId } }, owner.headers);
    const answers = [];
    for (let i = 0; i < 2; i += 1) answers.push(await t.graphql(SONGS, { input: { catalogId: catalogId, limit: 'many' } }, owner.headers));
    for (const answer of answers) {
      expect(answer.status).toBe(400);
      expect(answer.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
      expect(answer.body.errors[0].message).toMatch(/^Variable "\$input" got invalid value "many" at "input.limit"; Int cannot represent non-integer value: "many"/);
      expect(withoutBudget(answer.body)).toEqual(withoutBudget(answers[0].body));
    }
    expect(answers[0].body.data).toBeUndefined();
  });

  it('runs a compiled mutation once per request', async () => {
    const mutation = `mutation Add($input: AddCatalogInput!) { addCatalog(input: $input) { id name } }`;
    const before = await operations();
    const made = [];
    for (const name of ['First', 'Second', 'Third']) made.push(await t.graphql(mutation, { input: { name } }, owner.headers));
    expect((await operations()).compiled - before.compiled).toBe(2);
    expect(made.map((answer) => answer.body.data.addCatalog.name)).toEqual(['First', 'Second', 'Third']);
    const [{ count }] = await t.orm.em
      .fork()
      .getConnection()
      .execute<{ count: string }[]>(`select count(*) from catalogs where name in ('First', 'Second', 'Third')`);
    expect(Number(count)).toBe(3);
  });

  it('compiles nothing for documents that each run once', async () => {
    const before = await operations();
    for (let i = 0; i < 5; i += 1) {
      const answer = await t.graphql(`{ me { id } alias${i}: me { name } }`, undefined, owner.headers);
      expect(answer.body.data[`alias${i}`]).toEqual({ name: 'Owner' });
    }
    const after = await operations();
    expect(after.compiled).toBe(before.compiled);
    expect(after.interpreted - before.interpreted).toBe(5);
  });

  it('keeps a compiled operation: its next runs compile nothing', async () => {
    const before = await operations();
    await t.graphql(SONGS, { input: { catalogId: catalogId, limit: 1 } }, owner.headers);
    const after = await operations();
    expect(after.compiled - before.compiled).toBe(1);
    expect(after.compilations).toBe(before.compilations);
  });
});

describe('GRAPHQL_COMPILED_MAX', () => {
  const query = (n: number) => `query Doc${n} { me { id } }`;

  it('keeps the compiled operations of that many documents, the least recently run dropped first', async () => {
    const t = await createTestApp({ seed: false, env: { GRAPHQL_COMPILE_AFTER: '1', GRAPHQL_COMPILED_MAX: '2' } });
    try {
      const owner = await createAccount(t.orm);
      const run = async (n: number) => expect((await t.graphql(query(n), undefined, owner.headers)).body.data.me.id).toBe(owner.account.id);
      const start = await readOperations(t);
      for (const n of [1, 1, 2, 2]) await run(n);
      expect((await readOperations(t)).compilations - start.compilations).toBe(2);
      // Document 1 was run less recently than 2: a third document drops it, and it is compiled again when it comes back.
      await run(3);
      await run(3);
      await run(2);
      expect((await readOperations(t)).compilations - start.compilations).toBe(3);
      await run(1);
      const end = await readOperations(t);
      expect(end.compilations - start.compilations).toBe(4);
      // Every run after a document's first ran compiled.
      expect(end.compiled - start.compiled).toBe(5);
      expect(end.interpreted - start.interpreted).toBe(3);
    } finally {
      await t.close();
    }
  });

  it('with 0 compiles nothing: every operation runs on graphql-js', async () => {
    const t = await createTestApp({ seed: false, env: { GRAPHQL_COMPILE_AFTER: '0', GRAPHQL_COMPILED_MAX: '0' } });
    try {
      const owner = await createAccount(t.orm);
      for (let i = 0; i < 3; i += 1) expect((await t.graphql(query(1), undefined, owner.headers)).body.data.me.id).toBe(owner.account.id);
      expect(await readOperations(t)).toEqual({ compiled: 0, interpreted: 3, compilations: 0 });
    } finally {
      await t.close();
    }
  });
});
