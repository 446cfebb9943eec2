import { as, DEMO } from '../demo';
import { createTestApp, TestApp } from '../app';
import { renderEnv } from '../support/render';
import { AgentTemplatesDocument } from '../generated/graphql';

/**
 * Issue #14: each hot read below costs the rate-limit upsert plus ONE data statement once the
 * credential is warm (2 in all), whatever the page size; a refused read is still refused.
 */
describe('statements per request: agent templates and render runs (real PostgreSQL)', () => {
  let t: TestApp;
  /** A run of Nora's that is COMPLETED with a stored video (its answer carries a signed link), and one still QUEUED. */
  let completedRun: string;
  let queuedRun: string;
  /** A run of Otto's: out of Nora's reach. */
  let ottoRun: string;

  beforeAll(async () => {
    // deterministicBudgets: every charge is its statement, so each request's count is the same whatever ran before
    // (production's leases take a lease with a statement now and then, and charge from it with none in between).
    t = await createTestApp({ deterministicBudgets: true, env: renderEnv() });
    const conn = t.orm.em.getConnection();
    const payload = JSON.stringify({ compositionId: 'title-card', inputProps: { title: 'Count' }, width: 64, height: 64, fps: 10, durationInFrames: 10, codec: 'h264' });
    const output = JSON.stringify({ key: 'count.mp4', mimeType: 'video/mp4', bytes: 1234, width: 64, height: 64, fps: 10, durationInFrames: 10, codec: 'h264' });
    // 130 runs of Nora's (more than the largest page), a few COMPLETED with a video, and 30 of Luna's (on Northwind's roster).
    const runs = await conn.execute<{ id: string; status: string }[]>(
      `insert into render_runs (id, created_at, updated_at, account_id, task_identifier, status, payload, progress, attempts, output, started_at, finished_at)
       select gen_random_uuid(), now() - g * interval '1 minute', now(), ?, 'render-video',
              case when g % 10 = 0 then 'COMPLETED' else 'QUEUED' end, ?::jsonb, case when g % 10 = 0 then 1 else 0 end, g % 3,
              case when g % 10 = 0 then ?::jsonb end, case when g % 10 = 0 then now() end, case when g % 10 = 0 then now() end
         from generate_series(1, 130) g
       returning id, status`,
      [DEMO.nora, payload, output],
    );
    completedRun = runs.find((r) => r.status === 'COMPLETED')!.id;
    queuedRun = runs.find((r) => r.status === 'QUEUED')!.id;
    await conn.execute(
      `insert into render_runs (id, created_at, updated_at, account_id, task_identifier, payload)
       select gen_random_uuid(), now() - g * interval '1 minute', now(), ?, 'render-video', ?::jsonb from generate_series(1, 30) g`,
      [DEMO.luna, payload],
    );
    [{ id: ottoRun }] = await conn.execute<{ id: string }[]>(
      `insert into render_runs (id, account_id, task_identifier, payload, created_at, updated_at) values (gen_random_uuid(), ?, 'render-video', ?::jsonb, now(), now()) returning id`,
      [DEMO.otto, payload],
    );
    // 150 public templates, so the list is long; some favourited by Nora.
    await conn.execute(
      `insert into agent_templates (id, created_at, updated_at, creator_id, title, description, prompt, tags, is_private, favorites_count)
       select gen_random_uuid(), now(), now(), ?, 'Count template ' || lpad(g::text, 3, '0'), 'd', 'p', '{count}', false, 0 from generate_series(1, 150) g`,
      [DEMO.sam],
    );
  });
  afterAll(async () => {
    await t?.close();
  });

  /**
   * Runs the request once to warm the credential, then measures it: exactly 2 statements (the rate limiter and the read).
   * A GraphQL operation charged its upper bound also gives back what it did not read: from a lease with no statement, with
   * RATE_LIMIT_LEASE_MAX=0 (as here) by one `update rate_limit_counters`, counted aside (at most one).
   */
  async function costsTwo<T>(what: string, request: () => Promise<T>): Promise<T> {
    await request();
    const measured = await t.sql.measure(request);
    const settlements = measured.statements.filter((sql) => /^update rate_limit_counters/.test(sql.trim())).length;
    const count = measured.count - settlements;
    if (count !== 2 || settlements > 1) throw new Error(`${what}: ${count} statements and ${settlements} settlements, expected 2 and at most 1:\n${measured.statements.join('\n')}`);
    return measured.result;
  }

  const runsQuery = `query ($runId: String, $page: Int, $limit: Int, $account_id: String) {
    runs(input: { runId: $runId, page: $page, limit: $limit, accountId: $account_id }) {
      items { id status taskIdentifier payload progress createdAt updatedAt startedAt finishedAt attempts error outputExpiredAt
        output { url expiresAt retainedUntil mimeType bytes width height fps durationInFrames codec } }
      pagination { total_count: totalCount page limit total_pages: totalPages } } }`;

  describe('GET /api/agents/templates', () => {
    it('costs 2 statements over REST and GraphQL', async () => {
      const rest = await costsTwo('GET /api/agents/templates', () => t.http().get('/api/agents/templates').set(as.nora));
      expect(rest.status).toBe(200);
      expect(rest.body.templates.length).toBeGreaterThan(150);
      const gql = await costsTwo('GraphQL agentTemplates', () => t.graphql(AgentTemplatesDocument, {}, as.nora));
      expect(gql.body.data.agentTemplates.items).toHaveLength(rest.body.templates.length);
    });

    it('still refuses a caller without credentials', async () => {
      expect((await t.http().get('/api/agents/templates')).status).toBe(401);
    });
  });

  describe('GET /api/tasks/runs?runId=', () => {
    it.each([
      ['QUEUED', () => queuedRun],
      ['COMPLETED (with a signed video link)', () => completedRun],
    ])('costs 2 statements over REST and GraphQL for a %s run', async (_status, run) => {
      const runId = run();
      const rest = await costsTwo(`GET /api/tasks/runs?runId=${runId}`, () => t.http().get('/api/tasks/runs').query({ runId }).set(as.nora));
      expect(rest.status).toBe(200);
      expect(rest.body.runs).toHaveLength(1);
      expect(rest.body.runs[0].output?.url ?? null).toEqual(runId === completedRun ? expect.any(String) : null);
      expect(rest.body.pagination).toBeNull();
      const gql = await costsTwo('GraphQL runs(runId)', () => t.graphql(runsQuery, { runId }, as.nora));
      expect(gql.body.data.runs.items[0].id).toBe(runId);
      expect(gql.body.data.runs.pagination).toBeNull();
    });

    it('still answers 404 for a run out of reach, and for a run of another account than account_id', async () => {
      const other = await t.http().get('/api/tasks/runs').query({ runId: ottoRun }).set(as.nora);
      expect(other.status).toBe(404);
      const mismatch = await t.http().get('/api/tasks/runs').query({ runId: completedRun, account_id: DEMO.luna }).set(as.nora);
      expect(mismatch.status).toBe(404);
      const gql = await t.graphql(runsQuery, { runId: ottoRun }, as.nora);
      expect(gql.body.errors[0].extensions.code).toBe('NOT_FOUND');
    });
  });

  describe('GET /api/tasks/runs', () => {
    it.each([20, 50, 100])('costs 2 statements at a page of %i, over REST and GraphQL, for the caller and for account_id', async (limit) => {
      const own = await costsTwo(`GET /api/tasks/runs?limit=${limit}`, () => t.http().get('/api/tasks/runs').query({ limit, page: 2 }).set(as.nora));
      expect(own.status).toBe(200);
      expect(own.body.runs).toHaveLength(Math.min(limit, 130 - limit));
      expect(own.body.pagination).toEqual({ total_count: 130, page: 2, limit, total_pages: Math.ceil(130 / limit) });
      const luna = await costsTwo(`GET /api/tasks/runs?account_id=luna&limit=${limit}`, () =>
        t.http().get('/api/tasks/runs').query({ limit, account_id: DEMO.luna }).set(as.nora));
      expect(luna.body.pagination.total_count).toBe(30);
      const gql = await costsTwo(`GraphQL runs(limit: ${limit})`, () => t.graphql(runsQuery, { limit, page: 2 }, as.nora));
      expect(gql.body.data.runs.items).toHaveLength(own.body.runs.length);
    });

    it('still answers 403 for an account_id out of reach', async () => {
      const res = await t.http().get('/api/tasks/runs').query({ account_id: DEMO.otto }).set(as.nora);
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('FORBIDDEN');
      const gql = await t.graphql(runsQuery, { account_id: DEMO.otto }, as.nora);
      expect(gql.body.errors[0].extensions.code).toBe('FORBIDDEN');
      // An account that does not exist is out of reach too (as before: 403, not an empty page).
      const missing = await t.http().get('/api/tasks/runs').query({ account_id: '00000000-0000-4000-8000-00000000ffff' }).set(as.nora);
      expect(missing.status).toBe(403);
    });

    it('answers an empty page past the end with the total, and the admin any account\'s runs', async () => {
      const past = await costsTwo('GET /api/tasks/runs?page=99', () => t.http().get('/api/tasks/runs').query({ page: 99 }).set(as.nora));
      expect(past.body).toEqual({ status: 'success', runs: [], pagination: { total_count: 130, page: 99, limit: 20, total_pages: 7 } });
      const admin = await costsTwo('GET /api/tasks/runs?account_id=otto as the admin', () => t.http().get('/api/tasks/runs').query({ account_id: DEMO.otto }).set(as.ada));
      expect(admin.body.runs.map((r: { id: string }) => r.id)).toEqual([ottoRun]);
    });
  });
});
