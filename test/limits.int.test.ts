import supertest from 'supertest';
import { createTestApp, TestApp } from './app';
import { as } from './demo';
import { createAccount } from './factories';
import { renderEnv, secondInstance } from './support/render';

const small = { compositionId: 'title-card', inputProps: { title: 'Limits' }, width: 8, height: 8, fps: 10, durationInFrames: 1 };

/** Waits until `check` holds (each try a real request); fails with what it last saw past the deadline. */
async function eventually<T>(read: () => Promise<T>, check: (value: T) => boolean, deadlineMs = 10_000): Promise<T> {
  const until = Date.now() + deadlineMs;
  for (;;) {
    const value = await read();
    if (check(value) || Date.now() > until) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Per-account limit overrides (docs/api/usage.md), set by an admin on one instance, applied on both. */
describe('per-account limit overrides (real PostgreSQL, two instances)', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Production defaults (leases on): the override drops the second instance's leases, and a reservation
    // it had on its way when the override landed brings none back (test/rate-limit.int.test.ts).
    t = await createTestApp({ env: renderEnv({ RATE_LIMIT_PER_MINUTE: '1000' }) });
    await t.deps.render.queue.start();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('applies a request budget set on one instance on the other at once; its 429 names the budget and when it refills', async () => {
    const { account, headers } = await createAccount(t.orm);
    const second = await secondInstance(t);
    try {
      const b = () => supertest(second.app.server);
      // The second instance knows the account before the change (a cached viewer, a lease-free budget).
      await b().get('/api/accounts/me').set(headers).expect(200);
      const set = await t.http().put(`/api/accounts/${account.id}/limits`).set(as.ada).send({ request_points_per_minute: 5 });
      expect({ status: set.status, body: set.body }).toMatchObject({ status: 200, body: { limits: { account_id: account.id, overrides: { request_points_per_minute: 5, render_max_active: null }, in_force: { request_points_per_minute: 5 } } } });
      // The second instance heard the change: its usage view shows the limit in force.
      const seen = await eventually(
        async () => (await b().get('/api/accounts/me/usage').set(headers)).body.usage?.limits?.request_points_per_minute,
        (limit) => limit === 5,
      );
      expect(seen).toBe(5);
      const answers: number[] = [];
      for (let i = 0; i < 8; i += 1) answers.push((await b().get('/api/accounts/me').set(headers)).status);
      expect(answers).toContain(429);
      const refused = await b().get('/api/accounts/me').set(headers);
      expect(refused.status).toBe(429);
      expect(refused.body.details).toEqual([
        { field: 'budget', message: 'request_points_per_minute' },
        { field: 'refills_in', message: expect.stringMatching(/^\d+ s$/) },
      ]);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(refused.headers['ratelimit-limit']).toBe('5');
      const gql = await supertest(second.app.server).post('/graphql').set(headers).send({ query: '{ me { id } }' });
      expect(gql.body.errors[0].extensions).toMatchObject({ code: 'RATE_LIMITED', details: [{ field: 'budget', message: 'request_points_per_minute' }, { field: 'refills_in' }] });
      // Cleared (no member): the default is back on both.
      const cleared = await t.http().put(`/api/accounts/${account.id}/limits`).set(as.ada).send({});
      expect(cleared.body.limits.overrides.request_points_per_minute).toBeNull();
      expect(cleared.body.limits.in_force.request_points_per_minute).toBe(1000);
      await t.orm.em.getConnection().execute('delete from rate_limit_counters');
      const back = await eventually(
        async () => (await b().get('/api/accounts/me/usage').set(headers)).body.usage?.limits?.request_points_per_minute,
        (limit) => limit === 1000,
      );
      expect(back).toBe(1000);
    } finally {
      await second.close();
    }
  });

  it('applies render and API key overrides; the render 429 names its budget', async () => {
    const { account, headers } = await createAccount(t.orm);
    await t.http().put(`/api/accounts/${account.id}/limits`).set(as.ada).send({ render_max_active: 0, api_keys_max: 1 }).expect(200);
    const render = await t.http().post('/api/video/render').set(headers).send(small);
    expect(render.status).toBe(429);
    expect(render.body.details).toContainEqual({ field: 'budget', message: 'render_max_active' });
    // createAccount made one key: a second is past api_keys_max 1.
    const key = await t.http().post('/api/keys').set(headers).send({ name: 'second' });
    expect(key.status).toBe(409);
    expect(key.body.error).toContain('at most 1 active API keys');
    const mine = await t.http().get(`/api/accounts/${account.id}/limits`).set(headers).expect(200);
    expect(mine.body.limits.in_force).toMatchObject({ render_max_active: 0, api_keys_max: 1 });
  });

  it('lets only an admin set limits, and only an admin or the account itself read them; hostile values are 400s naming the field', async () => {
    const { account, headers } = await createAccount(t.orm);
    const other = await createAccount(t.orm);
    expect((await t.http().put(`/api/accounts/${account.id}/limits`).set(headers).send({ request_points_per_minute: 1_000_000 })).status).toBe(403);
    expect((await t.http().get(`/api/accounts/${other.account.id}/limits`).set(headers)).status).toBe(403);
    expect((await t.http().get(`/api/accounts/${account.id}/limits`).set(as.ada)).status).toBe(200);
    expect((await t.http().put('/api/accounts/00000000-0000-4000-8000-00000000dead/limits').set(as.ada).send({})).status).toBe(404);
    const bad = async (body: Record<string, unknown>, field: string) => {
      const r = await t.http().put(`/api/accounts/${account.id}/limits`).set(as.ada).send(body);
      expect({ body, status: r.status, fields: (r.body.details ?? []).map((d: { field: string }) => d.field) }).toEqual({ body, status: 400, fields: [field] });
    };
    await bad({ request_points_per_minute: 0 }, 'request_points_per_minute');
    await bad({ render_max_active: -1 }, 'render_max_active');
    await bad({ api_keys_max: 1.5 }, 'api_keys_max');
    await bad({ api_keys_max: '3' }, 'api_keys_max');
    await bad({ unlimited: true }, 'unlimited');
    expect((await t.http().put('/api/accounts/not-a-uuid/limits').set(as.ada).send({})).status).toBe(400);
    // Nothing was stored by the refusals.
    expect(await t.orm.em.getConnection().execute('select count(*)::int as n from account_limits where account_id = ?', [account.id])).toEqual([{ n: 0 }]);
    // GraphQL: the same rules.
    const gql = await t.graphql(`mutation { setAccountLimits(input: { accountId: "${account.id}", apiKeysMax: 3 }) { accountId } }`, {}, headers);
    expect(gql.body.errors[0].extensions.code).toBe('FORBIDDEN');
    const byAdmin = await t.graphql(`mutation { setAccountLimits(input: { accountId: "${account.id}", apiKeysMax: 3, renderDailyPixelFrames: 1000000 }) { overrides { apiKeysMax renderDailyPixelFrames requestPointsPerMinute } inForce { apiKeysMax } } }`, {}, as.ada);
    expect(byAdmin.body).toMatchObject({ data: { setAccountLimits: { overrides: { apiKeysMax: 3, renderDailyPixelFrames: 1000000, requestPointsPerMinute: null }, inForce: { apiKeysMax: 3 } } } });
    const tooMany = await t.graphql(`mutation { setAccountLimits(input: { accountId: "${account.id}", apiKeysMax: 100000 }) { accountId } }`, {}, as.ada);
    expect(tooMany.body.errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', details: [{ field: 'apiKeysMax' }] });
  });
});
