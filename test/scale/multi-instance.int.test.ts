import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import type { Client as WsClient } from 'graphql-ws';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import type { RunChange } from '../../src/modules/render/run-events';
import { createTestDatabase, TestDatabase } from '../db';
import { as } from '../demo';
import { startRoundRobinProxy, RoundRobinProxy } from '../support/http-proxy';
import { PushedRun, Watch, watchRun, within, wsClient } from '../support/live';
import { freePort, ServiceProcess, startService, waitReady } from '../support/processes';
import { S3_TEST_CREDENTIALS, startS3, TestS3 } from '../support/s3';

/** Small but not instant (about half a second of ffmpeg each), so two workers share them and progress is reported. */
const render = (i: number) => ({ compositionId: 'title-card', inputProps: { title: `Scale ${i}` }, width: 160, height: 90, fps: 30, durationInFrames: 45 });
const RUNS = 6;
const PREFIX = 'scale';

type Json = Record<string, unknown> & { [key: string]: never };

/** What a subscriber and the database's own notifications both say about a state. */
const project = (s: { status: string; progress: number; attempts: number }) => `${s.status} ${s.progress} ${s.attempts}`;

/**
 * Two API processes and two render worker processes (real child processes, as `npm start` and
 * `npm run worker` run them) on one database and one bucket (s3rver; each process its own S3
 * client), behind a round-robin HTTP proxy. Every wait is bounded.
 */
describe('many instances: 2 API processes + 2 worker processes on one database and one bucket', () => {
  let s3: TestS3;
  let db: TestDatabase;
  let proxy: RoundRobinProxy;
  let listener: Client;
  const changes = new Map<string, RunChange[]>();
  const services: ServiceProcess[] = [];
  const dirs: string[] = [];
  let api: { name: string; port: number; service: ServiceProcess }[] = [];
  let workers: ServiceProcess[] = [];
  const runs: { id: string; via: string; watches: Watch[] }[] = [];
  let sockets: WsClient[] = [];
  let upstream: Server;
  /** Resolves when the slow provider upstream receives its first data request (one is then in flight inside an API instance). */
  let upstreamAsked!: Promise<void>;

  const through = async (method: string, path: string, body?: unknown, base = proxy.url) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { ...as.nora, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(15_000),
    });
    return { status: res.status, upstream: res.headers.get('x-upstream'), body: (await res.json().catch(() => ({}))) as Json };
  };
  const direct = (name: string, path: string) => through('GET', path, undefined, `http://127.0.0.1:${api.find((a) => a.name === name)!.port}`);

  beforeAll(async () => {
    [s3, db] = await Promise.all([startS3('mas-scale'), createTestDatabase()]);
    // A research provider that takes 1.5 s to answer: a request to it is in flight long enough to send SIGTERM meanwhile.
    let asked!: () => void;
    upstreamAsked = new Promise((resolve) => (asked = resolve));
    upstream = createServer((req, res) => {
      const reply = (body: unknown) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (req.url === '/api/token') return reply({ token: 'slow-token', expires_in: 3600 });
      asked();
      setTimeout(() => reply({ obj: [{ id: 1, name: 'slow genre' }] }), 1500);
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    // The test's own LISTEN session: every change of every run, as PostgreSQL announced it.
    listener = new Client({ connectionString: db.url });
    await listener.connect();
    listener.on('notification', (message) => {
      const change = JSON.parse(message.payload!) as RunChange;
      changes.set(change.id, [...(changes.get(change.id) ?? []), change]);
    });
    await listener.query('listen render_runs');

    const shared = {
      NODE_ENV: 'test',
      DATABASE_URL: db.url,
      DATABASE_POOL_MAX: '4',
      RENDER_STORAGE: `s3://${s3.bucket}/${PREFIX}`,
      S3_ENDPOINT: s3.endpoint,
      S3_FORCE_PATH_STYLE: 'true',
      S3_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: S3_TEST_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: S3_TEST_CREDENTIALS.secretAccessKey,
      RENDER_POLL_INTERVAL_MS: '500',
      RENDER_PROGRESS_INTERVAL_MS: '0',
      RENDER_MAX_ACTIVE_PER_ACCOUNT: '100',
      RATE_LIMIT_PER_MINUTE: '1000000',
      SHUTDOWN_TIMEOUT_MS: '8000',
      MUSIC_INTEL_API_URL: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`,
      MUSIC_INTEL_REFRESH_TOKEN: 'refresh',
    };
    const scratch = () => {
      const dir = mkdtempSync(join(tmpdir(), 'mas-scale-'));
      dirs.push(dir);
      return dir;
    };
    const ports = [await freePort(), await freePort()];
    // Both API instances start at once on the same database: migrations and the demo data set are applied once, under the start-up lock.
    api = ['A', 'B'].map((name, i) => ({
      name,
      port: ports[i],
      service: startService(`api ${name}`, 'api', { ...shared, PORT: String(ports[i]), HOST: '127.0.0.1', RENDER_WORKERS: '0', DEMO_SEED: 'true', LOG_LEVEL: 'warn', RENDER_STORAGE_DIR: scratch() }),
    }));
    workers = ['W1', 'W2'].map((name) => startService(`worker ${name}`, 'worker', { ...shared, RENDER_WORKERS: '1', LOG_LEVEL: 'info', RENDER_STORAGE_DIR: scratch() }));
    services.push(...api.map((a) => a.service), ...workers);
    await Promise.all([
      ...api.map((a) => waitReady(a.service, a.port, 60_000)),
      ...workers.map((w) => w.waitForLog((l) => l.msg === 'render worker ready', 60_000)),
    ]);
    proxy = await startRoundRobinProxy(api.map(({ name, port }) => ({ name, port })));
  }, 90_000);

  afterAll(async () => {
    for (const socket of sockets) await socket.dispose();
    for (const s of services) s.child.kill('SIGKILL');
    await Promise.all(services.map((s) => within(s.exited, 5000, `${s.name} exit`).catch(() => undefined)));
    await proxy?.close();
    upstream?.close();
    await listener?.end().catch(() => undefined);
    await s3?.close();
    await db?.drop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('the proxy spreads requests over both API instances, each ready with the bucket checked', async () => {
    for (const a of api) expect((await direct(a.name, '/readyz')).body).toEqual({ status: 'ok', database: 'up', migrations: 'applied', storage: 'up', ffmpeg: expect.any(Object) });
    const answers = await Promise.all(Array.from({ length: 6 }, () => through('GET', '/api/accounts/me')));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(answers.every((a) => (a.body.account as unknown as { name: string }).name === 'Nora North')).toBe(true);
    expect(new Set(answers.map((a) => a.upstream))).toEqual(new Set(['A', 'B']));
    // The demo data set was loaded once, though both instances were told to load it.
    const accounts = await listener.query("select count(*)::int as n from accounts where name = 'Nora North'");
    expect(accounts.rows[0].n).toBe(1);
  });

  it('renders every run exactly once across the two workers; subscribers on both instances see every change of every run', async () => {
    sockets = api.map((a) => wsClient(a.port, as.nora));
    for (let i = 0; i < RUNS; i += 1) {
      const started = await through('POST', '/api/video/render', render(i));
      expect(started.status).toBe(200);
      const id = started.body.runId as string;
      // One subscriber on each instance: one of them is always the instance that did not take the request.
      runs.push({ id, via: started.upstream!, watches: sockets.map((socket) => watchRun(socket, id)) });
    }
    expect(new Set(runs.map((r) => r.via))).toEqual(new Set(['A', 'B']));
    await within(Promise.all(runs.flatMap((r) => r.watches.map((w) => w.done))), 45_000, 'all renders');

    // The database's own account of each run, complete once COMPLETED was announced.
    const deadline = Date.now() + 5000;
    while (!runs.every((r) => changes.get(r.id)?.some((c) => c.status === 'COMPLETED')) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    for (const run of runs) {
      const truth = (changes.get(run.id) ?? []).sort((a, b) => a.version - b.version);
      expect(truth.map((c) => c.status).filter((s) => s === 'COMPLETED')).toHaveLength(1);
      expect(truth.at(-1)).toMatchObject({ status: 'COMPLETED', attempts: 1 });
      expect(truth.map((c) => c.status)).toContain('EXECUTING');
      for (const watch of run.watches) {
        expect(watch.errors).toEqual([]);
        // A subscriber gets the run as it was when it subscribed, then every later change in order: the tail of the truth.
        const seen = watch.states.map(project);
        const tail = truth.slice(truth.length - seen.length).map(project);
        expect(seen).toEqual(tail);
        expect(watch.states.at(-1)).toMatchObject({ id: run.id, status: 'COMPLETED', progress: 1, output: { codec: 'h264' } });
      }
    }

    // Exactly once: each run COMPLETED on its first attempt, one object per run, and one worker's "render finished" per run.
    for (const run of runs) expect((await through('GET', `/api/tasks/runs?runId=${run.id}`)).body.runs).toMatchObject([{ id: run.id, status: 'COMPLETED', attempts: 1 }]);
    const listing = await new S3Client({ endpoint: s3.endpoint, region: 'us-east-1', forcePathStyle: true, credentials: S3_TEST_CREDENTIALS })
      .send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: `${PREFIX}/` }));
    expect((listing.Contents ?? []).map((o) => o.Key).sort()).toEqual(runs.map((r) => `${PREFIX}/${r.id}.mp4`).sort());
    const finished = workers.map((w) => w.logs.filter((l) => l.msg === 'render finished' && l.completed === true).map((l) => l.runId as string));
    expect(finished.flat().sort()).toEqual(runs.map((r) => r.id).sort());
    // Both workers took jobs from the one queue.
    expect(finished.map((ids) => ids.length > 0)).toEqual([true, true]);
  });

  it('a link handed out by either instance serves the video, whichever instance the run is read through', async () => {
    for (const run of runs) {
      const pushed = run.watches.map((w) => w.states.at(-1)!.output!.url);
      const read = await Promise.all(api.map(async (a) => ((await direct(a.name, `/api/tasks/runs?runId=${run.id}`)).body.runs as unknown as PushedRun[])[0].output!));
      expect(read[0].bytes).toBe(read[1].bytes);
      for (const url of [...pushed, ...read.map((o) => o.url)]) {
        // Presigned GETs: the bucket serves them, not the API.
        expect(new URL(url).origin).toBe(s3.endpoint);
        const video = await fetch(url);
        expect(video.status).toBe(200);
        expect(video.headers.get('content-type')).toBe('video/mp4');
        expect((await video.arrayBuffer()).byteLength).toBe(read[0].bytes);
      }
    }
  });

  it('SIGTERM to one API instance under load: it drains (finishes what it took) and exits 0; every acknowledged write is read back through the proxy', async () => {
    for (const socket of sockets.splice(0)) await socket.dispose();
    const acked: { id: string; title: string; upstream: string }[] = [];
    const unacknowledged: { title: string; status: number; upstream: string | null; body: unknown }[] = [];
    let reads = 0;
    const write = async (title: string) => {
      const res = await through('POST', '/api/sessions', { title }).catch((error: Error) => ({ status: 0, upstream: null, body: { error: error.message } as unknown as Json }));
      if (res.status === 200) acked.push({ id: (res.body.session as unknown as { id: string }).id, title, upstream: res.upstream! });
      else unacknowledged.push({ title, status: res.status, upstream: res.upstream, body: res.body });
    };
    /** An idempotent read, retried on connection errors, 502 and 503 as a client would: it must list every acknowledged write. */
    const readBack = async () => {
      for (let attempt = 0; ; attempt += 1) {
        reads += 1;
        const res = await through('GET', '/api/sessions').catch(() => undefined);
        if (res?.status === 200) return new Set((res.body.sessions as unknown as { id: string }[]).map((s) => s.id));
        if (res && ![502, 503].includes(res.status)) throw new Error(`GET /api/sessions answered ${res.status}`);
        if (attempt >= 20) throw new Error('GET /api/sessions kept failing');
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    const checkAll = async () => {
      const listed = await readBack();
      expect(acked.filter((a) => !listed.has(a.id))).toEqual([]);
    };

    for (let i = 0; i < 8; i += 1) {
      await write(`before ${i}`);
      await checkAll();
    }
    const a = api.find((x) => x.name === 'A')!;
    const logFrom = proxy.log.length;
    // A request A has taken and is still working on when the signal arrives: it waits on the slow provider (the demo data set's stored genres are dropped first).
    await listener.query("delete from research_answers where kind = 'genres'");
    const inFlight = fetch(`http://127.0.0.1:${a.port}/api/research/genres`, { headers: as.nora });
    await within(upstreamAsked, 10_000, 'the in-flight request reaching the provider');
    a.service.child.kill('SIGTERM');
    const signalledAt = Date.now();
    let logAtExit = Infinity;
    void a.service.exited.then(() => (logAtExit = proxy.log.length));
    // Writes and reads go on through the proxy while A drains and after it exits.
    for (let i = 0; i < 12; i += 1) {
      await write(`draining ${i}`);
      await checkAll();
    }
    const answer = await inFlight;
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as { genres: unknown }).genres).toEqual([{ id: 1, name: 'slow genre' }]);
    expect(await within(a.service.exited, 12_000, 'instance A exit')).toBe(0);
    expect(Date.now() - signalledAt).toBeGreaterThanOrEqual(1000);
    for (let i = 0; i < 4; i += 1) await write(`after exit ${i}`);
    await checkAll();

    // A connection A no longer accepted went to B before anything was sent. One A accepted just as it
    // closed is reset: the client gets no answer and cannot tell whether the write was done (seen both
    // ways), so it must not retry it blindly; what is certain is that it was done at most once.
    for (const lost of unacknowledged) expect(lost).toMatchObject({ status: 502, upstream: 'A', body: { error: 'upstream A: ECONNRESET' } });
    const written = await listener.query<{ title: string; n: number }>(
      'select title, count(*)::int as n from sessions where title = any($1::text[]) group by title',
      [unacknowledged.map((u) => u.title)],
    );
    expect(written.rows.filter((row) => row.n > 1)).toEqual([]);
    expect(unacknowledged.length).toBeLessThanOrEqual(2);
    expect(acked.length + unacknowledged.length).toBe(8 + 12 + 4);
    expect(reads).toBeGreaterThanOrEqual(8 + 12 + 1);
    // Before the signal both instances answered (writes and reads alternate over the two); from it on, only B.
    expect(new Set(proxy.log.slice(0, logFrom).filter((e) => e.path === '/api/sessions').map((e) => e.upstream))).toEqual(new Set(['A', 'B']));
    // While A drained, what it had taken it answered in full; from its exit on, only B answered.
    const draining = proxy.log.slice(logFrom, logAtExit).filter((e) => e.status !== 502);
    expect(draining.filter((e) => e.status !== 200)).toEqual([]);
    expect(draining.some((e) => e.refusedBy.includes('A'))).toBe(true);
    expect(new Set(proxy.log.slice(logAtExit).map((e) => e.upstream))).toEqual(new Set(['B']));
    // Every acknowledged row is in the database, once.
    const rows = await listener.query('select id from sessions where id = any($1::uuid[])', [acked.map((w) => w.id)]);
    expect(rows.rowCount).toBe(acked.length);
  });

  it('the other processes stop cleanly on SIGTERM (exit 0)', async () => {
    const rest = services.filter((s) => s.child.exitCode === null);
    for (const s of rest) s.child.kill('SIGTERM');
    const codes = await Promise.all(rest.map((s) => within(s.exited, 12_000, `${s.name} exit`)));
    expect(codes).toEqual(rest.map(() => 0));
  });
});
