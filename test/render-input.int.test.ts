import { as, DEMO, router } from './demo';
import { createTestApp, TestApp } from './app';
import { renderEnv } from './support/render';

/** Input checks, listing and access: no worker runs here, so runs stay QUEUED. */
describe('render requests and runs without a worker (real PostgreSQL)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: renderEnv() });
  });
  afterAll(async () => {
    await t?.close();
  });

  const counts = async () => {
    const conn = t.orm.em.getConnection();
    const runs = await conn.execute<{ n: string }[]>('select count(*)::int as n from render_runs');
    const jobs = await conn
      .execute<{ n: string }[]>("select count(*)::int as n from pgboss.job where name = 'render-video'")
      .catch(() => [{ n: 0 }]);
    return { runs: Number(runs[0].n), jobs: Number(jobs[0].n) };
  };
  const render = (body: Record<string, unknown>, headers = as.nora) => t.http().post('/api/video/render').set(headers).send(body);
  const ok = { compositionId: 'title-card', inputProps: { title: 'Edge' }, width: 64, height: 64, fps: 10, durationInFrames: 10 };

  it('refuses every out-of-bounds field at once, naming each, and enqueues nothing', async () => {
    await render(ok); // starts the queue so its tables exist
    const before = await counts();
    const res = await render({ compositionId: 'title-card', inputProps: { title: 'x' }, width: 0, height: 3841, fps: 61, durationInFrames: 1801, codec: 'mp3' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('BAD_USER_INPUT');
    expect(res.body.details).toEqual([
      { field: 'width', message: 'must be at least 1' },
      { field: 'height', message: 'must be at most 3840' },
      { field: 'fps', message: 'must be at most 60' },
      { field: 'durationInFrames', message: 'must be at most 1800' },
      { field: 'codec', message: 'must be one of: h264, h265, vp8, vp9' },
    ]);
    for (const [field, value] of [['width', 3841], ['height', 0], ['fps', 0], ['durationInFrames', 0], ['width', 1.5]] as const) {
      const one = await render({ ...ok, [field]: value });
      expect({ field, status: one.status, fields: one.body.details.map((d: { field: string }) => d.field) }).toEqual({ field, status: 400, fields: [field] });
    }
    expect(await counts()).toEqual(before);
  });

  it('accepts the edges of every bound and applies the documented defaults', async () => {
    for (const edge of [
      { width: 1, height: 1, fps: 1, durationInFrames: 1, codec: 'vp8' },
      { width: 3840, height: 3840, fps: 60, durationInFrames: 1800, codec: 'h265' },
    ]) {
      const res = await render({ ...ok, ...edge });
      expect(res.status).toBe(200);
      const run = (await t.http().get('/api/tasks/runs').query({ runId: res.body.runId }).set(as.nora)).body.runs[0];
      expect(run.payload).toMatchObject(edge);
    }
    const defaults = await render({ compositionId: 'social-post', inputProps: { caption: 'Hello' } });
    expect(defaults.status).toBe(200);
    const run = (await t.http().get('/api/tasks/runs').query({ runId: defaults.body.runId }).set(as.nora)).body.runs[0];
    expect(run).toEqual({
      id: defaults.body.runId,
      status: 'QUEUED',
      taskIdentifier: 'render-video',
      payload: {
        compositionId: 'social-post',
        inputProps: { caption: 'Hello', backgroundColor: '#1E3A8A', textColor: '#FFFFFF' },
        width: 720, height: 1280, fps: 30, durationInFrames: 240, codec: 'h264',
      },
      progress: 0,
      attempts: 0,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      startedAt: null,
      finishedAt: null,
      output: null,
      outputExpiredAt: null,
      error: null,
    });
  });

  it('refuses an unknown composition or props that do not fit, listing the known compositions', async () => {
    const before = await counts();
    const unknown = await render({ compositionId: 'karaoke' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.details).toEqual([{ field: 'compositionId', message: 'must be one of: social-post, lyric-video, title-card' }]);
    expect(unknown.body.error).toContain('Known compositions: social-post, lyric-video, title-card');
    const badProps = await render({ compositionId: 'social-post', inputProps: { caption: '', backgroundColor: 'blue', extra: 1 } });
    expect(badProps.status).toBe(400);
    expect(badProps.body.details.map((d: { field: string }) => d.field).sort()).toEqual(['inputProps.backgroundColor', 'inputProps.caption', 'inputProps.extra']);
    expect(badProps.body.error).toContain('Known compositions');
    const late = await render({ compositionId: 'lyric-video', durationInFrames: 10, inputProps: { lines: [{ text: 'a', startFrame: 0, endFrame: 11 }] } });
    expect(late.status).toBe(400);
    expect(late.body.details).toEqual([{ field: 'inputProps.lines.0.endFrame', message: 'must be at most durationInFrames (10)' }]);
    const notObject = await render({ compositionId: 'title-card', inputProps: 'x' });
    expect(notObject.status).toBe(400);
    expect(notObject.body.details[0].field).toBe('inputProps');
    const missing = await render({});
    expect(missing.status).toBe(400);
    expect(missing.body.details).toEqual([{ field: 'compositionId', message: 'is required' }]);
    expect(await counts()).toEqual(before);
  });

  it('lists the compositions with the JSON Schema of their props', async () => {
    const res = await t.http().get('/api/video/compositions').set(as.otto);
    expect(res.status).toBe(200);
    expect(res.body.compositions.map((c: { id: string }) => c.id)).toEqual(['social-post', 'lyric-video', 'title-card']);
    const social = res.body.compositions[0];
    expect(social.props).toMatchObject({ type: 'object', required: ['caption'], properties: { caption: { type: 'string', maxLength: 280 } } });
    for (const c of res.body.compositions) {
      const started = await render({ compositionId: c.id, inputProps: c.example, width: 16, height: 16, durationInFrames: 300 });
      expect({ id: c.id, status: started.status }).toEqual({ id: c.id, status: 200 });
    }
    expect((await t.http().get('/api/video/compositions')).status).toBe(401);
  });

  it('lists the caller\'s runs newest first, with limit and an account_id it may reach', async () => {
    const first = (await render(ok, as.sam)).body.runId;
    const second = (await render(ok, as.sam)).body.runId;
    const list = await t.http().get('/api/tasks/runs').set(as.sam);
    expect(list.status).toBe(200);
    expect(list.body.runs.map((r: { id: string }) => r.id)).toEqual([second, first]);
    const limited = await t.http().get('/api/tasks/runs').query({ limit: 1 }).set(as.sam);
    expect(limited.body.runs.map((r: { id: string }) => r.id)).toEqual([second]);
    for (const limit of ['0', '101', 'x']) {
      const bad = await t.http().get('/api/tasks/runs').query({ limit }).set(as.sam);
      expect({ limit, status: bad.status, field: bad.body.details?.[0]?.field }).toEqual({ limit, status: 400, field: 'limit' });
    }
    const asAdmin = await t.http().get('/api/tasks/runs').query({ account_id: DEMO.sam }).set(as.ada);
    expect(asAdmin.body.runs.map((r: { id: string }) => r.id)).toEqual([second, first]);
    const refused = await t.http().get('/api/tasks/runs').query({ account_id: DEMO.sam }).set(as.otto);
    expect(refused.status).toBe(403);
    const badId = await t.http().get('/api/tasks/runs').query({ runId: 'nope' }).set(as.sam);
    expect(badId.status).toBe(400);
    expect(badId.body.details[0].field).toBe('runId');
  });

  it('lists runs with a fixed number of statements, however many there are', async () => {
    const list = (limit: number) => t.sql.measure(() => t.http().get('/api/tasks/runs').query({ limit }).set(as.nora));
    const few = await list(1);
    const many = await list(20);
    expect(many.result.body.runs.length).toBeGreaterThan(5);
    expect(many.count).toBe(few.count);
  });

  it('answers 404 for a run of an account the caller cannot reach, on every operation', async () => {
    const runId = (await render(ok, as.sam)).body.runId;
    const other = await t.http().get('/api/tasks/runs').query({ runId }).set(as.otto);
    expect(other.status).toBe(404);
    expect(other.body.code).toBe('NOT_FOUND');
    const cancel = await t.http().post(`/api/tasks/runs/${runId}/cancel`).set(as.nora);
    expect(cancel.status).toBe(404);
    const gql = await t.graphql('query($id: String) { runs(input: { runId: $id }) { items { id } } }', { id: runId }, as.otto);
    expect(gql.body.errors[0].extensions.code).toBe('NOT_FOUND');
    const admin = await t.http().get('/api/tasks/runs').query({ runId }).set(as.ada);
    expect(admin.status).toBe(200);
    const missing = await t.http().get('/api/tasks/runs').query({ runId: '00000000-0000-4000-8000-00000000dead' }).set(as.sam);
    expect(missing.status).toBe(404);
  });

  it('cancels a QUEUED run once: its job is cancelled too', async () => {
    const runId = (await render(ok)).body.runId;
    const res = await t.http().post(`/api/tasks/runs/${runId}/cancel`).set(as.nora);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'success', run: { id: runId, status: 'CANCELED', finishedAt: expect.any(String) } });
    const jobs = await t.orm.em.getConnection().execute<{ state: string }[]>(
      "select j.state from pgboss.job j join render_runs r on r.job_id = j.id where r.id = ?", [runId]);
    expect(jobs).toEqual([{ state: 'cancelled' }]);
    const again = await t.http().post(`/api/tasks/runs/${runId}/cancel`).set(as.nora);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('CONFLICT');
  });

  it('resolves a RenderRun entity for the federation router, access-checked', async () => {
    const runId = (await render(ok, as.sam)).body.runId;
    const query = 'query($r: [_Any!]!) { _entities(representations: $r) { ... on RenderRun { id status } } }';
    const reps = { r: [{ __typename: 'RenderRun', id: runId }] };
    const mine = await t.graphql(query, reps, { ...as.sam, ...router });
    expect(mine.body.data._entities).toEqual([{ id: runId, status: 'QUEUED' }]);
    const other = await t.graphql(query, reps, { ...as.otto, ...router });
    expect(other.body.data._entities).toEqual([null]);
  });
});
