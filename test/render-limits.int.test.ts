import { as } from './demo';
import { createTestApp, TestApp } from './app';
import { createAccount } from './factories';
import { renderEnv } from './support/render';

const small = { compositionId: 'title-card', inputProps: { title: 'Quota' }, width: 64, height: 48, fps: 10, durationInFrames: 10 };

/** Admission of renders per account: no worker runs here, so accepted runs stay QUEUED. */
describe('render quota: active runs per account (real PostgreSQL)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: renderEnv({ RENDER_MAX_ACTIVE_PER_ACCOUNT: '3' }) });
    // Starts the queue so its tables exist before the race below.
    await t.deps.render.queue.start();
  });
  afterAll(async () => {
    await t?.close();
  });

  const countsOf = async (accountId: string) => {
    const conn = t.orm.em.getConnection();
    const runs = await conn.execute<{ n: number }[]>('select count(*)::int as n from render_runs where account_id = ?', [accountId]);
    const jobs = await conn.execute<{ n: number }[]>(
      "select count(*)::int as n from pgboss.job j join render_runs r on r.job_id = j.id where j.name = 'render-video' and r.account_id = ?", [accountId]);
    return { runs: runs[0].n, jobs: jobs[0].n };
  };

  it('admits exactly 3 of 10 concurrent requests; the 7 others get 429 RATE_LIMITED with Retry-After and queue nothing', async () => {
    const { account, headers } = await createAccount(t.orm);
    const answers = await Promise.all(Array.from({ length: 10 }, () => t.http().post('/api/video/render').set(headers).send(small)));
    const accepted = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status !== 200);
    expect(accepted).toHaveLength(3);
    expect(refused).toHaveLength(7);
    for (const r of refused) {
      expect(r.status).toBe(429);
      expect(r.body).toMatchObject({ status: 'error', code: 'RATE_LIMITED' });
      expect(r.body.error).toContain('3 renders');
      expect(Number(r.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    }
    expect(await countsOf(account.id)).toEqual({ runs: 3, jobs: 3 });
    const metrics = (await t.http().get('/metrics')).text;
    expect(Number(/render_admission_refused_total\{limit="active"\} (\d+)/.exec(metrics)?.[1])).toBeGreaterThanOrEqual(7);
    expect(Number(/render_runs_active\{status="QUEUED"\} (\d+)/.exec(metrics)?.[1])).toBeGreaterThanOrEqual(3);

    // Another account is not held back by this one's cap.
    expect((await t.http().post('/api/video/render').set(as.otto).send(small)).status).toBe(200);

    // A finished (here: canceled) run frees its place.
    await t.http().post(`/api/tasks/runs/${accepted[0].body.runId}/cancel`).set(headers).expect(200);
    expect((await t.http().post('/api/video/render').set(headers).send(small)).status).toBe(200);
    expect((await t.http().post('/api/video/render').set(headers).send(small)).status).toBe(429);
  });

  it('answers RATE_LIMITED on the GraphQL face too', async () => {
    const { headers } = await createAccount(t.orm);
    const mutation = 'mutation { renderVideo(input: { compositionId: "title-card", inputProps: {title: "G"}, width: 8, height: 8, durationInFrames: 1 }) { id } }';
    for (let i = 0; i < 3; i += 1) expect((await t.graphql(mutation, {}, headers)).body.data.renderVideo.id).toEqual(expect.any(String));
    const refused = await t.graphql(mutation, {}, headers);
    expect(refused.body.errors[0].extensions).toMatchObject({ code: 'RATE_LIMITED', retryAfter: expect.any(Number) });
  });
});

describe('render quota: daily pixel-frame budget (real PostgreSQL)', () => {
  let t: TestApp;
  // Two renders of 100 × 100 × 10 fit, with 10 pixel-frames to spare; a third does not.
  const budget = 2 * 100 * 100 * 10 + 10;
  const tile = { ...small, width: 100, height: 100, durationInFrames: 10 };
  beforeAll(async () => {
    t = await createTestApp({ env: renderEnv({ RENDER_MAX_ACTIVE_PER_ACCOUNT: '10', RENDER_DAILY_PIXEL_FRAMES: String(budget) }) });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('refuses a render past the rolling 24 h budget with 429 and the seconds until enough of it frees', async () => {
    const { headers } = await createAccount(t.orm);
    const first = await t.http().post('/api/video/render').set(headers).send(tile);
    expect(first.status).toBe(200);
    // Canceled before it started: it rendered nothing, so it costs nothing.
    await t.http().post(`/api/tasks/runs/${first.body.runId}/cancel`).set(headers).expect(200);
    const second = await t.http().post('/api/video/render').set(headers).send(tile);
    const third = await t.http().post('/api/video/render').set(headers).send(tile);
    expect([second.status, third.status]).toEqual([200, 200]);
    // The budget counts renders whatever became of them: a failed one used the worker too.
    await t.orm.em.getConnection().execute("update render_runs set status = 'FAILED', finished_at = now() where id = ?", [second.body.runId]);
    const over = await t.http().post('/api/video/render').set(headers).send(tile);
    expect(over.status).toBe(429);
    expect(over.body).toMatchObject({ code: 'RATE_LIMITED', error: expect.stringContaining('pixel-frames') });
    const wait = Number(over.headers['retry-after']);
    expect(wait).toBeGreaterThan(24 * 3600 - 120);
    expect(wait).toBeLessThanOrEqual(24 * 3600);
    // A smaller render that still fits is admitted.
    expect((await t.http().post('/api/video/render').set(headers).send({ ...small, width: 1, height: 1, durationInFrames: 1 })).status).toBe(200);

    // Once the oldest render leaves the window, its share is free again.
    await t.orm.em.getConnection().execute("update render_runs set created_at = now() - interval '25 hours' where id = ?", [second.body.runId]);
    expect((await t.http().post('/api/video/render').set(headers).send(tile)).status).toBe(200);
  });

  it('refuses a single render larger than the whole budget as bad input, naming the fields', async () => {
    const { headers } = await createAccount(t.orm);
    const res = await t.http().post('/api/video/render').set(headers).send({ ...tile, width: 1000 });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('BAD_USER_INPUT');
    expect(res.body.details.map((d: { field: string }) => d.field)).toEqual(['width', 'height', 'durationInFrames']);
    expect(res.body.error).toContain(String(budget));
  });
});
