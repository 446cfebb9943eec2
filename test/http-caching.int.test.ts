import type { OpenApiDocument } from '../src/http/rest/openapi';
import { openApiPath } from '../src/http/rest/openapi';
import { cacheControl, QUERY_CACHE } from '../src/http/caching';
import { routeTable } from '../src/http/rest/routes';
import { operations } from '../src/modules';
import { createTestApp, TestApp } from './app';
import { as, DEMO } from './demo';
import { validRequest } from './support/route-requests';

const routes = routeTable(operations);
const gets = routes.filter((r) => r.method === 'GET');

/** Each REST GET route's Cache-Control, decided route family by route family (docs/api/caching.md). */
const EXPECTED: Record<string, string> = {
  'GET /accounts/me': 'private, no-cache',
  'GET /accounts/me/usage': 'private, no-cache',
  'GET /accounts/:accountId/limits': 'private, no-cache',
  'GET /organizations': 'private, no-cache',
  'GET /keys': 'no-store',
  'GET /artist/socials': 'private, no-cache',
  'GET /artists/:id/socials': 'private, no-cache',
  'GET /artists': 'private, no-cache',
  'GET /catalogs': 'private, no-cache',
  'GET /catalogs/songs': 'private, no-cache',
  'GET /agents/templates': 'private, no-cache',
  'GET /sessions': 'private, no-cache',
  'GET /sessions/:sessionId/chats': 'private, no-cache',
  'GET /research/track/stats': 'private, max-age=60',
  'GET /research/discover': 'private, max-age=60',
  'GET /research/curator': 'private, max-age=60',
  'GET /research/genres': 'private, max-age=60',
  'GET /research/tracks': 'private, max-age=60',
  'GET /research/playlists': 'private, max-age=60',
  'GET /research': 'private, max-age=60',
  'GET /platform_a/search': 'private, max-age=60',
  'GET /video/compositions': 'private, max-age=300',
  'GET /tasks/runs': 'no-store',
  'GET /webhooks': 'private, no-cache',
  'GET /webhooks/:id': 'private, no-cache',
  'GET /webhooks/:id/deliveries': 'private, no-cache',
};

function expectVaryOnCredentials(vary: string | undefined, at: string) {
  const names = (vary ?? '').split(',').map((v) => v.trim().toLowerCase());
  expect({ at, authorization: names.includes('authorization'), apiKey: names.includes('x-api-key') }).toEqual({ at, authorization: true, apiKey: true });
}

describe('Cache-Control and Vary on every GET answer', () => {
  let t: TestApp;
  let doc: OpenApiDocument;
  beforeAll(async () => {
    t = await createTestApp();
    doc = (await t.http().get('/api/openapi.json')).body as OpenApiDocument;
  });
  afterAll(() => t?.close());

  it('every REST GET route has its decision written down (a new route must take one)', () => {
    expect(gets.map((r) => `GET ${r.path}`).sort()).toEqual(Object.keys(EXPECTED).sort());
    for (const route of gets) expect({ route: route.path, decided: Object.hasOwn(QUERY_CACHE, route.operation.split('.')[1]!) }).toEqual({ route: route.path, decided: true });
  });

  it.each(gets.map((r) => [`GET ${r.path}`, r] as const))('%s: its policy and Vary on the credentials; its errors no-store', async (key, route) => {
    const request = await validRequest(t, doc, 'GET', openApiPath(route.path));
    const res = await t.http().get(request.url).query(request.query).set(request.credentials);
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe(EXPECTED[key]);
    expect(res.headers['cache-control']).toBe(cacheControl(QUERY_CACHE[route.operation.split('.')[1]!]!));
    expectVaryOnCredentials(res.headers.vary, key);
    // The same route's failure: never kept, still varying on the credentials.
    const refused = await t.http().get(request.url).query(request.query);
    expect(refused.status).toBe(401);
    expect(refused.headers['cache-control']).toBe('no-store');
    expectVaryOnCredentials(refused.headers.vary, `${key} 401`);
  });

  it('a caller revalidating its own data gets 304 with no body while it is unchanged, and 200 once its write changed it', async () => {
    const path = `/api/catalogs/songs?catalog_id=${DEMO.catalogNorthwind}&limit=5`;
    const first = await t.http().get(path).set(as.nora);
    expect(first.status).toBe(200);
    expect(first.headers['cache-control']).toBe('private, no-cache');
    expect(first.headers.etag).toMatch(/^W\/"[0-9a-f]+-[A-Za-z0-9+/]{27}"$/);
    const again = await t.http().get(path).set(as.nora).set('if-none-match', first.headers.etag);
    expect({ status: again.status, body: again.text }).toEqual({ status: 304, body: '' });
    const [song] = first.body.songs as { isrc: string }[];
    expect((await t.http().post('/api/catalogs/songs').set(as.nora).send({ songs: [{ catalog_id: DEMO.catalogNorthwind, isrc: song.isrc, name: `Renamed ${Date.now()}` }] })).status).toBe(200);
    const changed = await t.http().get(path).set(as.nora).set('if-none-match', first.headers.etag);
    expect(changed.status).toBe(200);
    expect(changed.headers.etag).not.toBe(first.headers.etag);
  });

  it('a write answers no-store (a created key carries its secret)', async () => {
    const res = await t.http().post('/api/keys').set(as.nora).send({ name: 'cache-control check' });
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it.each([
    ['/api/openapi.json', 200, 'public, max-age=300'],
    ['/api/docs', 200, 'public, max-age=300'],
    ['/api/docs/init.js', 200, 'public, max-age=300'],
    ['/graphql/assets/init.js', 200, 'public, max-age=300'],
    ['/welcome', 200, 'public, max-age=300'],
    ['/dashboard', 200, 'public, max-age=300'],
    ['/dashboard/assets/dashboard.js', 200, 'public, max-age=300'],
    ['/favicon.ico', 200, 'public, max-age=86400'],
    ['/healthz', 200, 'no-store'],
    ['/readyz', 200, 'no-store'],
    ['/metrics', 200, 'no-store'],
    ['/api/no-such-route', 404, 'no-store'],
    ['/no-such-page', 404, 'no-store'],
    ['/dashboard/assets/none.js', 404, 'no-store'],
    ['/media/renders/00000000-0000-4000-8000-000000000000.mp4?expires=1&signature=x', 403, 'no-store'],
  ])('GET %s: %d with %s, varying on the credentials', async (path, status, cache) => {
    const res = await t.http().get(path);
    expect(res.status).toBe(status);
    expect(res.headers['cache-control']).toBe(cache);
    expectVaryOnCredentials(res.headers.vary, path);
  });

  it('pages negotiated by Accept vary on it too: / and GET /graphql', async () => {
    const browser = await t.http().get('/').set('accept', 'text/html');
    expect(browser.status).toBe(302);
    expect(browser.headers.vary).toMatch(/Accept/i);
    const client = await t.http().get('/').set('accept', 'application/json');
    expect(client.status).toBe(404);
    expect(client.headers.vary).toMatch(/Accept/i);
    const graphiql = await t.http().get('/graphql').set('accept', 'text/html');
    expect(graphiql.status).toBe(200);
    expect(graphiql.headers.vary).toMatch(/Accept/i);
    expectVaryOnCredentials(graphiql.headers.vary, 'GraphiQL');
  });

  it('a GraphQL GET query takes the strictest policy of its root fields', async () => {
    const get = (query: string) => t.http().get('/graphql').query({ query }).set(as.nora).set('apollo-require-preflight', 'true');
    const cases: [string, string][] = [
      ['{ compositions { id } }', 'private, max-age=300'],
      ['{ researchGenres { id } compositions { id } }', 'private, max-age=60'],
      ['{ compositions { id } me { id } }', 'private, no-cache'],
      ['{ me { id } apiKeys { items { id } } }', 'no-store'],
      ['{ me { id } webhookEndpoints { items { id } } }', 'private, no-cache'],
      ['query { ...F } fragment F on Query { runs { pagination { totalCount } } }', 'no-store'],
      ['{ __typename }', 'private, no-cache'],
    ];
    for (const [query, expected] of cases) {
      const res = await get(query);
      expect({ query, status: res.status, errors: res.body.errors }).toEqual({ query, status: 200, errors: undefined });
      expect({ query, cache: res.headers['cache-control'] }).toEqual({ query, cache: expected });
      expectVaryOnCredentials(res.headers.vary, query);
    }
    // POST answers are not kept either.
    const post = await t.graphql('{ compositions { id } }', undefined, as.nora);
    expect(post.headers['cache-control']).toBe('no-store');
  });

  it('GraphQL answers carry no ETag: each says the budget left (extensions.cost), so none could be answered 304', async () => {
    const query = '{ compositions { id } me { id } }';
    const get = () => t.http().get('/graphql').query({ query }).set(as.nora).set('apollo-require-preflight', 'true');
    const first = await get();
    const second = await get();
    for (const res of [first, second]) {
      expect({ status: res.status, errors: res.body.errors }).toEqual({ status: 200, errors: undefined });
      expect(res.headers.etag).toBeUndefined();
      // /graphql is an express app of its own: it must not add what the service's app disables.
      expect(res.headers['x-powered-by']).toBeUndefined();
    }
    // Why: the same query's two answers differ by the budget they report.
    expect(second.body.data).toEqual(first.body.data);
    expect(second.body.extensions.cost.throttleStatus.currentlyAvailable).toBeLessThan(first.body.extensions.cost.throttleStatus.currentlyAvailable);
    // A validator a client made up is never fresh: the answer comes whole.
    const revalidated = await get().set('if-none-match', 'W/"2a-abc"');
    expect(revalidated.status).toBe(200);
    expect(revalidated.body.data).toEqual(first.body.data);
    const post = await t.graphql(query, undefined, as.nora);
    expect(post.status).toBe(200);
    expect(post.headers.etag).toBeUndefined();
    // REST answers keep theirs (the 304 test above).
    expect((await t.http().get('/api/video/compositions').set(as.nora)).headers.etag).toMatch(/^W\//);
  });
});
