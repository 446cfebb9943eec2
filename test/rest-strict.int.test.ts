import type { OpenApiDocument } from '../src/http/rest/openapi';
import { openApiPath } from '../src/http/rest/openapi';
import { routeTable } from '../src/http/rest/routes';
import { operations } from '../src/modules';
import { DEMO } from '../src/db/seeders/demo.data';
import { DEMO_RESEARCH } from '../src/db/seeders/research.seed';
import { createTestApp, TestApp } from './app';
import { as } from './demo';
import { validRequest } from './support/route-requests';

type Json = Record<string, unknown>;

const routes = routeTable(operations);

/**
 * Every row the service keeps, as one digest per table (rate-limit counters, the usage they feed
 * and settings aside: a refused request is still charged, and its points reach account_usage when
 * the usage recorder flushes, at any moment of the test), so "nothing written" is checked over the whole database
 * (a render is queued with its render_runs row, in one transaction).
 */
async function snapshot(t: TestApp): Promise<Record<string, string>> {
  const conn = t.orm.em.getConnection();
  const tables = (await conn.execute<{ name: string }[]>(
    `select table_name as name from information_schema.tables
      where table_schema = 'public' and table_type = 'BASE TABLE' and table_name not in ('rate_limit_counters', 'account_usage', 'mikro_orm_migrations', 'settings')`,
  )).map((r) => r.name);
  const digests: Record<string, string> = {};
  for (const name of tables.sort()) {
    // A key's last use is recorded by authentication, whatever the request then does.
    const row = name === 'api_keys' ? `(t.id, t.account_id, t.name, t.hash, t.revoked_at)::text` : 't::text';
    const [result] = await conn.execute<{ digest: string | null }[]>(`select md5(coalesce(string_agg(${row}, '|' order by ${row}), '')) as digest from "${name}" t`);
    digests[name] = result!.digest ?? '';
  }
  return digests;
}

describe('REST input is as strict as the graph: an unknown member is a 400 naming it', () => {
  let t: TestApp;
  let doc: OpenApiDocument;
  beforeAll(async () => {
    t = await createTestApp();
    doc = (await t.http().get('/api/openapi.json')).body as OpenApiDocument;
  });
  afterAll(() => t?.close());

  it.each(routes.map((r) => [`${r.method} ${r.path}`, r] as const))('%s: an unknown query parameter (and body member) is a 400 naming it, nothing written', async (_name, route) => {
    const path = openApiPath(route.path);
    const request = await validRequest(t, doc, route.method, path);
    const before = await snapshot(t);
    const query = new URLSearchParams({ ...request.query, widht: '1080' });
    let req = t.http()[route.method.toLowerCase() as 'get'](`${request.url}?${query}`).set(request.credentials);
    const body = request.body === undefined && route.method !== 'GET' ? {} : request.body;
    if (body !== undefined) req = req.send({ ...(body as Json), hieght: 1920 });
    const res = await req;
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 400, code: 'BAD_USER_INPUT' });
    const fields = (res.body.details as { field: string; message: string }[]).map((d) => d.field);
    expect(fields).toContain('widht');
    if (body !== undefined) expect(fields).toContain('hieght');
    expect(res.body.details).toContainEqual({ field: 'widht', message: 'is not a known query parameter' });
    expect(res.headers['cache-control']).toBe('no-store');
    expect(await snapshot(t)).toEqual(before);
  });

  it('the same requests without the unknown member are served (the test above is not refusing everything)', async () => {
    const render = await validRequest(t, doc, 'POST', '/api/video/render');
    const res = await t.http().post(render.url).set(render.credentials).send(render.body as Json);
    expect(res.status).toBe(200);
    const songs = await validRequest(t, doc, 'GET', '/api/catalogs/songs');
    expect((await t.http().get(songs.url).query(songs.query).set(songs.credentials)).status).toBe(200);
  });

  it('the OpenAPI document says so: every request body object is additionalProperties: false, but free-form render props', () => {
    const open: string[] = [];
    let closed = 0;
    const walk = (node: unknown, at: string): void => {
      if (!node || typeof node !== 'object') return;
      const schema = node as Json;
      if (schema.properties) {
        if (schema.additionalProperties === false) closed++;
        else open.push(at);
        for (const [name, member] of Object.entries(schema.properties as Json)) walk(member, `${at}.${name}`);
      }
      if (schema.items) walk(schema.items, `${at}[]`);
      if (typeof schema.$ref === 'string') walk(doc.components.schemas[schema.$ref.split('/').pop()!], at);
    };
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item as Record<string, { requestBody?: { content: Record<string, { schema: Json }> } }>)) {
        if (op.requestBody) walk(op.requestBody.content['application/json']!.schema, `${method.toUpperCase()} ${path}`);
      }
    }
    expect(open).toEqual([]);
    expect(closed).toBeGreaterThan(20);
    const props = (doc.paths['/api/video/render'] as Record<string, { requestBody: { content: Record<string, { schema: { properties: Record<string, Json> } }> } }>).post!.requestBody.content['application/json']!.schema.properties.inputProps!;
    expect(props.additionalProperties).toEqual({});
  });

  it("a typo'd width on a render is refused, not rendered at 720 pixels", async () => {
    const before = await snapshot(t);
    const res = await t.http().post('/api/video/render').set(as.nora).send({ compositionId: 'title-card', inputProps: { title: 'Typo' }, widht: 1080 });
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([{ field: 'widht', message: 'is not a known field' }]);
    expect(await snapshot(t)).toEqual(before);
  });

  it("a render's unknown prop is refused by the composition's own schema, named in full", async () => {
    const before = await snapshot(t);
    const res = await t.http().post('/api/video/render').set(as.nora).send({ compositionId: 'title-card', inputProps: { title: 'Typo', subtitel: 'x' } });
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([{ field: 'inputProps.subtitel', message: 'is not a known field' }]);
    expect(await snapshot(t)).toEqual(before);
    // And over GraphQL, the same check and the same name.
    const gql = await t.graphql('mutation($i: RenderVideoInput!) { renderVideo(input: $i) { id } }', { i: { compositionId: 'title-card', inputProps: { title: 'Typo', subtitel: 'x' } } }, as.nora);
    expect(gql.body.errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', details: [{ field: 'inputProps.subtitel', message: 'is not a known field' }] });
  });

  it('unknown members inside nested inputs and arrays of objects are named with their path', async () => {
    const before = await snapshot(t);
    const pairs = await t.http().delete('/api/catalogs').set(as.nora).send({ catalogs: [{ catalog_id: DEMO.catalogShared, account_id: DEMO.northwind, acount: 'x' }] });
    expect(pairs.status).toBe(400);
    expect(pairs.body.details).toEqual([{ field: 'catalogs[0].acount', message: 'is not a known field' }]);
    const songs = await t.http().post('/api/catalogs/songs').set(as.nora).send({ songs: [{ catalog_id: DEMO.catalogNorthwind, isrc: 'GBNWR2400098', name: 'A', albm: 'B' }] });
    expect(songs.status).toBe(400);
    expect(songs.body.details).toEqual([{ field: 'songs[0].albm', message: 'is not a known field' }]);
    expect(await snapshot(t)).toEqual(before);
  });

  it('a path parameter sent again in the body or query is refused: only the path names the row', async () => {
    const res = await t.http().put(`/api/agents/templates/${DEMO.templatePublic}/favorite`).set(as.nora).send({ id: DEMO.templatePrivate, is_favourite: true });
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([{ field: 'id', message: 'is given in the path, not the body' }]);
  });

  it('every parameter docs/api/rest.md documents is still accepted, including those the operation reads only sometimes', async () => {
    const accepted = async (url: string, query: Record<string, string>) => {
      const res = await t.http().get(url).query(query).set(as.nora);
      // Track stats asking for more than the stored answer holds needs the provider (a 503 in tests): anything but a 400 is accepted input.
      expect({ url, refused: res.status === 400 ? res.body : undefined }).toEqual({ url, refused: undefined });
    };
    await accepted('/api/catalogs/songs', { catalog_id: DEMO.catalogNorthwind, artistName: 'Luna', page: '1', limit: '20' });
    await accepted('/api/artist/socials', { artist_account_id: DEMO.luna, page: '1', limit: '20' });
    const isrc = DEMO_RESEARCH.tracks[0].isrc;
    await accepted('/api/research/track/stats', {
      isrc, source: 'platform_a', with_playlists: 'true', with_charts: 'true', with_stations: 'true', with_videos: 'true', with_links: 'true', only_current: 'false', limit: '20', offset: '0',
    });
    await accepted('/api/research/discover', { limit: '20' });
    await accepted('/api/tasks/runs', { page: '1', limit: '20' });
  });
});
