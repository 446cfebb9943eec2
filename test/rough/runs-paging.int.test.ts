import { createTestApp, TestApp } from '../app';
import { as, DEMO } from '../demo';
import { createAccount } from '../factories';
import { renderEnv } from '../support/render';

/** GET /api/tasks/runs past the newest 100 (issue 16): page and limit, as the other lists. */
describe('runs paging', () => {
  let t: TestApp;
  let headers: Record<string, string>;
  let ids: string[];
  beforeAll(async () => {
    t = await createTestApp({ env: renderEnv({ RENDER_MAX_ACTIVE_PER_ACCOUNT: '1000' }) });
    const account = await createAccount(t.orm);
    headers = account.headers;
    ids = [];
    for (let i = 0; i < 25; i++) {
      const res = await t.http().post('/api/video/render').set(headers).send({ compositionId: 'title-card', inputProps: { title: `Run ${i}` }, width: 16, height: 16, fps: 10, durationInFrames: 10 });
      expect(res.status).toBe(200);
      ids.unshift(res.body.runId as string);
    }
  }, 60_000);
  afterAll(() => t?.close());

  it('walks every run, newest first, page by page, with a pagination object', async () => {
    const seen: string[] = [];
    for (let page = 1; page <= 3; page++) {
      const res = await t.http().get('/api/tasks/runs').query({ page, limit: 10 }).set(headers);
      expect(res.status).toBe(200);
      expect(res.body.pagination).toEqual({ total_count: 25, page, limit: 10, total_pages: 3 });
      seen.push(...res.body.runs.map((r: { id: string }) => r.id));
    }
    expect(seen).toEqual(ids);
    const past = await t.http().get('/api/tasks/runs').query({ page: 4, limit: 10 }).set(headers);
    expect(past.body.runs).toEqual([]);
    expect(past.body.pagination.total_count).toBe(25);
    const defaults = await t.http().get('/api/tasks/runs').set(headers);
    expect(defaults.body.runs).toHaveLength(20);
    expect(defaults.body.pagination).toEqual({ total_count: 25, page: 1, limit: 20, total_pages: 2 });
  });

  it('refuses a bad page, naming it', async () => {
    for (const page of ['0', '-1', 'x', '1.5']) {
      const bad = await t.http().get('/api/tasks/runs').query({ page }).set(headers);
      expect({ page, status: bad.status, field: bad.body.details?.[0]?.field }).toEqual({ page, status: 400, field: 'page' });
    }
  });

  it('one run by runId keeps its answer: {status, runs:[run]}', async () => {
    const res = await t.http().get('/api/tasks/runs').query({ runId: ids[3] }).set(headers);
    expect(res.status).toBe(200);
    expect(res.body.runs.map((r: { id: string }) => r.id)).toEqual([ids[3]]);
    expect(res.body.status).toBe('success');
  });

  it('counts only the runs of the account asked for', async () => {
    const other = await t.http().get('/api/tasks/runs').query({ page: 1 }).set(as.otto);
    expect(other.status).toBe(200);
    expect(other.body.runs.map((r: { id: string }) => r.id).filter((id: string) => ids.includes(id))).toEqual([]);
    expect(other.body.pagination.total_count).toBe(other.body.runs.length);
    const refused = await t.http().get('/api/tasks/runs').query({ account_id: DEMO.sam, page: 2 }).set(as.otto);
    expect(refused.status).toBe(403);
  });
});
