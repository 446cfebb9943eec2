import supertest from 'supertest';
import { createTestApp, TestApp } from './app';
import { createAccount } from './factories';
import { renderEnv, secondInstance } from './support/render';
import { Sandbox, startSandbox } from '../src/providers/sandbox';

const render = { compositionId: 'title-card', inputProps: { title: 'Usage' }, width: 64, height: 48, fps: 10, durationInFrames: 10 };

/** GET /api/accounts/me/usage and Query.usage (docs/api/usage.md), over two API instances on one database. */
describe('usage an account can see (real PostgreSQL, two instances)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: renderEnv({ RATE_LIMIT_PER_MINUTE: '500', USAGE_FLUSH_INTERVAL_MS: '60000' }) });
    await t.deps.render.queue.start();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('sums the request points and renders made on both instances, per period and in total, with the limits in force', async () => {
    const { account, headers } = await createAccount(t.orm);
    const other = await createAccount(t.orm);
    const second = await secondInstance(t);
    try {
      for (let i = 0; i < 3; i += 1) await t.http().get('/api/accounts/me').set(headers).expect(200);
      for (let i = 0; i < 2; i += 1) await supertest(second.app.server).get('/api/accounts/me').set(headers).expect(200);
      // A render on the second instance: 1 point, one run of 64 × 48 × 10 pixel-frames.
      await supertest(second.app.server).post('/api/video/render').set(headers).send(render).expect(200);
      // Another account's requests are its own.
      await t.http().get('/api/accounts/me').set(other.headers).expect(200);
    } finally {
      // Shutdown flushes what the instance gathered.
      await second.close();
    }
    await t.deps.usage.flush();
    const res = await t.http().get('/api/accounts/me/usage').query({ granularity: 'hour' }).set(headers);
    expect({ status: res.status, body: res.status === 200 ? undefined : res.body }).toEqual({ status: 200 });
    const usage = res.body.usage;
    expect(usage.granularity).toBe('hour');
    expect(usage.periods).toHaveLength(24);
    expect(usage.totals).toMatchObject({ request_points: 6, research_points: 0, provider_calls: 0, stored_answers: 0, render_runs: 1, render_pixel_frames: 64 * 48 * 10 });
    const busy = usage.periods.filter((p: { request_points: number }) => p.request_points > 0);
    expect(busy.length).toBeGreaterThanOrEqual(1);
    expect(busy.reduce((sum: number, p: { request_points: number }) => sum + p.request_points, 0)).toBe(6);
    expect(usage.limits).toEqual({
      request_points_per_minute: 500,
      research_points_per_minute: t.config.requestLimits.researchPerMinute,
      render_max_active: t.config.render.maxActivePerAccount,
      render_daily_pixel_frames: t.config.render.dailyPixelFrames,
      api_keys_max: 25,
      idempotency_keys_max: t.config.idempotency.maxKeysPerAccount,
      webhook_endpoints_max: t.config.webhook.maxEndpointsPerAccount,
    });
    // The caller's own figures: kept by no shared cache, revalidated on each read (src/http/caching.ts).
    expect(res.headers['cache-control']).toBe('private, no-cache');
    expect(await t.orm.em.getConnection().execute(`select count(*)::int as n from account_usage where account_id = ?`, [other.account.id])).toEqual([{ n: 1 }]);

    // The same on GraphQL, by day (this request's own point and the REST read above are counted once flushed).
    await t.deps.usage.flush();
    const gql = await t.graphql('{ usage(granularity: day) { granularity periods { start requestPoints renderRuns } totals { requestPoints renderRuns renderPixelFrames } limits { requestPointsPerMinute } } }', {}, headers);
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data.usage.periods).toHaveLength(7);
    expect(gql.body.data.usage.totals).toEqual({ requestPoints: 7, renderRuns: 1, renderPixelFrames: 64 * 48 * 10 });
    void account;
  });

  it('refuses hostile periods with a 400 naming the field', async () => {
    const { headers } = await createAccount(t.orm);
    const bad = async (query: Record<string, string>, field: string) => {
      const r = await t.http().get('/api/accounts/me/usage').query(query).set(headers);
      expect({ query, status: r.status, fields: (r.body.details ?? []).map((d: { field: string }) => d.field) }).toEqual({ query, status: 400, fields: [field] });
    };
    await bad({ from: 'yesterday' }, 'from');
    await bad({ to: '2026-13-45' }, 'to');
    await bad({ from: '2026-11-20T00:00:00' }, 'from'); // no zone
    await bad({ granularity: 'minute' }, 'granularity');
    await bad({ from: '2026-11-26', to: '2026-11-20' }, 'from');
    await bad({ from: '2020-01-01', to: '2026-01-01' }, 'from'); // 2 000 days
    await bad({ from: '2026-11-01', to: '2026-11-26', granularity: 'hour' }, 'from'); // 600 hours
    await bad({ account_id: '00000000-0000-0000-0000-000000000000' }, 'account_id');
    await bad({ from: '2026-11-01'.padEnd(200, '0') }, 'from');
    const ok = await t.http().get('/api/accounts/me/usage').query({ from: '2026-11-01', to: '2026-11-04' }).set(headers).expect(200);
    expect(ok.body.usage.periods.map((p: { start: string }) => p.start)).toEqual(['2026-11-01T00:00:00.000Z', '2026-11-02T00:00:00.000Z', '2026-11-03T00:00:00.000Z']);
    expect((await t.http().get('/api/accounts/me/usage')).status).toBe(401);
  });
});

describe('usage: provider calls made vs answers served from stored data (sandbox upstreams)', () => {
  let t: TestApp;
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox();
    // No demo data: nothing is stored before the test asks.
    t = await createTestApp({ seed: false, env: { ...sandbox.env, PROVIDER_RETRIES: '0', USAGE_FLUSH_INTERVAL_MS: '60000' } });
  });
  afterAll(async () => {
    await t?.close();
    await sandbox?.close();
  });

  it('counts the upstream calls the account made and the answers it got from stored data', async () => {
    const { headers } = await createAccount(t.orm);
    sandbox.reset();
    // The first asks the provider and stores its answer; the second is served from it.
    await t.http().get('/api/research/genres').set(headers).expect(200);
    await t.http().get('/api/research/genres').set(headers).expect(200);
    // One provider call (the upstream saw it, with its token request: HTTP requests are not calls).
    expect(sandbox.requestCount()).toBeGreaterThanOrEqual(1);
    await t.deps.usage.flush();
    const { totals } = (await t.http().get('/api/accounts/me/usage').set(headers).expect(200)).body.usage;
    expect({ provider_calls: totals.provider_calls, stored_answers: totals.stored_answers }).toEqual({ provider_calls: 1, stored_answers: 1 });
    expect(totals.research_points).toBeGreaterThanOrEqual(1);
  });
});
