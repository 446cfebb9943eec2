import { Writable } from 'node:stream';
import supertest from 'supertest';
import { App, createApp } from '../src/app';
import { createLogger } from '../src/common/logger';
import { loadConfig } from '../src/config/config';
import { initOrm, Orm } from '../src/db/orm';
import { seedDemo } from '../src/db/seeders/demo.seeder';
import { createDeps } from '../src/deps';
import { entities } from '../src/modules';
import { createTestDatabase, TestDatabase } from './db';
import { as, TEST_ROUTER_SECRET } from './demo';

/** The fixed cost of a status read (issue #14): no entity manager fork, and the request's log lines as before. */
describe('a hot read (GET /api/tasks/runs?runId=)', () => {
  let db: TestDatabase;
  let orm: Orm;
  let app: App;
  let runId: string;
  const lines: Record<string, unknown>[] = [];
  const http = () => supertest(app.server);

  beforeAll(async () => {
    db = await createTestDatabase();
    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'info', DATABASE_URL: db.url, ROUTER_SECRET: TEST_ROUTER_SECRET, RENDER_WORKERS: '0' });
    orm = await initOrm({ url: db.url, poolMax: 3, entities });
    await seedDemo(orm, config);
    const stream = new Writable({
      write(chunk, _enc, done) {
        for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    });
    app = await createApp(createDeps(config, orm, createLogger('info', {}, false, stream)));
    const started = await http().post('/api/video/render').set(as.nora).send({ compositionId: 'title-card', inputProps: { title: 'Hot' }, width: 16, height: 16, durationInFrames: 1 });
    expect(started.status).toBe(200);
    runId = started.body.runId;
  });
  afterAll(async () => {
    await app?.stop();
    await orm?.close(true);
    await db?.drop();
  });

  it('forks no entity manager, on either face', async () => {
    const fork = jest.spyOn(orm.em, 'fork');
    try {
      const rest = await http().get('/api/tasks/runs').query({ runId }).set(as.nora);
      expect(rest.status).toBe(200);
      expect(rest.body.runs).toEqual([expect.objectContaining({ id: runId, status: 'QUEUED' })]);
      const graphql = await http().post('/graphql').set(as.nora).send({ query: `{ runs(input: { runId: "${runId}" }) { items { id status } } }` });
      expect(graphql.body).toEqual({ data: { runs: { items: [{ id: runId, status: 'QUEUED' }] } }, extensions: { cost: expect.objectContaining({ actualQueryCost: 1 }) } });
      expect(fork).not.toHaveBeenCalled();
      // A request that uses the ORM beyond hot reads still gets its fork.
      expect((await http().get('/api/sessions').set(as.nora)).status).toBe(200);
      expect(fork).toHaveBeenCalled();
    } finally {
      fork.mockRestore();
    }
  });

  it('answers the same by its path, with a trailing slash or in another case, and to HEAD (the route table)', async () => {
    const read = (path: string) => http().get(path).query({ runId }).set(as.nora);
    const exact = await read('/api/tasks/runs');
    expect(exact.status).toBe(200);
    for (const path of ['/api/tasks/runs/', '/api/TASKS/Runs']) {
      const other = await read(path);
      expect({ status: other.status, body: other.body }).toEqual({ status: 200, body: exact.body });
    }
    const head = await http().head('/api/tasks/runs').query({ runId }).set(as.nora);
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe(exact.headers['content-length']);
    // Unauthenticated and unknown: the route's own 401, the table's 404.
    expect((await http().get('/api/tasks/runs').query({ runId })).status).toBe(401);
    expect((await http().get('/api/tasks/runz').set(as.nora)).body).toEqual({ status: 'error', error: 'No route GET /api/tasks/runz', code: 'NOT_FOUND' });
  });

  it('serves the docs inside the one /api router, in any case, and every other /api path from the REST routes', async () => {
    for (const path of ['/api/openapi.json', '/API/OpenAPI.json/', '/api/docs', '/Api/Docs/', '/api/docs/init.js']) {
      const res = await http().get(path);
      expect({ path, status: res.status }).toEqual({ path, status: 200 });
    }
    expect((await http().get('/api/docs/assets/nope.js')).body).toEqual({ status: 'error', error: 'No asset /api/docs/assets/nope.js', code: 'NOT_FOUND' });
    expect((await http().get('/api/docsx').set(as.nora)).body).toEqual({ status: 'error', error: 'No route GET /api/docsx', code: 'NOT_FOUND' });
    expect((await http().get('/api/healthz')).body).toEqual({ status: 'error', error: 'No route GET /api/healthz', code: 'NOT_FOUND' });
  });

  it('writes no access line for probes that answer well: /healthz, /metrics, a ready /readyz', async () => {
    for (const [path, id] of [['/healthz', 'probe-live'], ['/metrics', 'probe-metrics'], ['/readyz', 'probe-ready'], ['/nowhere', 'probe-other']]) {
      await http().get(path).set('x-request-id', id);
    }
    const logged = (id: string) => lines.some((l) => (l.req as { id?: string } | undefined)?.id === id);
    expect({ live: logged('probe-live'), metrics: logged('probe-metrics'), ready: logged('probe-ready'), other: logged('probe-other') }).toEqual({
      live: false,
      metrics: false,
      ready: false,
      other: true,
    });
  });

  it('writes its access line with the request id, secrets redacted', async () => {
    const res = await http().get('/api/tasks/runs').query({ runId }).set(as.nora).set('x-request-id', 'status-read-1');
    expect(res.headers['x-request-id']).toBe('status-read-1');
    const line = lines.find((l) => (l.req as { id?: string } | undefined)?.id === 'status-read-1');
    expect(line).toMatchObject({
      level: 30,
      msg: 'request completed',
      req: { id: 'status-read-1', method: 'GET', url: `/api/tasks/runs?runId=${runId}`, params: {}, headers: { 'x-api-key': '[redacted]', 'x-request-id': 'status-read-1' } },
      res: { statusCode: 200, headers: expect.objectContaining({ 'x-request-id': 'status-read-1' }) },
    });
  });
});
