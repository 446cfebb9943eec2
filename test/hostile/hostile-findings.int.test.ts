import { Client, createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { restRoutes } from '../../src/http/rest/routes';
import { createTestApp, GRAPHQL_RESPONSE_JSON, TestApp } from '../app';
import { as, DEMO, router } from '../demo';
import { rawHttp } from '../support/raw-http';

/**
 * Issue 11 findings, one regression test each: hostile input that used to reach a 500 (or be acted
 * on) and must now be a 4xx naming the field, with nothing written.
 */
const NUL = '\u0000';
const LONE_SURROGATE = '\ud800';

function nested(depth: number, leaf = '1'): string {
  return `${'['.repeat(depth)}${leaf}${']'.repeat(depth)}`;
}

describe('hostile input findings (issue 11)', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await createTestApp();
    await new Promise<void>((resolve) => t.app.server.listen(0, '127.0.0.1', resolve));
    port = (t.app.server.address() as { port: number }).port;
  });
  afterAll(async () => {
    await t.close();
  });

  const sessionCount = async () => (await t.orm.em.getConnection().execute('select count(*)::int as n from sessions'))[0].n as number;
  const runCount = async () => (await t.orm.em.getConnection().execute('select count(*)::int as n from render_runs'))[0].n as number;

  describe('characters PostgreSQL cannot store', () => {
    it('a NUL in a REST body field is a 400 naming the field, and nothing is written', async () => {
      const before = await sessionCount();
      const res = await t.http().post('/api/sessions').set(as.nora).send({ title: `a${NUL}b` });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'BAD_USER_INPUT', details: [{ field: 'title', message: expect.stringMatching(/NUL/) }] });
      expect(await sessionCount()).toBe(before);
    });

    it('a NUL in a query parameter is a 400 naming the parameter', async () => {
      const res = await t.http().get(`/api/catalogs/songs?catalog_id=${DEMO.catalogNorthwind}&artistName=a%00b`).set(as.nora);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'BAD_USER_INPUT', details: [{ field: 'artistName' }] });
    });

    it('a NUL or an unpaired surrogate inside a JSON object argument is a 400 naming its path, and nothing is queued', async () => {
      const before = await runCount();
      for (const inputProps of [{ title: `x${NUL}` }, { title: LONE_SURROGATE }, { [`ti${NUL}tle`]: 'x' }]) {
        const res = await t.http().post('/api/video/render').set(as.nora).send({ compositionId: 'title-card', inputProps });
        expect(res.status).toBe(400);
        expect(res.body.code).toBe('BAD_USER_INPUT');
        expect(res.body.details[0].field).toMatch(/^inputProps\./);
      }
      expect(await runCount()).toBe(before);
    });

    it('an unpaired surrogate in a text field is a 400, not silently replaced', async () => {
      const res = await t.http().post('/api/sessions').set(as.nora).send({ title: `a${LONE_SURROGATE}` });
      expect(res.status).toBe(400);
      expect(res.body.details).toEqual([{ field: 'title', message: expect.stringMatching(/surrogate/) }]);
    });

    it('a NUL in a GraphQL variable or literal is BAD_USER_INPUT naming the argument, and nothing is written', async () => {
      const before = await sessionCount();
      const byVariable = await t.graphql('mutation($t: String!) { createSession(input: { title: $t }) { id } }', { t: `a${NUL}` }, as.nora);
      const byLiteral = await t.graphql('mutation { createSession(input: { title: "a\\u0000" }) { id } }', {}, as.nora);
      for (const res of [byVariable, byLiteral]) {
        expect(res.body.errors).toHaveLength(1);
        expect(res.body.errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', details: [{ field: 'title' }] });
      }
      const nestedInput = await t.graphql(
        'mutation($s: [CatalogSongInput!]!) { addCatalogSongs(input: { songs: $s }) { isrc } }',
        { s: [{ catalogId: DEMO.catalogNorthwind, isrc: 'GBNWR2400077', name: `x${NUL}` }] },
        as.nora,
      );
      expect(nestedInput.body.errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', details: [{ field: 'songs[0].name' }] });
      expect(await sessionCount()).toBe(before);
    });
  });

  describe('malformed percent-encoding in a path parameter', () => {
    const withParams = restRoutes.filter((r) => /:\w+/.test(r.path));

    it('covers every route with path parameters (13 under /api, plus /media/renders below)', () => {
      expect(withParams.length).toBeGreaterThanOrEqual(13);
    });

    it.each(withParams.map((r) => [`${r.method} /api${r.path}`, r] as const))('%s with %FF in each parameter is a 400 naming it', async (_name, route) => {
      const names = [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1]);
      for (const bad of names) {
        const path = route.path.replace(/:(\w+)/g, (_m, name: string) => (name === bad ? '%FF' : DEMO.luna));
        const res = await t.http()[route.method.toLowerCase() as 'get'](`/api${path}`).set(as.nora);
        expect({ status: res.status, code: res.body.code }).toEqual({ status: 400, code: 'BAD_USER_INPUT' });
        expect(res.body.details).toEqual([{ field: bad, message: expect.stringMatching(/percent-encoding/) }]);
      }
    });

    it.each(['..', '.', '%2e%2E', '.%2E'])('a path parameter that is the dot-segment %s is a 400 naming it, not re-routed', async (dots) => {
      const res = await t.http().delete(`/api/organizations/${DEMO.northwind}/members/${dots}`).set(as.nora);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'BAD_USER_INPUT', details: [{ field: 'accountId' }] });
      const read = await t.http().post(`/api/sessions/${DEMO.sessionNora}/chats/${dots}/read`).set(as.nora);
      expect(read.status).toBe(400);
      expect(read.body.details).toEqual([{ field: 'chatId', message: expect.any(String) }]);
    });

    it('outside /api too (rendered video links)', async () => {
      const res = await t.http().get('/media/renders/%E0%A4%A.mp4');
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('BAD_USER_INPUT');
    });
  });

  describe('deeply nested JSON', () => {
    it('a REST body nested thousands of levels deep is a 400 on the body, and nothing is written', async () => {
      const before = await sessionCount();
      const res = await t.http().post('/api/sessions').set(as.nora).set('content-type', 'application/json').send(`{"title":"deep","x":${nested(20_000)}}`);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'BAD_USER_INPUT', details: [{ field: 'body', message: expect.stringMatching(/nested deeper than \d+ levels/) }] });
      expect(await sessionCount()).toBe(before);
    });

    it('a deep JSON object argument (REST and GraphQL variables) is a 400, and nothing is queued', async () => {
      const before = await runCount();
      const deep = `{"compositionId":"title-card","inputProps":{"title":${nested(20_000, '"x"')}}}`;
      const rest = await t.http().post('/api/video/render').set(as.nora).set('content-type', 'application/json').send(deep);
      expect(rest.status).toBe(400);
      const gql = await t
        .http()
        .post('/graphql')
        .set(as.nora)
        .set(GRAPHQL_RESPONSE_JSON)
        .set('content-type', 'application/json')
        .send(`{"query":"mutation($p: JSONObject) { renderVideo(input: { compositionId: \\"title-card\\", inputProps: $p }) { id } }","variables":{"p":{"title":${nested(20_000, '"x"')}}}}`);
      expect(gql.status).toBe(400);
      expect(gql.body.errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', details: [{ field: 'variables', message: expect.stringMatching(/nested deeper/) }] });
      expect(await runCount()).toBe(before);
    });

    it('a wide body of thousands of bad items answers a bounded 400 (no megabyte error)', async () => {
      const res = await t.http().delete('/api/catalogs').set(as.nora).set('content-type', 'application/json').send(`{"catalogs":[${Array.from({ length: 10_000 }, (_, i) => i).join(',')}]}`);
      expect(res.status).toBe(400);
      expect(res.body.details).toHaveLength(20);
      expect(res.body.error).toMatch(/and 9980 more/);
      expect(res.text.length).toBeLessThan(5_000);
    });

    it('a body within the depth limit still works', async () => {
      const res = await t.http().post('/api/video/render').set(as.nora).send({ compositionId: 'lyric-video', inputProps: { lines: ['one', { text: 'two', startFrame: 0, endFrame: 10 }] } });
      expect(res.status).toBe(200);
    });
  });

  describe('media types', () => {
    it('a JSON body sent as text/plain is a 415 and is not acted on (no cross-site signup)', async () => {
      const email = 'agent+csrf@example.test';
      const res = await t.http().post('/api/agents/signup').set('content-type', 'text/plain').send(JSON.stringify({ email }));
      expect(res.status).toBe(415);
      expect(res.body).toMatchObject({ status: 'error', code: 'UNSUPPORTED_MEDIA_TYPE', details: [{ field: 'content-type' }] });
      const rows = await t.orm.em.getConnection().execute('select count(*)::int as n from accounts where email = ?', [email]);
      expect(rows[0].n).toBe(0);
    });

    it.each(['application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml'])('%s on a body route is a 415', async (type) => {
      const res = await t.http().post('/api/sessions').set(as.nora).set('content-type', type).send('title=x');
      expect(res.status).toBe(415);
      expect(res.body.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    });

    it('a body without a content type is a 415', async () => {
      const res = await t.http().post('/api/sessions').set(as.nora).unset('content-type').send(Buffer.from('{"title":"x"}'));
      expect(res.status).toBe(415);
    });

    it('a JSON body in another charset than UTF-8 is a 415', async () => {
      const res = await t.http().post('/api/sessions').set(as.nora).set('content-type', 'application/json; charset=latin1').send('{"title":"x"}');
      expect(res.status).toBe(415);
    });

    it('a body that does not decompress as its Content-Encoding says is a 400 on the body (REST and GraphQL)', async () => {
      const rest = await t.http().post('/api/sessions').set(as.nora).set('content-type', 'application/json').set('content-encoding', 'gzip').send('{"title":"x"}');
      expect(rest.status).toBe(400);
      expect(rest.body).toMatchObject({ code: 'BAD_USER_INPUT', details: [{ field: 'body' }] });
      const gql = await t.http().post('/graphql').set(as.nora).set('content-type', 'application/json').set('content-encoding', 'deflate').send('{"query":"{ me { name } }"}');
      expect(gql.status).toBe(400);
      expect(gql.body.code).toBe('BAD_USER_INPUT');
    });

    it('application/json with a charset, and a body-less request with no content type, are accepted', async () => {
      const json = await t.http().post('/api/sessions').set(as.nora).set('content-type', 'application/json; charset=utf-8').send('{"title":"typed"}');
      expect(json.status).toBe(200);
      const session = json.body.session.id as string;
      const chat = await t.http().post(`/api/sessions/${session}/chats`).set(as.nora).send({ title: 'c' });
      const read = await t.http().post(`/api/sessions/${session}/chats/${chat.body.chat.id}/read`).set(as.nora);
      expect(read.status).toBe(200);
    });

    it('a GraphQL POST as text/plain or a form is refused before it runs', async () => {
      const before = await sessionCount();
      for (const type of ['text/plain', 'application/x-www-form-urlencoded']) {
        const res = await t.http().post('/graphql').set(as.nora).set('content-type', type).send('{"query":"mutation { createSession(input: { title: \\"csrf\\" }) { id } }"}');
        // 415 UNSUPPORTED_MEDIA_TYPE, as the REST face answers the same body.
        expect({ status: res.status, code: res.body.code }).toEqual({ status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' });
      }
      expect(await sessionCount()).toBe(before);
    });
  });

  describe('GraphQL over HTTP', () => {
    it.each([[2147483648], ['x'], [{ __typename: 5 }], [{ __typename: 'Nope', id: 'x' }], [{ __typename: 'Query' }], [{ __typename: '__Schema' }]])(
      '_entities with the representation %j is BAD_USER_INPUT naming it, not a 500',
      async (representation) => {
        const res = await t.graphql('query($r: [_Any!]!) { _entities(representations: $r) { __typename } }', { r: [representation] }, { ...as.nora, ...router });
        expect(res.status).toBeLessThan(500);
        expect(res.body.errors).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'BAD_USER_INPUT', details: [expect.objectContaining({ field: expect.stringMatching(/^representations\[0\]/) })] }) })]);
      },
    );


    it('a subscription sent over HTTP is a 400 pointing to websockets, not a 500', async () => {
      const res = await t.graphql(`subscription { renderRun(runId: "${DEMO.sessionNora}") { status } }`, {}, as.nora);
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([expect.objectContaining({ message: expect.stringMatching(/websocket/i), extensions: { code: 'BAD_USER_INPUT' } })]);
    });
  });

  describe('GraphQL over websockets', () => {
    it('a deep or NUL-bearing variable is refused with BAD_USER_INPUT', async () => {
      const client: Client = createClient({
        url: `ws://127.0.0.1:${port}/graphql`,
        webSocketImpl: WebSocket,
        connectionParams: as.nora,
        retryAttempts: 0,
        lazy: true,
      });
      const subscribe = (variables: Record<string, unknown>) =>
        new Promise<unknown[]>((resolve) => {
          const errors: unknown[] = [];
          client.subscribe({ query: 'subscription($id: String!) { renderRun(runId: $id) { status } }', variables }, {
            next: (msg) => {
              if (msg.errors) errors.push(...msg.errors);
            },
            error: (error) => resolve([...errors, ...(Array.isArray(error) ? error : [error])]),
            complete: () => resolve(errors),
          });
        });
      try {
        const nul = await subscribe({ id: `x${NUL}` });
        expect(nul).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'BAD_USER_INPUT' }) })]);
        let deep: unknown = 'x';
        for (let i = 0; i < 2_000; i += 1) deep = [deep];
        // A well-formed id of no run (NOT_FOUND) unless the deep variable is refused first.
        const tooDeep = await subscribe({ id: '00000000-0000-4000-8000-00000000dead', extra: deep });
        expect(tooDeep).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'BAD_USER_INPUT' }) })]);
      } finally {
        await client.dispose();
      }
    });
  });

  describe('large bodies on every method (issue 24)', () => {
    // Past REQUEST_BODY_LIMIT (1mb), sent the way a keep-alive client sends it (16 KB writes).
    const TOO_LARGE = Buffer.from(JSON.stringify({ songs: [], padding: 'z'.repeat(1100 * 1024) }));
    const paths = [...new Set(restRoutes.map((r) => `/api${r.path.replace(/:\w+/g, DEMO.luna)}`)), '/graphql', '/api/no/such/route', '/media/renders/x.mp4'];

    it.each(['POST', 'PUT', 'PATCH', 'DELETE', 'GET', 'OPTIONS'])('%s of a body past the limit on every route: 413 with its code, read by the client, no 5xx, no reset', async (method) => {
      const problems: string[] = [];
      for (const path of paths) {
        for (const chunked of [false, true]) {
          const res = await rawHttp(port, { method, path, chunked, headers: { 'Content-Type': 'application/json', ...as.nora }, body: TOO_LARGE });
          // A chunked body sent with a method that reads none is discarded and the route answers.
          const discarded = chunked && (method === 'GET' || method === 'OPTIONS') && res.status < 500 && res.status !== 413;
          const ok = res.error === undefined && (discarded || (res.status === 413 && (JSON.parse(res.body) as { code?: string }).code === 'PAYLOAD_TOO_LARGE'));
          if (!ok) problems.push(`${method} ${path} chunked=${chunked} → ${res.status} ${res.error ?? ''} ${res.body.slice(0, 100)}`);
        }
      }
      expect(problems).toEqual([]);
    });
  });
  it('an admin acting for an account that does not exist gets a 404 naming no account, never a 500, and nothing is written (found by the hostile suite)', async () => {
    const nobody = '00000000-0000-4000-8000-00000000ffff';
    const count = async () => Number((await t.orm.em.getConnection().execute<{ n: string }[]>('select count(*) as n from catalogs'))[0].n);
    const before = await count();
    const answers = [
      await t.http().post('/api/catalogs').set(as.ada).send({ name: 'For nobody', account_id: nobody }),
      await t.http().get('/api/catalogs').query({ account_id: nobody }).set(as.ada),
      await t.http().get('/api/artists').query({ account_id: nobody }).set(as.ada),
    ];
    expect(answers.map((a) => [a.status, a.body.code])).toEqual([
      [404, 'NOT_FOUND'],
      [404, 'NOT_FOUND'],
      [404, 'NOT_FOUND'],
    ]);
    const graph = await t.graphql('mutation($input: AddCatalogInput!) { addCatalog(input: $input) { id } }', { input: { name: 'For nobody', accountId: nobody } }, as.ada);
    expect(graph.body.errors[0].extensions.code).toBe('NOT_FOUND');
    expect(await count()).toBe(before);
  });
});
