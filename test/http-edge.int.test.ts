import type { AddressInfo } from 'node:net';
import net from 'node:net';
import WebSocket from 'ws';
import { createTestApp, TestApp } from './app';
import { as } from './demo';

/** Every `<script>` of a page loads a file: no inline script, so a strict script-src holds. */
function inlineScripts(html: string): string[] {
  return [...html.matchAll(/<script(?![^>]*\ssrc=)[^>]*>/g)].map((m) => m[0]);
}

function directive(csp: string | undefined, name: string): string | undefined {
  return csp?.split(';').map((d) => d.trim()).find((d) => d.startsWith(`${name} `));
}

async function listen(t: TestApp): Promise<number> {
  if (!t.app.server.listening) await new Promise<void>((resolve) => t.app.server.listen(0, '127.0.0.1', resolve));
  return (t.app.server.address() as AddressInfo).port;
}

/** Opens graphql-ws with Nora's key, runs each query as a subscribe message, returns what came back. */
async function overWebsocket(t: TestApp, queries: string[]): Promise<{ type: string; payload: unknown }[]> {
  const port = await listen(t);
  const socket = new WebSocket(`ws://127.0.0.1:${port}/graphql`, 'graphql-transport-ws');
  const answers = new Map<string, { type: string; payload: unknown }>();
  try {
    await new Promise<void>((resolve, reject) => {
      socket.on('error', reject);
      socket.on('close', (code) => reject(new Error(`closed ${code}`)));
      socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload: as.nora })));
      socket.on('message', (data) => {
        const message = JSON.parse(String(data)) as { type: string; id?: string; payload?: unknown };
        if (message.type === 'connection_ack') {
          queries.forEach((query, i) => socket.send(JSON.stringify({ id: String(i), type: 'subscribe', payload: { query } })));
        } else if (message.id !== undefined && (message.type === 'error' || message.type === 'next')) {
          answers.set(message.id, { type: message.type, payload: message.payload });
          if (answers.size === queries.length) resolve();
        }
      });
    });
  } finally {
    socket.removeAllListeners('close');
    socket.close();
  }
  return queries.map((_q, i) => answers.get(String(i))!);
}

describe('security headers on every response', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it.each([
    ['GET', '/healthz', {}],
    ['GET', '/readyz', {}],
    ['GET', '/metrics', {}],
    ['GET', '/api/accounts/me', as.nora],
    ['GET', '/api/accounts/me', {}],
    ['GET', '/api/no-such-route', as.nora],
    ['GET', '/api/openapi.json', {}],
    ['POST', '/graphql', as.nora],
    ['GET', '/no-such-page', {}],
  ] as const)('%s %s', async (method, path, headers) => {
    const req = method === 'GET' ? t.http().get(path) : t.http().post(path).send({ query: '{ me { id } }' });
    const res = await req.set(headers);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-powered-by']).toBeUndefined();
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['x-frame-options']).toBe('DENY');
    // Data is never a page: nothing may load, run or frame it.
    expect(directive(res.headers['content-security-policy'], 'default-src')).toBe("default-src 'none'");
    expect(directive(res.headers['content-security-policy'], 'frame-ancestors')).toBe("frame-ancestors 'none'");
  });

  it.each([
    ['/api/docs', {}],
    ['/graphql', { accept: 'text/html' }],
  ])('the HTML page %s runs under a CSP that allows only its own scripts', async (path, headers) => {
    const res = await t.http().get(path).set(headers);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    const csp = res.headers['content-security-policy'];
    expect(directive(csp, 'script-src')).toBe("script-src 'self'");
    expect(directive(csp, 'default-src')).toBe("default-src 'self'");
    expect(directive(csp, 'frame-ancestors')).toBe("frame-ancestors 'none'");
    expect(directive(csp, 'object-src')).toBe("object-src 'none'");
    expect(inlineScripts(res.text)).toEqual([]);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('CORS, closed by default', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ seed: true });
  });
  afterAll(async () => {
    await t.close();
  });

  it('grants no origin anything', async () => {
    const origin = 'https://app.example.test';
    const preflight = await t.http().options('/api/accounts/me').set({ origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-api-key' });
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    expect(preflight.headers['access-control-allow-headers']).toBeUndefined();
    const get = await t.http().get('/api/accounts/me').set({ origin, ...as.nora });
    expect(get.status).toBe(200);
    expect(get.headers['access-control-allow-origin']).toBeUndefined();
    const gql = await t.graphql('{ me { id } }', {}, { origin, ...as.nora });
    expect(gql.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('CORS_ORIGINS opens the API to the origins it lists', () => {
  let t: TestApp;
  const allowed = 'https://app.example.test';
  beforeAll(async () => {
    t = await createTestApp({ env: { CORS_ORIGINS: `${allowed}, http://localhost:3000` } });
  });
  afterAll(async () => {
    await t.close();
  });

  it.each(['/api/accounts/me', '/graphql'])('answers the preflight of a listed origin on %s with the headers the API reads', async (path) => {
    const res = await t.http().options(path).set({ origin: allowed, 'access-control-request-method': 'POST', 'access-control-request-headers': 'x-api-key,content-type' });
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe(allowed);
    expect(res.headers['access-control-allow-headers']?.toLowerCase().split(',').map((h: string) => h.trim())).toEqual(
      expect.arrayContaining(['x-api-key', 'authorization', 'content-type']),
    );
    expect(res.headers['access-control-allow-methods']).toEqual(expect.stringContaining('DELETE'));
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    expect(res.headers.vary).toMatch(/origin/i);
  });

  it('lets a listed origin read answers (and Retry-After), and no other origin', async () => {
    const ok = await t.http().get('/api/accounts/me').set({ origin: allowed, ...as.nora });
    expect(ok.headers['access-control-allow-origin']).toBe(allowed);
    expect(ok.headers['access-control-expose-headers']).toMatch(/retry-after/i);
    expect((await t.http().get('/api/accounts/me').set({ origin: 'http://localhost:3000', ...as.nora })).headers['access-control-allow-origin']).toBe('http://localhost:3000');
    for (const origin of ['https://evil.example.test', 'https://app.example.test.evil.test', 'http://app.example.test', 'null']) {
      const res = await t.http().get('/api/accounts/me').set({ origin, ...as.nora });
      expect({ origin, acao: res.headers['access-control-allow-origin'] }).toEqual({ origin, acao: undefined });
      const preflight = await t.http().options('/api/accounts/me').set({ origin, 'access-control-request-method': 'DELETE' });
      expect({ origin, acao: preflight.headers['access-control-allow-origin'] }).toEqual({ origin, acao: undefined });
    }
  });
});

describe('GRAPHQL_INTROSPECTION=false hides the schema, suggestions included', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { GRAPHQL_INTROSPECTION: 'false' } });
  });
  afterAll(async () => {
    await t.close();
  });

  it('over HTTP: no "Did you mean" in validation or variable errors, no introspection', async () => {
    const typo = await t.graphql('{ me { nmae } }', {}, as.nora);
    expect(typo.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(typo.body.errors[0].message).toMatch(/Cannot query field "nmae"/);
    expect(JSON.stringify(typo.body)).not.toMatch(/Did you mean|"name"/);

    const enumTypo = await t.graphql(
      'mutation ($role: ChatMessageRole!) { addChatMessage(input: { sessionId: "x", chatId: "y", content: "hi", role: $role }) { message { id } } }',
      { role: 'asistant' },
      as.nora,
    );
    expect(enumTypo.body.errors[0].message).toMatch(/asistant/);
    expect(JSON.stringify(enumTypo.body)).not.toMatch(/Did you mean|"assistant"/);

    const schema = await t.graphql('{ __schema { types { name } } }', {}, as.nora);
    expect(schema.body.data).toBeUndefined();
    expect(JSON.stringify(schema.body)).not.toMatch(/MePayload|Catalog/);
  });

  it('over websockets: the same', async () => {
    const [typo, schema, type] = await overWebsocket(t, ['{ me { nmae } }', '{ __schema { types { name } } }', `{ __type(name: "Catalog") { fields { name } } }`]);
    expect(typo!.type).toBe('error');
    expect((typo!.payload as { message: string }[])[0]!.message).toMatch(/^Cannot query field "nmae"/);
    expect(JSON.stringify(typo!.payload)).not.toMatch(/Did you mean/);
    expect(schema!.type).toBe('error');
    expect(JSON.stringify(schema!.payload)).not.toMatch(/MePayload/);
    expect(type!.type).toBe('error');
  });
});

describe('GRAPHQL_INTROSPECTION=true (the default) keeps suggestions for developers', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ seed: false });
  });
  afterAll(async () => {
    await t.close();
  });

  it('says "Did you mean"', async () => {
    const typo = await t.graphql('{ me { nmae } }');
    expect(typo.body.errors[0].message).toMatch(/Did you mean "name"\?/);
  });
});

describe('METRICS_TOKEN', () => {
  let t: TestApp;
  const token = 'metrics-token-0123456789abcdef';
  beforeAll(async () => {
    t = await createTestApp({ seed: false, env: { METRICS_TOKEN: token } });
  });
  afterAll(async () => {
    await t.close();
  });

  it('is required as a Bearer token on /metrics', async () => {
    for (const authorization of [undefined, 'Bearer wrong', `Bearer ${token}x`, token, `Basic ${token}`]) {
      const req = t.http().get('/metrics');
      const res = authorization ? await req.set('authorization', authorization) : await req;
      expect({ authorization, status: res.status, code: res.body.code }).toEqual({ authorization, status: 401, code: 'UNAUTHENTICATED' });
      expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
      expect(res.text).not.toMatch(/http_requests_total/);
    }
    const ok = await t.http().get('/metrics').set('authorization', `Bearer ${token}`);
    expect(ok.status).toBe(200);
    expect(ok.text).toMatch(/http_requests_total/);
  });

  it('leaves the health endpoints open', async () => {
    expect((await t.http().get('/healthz')).status).toBe(200);
    expect((await t.http().get('/readyz')).status).toBe(200);
  });
});



describe('REST routing: a request is matched by method and first path segment, with express answers', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ seed: true });
  });
  afterAll(async () => {
    await t.close();
  });

  it('matches paths case-insensitively and with a trailing slash, as express does', async () => {
    const keys = await t.http().get('/api/keys').set(as.nora);
    expect(keys.status).toBe(200);
    for (const path of ['/api/KEYS', '/api/Keys/', '/api/keys/']) {
      const res = await t.http().get(path).set(as.nora);
      expect([path, res.status, res.body]).toEqual([path, 200, keys.body]);
    }
  });

  it('answers HEAD from the GET route, without a body', async () => {
    const res = await t.http().head('/api/accounts/me').set(as.nora);
    expect(res.status).toBe(200);
    expect(res.text).toBeUndefined();
  });

  it('is a 404 for a method no route of that path has, an encoded segment, and a segment no route starts with', async () => {
    for (const [method, path] of [
      ['put', '/api/keys'],
      ['get', '/api/k%65ys'],
      ['post', '/api/tasks/runs/x/cancelled'],
      ['delete', '/api/nothing/here'],
      ['get', '/api//keys'],
    ] as const) {
      const res = await t.http()[method](path).set(as.nora);
      expect([path, res.status, res.body]).toEqual([path, 404, { status: 'error', error: `No route ${method.toUpperCase()} ${path}`, code: 'NOT_FOUND' }]);
    }
  });

  it('is a 400 naming a path parameter with malformed percent-encoding (docs/api/errors.md "Paths")', async () => {
    const res = await t.http().get('/api/artists/%FF/socials').set(as.nora);
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([expect.objectContaining({ field: 'id' })]);
  });

  it('is a 404 for OPTIONS without a CORS origin (no route answers OPTIONS), a 400 for its malformed path parameter', async () => {
    const res = await t.http().options('/api/webhooks/abc');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ status: 'error', error: 'No route OPTIONS /api/webhooks/abc', code: 'NOT_FOUND' });
    const malformed = await t.http().options('/api/artists/%FF/socials');
    expect(malformed.status).toBe(400);
    expect(malformed.body.details).toEqual([expect.objectContaining({ field: 'id' })]);
  });
});

describe('idle keep-alive connections (HTTP_KEEP_ALIVE_TIMEOUT_MS)', () => {
  let t: TestApp;
  const timeoutMs = 2000;
  beforeAll(async () => {
    t = await createTestApp({ env: { HTTP_KEEP_ALIVE_TIMEOUT_MS: String(timeoutMs) }, seed: false });
  });
  afterAll(async () => {
    await t.close();
  });

  /** One keep-alive connection: requests written on it in turn, each answer read whole; when the server closed it. */
  async function connection(port: number) {
    const socket = net.connect(port, '127.0.0.1');
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    let buffered = '';
    let closedAt: number | undefined;
    socket.on('data', (chunk: Buffer) => (buffered += chunk.toString('latin1')));
    const closed = new Promise<number>((resolve) => socket.on('close', () => resolve((closedAt = performance.now()))));
    return {
      closed,
      isOpen: () => closedAt === undefined,
      async get(path: string): Promise<string> {
        buffered = '';
        socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n`);
        for (let i = 0; i < 500 && !/\r\n\r\n[\s\S]*\}$/.test(buffered); i += 1) await new Promise((resolve) => setTimeout(resolve, 10));
        return buffered;
      },
    };
  }

  it('keeps an idle connection open for the configured time (node closes it after 5 s), answers on it again, then closes it', async () => {
    const port = await listen(t);
    const c = await connection(port);
    expect(await c.get('/healthz')).toMatch(/^HTTP\/1\.1 200 [\s\S]*Keep-Alive: timeout=2/i);
    // Idle for half the timeout: the connection is still open and serves the next request.
    await new Promise((resolve) => setTimeout(resolve, timeoutMs / 2));
    expect(c.isOpen()).toBe(true);
    expect(await c.get('/healthz')).toMatch(/^HTTP\/1\.1 200 /);
    const idleFrom = performance.now();
    // Then the server closes it, never before it has idled for the timeout.
    const closedAt = await c.closed;
    expect(closedAt - idleFrom).toBeGreaterThanOrEqual(timeoutMs - 50);
  });
});
