import { as, DEMO } from './demo';
import { createTestApp, TestApp } from './app';
import { CreateOrganizationDocument, MeDocument } from './generated/graphql';

describe('service skeleton (real PostgreSQL)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('reports ready when the database answers and migrations are applied', async () => {
    const res = await t.http().get('/readyz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', database: 'up', migrations: 'applied', ffmpeg: { source: expect.stringMatching(/^(system|npm|FFMPEG_PATH)$/), version: expect.any(String) } });
    expect(res.body.ffmpeg.version).not.toBe('unavailable');
    expect((await t.http().get('/healthz')).status).toBe(200);
  });

  it('answers a REST GET and a GraphQL query from the same resolver', async () => {
    const rest = await t.http().get('/api/accounts/me').set(as.nora);
    expect(rest.status).toBe(200);
    const gql = await t.graphql(MeDocument, {}, as.nora);
    expect(gql.status).toBe(200);
    expect({ status: 'success', account: gql.body.data.me }).toEqual(rest.body);
    expect(rest.body).toEqual({
      status: 'success',
      account: {
        id: DEMO.nora,
        name: 'Nora North',
        email: 'nora@northwind.test',
        kind: 'person',
        organizations: [{ id: DEMO.northwind, name: 'Northwind Records' }],
        invitations: [],
      },
    });
  });

  it('gives a service error the same code on both faces', async () => {
    const rest = await t.http().post('/api/organizations').set(as.otto).send({ name: '   ' });
    expect(rest.status).toBe(400);
    expect(rest.body).toEqual({
      status: 'error',
      code: 'BAD_USER_INPUT',
      error: expect.stringContaining('name'),
      details: [{ field: 'name', message: 'must not be empty' }],
    });
    const gql = await t.graphql(CreateOrganizationDocument, { input: { name: '   ' } }, as.otto);
    expect(gql.body.errors[0].extensions).toEqual({ code: 'BAD_USER_INPUT', details: [{ field: 'name', message: 'must not be empty' }] });

    const restAnon = await t.http().get('/api/accounts/me');
    expect(restAnon.status).toBe(401);
    expect(restAnon.body.code).toBe('UNAUTHENTICATED');
    const gqlAnon = await t.graphql('{ me { id } }');
    expect(gqlAnon.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
  });

  it('creates an organization with the caller as its first member, in one transaction', async () => {
    const created = await t.http().post('/api/organizations').set(as.otto).send({ name: 'Otto Org' });
    expect(created.status).toBe(200);
    expect(created.body.organization).toMatchObject({ name: 'Otto Org' });
    const list = await t.http().get('/api/organizations').set(as.otto);
    expect(list.body.organizations.map((o: { name: string }) => o.name)).toEqual(['Otto Org']);
  });

  it('answers 400 for malformed JSON and wrong types, never 500', async () => {
    const malformed = await t.http().post('/api/organizations').set(as.otto).set('content-type', 'application/json').send('{"name": ');
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ status: 'error', code: 'BAD_USER_INPUT' });
    const wrongType = await t.http().post('/api/organizations').set(as.otto).send({ name: 42 });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.details).toEqual([{ field: 'name', message: 'must be a string' }]);
    const missing = await t.http().post('/api/organizations').set(as.otto).send({});
    expect(missing.status).toBe(400);
    expect(missing.body.details).toEqual([{ field: 'name', message: 'is required' }]);
    const notObject = await t.http().post('/api/organizations').set(as.otto).set('content-type', 'application/json').send('[1]');
    expect(notObject.status).toBe(400);
  });

  it('checks credentials before input, and refuses both headers at once', async () => {
    const anon = await t.http().post('/api/organizations').set('content-type', 'application/json').send('{"name": ');
    expect(anon.status).toBe(401);
    const both = await t.http().get('/api/accounts/me').set(as.nora).set('authorization', 'Bearer abc');
    expect(both.status).toBe(401);
    expect(both.body.code).toBe('UNAUTHENTICATED');
    const bad = await t.graphql('{ me { id } }', {}, { 'x-api-key': 'mas_nope' });
    expect(bad.status).toBe(401);
    expect(bad.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
  });

  it('serves only the documented routes: /api/webhook and sofa defaults are 404', async () => {
    for (const [method, path] of [
      ['post', '/api/webhook'],
      ['post', '/api/webhook/abc'],
      ['get', '/api/me'],
      ['post', '/api/create-organization'],
      ['get', '/api/nothing-here'],
    ] as const) {
      const res = await t.http()[method](path).set(as.ada).send({ url: 'http://127.0.0.1:1/' });
      expect({ path, status: res.status, code: res.body.code }).toEqual({ path, status: 404, code: 'NOT_FOUND' });
    }
  });

  it('exposes Prometheus metrics by route and pool state', async () => {
    await t.http().get('/api/accounts/me').set(as.nora);
    const res = await t.http().get('/metrics');
    expect(res.status).toBe(200);
    expect(res.text).toMatch(/http_requests_total\{method="GET",route="\/api\/accounts\/me",status="200"\} \d+/);
    expect(res.text).toContain('db_pool_connections{state="used"}');
    expect(res.text).toContain('http_request_duration_seconds_bucket');
  });

  it('labels requests no route answered as "unmatched", so made-up paths cannot grow the metrics without bound', async () => {
    // Anyone can send any path: a label per path would be a new series (and 11 histogram buckets) each.
    const made = ['/no-such-page-7f3a', '/.env', '/wp-admin/setup.php', '/api/no-such-route-7f3a', '/media/renders/nope.mp4'];
    for (const path of made) expect((await t.http().get(path)).status).toBeGreaterThanOrEqual(400);
    const res = await t.http().get('/metrics');
    expect(res.status).toBe(200);
    const routes = new Set([...res.text.matchAll(/^http_requests_total\{[^}]*route="([^"]*)"/gm)].map((m) => m[1]));
    for (const path of made) expect(routes).not.toContain(path);
    expect(res.text).toMatch(/http_requests_total\{method="GET",route="unmatched",status="404"\} [1-9]\d*/);
  });

  it('keeps internals out of error answers', async () => {
    const res = await t.http().get('/api/accounts/me').set('x-api-key', "' or 1=1 --");
    expect(res.status).toBe(401);
    expect(JSON.stringify(res.body)).not.toMatch(/select|stack|api_keys/i);
  });
});
