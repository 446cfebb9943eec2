import { auditServer } from 'graphql-http';
import bytes from 'bytes';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import type supertest from 'supertest';
import { DEMO } from '../src/db/seeders/demo.data';
import { ERROR_STATUS } from '../src/common/error-status';
import type { ErrorCode } from '../src/common/errors';
import { createTestApp, TestApp, withoutBudgetLeft } from './app';
import { as } from './demo';
import { createAccount } from './factories';

/**
 * One status per error code (src/common/error-status.ts) on both faces: a REST answer and a
 * GraphQL answer without data asked for as application/graphql-response+json get the same status
 * for the same code, whatever the cause; as application/json (or with no Accept) every GraphQL
 * answer is a 200 carrying the code, as GraphQL over HTTP says (and as gateways need).
 */
describe('HTTP statuses of error codes, REST and GraphQL alike', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  interface Case {
    name: string;
    code: ErrorCode;
    rest: () => supertest.Test;
    graphql: { query: string; headers: Record<string, string> };
    /** A field's error in an answer that has data (a nullable field, null with its error): 200 whatever the media type, as the spec says. */
    partial?: true;
  }
  const gql = (c: Case, accept?: string) => {
    const req = t.http().post('/graphql').set('content-type', 'application/json').set(c.graphql.headers);
    return (accept ? req.set('accept', accept) : req).send({ query: c.graphql.query });
  };

  const cases = (): Case[] => [
    {
      name: 'an invalid field',
      code: 'BAD_USER_INPUT',
      rest: () => t.http().post('/api/organizations').set(as.otto).send({ name: '   ' }),
      graphql: { query: 'mutation { createOrganization(input: { name: "   " }) { id } }', headers: as.otto },
    },
    {
      name: 'no credentials',
      code: 'UNAUTHENTICATED',
      rest: () => t.http().get('/api/accounts/me'),
      graphql: { query: '{ me { id } }', headers: {} },
    },
    {
      name: 'an invalid API key',
      code: 'UNAUTHENTICATED',
      rest: () => t.http().get('/api/accounts/me').set('x-api-key', 'mas_not_a_key'),
      graphql: { query: '{ me { id } }', headers: { 'x-api-key': 'mas_not_a_key' } },
    },
    {
      name: 'both credentials at once',
      code: 'UNAUTHENTICATED',
      rest: () => t.http().get('/api/accounts/me').set(as.nora).set('authorization', 'Bearer abc'),
      graphql: { query: '{ me { id } }', headers: { ...as.nora, authorization: 'Bearer abc' } },
    },
    {
      name: 'another organization’s deletion',
      code: 'FORBIDDEN',
      rest: () => t.http().delete(`/api/organizations/${DEMO.northwind}`).set(as.sam),
      graphql: { query: `mutation { deleteOrganization(input: { id: "${DEMO.northwind}" }) { members } }`, headers: as.sam },
    },
    {
      name: 'a run that does not exist',
      code: 'NOT_FOUND',
      rest: () => t.http().post(`/api/tasks/runs/${randomUUID()}/cancel`).set(as.nora),
      graphql: { query: `mutation { cancelRun(input: { runId: "${randomUUID()}" }) { id } }`, headers: as.nora },
    },
    {
      name: 'a template title already taken',
      code: 'CONFLICT',
      rest: () => t.http().post('/api/agents/templates').set(as.nora).send({ title: 'Release plan drafter', description: 'again', prompt: 'again' }),
      graphql: { query: 'mutation { createAgentTemplate(input: { title: "Release plan drafter", description: "again", prompt: "again" }) { id } }', headers: as.nora },
    },
    {
      name: 'a provider that is not configured, nothing stored',
      code: 'PROVIDER_UNAVAILABLE',
      rest: () => t.http().get('/api/research/track/stats?isrc=GBXYZ2400099&source=all').set(as.nora),
      graphql: { query: '{ trackStats(input: { isrc: "GBXYZ2400099", source: "all" }) { __typename } }', headers: as.nora },
      partial: true,
    },
  ];

  it.each(cases().map((c) => [c.name, c.code]))('%s: %s has its one status on REST and GraphQL (graphql-response+json), and 200 as application/json', async (name) => {
    const c = cases().find((x) => x.name === name)!;
    const status = ERROR_STATUS[c.code];
    const rest = await c.rest();
    expect({ status: rest.status, code: rest.body.code }).toEqual({ status, code: c.code });

    const strict = await gql(c, 'application/graphql-response+json');
    expect({ status: strict.status, code: strict.body.errors?.[0]?.extensions?.code }).toEqual({ status: c.partial ? 200 : status, code: c.code });
    expect(strict.headers['content-type']).toMatch(/^application\/graphql-response\+json/);
    if (c.partial) expect(Object.values(strict.body.data)).toEqual([null]);
    else expect(strict.body.data ?? null).toBeNull();

    for (const accept of ['application/json', undefined, '*/*']) {
      const json = await gql(c, accept);
      expect({ accept, status: json.status, code: json.body.errors?.[0]?.extensions?.code }).toEqual({ accept, status: 200, code: c.code });
      expect(json.headers['content-type']).toMatch(/^application\/json/);
      // The same answer, whatever the media type (but the budget left, which each request spends).
      expect(withoutBudgetLeft(json.body)).toEqual(withoutBudgetLeft(strict.body));
    }
    // Retry-After on a refusal only; the wait is in extensions.retryAfter either way.
    const retryAfter = strict.body.errors[0].extensions.retryAfter;
    // (a partial answer is a 200, which never carries it)
    if (retryAfter === undefined || c.partial) expect(strict.headers['retry-after']).toBeUndefined();
    else {
      expect(strict.headers['retry-after']).toBe(String(retryAfter));
      expect(rest.headers['retry-after']).toBe(String(retryAfter));
      expect((await gql(c, 'application/json')).headers['retry-after']).toBeUndefined();
    }
  });

  it('an operation without credentials is refused whole when it selects a field that needs them (fragments included); public fields and introspection answer', async () => {
    const anonymous = (query: string) => t.http().post('/graphql').set('content-type', 'application/json').set('accept', 'application/graphql-response+json').send({ query });
    for (const query of ['{ me { id } }', '{ __typename me { id } }', '{ ...F } fragment F on Query { ... on Query { me { id } } }', 'mutation { createOrganization(input: { name: "x" }) { id } }']) {
      const res = await anonymous(query);
      expect({ query, status: res.status, code: res.body.errors?.[0]?.extensions?.code, data: res.body.data }).toEqual({ query, status: 401, code: 'UNAUTHENTICATED', data: undefined });
    }
    const typename = await anonymous('{ __typename __schema { queryType { name } } }');
    expect({ status: typename.status, data: typename.body.data, errors: typename.body.errors }).toEqual({ status: 200, data: { __typename: 'Query', __schema: { queryType: { name: 'Query' } } }, errors: undefined });
    // Signup needs no credentials: refused for its input, not for the missing key.
    const signup = await anonymous('mutation { signupAgent(input: { email: "not an address" }) { message } }');
    expect(signup.body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });

  it('statuses of requests that are not GraphQL requests yet are the same for both faces and media types', async () => {
    // The method, the body's size and its media type are refused before anything reads GraphQL.
    for (const path of ['/graphql', '/api/organizations']) {
      for (const accept of ['application/json', 'application/graphql-response+json']) {
        const trace = await t.http().trace(path).set('accept', accept);
        expect({ path, accept, status: trace.status, code: trace.body.code ?? trace.body.errors?.[0]?.extensions?.code }).toEqual({ path, accept, status: 405, code: 'METHOD_NOT_ALLOWED' });
        const text = await t.http().post(path).set(as.nora).set('accept', accept).set('content-type', 'text/plain').send('{ me { id } }');
        expect({ path, accept, status: text.status }).toEqual({ path, accept, status: ERROR_STATUS.UNSUPPORTED_MEDIA_TYPE });
        const huge = await t.http().post(path).set(as.nora).set('accept', accept).set('content-type', 'application/json').send(JSON.stringify({ query: `{ me { id } } #${'x'.repeat(bytes.parse(t.config.http.bodyLimit)!)}` }));
        expect({ path, accept, status: huge.status }).toEqual({ path, accept, status: ERROR_STATUS.PAYLOAD_TOO_LARGE });
      }
    }
  });

  it('a spent budget: 429 with Retry-After as graphql-response+json, 200 with extensions.retryAfter as application/json', async () => {
    const limited = await createTestApp({ env: { RATE_LIMIT_PER_MINUTE: '2', RATE_LIMIT_LEASE_MAX: '0' } });
    try {
      const owner = await createAccount(limited.orm);
      const send = (accept: string) => limited.http().post('/graphql').set(owner.headers).set('accept', accept).send({ query: '{ me { id } }' });
      expect((await send('application/json')).body.errors).toBeUndefined();
      expect((await send('application/json')).body.errors).toBeUndefined();
      const json = await send('application/json');
      expect(json.status).toBe(200);
      expect(json.headers['retry-after']).toBeUndefined();
      expect(json.body.errors[0].extensions).toEqual({ code: 'RATE_LIMITED', retryAfter: expect.any(Number), details: [{ field: 'budget', message: 'request_points_per_minute' }, { field: 'refills_in', message: expect.any(String) }] });
      const strict = await send('application/graphql-response+json');
      expect(strict.status).toBe(ERROR_STATUS.RATE_LIMITED);
      expect(strict.body.errors[0].extensions).toEqual({ code: 'RATE_LIMITED', retryAfter: Number(strict.headers['retry-after']), details: [{ field: 'budget', message: 'request_points_per_minute' }, { field: 'refills_in', message: `${strict.headers['retry-after']} s` }] });
      const rest = await limited.http().get('/api/accounts/me').set(owner.headers);
      expect({ status: rest.status, code: rest.body.code, retryAfter: rest.headers['retry-after'] }).toEqual({ status: 429, code: 'RATE_LIMITED', retryAfter: strict.headers['retry-after'] });
    } finally {
      await limited.close();
    }
  });

  it('passes the GraphQL over HTTP audit suite (graphql-http): every MUST and SHOULD', async () => {
    await new Promise<void>((resolve) => t.app.server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/graphql`;
      const results = await auditServer({ url });
      const failed = results.filter((r) => r.status !== 'ok' && !r.name.startsWith('MAY')).map((r) => `${r.id} ${r.name}: ${'reason' in r ? r.reason : ''}`);
      expect(failed).toEqual([]);
      expect(results.filter((r) => r.status === 'ok').length).toBeGreaterThan(30);
    } finally {
      await new Promise<void>((resolve) => t.app.server.close(() => resolve()));
    }
  });
});
