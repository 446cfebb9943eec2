import { createTestApp, TestApp } from '../app';
import { as } from '../demo';

/** Every script and stylesheet a page loads: all must be served by this service (no CDN). */
function assetUrls(html: string): string[] {
  return [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
}

describe('in-browser docs pages, offline (npm-bundled assets)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  async function expectSelfContained(html: string, expected: RegExp[]) {
    expect(html).not.toMatch(/https?:\/\//);
    const urls = assetUrls(html);
    for (const pattern of expected) expect(urls.some((u) => pattern.test(u))).toBe(true);
    for (const url of urls) {
      expect(url.startsWith('/')).toBe(true);
      const res = await t.http().get(url).buffer(true);
      expect({ url, status: res.status }).toEqual({ url, status: 200 });
      if (url.endsWith('.js')) expect(res.headers['content-type']).toMatch(/javascript/);
      if (url.endsWith('.css')) expect(res.headers['content-type']).toMatch(/text\/css/);
      expect(Number(res.headers['content-length'] ?? res.text?.length ?? 0)).toBeGreaterThan(0);
    }
  }

  it('leads /docs to the REST API reference (where people look first)', async () => {
    for (const path of ['/docs', '/docs/']) {
      const res = await t.http().get(path);
      expect({ path, status: res.status, location: res.headers.location }).toEqual({ path, status: 302, location: '/api/docs' });
    }
  });

  it('sends a browser at /api to the REST API reference, and keeps the REST answer for API clients', async () => {
    for (const path of ['/api', '/api/']) {
      const page = await t.http().get(path).set('accept', 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8');
      expect({ path, status: page.status, location: page.headers.location }).toEqual({ path, status: 302, location: '/api/docs' });
      expect(page.headers.vary).toMatch(/Accept/i);
      for (const accept of ['application/json', '*/*', '']) {
        const res = await t.http().get(path).set('accept', accept);
        expect({ path, accept, status: res.status, type: res.headers['content-type'] }).toEqual({ path, accept, status: 404, type: 'application/json; charset=utf-8' });
        expect(res.body).toMatchObject({ status: 'error', code: 'NOT_FOUND' });
        expect(res.headers.vary).toMatch(/Accept/i);
      }
    }
    // A REST route below /api is untouched by the browser's Accept.
    const me = await t.http().get('/api/accounts/me').set('accept', 'text/html').set(as.nora);
    expect(me.status).toBe(200);
    expect(me.body.account.name).toBe('Nora North');
  });

  it('serves the REST API reference at /api/docs without credentials', async () => {
    const res = await t.http().get('/api/docs');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    await expectSelfContained(res.text, [/swagger-ui-bundle\.js$/, /swagger-ui\.css$/, /\/api\/docs\/init\.js$/]);
    const init = await t.http().get('/api/docs/init.js');
    expect(init.text).toContain("url: '/api/openapi.json'");
  });

  it('offers GraphiQL on GET /graphql to browsers, and GraphQL to everyone else', async () => {
    const page = await t.http().get('/graphql').set('accept', 'text/html');
    expect(page.status).toBe(200);
    expect(page.text).toContain('graphiql');
    await expectSelfContained(page.text, [/react\.production\.min\.js$/, /react-dom\.production\.min\.js$/, /graphiql\.min\.js$/, /graphiql\.min\.css$/, /init\.js$/]);
    const init = await t.http().get('/graphql/assets/init.js');
    expect(init.text).toContain('GraphiQL.createFetcher');

    const query = await t.graphql('{ me { name } }', {}, as.nora);
    expect(query.body.data.me.name).toBe('Nora North');
  });

  it('serves only the listed asset files', async () => {
    for (const path of ['/api/docs/assets/package.json', '/api/docs/assets/..%2Fpackage.json', '/graphql/assets/index.js']) {
      const res = await t.http().get(path);
      expect({ path, status: res.status }).toEqual({ path, status: 404 });
    }
  });
});
