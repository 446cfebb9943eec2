import { randomUUID } from 'node:crypto';
import { createServer, IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MasClient, MasError, RenderRun } from '../../sdk/src';
import { createTestApp, TestApp } from '../app';
import { as } from '../demo';
import { DEMO } from '../../src/db/seeders/demo.data';
import { renderEnv, startWorker } from '../support/render';
import type { RenderWorker } from '../../src/modules/render/render.worker';
import { freePort, listen } from './listen';

async function caught(promise: Promise<unknown>): Promise<MasError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof MasError) return error;
    throw error;
  }
  throw new Error('expected a MasError');
}

describe('SDK against the running service (real PostgreSQL)', () => {
  let t: TestApp;
  let url: string;
  const clients: MasClient[] = [];
  const client = (options: { apiKey?: string } = {}) => {
    const c = new MasClient({ url, ...options });
    clients.push(c);
    return c;
  };
  beforeAll(async () => {
    const port = await freePort();
    t = await createTestApp({ env: renderEnv({ PUBLIC_URL: `http://127.0.0.1:${port}` }) });
    url = await listen(t, port);
  });
  afterAll(async () => {
    for (const c of clients) await c.close();
    await t?.close();
  });

  it('signs an agent up, and manages its keys with the key it got', async () => {
    const email = `agent+${randomUUID().slice(0, 8)}@bots.example.test`;
    const signed = await client().signup(email);
    expect(signed.apiKey).toMatch(/^mas_/);
    const mine = client({ apiKey: signed.apiKey! });
    const created = await mine.createKey('ci');
    expect(created.key.name).toBe('ci');
    const keys = await mine.listKeys();
    expect(keys.map((k) => k.name).sort()).toEqual(expect.arrayContaining(['ci']));
    expect(keys).toHaveLength(2);
    const revoked = await mine.revokeKey(created.key.id);
    expect(revoked.revoked).toBe(true);
    const refused = await caught(client({ apiKey: created.apiKey }).listKeys());
    expect(refused).toMatchObject({ code: 'UNAUTHENTICATED', status: 401 });
  });

  it('throws typed errors carrying the service code, status and the field named', async () => {
    const nora = client({ apiKey: as.nora['x-api-key'] });
    const bad = await caught(nora.render({ compositionId: 'title-card', width: 99_999 }));
    expect(bad).toMatchObject({ code: 'BAD_USER_INPUT', status: 400 });
    expect(JSON.stringify(bad.details ?? bad.message)).toContain('width');
    const anonymous = await caught(client().listKeys());
    expect(anonymous).toMatchObject({ code: 'UNAUTHENTICATED', status: 401 });
    const restMissing = await caught(nora.rest('GET', '/api/tasks/runs?runId=run_does_not_exist'));
    expect(restMissing.status).toBeGreaterThanOrEqual(400);
    expect(restMissing.status).toBeLessThan(500);
    const network = await caught(new MasClient({ url: 'http://127.0.0.1:1', retries: 0 }).listKeys());
    expect(network).toMatchObject({ code: 'NETWORK_ERROR', status: 0 });
  });

  it('starts a render, watches it over graphql-ws to COMPLETED, and downloads the video', async () => {
    const nora = client({ apiKey: as.nora['x-api-key'] });
    const started = await nora.render({ compositionId: 'title-card', inputProps: { title: 'SDK' }, width: 64, height: 64, durationInFrames: 10, codec: 'vp8' });
    expect(started).toMatchObject({ status: 'QUEUED', progress: 0, output: null });
    const worker: RenderWorker = await startWorker(t);
    try {
      const states: RenderRun[] = [];
      for await (const run of nora.watchRun(started.id)) states.push(run);
      expect(states[0].id).toBe(started.id);
      const last = states.at(-1)!;
      expect(last.status).toBe('COMPLETED');
      const video = await nora.download(last.output!.url);
      expect(video.bytes.byteLength).toBe(last.output!.bytes);
      expect(video.contentType).toContain('video/webm');
      expect((await nora.run(started.id)).status).toBe('COMPLETED');
    } finally {
      await worker.stop(1000);
    }
  });

  it('watchRuns: every run the key may see, live, a run started by another client included, until the caller stops', async () => {
    const sam = client({ apiKey: as.sam['x-api-key'] });
    const other = client({ apiKey: as.sam['x-api-key'] });
    const render = () => other.render({ compositionId: 'title-card', inputProps: { title: 'all runs' }, width: 8, height: 8, durationInFrames: 1 });
    const before = await render();
    // The newest QUEUED run first; once it is here, the stream is live.
    const runs = sam.watchRuns({ status: ['QUEUED'], initial: 1 });
    expect((await runs.next()).value).toMatchObject({ id: before.id, status: 'QUEUED' });
    const after = await render();
    expect((await runs.next()).value).toMatchObject({ id: after.id, status: 'QUEUED' });
    expect((await runs.return(undefined)).done).toBe(true);
    // A refused key: the service's code, at once.
    const refused = await caught((async () => {
      for await (const _ of client({ apiKey: 'mas_not-a-key' }).watchRuns()) void _;
    })());
    expect(refused.code).toBe('UNAUTHENTICATED');
    expect(refused.message).toBe('Invalid or revoked API key');
  });

  it('refuses to watch a run of another account with NOT_FOUND', async () => {
    const started = await client({ apiKey: as.sam['x-api-key'] }).render({ compositionId: 'title-card', inputProps: { title: 'x' }, width: 8, height: 8, durationInFrames: 1 });
    const otto = client({ apiKey: as.otto['x-api-key'] });
    const refused = await caught((async () => {
      for await (const _ of otto.watchRun(started.id)) void _;
    })());
    expect(refused.code).toBe('NOT_FOUND');
  });

  it('watching past the connection cap is RATE_LIMITED at once, not retried into a NETWORK_ERROR', async () => {
    const started = await client({ apiKey: as.sam['x-api-key'] }).render({ compositionId: 'title-card', inputProps: { title: 'cap' }, width: 8, height: 8, durationInFrames: 1 });
    // No worker runs in this test: the run stays QUEUED and each watcher keeps its connection open.
    const watchers = Array.from({ length: t.config.requestLimits.wsMaxConnectionsPerAccount }, () => client({ apiKey: as.sam['x-api-key'] }).watchRun(started.id));
    try {
      for (const watcher of watchers) expect((await watcher.next()).value).toMatchObject({ id: started.id, status: 'QUEUED' });
      const refused = await caught((async () => {
        for await (const _ of client({ apiKey: as.sam['x-api-key'] }).watchRun(started.id)) void _;
      })());
      expect(refused.code).toBe('RATE_LIMITED');
      expect(refused.message).toContain('4029');
    } finally {
      for (const watcher of watchers) await watcher.return(undefined);
    }
  });

  it('downloads from another origin without sending its credentials there, and refuses a non-http URL', async () => {
    const seen: IncomingHttpHeaders[] = [];
    const other = createServer((req, res) => {
      seen.push(req.headers);
      res.end('bytes');
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    try {
      const nora = client({ apiKey: as.nora['x-api-key'] });
      const got = await nora.download(`http://127.0.0.1:${(other.address() as AddressInfo).port}/file`);
      expect(Buffer.from(got.bytes).toString()).toBe('bytes');
      expect(seen).toHaveLength(1);
      expect(seen[0]['x-api-key']).toBeUndefined();
      expect(seen[0].authorization).toBeUndefined();
      expect(await caught(nora.download('file:///etc/passwd'))).toMatchObject({ code: 'BAD_USER_INPUT' });
    } finally {
      await new Promise((resolve) => other.close(resolve));
    }
  });
});

/**
 * A proxy in front of the service that loses the answer of the first POST /graphql: the service
 * did the mutation, the client saw its connection drop (as after a timeout or a network failure).
 */
async function lossyProxy(target: string): Promise<{ url: string; keys: (string | undefined)[]; close(): Promise<void> }> {
  const keys: (string | undefined)[] = [];
  let lost = false;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method === 'POST') keys.push(req.headers['idempotency-key'] as string | undefined);
      const { host: _host, ...headers } = req.headers;
      fetch(`${target}${req.url}`, { method: req.method, headers: headers as Record<string, string>, body: req.method === 'GET' ? undefined : Buffer.concat(chunks) })
        .then(async (answer) => {
          const body = Buffer.from(await answer.arrayBuffer());
          if (req.method === 'POST' && !lost) {
            lost = true;
            req.socket.destroy();
            return;
          }
          res.writeHead(answer.status, Object.fromEntries([...answer.headers].filter(([k]) => !['content-length', 'content-encoding', 'transfer-encoding', 'connection'].includes(k))));
          res.end(body);
        })
        .catch(() => req.socket.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    keys,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('SDK Idempotency-Key (real PostgreSQL)', () => {
  let t: TestApp;
  let url: string;
  beforeAll(async () => {
    t = await createTestApp({ env: renderEnv() });
    await t.deps.render.queue.start();
    url = await listen(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('retries a POST whose answer was lost with the same Idempotency-Key: the service made one run and the SDK gets it', async () => {
    const proxy = await lossyProxy(url);
    const retries: { status: number }[] = [];
    const nora = new MasClient({ url: proxy.url, apiKey: as.nora['x-api-key'], onRetry: (r) => retries.push(r) });
    try {
      const before = (await t.orm.em.getConnection().execute<{ n: number }[]>('select count(*)::int as n from render_runs'))[0].n;
      const started = await nora.render({ compositionId: 'title-card', inputProps: { title: 'lost answer' }, width: 8, height: 8, durationInFrames: 1 });
      const after = (await t.orm.em.getConnection().execute<{ n: number }[]>('select count(*)::int as n from render_runs'))[0].n;
      expect(after - before).toBe(1);
      expect(started.id).toEqual(expect.any(String));
      // A lost answer is a network failure (status 0), said in words for logs (the CLI prints them).
      expect(retries).toEqual([expect.objectContaining({ status: 0, reason: expect.stringMatching(/^cannot reach http:\/\/127\.0\.0\.1:\d+ \(.+\)$/) })]);
      expect(proxy.keys).toHaveLength(2);
      expect(proxy.keys[0]).toMatch(/^[0-9a-f-]{36}$/);
      expect(proxy.keys[1]).toBe(proxy.keys[0]);
      // Another call is another key.
      await nora.render({ compositionId: 'title-card', inputProps: { title: 'second' }, width: 8, height: 8, durationInFrames: 1 });
      expect(proxy.keys[2]).not.toBe(proxy.keys[0]);
    } finally {
      await nora.close();
      await proxy.close();
    }
  });
});

describe('SDK retries (real PostgreSQL, low rate limit)', () => {
  let t: TestApp;
  let url: string;
  beforeAll(async () => {
    // A listKeys weighs 2 points up front (a page of up to 100 keys), settled on what it read.
    // deterministicBudgets: the test spends the window by writing rate_limit_counters, which a lease
    // (points taken ahead and held in memory) would not see.
    t = await createTestApp({ deterministicBudgets: true, env: { RATE_LIMIT_PER_MINUTE: '4' } });
    url = await listen(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('waits Retry-After seconds on a 429, then succeeds; with no retries left the 429 is a RATE_LIMITED error', async () => {
    const retries: { status: number; delayMs: number }[] = [];
    const nora = new MasClient({ url, apiKey: as.nora['x-api-key'], onRetry: (r) => retries.push(r) });
    const impatient = new MasClient({ url, apiKey: as.nora['x-api-key'], retries: 0 });
    await nora.listKeys();
    // Spend the rest of the minute (an answer is charged what it read, so how many calls fit depends on the data).
    await t.orm.em.getConnection().execute("update rate_limit_counters set points = 4 where key = ?", [`api:acct:${DEMO.nora}`]);
    const limited = await caught(impatient.listKeys());
    expect(limited).toMatchObject({ code: 'RATE_LIMITED', status: 429 });
    expect(limited.retryAfter).toBeGreaterThan(0);
    // The window would last a minute: move its start back so it ends in about 3 s.
    await t.orm.em.getConnection().execute("update rate_limit_counters set window_start = now() - interval '57 seconds'");
    const began = Date.now();
    const keys = await nora.listKeys();
    expect(keys.length).toBeGreaterThan(0);
    expect(retries).toHaveLength(1);
    expect(retries[0].status).toBe(429);
    expect(retries[0]).toMatchObject({ reason: 'HTTP 429' });
    expect(retries[0].delayMs).toBeGreaterThanOrEqual(2000);
    expect(retries[0].delayMs).toBeLessThanOrEqual(4000);
    expect(Date.now() - began).toBeGreaterThanOrEqual(retries[0].delayMs);
  });
});
