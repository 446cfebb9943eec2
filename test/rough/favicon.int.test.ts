import { createTestApp, TestApp } from '../app';

/** Browsers ask every page's origin for /favicon.ico (issue 16: it answered 404 on the docs pages). */
describe('GET /favicon.ico', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ seed: false });
  });
  afterAll(() => t?.close());

  it('serves an icon without credentials, with the security headers of every response', async () => {
    const res = await t.http().get('/favicon.ico').buffer(true).parse((r, done) => {
      const chunks: Buffer[] = [];
      r.on('data', (c: Buffer) => chunks.push(c));
      r.on('end', () => done(null, Buffer.concat(chunks)));
    });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    const body = res.body as Buffer;
    expect(body.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
    expect(Number(res.headers['content-length'])).toBe(body.length);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    expect(res.headers['cache-control']).toMatch(/max-age=\d+/);
    expect((await t.http().head('/favicon.ico')).status).toBe(200);
  });

  it('serves nothing else at the root by that route', async () => {
    expect((await t.http().get('/favicon.ico/../api/openapi.json')).status).not.toBe(500);
    expect((await t.http().post('/favicon.ico')).status).toBe(404);
  });
});
