import { connect, type AddressInfo } from 'node:net';
import { createTestApp, TestApp } from './app';
import { as } from './demo';
import { rawHttp, RawAnswer } from './support/raw-http';

/** Under REQUEST_BODY_LIMIT: read and answered by the route. */
const UNDER = Buffer.from(JSON.stringify({ catalogs: Array.from({ length: 500 }, () => ({ catalog_id: 'x'.repeat(40), account_id: 'y' })) }));
/** 100 kB and past the limit. */
const OVER = Buffer.from(JSON.stringify({ songs: [{ catalog_id: 'x', isrc: 'y', name: 'z'.repeat(100 * 1024) }] }));
/** Past the limit many times over. */
const HUGE = Buffer.from(JSON.stringify({ query: '{ me { id } }', padding: 'z'.repeat(2 * 1024 * 1024) }));

function expectAnswered(res: RawAnswer) {
  // The client read a status; nothing was reset under it.
  expect(res.error).toBeUndefined();
  expect(res.status).toBeGreaterThanOrEqual(200);
  expect(res.status).toBeLessThan(500);
}

function expectTooLarge(res: RawAnswer) {
  expectAnswered(res);
  expect(res.status).toBe(413);
  expect(JSON.parse(res.body)).toEqual({
    status: 'error',
    code: 'PAYLOAD_TOO_LARGE',
    error: 'Request body is larger than 64kb',
    details: [{ field: 'body', message: 'is too large' }],
  });
}

describe('request bodies are answered, never reset (raw TCP clients)', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await createTestApp({ env: { REQUEST_BODY_LIMIT: '64kb' } });
    await new Promise<void>((resolve) => t.app.server.listen(0, '127.0.0.1', resolve));
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await t.close();
  });

  const json = { 'Content-Type': 'application/json' };
  const paths = ['/api/catalogs', '/api/catalogs/songs', '/graphql', '/api/no/such/route'];
  const methods = ['POST', 'PUT', 'PATCH', 'DELETE', 'GET'];

  describe.each([false, true])('chunked: %s', (chunked) => {
    it.each(paths.flatMap((path) => methods.map((method) => [method, path] as const)))('%s %s with a body past the limit: 413 with the JSON error, read by the client', async (method, path) => {
      for (const body of [OVER, HUGE]) {
        for (const headers of [{ ...json, ...as.nora }, json]) {
          const res = await rawHttp(port, { method, path, headers, body, chunked });
          // A body sent in chunks to a route that reads none (GET) is discarded and the route answers.
          if (chunked && method === 'GET' && res.status === 200) expectAnswered(res);
          else expectTooLarge(res);
        }
      }
    });
  });

  it.each([
    ['DELETE', '/api/catalogs'],
    ['DELETE', '/api/catalogs/songs'],
  ])('%s %s with 100 kB under the limit is answered (credentials or not), the connection kept', async (method, path) => {
    const t2 = await createTestApp({ env: { REQUEST_BODY_LIMIT: '1mb' }, seed: false });
    try {
      await new Promise<void>((resolve) => t2.app.server.listen(0, '127.0.0.1', resolve));
      const p = (t2.app.server.address() as AddressInfo).port;
      const big = Buffer.concat([UNDER, Buffer.from(' '.repeat(100 * 1024))]);
      expect(big.length).toBeGreaterThan(100 * 1024);
      const authed = await rawHttp(p, { method, path, headers: { ...json, ...as.nora }, body: big });
      expectAnswered(authed);
      expect([400, 401]).toContain(authed.status);
      expect(JSON.parse(authed.body)).toMatchObject({ status: 'error', code: expect.any(String) });
      const anonymous = await rawHttp(p, { method, path, headers: json, body: big });
      expectAnswered(anonymous);
      expect(anonymous.status).toBe(401);
    } finally {
      await t2.close();
    }
  });

  it.each([false, true])('a request line or headers past 16 KB with a body (chunked: %s): 431 with the JSON error, read by the client, not a reset', async (chunked) => {
    const longPath = `/api/catalogs/${'a'.repeat(20 * 1024)}`;
    for (const body of [undefined, OVER, HUGE]) {
      for (const [path, headers] of [
        [longPath, { ...json, ...as.nora }],
        ['/api/catalogs', { ...json, ...as.nora, 'x-padding': 'p'.repeat(20 * 1024) }],
        ['/graphql', { ...json, cookie: 'c'.repeat(20 * 1024) }],
      ] as const) {
        const res = await rawHttp(port, { method: 'POST', path, headers, body, chunked });
        expectAnswered(res);
        expect(res.status).toBe(431);
        expect(res.headers.connection).toBe('close');
        expect(JSON.parse(res.body)).toEqual({
          status: 'error',
          code: 'BAD_USER_INPUT',
          error: 'The request line and headers are larger than the server reads (16 KB)',
          details: [{ field: 'headers', message: 'could not be read' }],
        });
      }
    }
  });

  it('a client that keeps sending after its 431 is closed by the server (the lingering read is bounded)', async () => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.on('data', (data) => (received += data.toString('latin1')));
    socket.on('error', () => undefined);
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.write(`POST /api/catalogs/${'a'.repeat(20 * 1024)} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100000000\r\n\r\n`);
    // Never done sending: a kilobyte every 20 ms until the server closes the connection.
    const writer = setInterval(() => socket.writable && socket.write(Buffer.alloc(1024, 120)), 20);
    try {
      await closed;
    } finally {
      clearInterval(writer);
    }
    expect(received).toMatch(/^HTTP\/1\.1 431 /);
  });

  it('a request that is not HTTP/1.1 gets 400 with the JSON error, and the server keeps answering', async () => {
    for (const [method, headers] of [
      ['G\u0000T', as.nora],
      ['POST', { ...as.nora, 'bad header': 'a space in its name' }],
      ['POST', { ...as.nora, 'content-length': 'twelve' }],
    ] as const) {
      const res = await rawHttp(port, { method, path: '/api/catalogs', headers, body: OVER });
      expectAnswered(res);
      expect(res.status).toBe(400);
      expect(JSON.parse(res.body)).toMatchObject({ status: 'error', code: 'BAD_USER_INPUT', details: [{ field: 'request', message: 'could not be read' }] });
    }
    const after = await rawHttp(port, { method: 'GET', path: '/api/catalogs', headers: as.nora });
    expect(after.status).toBe(200);
  });

  it('CONNECT answers 405 with Allow and the JSON error instead of dropping the socket', async () => {
    for (const path of ['example.test:443', '/graphql']) {
      const res = await rawHttp(port, { method: 'CONNECT', path, headers: as.nora });
      expectAnswered(res);
      expect(res.status).toBe(405);
      expect(res.headers.allow).toBe('GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS');
      expect(JSON.parse(res.body)).toEqual({ status: 'error', code: 'METHOD_NOT_ALLOWED', error: 'Method CONNECT is not allowed' });
    }
  });

  it.each(['TRACE', 'PROPFIND', 'SEARCH', 'MKCOL', 'PURGE'])('%s answers 405 with Allow, wherever it is sent', async (method) => {
    for (const path of ['/api/catalogs', '/graphql', '/healthz', '/nowhere']) {
      const res = await rawHttp(port, { method, path, headers: { ...json, ...as.nora }, body: Buffer.from('{}') });
      expectAnswered(res);
      expect(res.status).toBe(405);
      expect(res.headers.allow).toBe('GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS');
      expect(JSON.parse(res.body)).toEqual({ status: 'error', code: 'METHOD_NOT_ALLOWED', error: `Method ${method} is not allowed` });
    }
  });
});
