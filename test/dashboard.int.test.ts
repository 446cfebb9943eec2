import { createTestApp, TestApp } from './app';
import { DEMO_KEYS } from '../src/db/seeders/demo.data';

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

  it('says on /welcome how to get a key: signup (curl), the CLI, and where the SDK and docs are', async () => {
    const landing = await t.http().get('/welcome');
    expect(landing.status).toBe(200);
    const html = landing.text;
    // Without the demo data set no key is shown, and the page says where demo keys come from.
    expect(html).not.toContain('mas_demo_');
    expect(html).toContain('prints demo API keys in its start banner');
    expect(html).toContain(`curl -X POST ${t.config.publicUrl}/api/agents/signup`);
    expect(html).toContain(`${t.config.publicUrl}/api/agents/verify`);
    expect(html).toContain('npx mas signup agent+me@example.com');
    for (const href of ['/api/docs', '/api/openapi.json', '/graphql', '/dashboard', '#sdk', '#cli']) expect(html).toContain(`href="${href}"`);
    for (const id of ['sdk', 'cli', 'get-a-key']) expect(html).toContain(`id="${id}"`);
    expect(html).toContain("import { MasClient } from '@mas/sdk'");
    // The signup the page shows works as written: an agent+ address gets a key at once.
    const signup = await t.http().post('/api/agents/signup').set('content-type', 'application/json').send({ email: 'agent+me@example.com' });
    expect(signup.status).toBe(200);
    expect(signup.body.api_key).toMatch(/^mas_/);
  });

  it('keeps the JSON 404 at / for API clients (Accept JSON, */* or none)', async () => {
    for (const accept of ['application/json', '*/*', '']) {
      const res = await t.http().get('/').set('accept', accept);
      expect({ accept, status: res.status, type: res.headers['content-type'] }).toEqual({ accept, status: 404, type: 'application/json; charset=utf-8' });
      expect(res.body).toMatchObject({ status: 'error', code: 'NOT_FOUND' });
    }
  });
});

describe('landing page with the demo data set (DEMO_SEED=true)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { DEMO_SEED: 'true' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('lists the demo API keys on /welcome, and each one signs in', async () => {
    const landing = await t.http().get('/welcome');
    expect(landing.status).toBe(200);
    for (const key of DEMO_KEYS) expect(landing.text).toContain(`<code>${key.raw}</code>`);
    for (const key of DEMO_KEYS) {
      const me = await t.http().get('/api/accounts/me').set('x-api-key', key.raw);
      expect({ key: key.label, status: me.status }).toEqual({ key: key.label, status: 200 });
    }
  });
});
