import { Client, createClient, FormattedExecutionResult } from 'graphql-ws';
import type { AddressInfo } from 'node:net';
import WebSocket from 'ws';
import { createHash } from 'node:crypto';
import { getIntrospectionQuery } from 'graphql';
import { createTestApp, GRAPHQL_RESPONSE_JSON, TestApp } from './app';
import { createAccount } from './factories';
import { as } from './demo';
import { doublingFragments } from './support/documents';

/** Every GraphQL answer over HTTP carries its cost (test/cost.int.test.ts tests what it says). */
const COST = { cost: expect.objectContaining({ actualQueryCost: expect.any(Number) }) };

/** k aliases of `types`, each with k aliases of `fields` with their arguments and types: an answer growing as k^2 from a document growing as k. */
const aliasedIntrospection = (k: number) => {
  const aliases = (field: string, body: string) => Array.from({ length: k }, (_, i) => `${field[0]}${i}: ${field} ${body}`).join(' ');
  return `{ __schema { ${aliases('types', '{ ...T }')} } } fragment T on __Type { name ${aliases('fields', '{ name args { name type { name } } type { name ofType { name } } }')} }`;
};

/**
 * Issue 30 finding 1 and issue 24 findings 4–5: documents whose cost is exponential in their size
 * (doubling fragments, aliased introspection) are answered or refused cheaply, over HTTP and
 * graphql-ws, and every client mistake is a 4xx with its own code whatever executor runs it.
 */
describe('GraphQL documents that used to blow up', () => {
  let t: TestApp;
  let port: number;
  let client: Client;

  beforeAll(async () => {
    t = await createTestApp();
    await new Promise<void>((resolve) => t.app.server.listen(0, '127.0.0.1', resolve));
    port = (t.app.server.address() as AddressInfo).port;
    client = createClient({ url: `ws://127.0.0.1:${port}/graphql`, webSocketImpl: WebSocket, connectionParams: as.nora, retryAttempts: 0, lazy: true });
  });
  afterAll(async () => {
    await client?.dispose();
    await t?.close();
  });

  /** Every message an operation gets over graphql-ws: its results, and its errors when it is refused. */
  const overWebsocket = (query: string, variables?: Record<string, unknown>, operationName?: string) =>
    new Promise<{ results: FormattedExecutionResult<Record<string, unknown>, unknown>[]; errors: unknown[] }>((resolve) => {
      const results: FormattedExecutionResult<Record<string, unknown>, unknown>[] = [];
      client.subscribe({ query, variables, operationName }, {
        next: (result) => void results.push(result),
        error: (error) => resolve({ results, errors: Array.isArray(error) ? error : [error] }),
        complete: () => resolve({ results, errors: [] }),
      });
    });

  describe('fragments each spreading the next twice (2^30 paths)', () => {
    it('a cheap one is answered over HTTP and graphql-ws', async () => {
      const query = doublingFragments(30);
      const http = await t.graphql(query, undefined, as.nora);
      expect(http.status).toBe(200);
      expect(http.body).toEqual({ data: { __typename: 'Query' }, extensions: COST });
      // Again: the second run is the compiled one by default.
      expect((await t.graphql(query, undefined, as.nora)).body).toEqual({ data: { __typename: 'Query' }, extensions: COST });
      const ws = await overWebsocket(query);
      expect(ws).toEqual({ results: [{ data: { __typename: 'Query' }, extensions: COST }], errors: [] });
    });

    it('one selecting a field 2^30 times is refused with BAD_USER_INPUT naming its cost, over HTTP and graphql-ws', async () => {
      const query = doublingFragments(30, 'me { id }');
      const http = await t.graphql(query, undefined, as.nora);
      expect(http.status).toBe(400);
      expect(http.body.errors).toEqual([expect.objectContaining({ message: expect.stringMatching(/^Operation cost 1073741824 exceeds the maximum/), extensions: expect.objectContaining({ code: 'BAD_USER_INPUT' }) })]);
      const ws = await overWebsocket(query);
      expect(ws.results).toEqual([]);
      expect(ws.errors).toEqual([expect.objectContaining({ message: expect.stringMatching(/^Operation cost 1073741824 exceeds the maximum/), extensions: expect.objectContaining({ code: 'BAD_USER_INPUT' }) })]);
    });

    it('below a field too: 2^30 selections of a list inside `me` are refused by cost', async () => {
      const fragments = Array.from({ length: 30 }, (_, i) => `fragment F${i} on AccountProfile { ...F${i + 1} ...F${i + 1} }`);
      const query = `{ me { ...F0 } } ${fragments.join(' ')} fragment F30 on AccountProfile { organizations { id } }`;
      const http = await t.graphql(query, undefined, as.nora);
      expect(http.status).toBe(400);
      expect(http.body.errors).toEqual([expect.objectContaining({ message: expect.stringMatching(/^Operation cost \d+ exceeds the maximum/), extensions: expect.objectContaining({ code: 'BAD_USER_INPUT' }) })]);
    });
  });

  describe('introspection', () => {
    it('a k-aliased introspection document is refused at once by cost, while the server answers others', async () => {
      const attack = aliasedIntrospection(9);
      expect(Buffer.byteLength(attack)).toBeLessThan(1_000);
      const answers = await Promise.all([
        ...Array.from({ length: 4 }, () => t.graphql(attack)),
        t.graphql('{ me { name } }', undefined, as.nora),
        ...Array.from({ length: 4 }, () => t.graphql(attack, undefined, as.nora)),
      ]);
      const me = answers.splice(4, 1)[0]!;
      expect(me.status).toBe(200);
      expect(me.body).toEqual({ data: { me: { name: expect.any(String) } }, extensions: COST });
      for (const refused of answers) {
        expect(refused.status).toBe(400);
        expect(refused.body.errors).toEqual([expect.objectContaining({ message: expect.stringMatching(/^Operation cost \d+ exceeds the maximum of 600/), extensions: expect.objectContaining({ code: 'BAD_USER_INPUT' }) })]);
        // The refusal is a short answer, not megabytes.
        expect(refused.text.length).toBeLessThan(1_000);
      }
      const ws = await overWebsocket(attack);
      expect(ws.errors).toEqual([expect.objectContaining({ message: expect.stringMatching(/^Operation cost \d+ exceeds the maximum/), extensions: expect.objectContaining({ code: 'BAD_USER_INPUT' }) })]);
    });

    it('an IDE’s introspection query is still answered (and weighed: it costs a few hundred objects)', async () => {
      const res = await t.graphql(getIntrospectionQuery(), undefined, as.nora);
      expect(res.status).toBe(200);
      expect(res.body.data.__schema.types.length).toBeGreaterThan(50);
      expect(Number(res.headers['ratelimit-limit']) - Number(res.headers['ratelimit-remaining'])).toBeGreaterThan(0);
    });
  });

  describe('client mistakes are 4xx with their own code, never a 500', () => {
    it.each(['foo', 'constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'])('operationName %j naming no operation is a 400 OPERATION_RESOLUTION_FAILURE, run after run', async (name) => {
      for (let run = 0; run < 2; run += 1) {
        const res = await t.http().post('/graphql').set(as.nora).set(GRAPHQL_RESPONSE_JSON).send({ query: 'query A { __typename } query B { me { id } }', operationName: name });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ errors: [{ message: `Unknown operation named "${name}".`, extensions: { code: 'OPERATION_RESOLUTION_FAILURE' } }], extensions: COST });
      }
    });

    it('an APQ hash that does not match its query is a 400 PERSISTED_QUERY_HASH_MISMATCH, logged as nothing unexpected', async () => {
      const logged = jest.spyOn(t.deps.logger, 'error');
      try {
        const res = await t.http().post('/graphql').set(as.nora).set(GRAPHQL_RESPONSE_JSON).send({ query: '{ __typename }', extensions: { persistedQuery: { version: 1, sha256Hash: 'abc' } } });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ errors: [{ message: 'provided sha does not match query', extensions: { code: 'PERSISTED_QUERY_HASH_MISMATCH' } }], extensions: COST });
        const version = await t.http().post('/graphql').set(as.nora).set(GRAPHQL_RESPONSE_JSON).send({ query: '{ __typename }', extensions: { persistedQuery: { version: 2, sha256Hash: 'abc' } } });
        expect(version.status).toBe(400);
        expect(version.body.errors).toEqual([expect.objectContaining({ extensions: { code: 'BAD_REQUEST' } })]);
        expect(logged).not.toHaveBeenCalled();
        // The matching hash still works, and the registered query then runs by its hash alone.
        const query = '{ me { id } }';
        const sha256Hash = createHash('sha256').update(query).digest('hex');
        expect((await t.http().post('/graphql').set(as.nora).send({ query, extensions: { persistedQuery: { version: 1, sha256Hash } } })).body.data.me.id).toEqual(expect.any(String));
        expect((await t.http().post('/graphql').set(as.nora).send({ extensions: { persistedQuery: { version: 1, sha256Hash } } })).body.data.me.id).toEqual(expect.any(String));
      } finally {
        logged.mockRestore();
      }
    });
  });

  describe('graphql-ws answers a client’s mistakes as HTTP does', () => {
    const cases: [string, { query: string; variables?: Record<string, unknown>; operationName?: string }][] = [
      ['an unknown operation name', { query: 'query A { me { id } }', operationName: 'nope' }],
      ['operationName constructor', { query: 'query A { me { id } }', operationName: 'constructor' }],
      ['operationName __proto__', { query: 'query A { me { id } } query B { __typename }', operationName: '__proto__' }],
      ['two operations and no name', { query: 'query A { me { id } } query B { __typename }' }],
      ['a variable of the wrong type', { query: 'query($n: Int!) { artists(limit: $n) { items { id } } }', variables: { n: 'many' } }],
      ['a missing required variable', { query: 'query($n: Int!) { artists(limit: $n) { items { id } } }', variables: {} }],
      ['a null non-null variable', { query: 'query($id: ID!) { artist(id: $id) { id } }', variables: { id: null } }],
      ['an unknown field', { query: '{ me { nope } }' }],
      ['a document that does not parse', { query: '{ me { id }' }],
      ['a document too deep', { query: `{ artists { items { ${'catalogs { items { songs { items { artists { '.repeat(4)} name ${'} } } } } '.repeat(4)} } } }` }],
    ];
    it.each(cases)('%s: the same code and message, no stack logged', async (_name, request) => {
      const logged = jest.spyOn(t.deps.logger, 'error');
      try {
        const http = await t.http().post('/graphql').set(as.nora).set(GRAPHQL_RESPONSE_JSON).send(request);
        expect(http.status).toBe(400);
        const ws = await overWebsocket(request.query, request.variables, request.operationName);
        expect(ws.results).toEqual([]);
        const summary = (errors: { message: string; extensions?: { code?: string } }[]) => errors.map((e) => ({ message: e.message, code: e.extensions?.code }));
        expect(summary(ws.errors as never)).toEqual(summary(http.body.errors));
        expect(summary(ws.errors as never)).not.toContainEqual(expect.objectContaining({ code: 'INTERNAL_SERVER_ERROR' }));
        expect(logged).not.toHaveBeenCalled();
      } finally {
        logged.mockRestore();
      }
    });
  });
});

describe('GraphQL answers bounded in size, and refused operations charged', () => {
  let t: TestApp;
  let port: number;
  const MAX = 20_000;

  beforeAll(async () => {
    // The default executor (graphql-js at a document's first run, compiled at its second), real budgets.
    t = await createTestApp({ env: { GRAPHQL_COMPILE_AFTER: '1', GRAPHQL_MAX_RESPONSE_BYTES: String(MAX), RATE_LIMIT_PER_MINUTE: '600' } });
    await new Promise<void>((resolve) => t.app.server.listen(0, '127.0.0.1', resolve));
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(() => t?.close());

  const withClient = async <T>(headers: Record<string, string>, use: (client: Client) => Promise<T>): Promise<T> => {
    const client = createClient({ url: `ws://127.0.0.1:${port}/graphql`, webSocketImpl: WebSocket, connectionParams: headers, retryAttempts: 0, lazy: true });
    try {
      return await use(client);
    } finally {
      await client.dispose();
    }
  };
  const subscribe = (client: Client, query: string) =>
    new Promise<{ results: FormattedExecutionResult<Record<string, unknown>, unknown>[]; errors: unknown[] }>((resolve) => {
      const results: FormattedExecutionResult<Record<string, unknown>, unknown>[] = [];
      client.subscribe({ query }, {
        next: (result) => void results.push(result),
        error: (error) => resolve({ results, errors: Array.isArray(error) ? error : [error] }),
        complete: () => resolve({ results, errors: [] }),
      });
    });

  it('an answer past GRAPHQL_MAX_RESPONSE_BYTES is a 400 saying its size, whichever executor runs it, and over graphql-ws', async () => {
    const tooLarge = { message: expect.stringMatching(new RegExp(`^The answer is \\d+ bytes, more than the maximum of ${MAX}`)), extensions: expect.objectContaining({ code: 'BAD_USER_INPUT' }) };
    const query = getIntrospectionQuery();
    const operations = async () => (await t.http().get('/metrics')).text;
    for (const run of ['interpreted', 'compiled']) {
      const res = await t.graphql(query, undefined, as.nora);
      expect({ run, status: res.status }).toEqual({ run, status: 400 });
      expect(res.body).toEqual({ errors: [expect.objectContaining(tooLarge)], extensions: COST });
      expect(res.text.length).toBeLessThan(1_000);
    }
    expect(await operations()).toMatch(/graphql_operations_total\{execution="compiled"\} [1-9]/);
    // A small answer is untouched.
    expect((await t.graphql('{ me { name } }', undefined, as.nora)).body).toEqual({ data: { me: { name: expect.any(String) } }, extensions: COST });
    const ws = await withClient(as.nora, (client) => subscribe(client, query));
    expect(ws.results).toEqual([{ errors: [expect.objectContaining(tooLarge)], extensions: COST }]);
  });

  it('20 refused operations (too costly, invalid, too deep, unparseable) spend 20 points, over HTTP and graphql-ws', async () => {
    const owner = await createAccount(t.orm);
    const remaining = async () => Number((await t.http().get('/api/accounts/me').set(owner.headers)).headers['ratelimit-remaining']);
    const refusals = [
      aliasedIntrospection(9),
      '{ me { nope } }',
      `{ artists { items { ${'catalogs { items { songs { items { artists { '.repeat(4)} name ${'} } } } } '.repeat(4)} } } }`,
      '{ me { id }',
    ];
    const before = await remaining();
    for (let i = 0; i < 20; i += 1) {
      const res = await t.graphql(refusals[i % refusals.length]!, undefined, owner.headers);
      expect(res.status).toBe(400);
    }
    const afterHttp = await remaining();
    // 20 refusals and the one read of the budget.
    expect(before - afterHttp).toBe(21);
    await withClient(owner.headers, async (client) => {
      for (let i = 0; i < 20; i += 1) expect((await subscribe(client, refusals[i % refusals.length]!)).errors).toHaveLength(1);
    });
    expect(afterHttp - (await remaining())).toBe(21);
  });
});
