import { randomUUID } from 'node:crypto';
import { createApp } from '../../app';
import { createLogger } from '../../common/logger';
import { initOrm } from '../../db/orm';
import { entities } from '..';
import { createDeps } from '../../deps';
import type { MailMessage } from '../../auth/mailer';
import { createTestApp, TestApp } from '../../../test/app';
import { DEMO } from '../../../test/demo';
import { SignupAgentDocument } from '../../../test/generated/graphql';
import { MESSAGES } from './onboarding.service';
import supertest from 'supertest';

describe('agent onboarding (POST /api/agents/signup, /api/agents/verify)', () => {
  let t: TestApp;
  const sent: MailMessage[] = [];
  /** Each test signs up from an address of its own, so the per-IP limit does not couple tests. */
  let ips = 0;
  const newIp = () => {
    ips += 1;
    return `198.51.${Math.floor(ips / 250)}.${(ips % 250) + 1}, 10.0.0.1`;
  };
  let ip: string;
  const signup = (email: unknown, from = ip) => t.http().post('/api/agents/signup').set('x-forwarded-for', from).send({ email });
  const verify = (email: string, code: string) => t.http().post('/api/agents/verify').send({ email, code });
  const codeFor = (email: string) => {
    const mail = [...sent].reverse().find((m) => m.to === email);
    return /\b(\d{6})\b/.exec(mail?.text ?? '')?.[1];
  };

  beforeAll(async () => {
    // Requests arrive through a proxy at 10.0.0.1 (trusted), which appends the client address.
    t = await createTestApp({ env: { SIGNUP_LIMIT_PER_IP_PER_HOUR: '8', SIGNUP_LIMIT_PER_ADDRESS_PER_HOUR: '5', TRUST_PROXY: 'loopback, 10.0.0.1' } });
    t.deps.mailer = { send: async (m) => void sent.push(m) };
  });
  beforeEach(() => {
    ip = newIp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('gives an agent+ address an account and a working key at once, stored only as a hash', async () => {
    const email = `agent+${randomUUID().slice(0, 8)}@bots.example.test`;
    const res = await signup(email.toUpperCase());
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ account_id: expect.any(String), api_key: expect.stringMatching(/^mas_[\w-]{40,}$/), message: MESSAGES.keyIssued });
    const me = await t.http().get('/api/accounts/me').set('x-api-key', res.body.api_key);
    expect(me.body.account).toMatchObject({ id: res.body.account_id, email, kind: 'person' });
    const rows = await t.orm.em.getConnection().execute('select hash, hint from api_keys where account_id = ?', [res.body.account_id]);
    expect(rows).toHaveLength(1);
    expect(rows[0].hash).not.toContain(res.body.api_key);
    expect(rows[0].hint.length).toBeLessThan(16);
    expect(sent.find((m) => m.to === email)).toBeUndefined();
  });

  it('does not hand a second key to a known agent+ address: it must prove it receives the mail', async () => {
    const email = `agent+${randomUUID().slice(0, 8)}@bots.example.test`;
    const first = await signup(email);
    const again = await signup(email);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ account_id: null, api_key: null, message: MESSAGES.codeSent });
    // Proof of the mailbox never opens the account an unproven signup made: the prover gets an
    // account of its own, with the address; the agent+ account keeps its key and loses the address.
    const verified = await verify(email, codeFor(email)!);
    expect(verified.status).toBe(200);
    expect(verified.body.account_id).not.toBe(first.body.account_id);
    const prover = await t.http().get('/api/accounts/me').set('x-api-key', verified.body.api_key);
    expect(prover.body.account).toMatchObject({ id: verified.body.account_id, email });
    const squatter = await t.http().get('/api/accounts/me').set('x-api-key', first.body.api_key);
    expect(squatter.body.account).toMatchObject({ id: first.body.account_id, email: null });
    // What the prover makes stays out of the squatter's reach.
    const catalog = await t.http().post('/api/catalogs').set('x-api-key', verified.body.api_key).send({ name: 'Prover only' });
    expect((await t.http().get('/api/catalogs').set('x-api-key', first.body.api_key)).body.catalogs).toEqual([]);
    expect((await t.http().get('/api/catalogs/songs').query({ catalog_id: catalog.body.catalog.id }).set('x-api-key', first.body.api_key)).status).toBe(403);
    // A proven address is found again by the next code.
    await signup(email);
    expect((await verify(email, codeFor(email)!)).body.account_id).toBe(verified.body.account_id);
  });

  it('answers known and unknown addresses alike, and e-mails each a code that yields a key', async () => {
    const unknown = `new-${randomUUID().slice(0, 8)}@example.test`;
    const known = await signup('nora@northwind.test');
    const fresh = await signup(unknown);
    expect(known.status).toBe(200);
    expect(fresh.status).toBe(200);
    expect(known.body).toEqual(fresh.body);
    expect(known.body).toEqual({ account_id: null, api_key: null, message: MESSAGES.codeSent });

    const noraCode = codeFor('nora@northwind.test');
    expect(noraCode).toMatch(/^\d{6}$/);
    const stored = await t.orm.em.getConnection().execute('select code_hash from verification_codes where email = ?', ['nora@northwind.test']);
    expect(stored[0].code_hash).not.toContain(noraCode);

    const nora = await verify('nora@northwind.test', noraCode!);
    expect(nora.status).toBe(200);
    expect(nora.body).toEqual({ account_id: DEMO.nora, api_key: expect.stringMatching(/^mas_/), message: MESSAGES.verified });
    const me = await t.http().get('/api/accounts/me').set('x-api-key', nora.body.api_key);
    expect(me.body.account.id).toBe(DEMO.nora);

    const created = await verify(unknown, codeFor(unknown)!);
    expect(created.status).toBe(200);
    const meNew = await t.http().get('/api/accounts/me').set('x-api-key', created.body.api_key);
    expect(meNew.body.account).toMatchObject({ id: created.body.account_id, email: unknown, kind: 'person', organizations: [] });
  });

  it('uses a code once, and only the newest one', async () => {
    const email = `once-${randomUUID().slice(0, 8)}@example.test`;
    await signup(email);
    const old = codeFor(email)!;
    await signup(email);
    const current = codeFor(email)!;
    if (old !== current) expect((await verify(email, old)).status).toBe(400);
    expect((await verify(email, current)).status).toBe(200);
    const reused = await verify(email, current);
    expect(reused.status).toBe(400);
    expect(reused.body).toMatchObject({ code: 'BAD_USER_INPUT', details: [{ field: 'code', message: 'is wrong or expired' }] });
  });

  it('answers 400 for a wrong or expired code, and kills the code after 5 wrong tries (429)', async () => {
    const email = `tries-${randomUUID().slice(0, 8)}@example.test`;
    await signup(email);
    const code = codeFor(email)!;
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i += 1) {
      const res = await verify(email, wrong);
      expect({ try: i + 1, status: res.status }).toEqual({ try: i + 1, status: 400 });
    }
    const dead = await verify(email, code);
    expect(dead.status).toBe(429);
    expect(dead.body.code).toBe('RATE_LIMITED');
    expect(Number(dead.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(dead.headers['retry-after'])).toBeLessThanOrEqual(600);
    await signup(email);
    expect((await verify(email, codeFor(email)!)).status).toBe(200);

    const late = `late-${randomUUID().slice(0, 8)}@example.test`;
    await signup(late);
    await t.orm.em.getConnection().execute(`update verification_codes set expires_at = now() - interval '1 second' where email = ?`, [late]);
    expect((await verify(late, codeFor(late)!)).status).toBe(400);
    expect((await verify(`nobody-${randomUUID().slice(0, 8)}@example.test`, '123456')).status).toBe(400);
  });

  it('counts concurrent wrong tries one by one', async () => {
    const email = `race-${randomUUID().slice(0, 8)}@example.test`;
    await signup(email);
    const code = codeFor(email)!;
    const wrong = code === '000000' ? '111111' : '000000';
    const answers = await Promise.all(Array.from({ length: 8 }, () => verify(email, wrong)));
    expect(answers.map((r) => r.status).sort()).toEqual([400, 400, 400, 400, 400, 429, 429, 429]);
    expect((await verify(email, code)).status).toBe(429);
  });

  it('limits signups per address and per IP with 429 and Retry-After, counted in PostgreSQL across instances', async () => {
    // A second instance of the service on the same database.
    const orm2 = await initOrm({ url: t.db.url, poolMax: 2, entities });
    const app2 = await createApp(createDeps(t.config, orm2, createLogger('silent')));
    try {
      const email = `limit-${randomUUID().slice(0, 8)}@example.test`;
      const other = supertest(app2.server);
      const statuses: number[] = [];
      for (let i = 0; i < 5; i += 1) {
        const res = i % 2 ? await signup(email, newIp()) : await other.post('/api/agents/signup').set('x-forwarded-for', newIp()).send({ email });
        statuses.push(res.status);
      }
      expect(statuses).toEqual([200, 200, 200, 200, 200]);
      const limited = await other.post('/api/agents/signup').set('x-forwarded-for', newIp()).send({ email });
      expect(limited.status).toBe(429);
      expect(limited.body).toMatchObject({ status: 'error', code: 'RATE_LIMITED' });
      const retry = Number(limited.headers['retry-after']);
      expect(retry).toBeGreaterThan(3500);
      expect(retry).toBeLessThanOrEqual(3600);

      const from = newIp();
      const perIp = await Promise.all(
        Array.from({ length: 10 }, (_, i) => signup(`ip-${i}-${randomUUID().slice(0, 8)}@example.test`, from)),
      );
      expect(perIp.filter((r) => r.status === 200)).toHaveLength(8);
      const refused = perIp.filter((r) => r.status === 429);
      expect(refused).toHaveLength(2);
      expect(Number(refused[0].headers['retry-after'])).toBeGreaterThan(3500);
      expect((await signup(`ip-other-${randomUUID().slice(0, 8)}@example.test`, newIp())).status).toBe(200);
    } finally {
      await app2.stop();
      await orm2.close(true);
    }
  });

  it('names the field of a bad input, and answers 503 when the code cannot be sent', async () => {
    const bad = await signup('not-an-address');
    expect(bad.status).toBe(400);
    expect(bad.body.details).toEqual([{ field: 'email', message: 'must be an e-mail address' }]);
    expect((await signup(undefined)).body.details).toEqual([{ field: 'email', message: 'is required' }]);
    const badCode = await verify('someone@example.test', '12ab');
    expect(badCode.status).toBe(400);
    expect(badCode.body.details).toEqual([{ field: 'code', message: 'must be the 6-digit code from the e-mail' }]);

    const mailer = t.deps.mailer;
    t.deps.mailer = { send: async () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:25')) };
    try {
      const res = await signup(`down-${randomUUID().slice(0, 8)}@example.test`);
      expect(res.status).toBe(503);
      expect(res.headers['retry-after']).toBeDefined();
      expect(JSON.stringify(res.body)).not.toMatch(/ECONNREFUSED|127\.0\.0\.1/);
    } finally {
      t.deps.mailer = mailer;
    }
  });

  it('is the same operation on GraphQL', async () => {
    const email = `agent+gql-${randomUUID().slice(0, 8)}@bots.example.test`;
    const res = await t.graphql(SignupAgentDocument, { input: { email } });
    expect(res.body.data.signupAgent).toMatchObject({ account_id: expect.any(String), api_key: expect.stringMatching(/^mas_/) });
  });
});
