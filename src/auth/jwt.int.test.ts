import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import supertest from 'supertest';
import { createTestApp, TestApp } from '../../test/app';
import { createApp } from '../app';
import { createLogger } from '../common/logger';
import { loadConfig } from '../config/config';
import { initOrm } from '../db/orm';
import { entities } from '../modules';
import { createDeps } from '../deps';
import { DEMO } from '../../test/demo';
import { bearer, JWT_AUDIENCE, JWT_ISSUER, JwtIssuer, startJwtIssuer } from '../../test/jwt';

const me = (t: TestApp, token: string) => t.http().get('/api/accounts/me').set(bearer(token));

describe('Bearer JWTs from an identity provider (JWKS)', () => {
  let idp: JwtIssuer;
  let t: TestApp;
  beforeAll(async () => {
    idp = await startJwtIssuer();
    t = await createTestApp({ env: idp.env });
  });
  afterAll(async () => {
    await t.close();
    await idp.close();
  });

  it('creates the account on first sight and finds it again by e-mail', async () => {
    const email = `jwt-${randomUUID().slice(0, 8)}@Example.test`;
    const token = await idp.sign({ email, email_verified: true, name: 'Jay Webb', sub: randomUUID() });
    const first = await me(t, token);
    expect(first.status).toBe(200);
    expect(first.body.account).toMatchObject({ name: 'Jay Webb', email: email.toLowerCase(), kind: 'person', organizations: [] });
    const [again, parallel] = await Promise.all([me(t, await idp.sign({ email, email_verified: true })), me(t, token)]);
    expect(again.body.account.id).toBe(first.body.account.id);
    expect(parallel.body.account.id).toBe(first.body.account.id);
  });

  it('maps an existing account by its e-mail claim, but not when the provider says it is unverified', async () => {
    const nora = await me(t, await idp.sign({ email: 'nora@northwind.test', email_verified: true }));
    expect(nora.body.account).toMatchObject({ id: DEMO.nora, organizations: [{ id: DEMO.northwind, name: 'Northwind Records' }] });
    const unverified = await me(t, await idp.sign({ email: 'nora@northwind.test', email_verified: false, sub: 'impostor' }));
    expect(unverified.status).toBe(200);
    expect(unverified.body.account.id).not.toBe(DEMO.nora);
  });

  it('uses the subject when there is no e-mail claim, and keeps it when the e-mail changes', async () => {
    const sub = randomUUID();
    const first = await me(t, await idp.sign({ sub }));
    expect(first.status).toBe(200);
    const again = await me(t, await idp.sign({ sub, email: `changed-${sub.slice(0, 8)}@example.test` }));
    expect(again.status).toBe(200);
    expect(again.body.account.id).toBe(first.body.account.id);
    expect((await me(t, await idp.sign({}))).status).toBe(401);
  });

  it('refuses forged, expired and misaddressed tokens with 401 on both faces', async () => {
    const claims = { email: 'nora@northwind.test' };
    const now = Math.floor(Date.now() / 1000);
    const tampered = (await idp.sign(claims)).split('.');
    tampered[1] = Buffer.from(JSON.stringify({ ...claims, email: 'ada@demo.test', iss: JWT_ISSUER, aud: JWT_AUDIENCE, exp: now + 600 })).toString('base64url');
    const refused: Record<string, string> = {
      expired: await idp.sign(claims, { expiresIn: now - 120 }),
      'no exp': await idp.sign(claims, { expiresIn: null }),
      'wrong audience': await idp.sign(claims, { audience: 'someone-else' }),
      'wrong issuer': await idp.sign(claims, { issuer: 'https://evil.example.test/' }),
      'alg none': idp.unsigned(claims),
      'HS256 with the public key as secret': await idp.signHs256(claims),
      'unknown kid': await idp.sign(claims, { kid: 'not-ours' }),
      tampered: tampered.join('.'),
      garbage: 'abc.def.ghi',
    };
    for (const [name, token] of Object.entries(refused)) {
      const rest = await me(t, token);
      expect({ name, status: rest.status, code: rest.body.code }).toEqual({ name, status: 401, code: 'UNAUTHENTICATED' });
      const gql = await t.graphql('{ me { id } }', {}, bearer(token));
      expect({ name, status: gql.status, code: gql.body.errors?.[0]?.extensions?.code }).toEqual({ name, status: 401, code: 'UNAUTHENTICATED' });
    }
    expect((await t.http().get('/api/accounts/me').set('authorization', 'Basic abc')).status).toBe(401);
  });

  it('allows a short clock skew, no more', async () => {
    const now = Math.floor(Date.now() / 1000);
    expect((await me(t, await idp.sign({ email: 'nora@northwind.test', email_verified: true }, { expiresIn: now - 10 }))).status).toBe(200);
    expect((await me(t, await idp.sign({ email: 'nora@northwind.test' }, { expiresIn: now - 45 }))).status).toBe(401);
  });
});

describe('Bearer JWTs: an existing account is matched by e-mail only on proof', () => {
  let idp: JwtIssuer;
  let t: TestApp;
  beforeAll(async () => {
    idp = await startJwtIssuer();
    t = await createTestApp({ env: idp.env });
  });
  afterAll(async () => {
    await t.close();
    await idp.close();
  });

  it.each([
    ['the string "false"', 'false'],
    ['the string "true"', 'true'],
    ['the number 1', 1],
    ['absent', undefined],
  ])('does not sign in as the admin when email_verified is %s', async (_name, verified) => {
    const claims: Record<string, unknown> = { email: 'ada@demo.test', sub: `attacker-${randomUUID()}` };
    if (verified !== undefined) claims.email_verified = verified;
    const res = await me(t, await idp.sign(claims));
    expect(res.status).toBe(200);
    expect(res.body.account.id).not.toBe(DEMO.ada);
    expect(res.body.account.organizations).toEqual([]);
    // The unproven address is not the new account's either: nothing shared with it opens up.
    expect(res.body.account.email).toBeNull();
    const again = await me(t, await idp.sign(claims));
    expect(again.body.account.id).toBe(res.body.account.id);
  });

  it('an agent+ signup (no mailbox proof) is never signed in to by a token with that address, even email_verified: true', async () => {
    const email = `agent+${randomUUID().slice(0, 8)}@corp.test`;
    const squat = await t.http().post('/api/agents/signup').send({ email });
    expect(squat.status).toBe(200);
    const squatter = { 'x-api-key': squat.body.api_key as string };
    const sub = `real-${randomUUID()}`;
    const real = await me(t, await idp.sign({ email, email_verified: true, sub, name: 'Real Owner' }));
    expect(real.status).toBe(200);
    expect(real.body.account.id).not.toBe(squat.body.account_id);
    // The proven address is the real owner's now; the squatter's account keeps its key, not the address.
    expect(real.body.account.email).toBe(email);
    expect((await t.http().get('/api/accounts/me').set(squatter)).body.account).toMatchObject({ id: squat.body.account_id, email: null });
    // What the real owner creates stays out of the squatter's reach.
    const catalog = await t.http().post('/api/catalogs').set(bearer(await idp.sign({ email, email_verified: true, sub }))).send({ name: 'Real work' });
    expect(catalog.status).toBe(200);
    expect((await t.http().get('/api/catalogs').set(squatter)).body.catalogs).toEqual([]);
    expect((await t.http().get('/api/catalogs/songs').query({ catalog_id: catalog.body.catalog.id }).set(squatter)).status).toBe(403);
    // Another subject proving the same address finds the proven account, as before.
    const other = await me(t, await idp.sign({ email, email_verified: true, sub: `other-${randomUUID()}` }));
    expect(other.body.account.id).toBe(real.body.account.id);
  });

  it('an address held unproven opens no template shared with it; proven, it does', async () => {
    const email = `agent+${randomUUID().slice(0, 8)}@northwind.test`;
    const squat = await t.http().post('/api/agents/signup').send({ email });
    const template = await t.http().post('/api/agents/templates').set({ 'x-api-key': (await t.http().post('/api/agents/signup').send({ email: `agent+${randomUUID().slice(0, 8)}@owner.test` })).body.api_key })
      .send({ title: `Shared ${randomUUID().slice(0, 6)}`, description: 'd', prompt: 'p', is_private: true, shared_emails: [email] });
    expect(template.status).toBe(200);
    const seen = async (headers: Record<string, string>) => (await t.http().get('/api/agents/templates').set(headers)).body.templates.map((x: { id: string }) => x.id);
    expect(await seen({ 'x-api-key': squat.body.api_key })).not.toContain(template.body.template.id);
    expect(await seen(bearer(await idp.sign({ email, email_verified: true, sub: `owner-${randomUUID()}` })))).toContain(template.body.template.id);
  });

  it('an unproven e-mail opens no template shared with that address', async () => {
    const token = await idp.sign({ email: 'nora@northwind.test', email_verified: 'true', sub: `attacker-${randomUUID()}` });
    const res = await t.http().get('/api/agents/templates').set(bearer(token));
    expect(res.status).toBe(200);
    expect(res.body.templates.map((tpl: { id: string }) => tpl.id)).not.toContain(DEMO.templateShared);
  });

  it('links on email_verified: true and keeps the link for that issuer and subject', async () => {
    const sub = `nora-${randomUUID()}`;
    const linked = await me(t, await idp.sign({ email: 'Nora@Northwind.test', email_verified: true, sub }));
    expect(linked.body.account.id).toBe(DEMO.nora);
    // Same subject, e-mail since changed and unverified: still the same person at the provider.
    const later = await me(t, await idp.sign({ email: 'nora.new@example.test', email_verified: false, sub }));
    expect(later.body.account.id).toBe(DEMO.nora);
    // Another subject claiming her address without proof gets an account of its own.
    const other = await me(t, await idp.sign({ email: 'nora@northwind.test', email_verified: false, sub: `other-${randomUUID()}` }));
    expect(other.body.account.id).not.toBe(DEMO.nora);
  });

  it('a subject bound to its own account stays there when a later token proves an e-mail', async () => {
    const sub = `own-${randomUUID()}`;
    const first = await me(t, await idp.sign({ sub }));
    const later = await me(t, await idp.sign({ sub, email: 'otto@solo.test', email_verified: true }));
    expect(later.body.account.id).toBe(first.body.account.id);
  });

  it('binds the same subject from two issuers to two accounts', async () => {
    const sub = `shared-${randomUUID()}`;
    const otherIssuer = 'https://other-idp.example.test/';
    // A second app on the same database, trusting another issuer (same keys, so only iss differs).
    const orm = await initOrm({ url: t.db.url, poolMax: 2, entities });
    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: t.db.url, ...idp.env, AUTH_JWT_ISSUER: otherIssuer });
    const other = await createApp(createDeps(config, orm, createLogger('silent')));
    try {
      const a = await me(t, await idp.sign({ sub }));
      const b = await supertest(other.server).get('/api/accounts/me').set(bearer(await idp.sign({ sub }, { issuer: otherIssuer })));
      expect(a.status).toBe(200);
      expect(b.status).toBe(200);
      expect(b.body.account.id).not.toBe(a.body.account.id);
      const rows = await t.orm.em.fork().getConnection().execute('select issuer, account_id from account_identities where subject = ? order by issuer', [sub]);
      expect(rows).toEqual([
        { issuer: JWT_ISSUER, account_id: a.body.account.id },
        { issuer: otherIssuer, account_id: b.body.account.id },
      ]);
    } finally {
      await other.stop();
      await orm.close(true);
    }
  });

  it('creates one account and one identity for concurrent first requests', async () => {
    const sub = `race-${randomUUID()}`;
    const token = await idp.sign({ sub, email: `race-${sub.slice(5, 13)}@example.test`, email_verified: true });
    const answers = await Promise.all(Array.from({ length: 6 }, () => me(t, token)));
    expect(new Set(answers.map((a) => a.status))).toEqual(new Set([200]));
    expect(new Set(answers.map((a) => a.body.account.id)).size).toBe(1);
    const rows = await t.orm.em.fork().getConnection().execute('select account_id from account_identities where subject = ?', [sub]);
    expect(rows).toEqual([{ account_id: answers[0]!.body.account.id }]);
  });

  it('refuses a token with neither a subject nor a proven e-mail', async () => {
    expect((await me(t, await idp.sign({ email: 'ada@demo.test' }))).status).toBe(401);
    expect((await me(t, await idp.sign({ email: 'ada@demo.test', email_verified: 'true' }))).status).toBe(401);
  });
});

describe('Bearer JWTs with AUTH_TRUST_EMAIL=true', () => {
  let idp: JwtIssuer;
  let t: TestApp;
  beforeAll(async () => {
    idp = await startJwtIssuer();
    t = await createTestApp({ env: { ...idp.env, AUTH_TRUST_EMAIL: 'true' } });
  });
  afterAll(async () => {
    await t.close();
    await idp.close();
  });

  it('matches by e-mail without an email_verified claim, never against an explicit non-true one', async () => {
    expect((await me(t, await idp.sign({ email: 'nora@northwind.test', sub: `a-${randomUUID()}` }))).body.account.id).toBe(DEMO.nora);
    for (const verified of [false, 'false', 'true', 0]) {
      const res = await me(t, await idp.sign({ email: 'ada@demo.test', email_verified: verified, sub: `b-${randomUUID()}` }));
      expect({ verified, id: res.body.account.id === DEMO.ada }).toEqual({ verified, id: false });
    }
  });
});

describe('Bearer JWTs when the key set is unreachable', () => {
  let idp: JwtIssuer;
  let t: TestApp;
  beforeAll(async () => {
    idp = await startJwtIssuer();
    t = await createTestApp({ env: { ...idp.env, AUTH_JWKS_URL: `http://127.0.0.1:${await closedPort()}/jwks.json` }, seed: false });
  });
  afterAll(async () => {
    await t.close();
    await idp.close();
  });

  it('answers 503 with Retry-After, never 500, on both faces', async () => {
    const token = await idp.sign({ email: 'someone@example.test' });
    const rest = await me(t, token);
    expect(rest.status).toBe(503);
    expect(rest.body).toMatchObject({ status: 'error', code: 'PROVIDER_UNAVAILABLE' });
    expect(rest.headers['retry-after']).toBe('30');
    expect(JSON.stringify(rest.body)).not.toMatch(/ECONNREFUSED|127\.0\.0\.1/);
    const gql = await t.graphql('{ me { id } }', {}, bearer(token));
    expect(gql.status).toBe(503);
    expect(gql.body.errors[0].extensions.code).toBe('PROVIDER_UNAVAILABLE');
  });
});

describe('Bearer JWTs against a configured PEM public key', () => {
  let idp: JwtIssuer;
  let t: TestApp;
  beforeAll(async () => {
    idp = await startJwtIssuer();
    t = await createTestApp({
      env: { AUTH_JWT_PUBLIC_KEY: idp.publicPem.replace(/\n/g, '\\n'), AUTH_JWT_ISSUER: JWT_ISSUER, AUTH_JWT_AUDIENCE: JWT_AUDIENCE },
    });
  });
  afterAll(async () => {
    await t.close();
    await idp.close();
  });

  it('accepts tokens signed by its private key and nothing else', async () => {
    expect((await me(t, await idp.sign({ email: 'nora@northwind.test', email_verified: true }))).body.account.id).toBe(DEMO.nora);
    expect((await me(t, await idp.signHs256({ email: 'nora@northwind.test' }))).status).toBe(401);
    expect((await me(t, idp.unsigned({ email: 'nora@northwind.test' }))).status).toBe(401);
    const other = await startJwtIssuer();
    try {
      expect((await me(t, await other.sign({ email: 'nora@northwind.test' }))).status).toBe(401);
    } finally {
      await other.close();
    }
    expect(idp.fetches()).toBe(0);
  });
});

function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
