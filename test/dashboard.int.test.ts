import { createTestApp, TestApp } from './app';

describe('dashboard, landing page and their assets (real PostgreSQL)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ seed: false });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('serves GET /dashboard as HTML under a CSP of its own files, websockets and same-origin media', async () => {
    const res = await t.http().get('/dashboard').set('accept', 'text/html');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.text).toContain('<script src="/dashboard/assets/dashboard.js"></script>');
    expect(res.text).toContain('<script src="/dashboard/assets/graphql-ws.min.js"></script>');
    expect(res.text).not.toMatch(/<script>|https?:\/\//);
    const csp = res.headers['content-security-policy'] as string;
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain("connect-src 'self' ws: wss:;");
    expect(csp).toContain("media-src 'self';");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe');
    expect(res.headers['x-frame-options']).toBe('DENY');
  });

  it('serves the script, styles and graphql-ws browser build from the package, nothing else', async () => {
    const js = await t.http().get('/dashboard/assets/dashboard.js');
    expect(js.status).toBe(200);
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(js.text).toContain('renderRuns(initial: $initial)');
    const ws = await t.http().get('/dashboard/assets/graphql-ws.min.js');
    expect(ws.status).toBe(200);
    expect(ws.text).toContain('graphqlWs');
    const css = await t.http().get('/dashboard/assets/dashboard.css');
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    for (const path of ['/dashboard/assets/package.json', '/dashboard/assets/..%2F..%2Fpackage.json', '/dashboard/assets/%2e%2e/%2e%2e/package.json', '/dashboard/nope']) {
      const res = await t.http().get(path);
      expect({ path, status: res.status, code: res.body.code }).toEqual({ path, status: 404, code: 'NOT_FOUND' });
      expect(res.text).not.toContain('"name"');
    }
  });

  it('sends a browser at / to the landing page, which links the dashboard, API docs and GraphiQL', async () => {
    const res = await t.http().get('/').set('accept', 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8');
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/welcome');
    const landing = await t.http().get('/welcome');
    expect(landing.status).toBe(200);
    expect(landing.headers['content-type']).toBe('text/html; charset=utf-8');
    for (const href of ['/dashboard', '/api/docs', '/graphql']) expect(landing.text).toContain(`href="${href}"`);
  });

  it('keeps the JSON 404 at / for API clients (Accept JSON, */* or none)', async () => {
    for (const accept of ['application/json', '*/*', '']) {
      const res = await t.http().get('/').set('accept', accept);
      expect({ accept, status: res.status, type: res.headers['content-type'] }).toEqual({ accept, status: 404, type: 'application/json; charset=utf-8' });
      expect(res.body).toMatchObject({ status: 'error', code: 'NOT_FOUND' });
    }
  });
});
