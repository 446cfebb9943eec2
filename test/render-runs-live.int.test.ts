import { Client as WsClient, createClient as createWsClient } from 'graphql-ws';
import { createClient as createSseClient } from 'graphql-sse';
import WebSocket from 'ws';
import { createTestApp, TestApp } from './app';
import { createAccount, createApiKeyFor, createArtist, createOrganization } from './factories';
import { renderEnv, secondInstance, startWorker, waitForRun } from './support/render';
import { watchRun, within, wsClient } from './support/live';
import type { RenderWorker } from '../src/modules/render/render.worker';

const TINY = { compositionId: 'title-card', inputProps: { title: 'Account-wide' }, width: 16, height: 16, durationInFrames: 5 };
const RUNS = 'subscription($status: [RunStatus!], $initial: Int) { renderRuns(status: $status, initial: $initial) { id status progress output { url } } }';

type Pushed = { id: string; status: string; progress: number; output: { url: string } | null };
type ErrorLike = { message?: string; extensions?: { code?: string } };

/** Every message of one renderRuns subscription, in order, with a bounded wait for a condition over them. */
interface Stream {
  runs: Pushed[];
  errors: ErrorLike[];
  ended: boolean;
  until(done: (s: Stream) => boolean, what: string, ms?: number): Promise<void>;
  stop(): void;
}

type Sink = { next(m: { data?: unknown; errors?: readonly unknown[] | null }): void; error(e: unknown): void; complete(): void };
type Subscribe = (payload: { query: string; variables: Record<string, unknown> }, sink: Sink) => () => void;

function stream(subscribe: Subscribe, variables: Record<string, unknown> = {}): Stream {
  const waiters: (() => void)[] = [];
  const wake = () => waiters.forEach((w) => w());
  const s: Stream = {
    runs: [],
    errors: [],
    ended: false,
    until: (done, what, ms = 20_000) =>
      within(
        new Promise<void>((resolve) => {
          const check = () => done(s) && resolve();
          waiters.push(check);
          check();
        }),
        ms,
        what,
      ),
    stop: () => undefined,
  };
  s.stop = subscribe({ query: RUNS, variables }, {
    next: (m) => {
      if (m.errors) s.errors.push(...(m.errors as ErrorLike[]));
      const run = (m.data as { renderRuns?: Pushed } | null | undefined)?.renderRuns;
      if (run) s.runs.push(run);
      wake();
    },
    error: (e) => {
      s.errors.push(...(Array.isArray(e) ? (e as ErrorLike[]) : [{ message: String((e as Error)?.message ?? (e as { reason?: string })?.reason ?? e) }]));
      s.ended = true;
      wake();
    },
    complete: () => {
      s.ended = true;
      wake();
    },
  });
  return s;
}

const overWs = (client: WsClient): Subscribe => (payload, sink) => client.subscribe(payload, sink as never);
const sseClient = (port: number, headers: Record<string, string>) => createSseClient({ url: `http://127.0.0.1:${port}/graphql`, headers, retryAttempts: 0 });
const overSse = (port: number, headers: Record<string, string>): Subscribe => {
  const client = sseClient(port, headers);
  return (payload, sink) => {
    const off = client.subscribe(payload, sink as never);
    return () => {
      off();
      client.dispose();
    };
  };
};
const statesOf = (s: Stream, runId: string) => s.runs.filter((r) => r.id === runId).map((r) => r.status);
const codes = (s: Stream) => s.errors.map((e) => e.extensions?.code);

describe('renderRuns: every run the caller reaches, live, over graphql-ws and GraphQL over SSE', () => {
  let t: TestApp;
  let port: number;
  let worker: RenderWorker | undefined;
  let other: Awaited<ReturnType<typeof secondInstance>>;
  const cleanup: (() => unknown)[] = [];

  beforeAll(async () => {
    t = await createTestApp({ env: renderEnv({ GRAPHQL_WS_MAX_CONNECTIONS_PER_ACCOUNT: '3' }) });
    await new Promise<void>((resolve) => t.app.server.listen(0, '127.0.0.1', resolve));
    port = (t.app.server.address() as { port: number }).port;
    // A second API instance on the same database: runs started through one are seen by subscribers of the other.
    other = await secondInstance(t);
  });
  afterEach(async () => {
    for (const c of cleanup.splice(0)) await c();
    await worker?.stop(1000);
    worker = undefined;
  });
  afterAll(async () => {
    await other.close();
    await t.close();
  });

  const start = async (headers: Record<string, string>) => {
    const res = await t.http().post('/api/video/render').set(headers).send(TINY);
    expect(res.status).toBe(200);
    return res.body.runId as string;
  };
  const ws = (p: number, params: Record<string, string>) => {
    const client = wsClient(p, params);
    cleanup.push(() => client.dispose());
    return client;
  };

  it.each(['graphql-ws', 'SSE'])('over %s: the newest runs first, then a run started through another instance appears and completes; another tenant\'s runs never appear', async (transport) => {
    const me = await createAccount(t.orm);
    const stranger = await createAccount(t.orm);
    const before = await start(me.headers);
    const strangers = await start(stranger.headers);
    // Subscribed on instance B; the runs are started through instance A (t) and rendered by a worker.
    const subscribe = transport === 'SSE' ? overSse(other.port, me.headers) : overWs(ws(other.port, me.headers));
    const live = stream(subscribe, { initial: 10 });
    cleanup.push(() => live.stop());
    await live.until((s) => s.runs.some((r) => r.id === before), 'the existing run first');
    expect(live.runs[0]).toMatchObject({ id: before, status: 'QUEUED' });
    const later = await start(me.headers);
    await live.until((s) => statesOf(s, later).includes('QUEUED'), 'the new run appears');
    worker = await startWorker(t);
    await live.until((s) => statesOf(s, later).includes('COMPLETED') && statesOf(s, before).includes('COMPLETED'), 'both complete');
    expect(live.runs.find((r) => r.id === later && r.status === 'COMPLETED')?.output?.url).toEqual(expect.stringContaining(later));
    await waitForRun(t, stranger.headers, strangers, ['COMPLETED']);
    // The stranger's run completed too, on the same bus: none of its states reached this subscriber.
    expect(live.runs.filter((r) => r.id === strangers)).toEqual([]);
    expect(live.errors).toEqual([]);
    // Progress is monotonic per run as delivered (coalescing never goes back).
    const progress = live.runs.filter((r) => r.id === later).map((r) => r.progress);
    expect([...progress].sort((a, b) => a - b)).toEqual(progress);
  });

  it('an organization member sees the organization\'s members\' runs; once the membership ends, they stop appearing while the member\'s own still do', async () => {
    const owner = await createAccount(t.orm);
    const member = await createAccount(t.orm);
    const org = await createOrganization(t.orm, undefined, [owner.account.id, member.account.id]);
    // initial: 1 — the run below arrives whether the subscription starts before it or after.
    const live = stream(overWs(ws(port, member.headers)), { initial: 1 });
    cleanup.push(() => live.stop());
    // Through `runs`' reach rule: the owner's run, started after the subscription, is seen by the member.
    const shared = await start(owner.headers);
    await live.until((s) => statesOf(s, shared).includes('QUEUED'), 'the shared run appears');
    // A renderRun subscription on the same instance ends when the instance hears the removal: the signal that it has.
    const one = watchRun(ws(port, member.headers), shared);
    await within(one.first, 10_000, 'renderRun first state');
    // The member leaves the organization (announced on viewer_changes).
    const removed = await t.http().delete(`/api/organizations/${org.id}/members/${member.account.id}`).set(owner.headers);
    expect(removed.status).toBe(200);
    await within(one.done, 10_000, 'the removal is heard');
    // Heard once the next runs arrive: the owner's new run is not delivered, the member's own is.
    const afterOwner = await start(owner.headers);
    const own = await start(member.headers);
    await live.until((s) => statesOf(s, own).includes('QUEUED'), 'the member\'s own run');
    worker = await startWorker(t);
    await waitForRun(t, owner.headers, afterOwner, ['COMPLETED']);
    await waitForRun(t, owner.headers, shared, ['COMPLETED']);
    await live.until((s) => statesOf(s, own).includes('COMPLETED'), 'the member\'s own run completes');
    expect(statesOf(live, afterOwner)).toEqual([]);
    // The shared run's later states (and its signed link) were not sent after the membership ended.
    expect(live.runs.filter((r) => r.id === shared && r.output)).toEqual([]);
    expect(live.errors).toEqual([]);
  });

  it('an admin (a member of ADMIN_ORG_ID) sees every account\'s runs, newest first', async () => {
    const admin = await createAccount(t.orm, { organizations: [t.config.auth.adminOrgId] });
    const someone = await createAccount(t.orm);
    const older = await start(someone.headers);
    const newer = await start(someone.headers);
    const live = stream(overWs(ws(port, admin.headers)), { initial: 2, status: ['QUEUED'] });
    cleanup.push(() => live.stop());
    await live.until((s) => s.runs.length >= 2, 'the two newest runs');
    expect(live.runs.slice(0, 2).map((r) => r.id)).toEqual([newer, older]);
  });

  it('a roster entry removed (not announced) stops the artist\'s run before its signed link', async () => {
    const owner = await createAccount(t.orm);
    const artist = await createArtist(t.orm, { rosterOf: owner.account.id });
    const artistKey = await createApiKeyFor(t.orm, artist.id);
    const theirs = await start(artistKey.headers);
    const live = stream(overWs(ws(port, owner.headers)), { initial: 1 });
    cleanup.push(() => live.stop());
    await live.until((s) => statesOf(s, theirs).includes('QUEUED'), 'the artist\'s run, through the roster');
    // A second run, heard live: the stream now remembers that it reaches the artist.
    const again = await start(artistKey.headers);
    await live.until((s) => statesOf(s, again).includes('QUEUED'), 'the artist\'s second run');
    await t.orm.em.getConnection().execute('delete from roster_entries where owner_id = ? and artist_id = ?', [owner.account.id, artist.id]);
    worker = await startWorker(t);
    await waitForRun(t, artistKey.headers, theirs, ['COMPLETED']);
    await waitForRun(t, artistKey.headers, again, ['COMPLETED']);
    // The owner's own run, started after the artist's completed, is the marker that the stream went past it.
    const mine = await start(owner.headers);
    await live.until((s) => statesOf(s, mine).includes('COMPLETED'), 'the owner\'s own run completes');
    expect(live.runs.filter((r) => (r.id === theirs || r.id === again) && r.output)).toEqual([]);
  });

  it('ends with UNAUTHENTICATED when the subscriber\'s key is revoked (heard on another instance)', async () => {
    const me = await createAccount(t.orm);
    const extra = await createApiKeyFor(t.orm, me.account.id);
    const live = stream(overSse(other.port, extra.headers), { initial: 1 });
    cleanup.push(() => live.stop());
    const first = await start(me.headers);
    await live.until((s) => statesOf(s, first).includes('QUEUED'), 'a run appears');
    expect((await t.http().delete(`/api/keys/${extra.id}`).set(me.headers)).status).toBe(200);
    await live.until((s) => s.ended, 'the stream ends');
    expect(codes(live)).toEqual(['UNAUTHENTICATED']);
    expect(live.errors[0].message).toMatch(/revoked/);
  });

  it('filters by status: a run is sent while in one of them, and once more as it leaves them', async () => {
    const me = await createAccount(t.orm);
    // initial: 1 — the run below arrives whether each subscription starts before it or after.
    const done = stream(overWs(ws(port, me.headers)), { status: ['COMPLETED'], initial: 1 });
    const active = stream(overWs(ws(port, me.headers)), { status: ['QUEUED', 'EXECUTING'], initial: 1 });
    cleanup.push(() => done.stop(), () => active.stop());
    const runId = await start(me.headers);
    await active.until((s) => statesOf(s, runId).includes('QUEUED'), 'queued');
    worker = await startWorker(t);
    await done.until((s) => statesOf(s, runId).includes('COMPLETED'), 'completed');
    await active.until((s) => statesOf(s, runId).includes('COMPLETED'), 'leaving the filter');
    expect(statesOf(done, runId)).toEqual(['COMPLETED']);
    expect(statesOf(active, runId).filter((s) => s === 'COMPLETED')).toEqual(['COMPLETED']);
    expect(statesOf(active, runId).slice(0, -1).every((s) => s === 'QUEUED' || s === 'EXECUTING')).toBe(true);
    // The initial runs honour the filter too.
    const again = stream(overWs(ws(port, me.headers)), { status: ['QUEUED'], initial: 5 });
    cleanup.push(() => again.stop());
    const queued = await start(me.headers);
    await again.until((s) => s.runs.some((r) => r.id === queued), 'the new queued run');
    expect(again.runs.filter((r) => r.id === runId)).toEqual([]);
  });

  it('a bad `initial` or `status` is a BAD_USER_INPUT naming the argument', async () => {
    const me = await createAccount(t.orm);
    const live = stream(overWs(ws(port, me.headers)), { initial: 51 });
    await live.until((s) => s.ended, 'refused');
    expect(codes(live)).toEqual(['BAD_USER_INPUT']);
    expect(live.errors[0].message).toMatch(/initial/);
  });

  it('stopping an instance ends its open SSE streams, and the stop completes', async () => {
    const third = await secondInstance(t);
    const me = await createAccount(t.orm);
    const live = stream(overSse(third.port, me.headers), { initial: 1 });
    cleanup.push(() => live.stop());
    const runId = await start(me.headers);
    await live.until((s) => statesOf(s, runId).includes('QUEUED'), 'the stream is live');
    await within(third.close(), 15_000, 'the instance stops');
    await live.until((s) => s.ended, 'the stream ends');
  });

  describe('credentials', () => {
    it('graphql-ws takes them from the upgrade request\'s headers when connectionParams carry none', async () => {
      const me = await createAccount(t.orm);
      const client = createWsClient({
        url: `ws://127.0.0.1:${port}/graphql`,
        webSocketImpl: class extends WebSocket {
          constructor(url: string, protocols: string[]) {
            super(url, protocols, { headers: me.headers });
          }
        },
        retryAttempts: 0,
      });
      cleanup.push(() => client.dispose());
      const runId = await start(me.headers);
      const live = stream(overWs(client), { initial: 1 });
      cleanup.push(() => live.stop());
      await live.until((s) => s.runs.some((r) => r.id === runId), 'the run');
      expect(live.errors).toEqual([]);
    });

    it('graphql-ws: a bad key is told at once with HTTP\'s code and message, and the client does not retry', async () => {
      const http = await t.graphql('{ me { id } }', undefined, { 'x-api-key': 'mas_not-a-key' });
      const httpError = http.body.errors[0];
      let connecting = 0;
      const closes: number[] = [];
      const client = createWsClient({
        url: `ws://127.0.0.1:${port}/graphql`,
        webSocketImpl: WebSocket,
        connectionParams: { 'x-api-key': 'mas_not-a-key' },
        retryAttempts: 5,
        on: { connecting: () => (connecting += 1), closed: (e) => closes.push((e as { code: number }).code) },
      });
      cleanup.push(() => client.dispose());
      const live = stream(overWs(client));
      await live.until((s) => s.ended, 'refused', 10_000);
      expect(live.errors).toEqual([{ message: httpError.message, extensions: { code: 'UNAUTHENTICATED' } }]);
      expect(httpError.extensions.code).toBe('UNAUTHENTICATED');
      await within(new Promise<void>((resolve) => { const tick = () => (closes.length ? resolve() : setTimeout(tick, 20)); tick(); }), 10_000, 'closed');
      expect(closes).toEqual([4401]);
      expect(connecting).toBe(1);
    });

    it('graphql-ws: no credentials at all is UNAUTHENTICATED with the message HTTP gives, not a bare close', async () => {
      const client = createWsClient({ url: `ws://127.0.0.1:${port}/graphql`, webSocketImpl: WebSocket, retryAttempts: 5 });
      cleanup.push(() => client.dispose());
      const live = stream(overWs(client));
      await live.until((s) => s.ended, 'refused', 10_000);
      expect(live.errors).toEqual([{ message: 'Missing credentials: send x-api-key or Authorization: Bearer', extensions: { code: 'UNAUTHENTICATED' } }]);
    });

    it.each([
      ['a bad key', { 'x-api-key': 'mas_not-a-key' }, 'Invalid or revoked API key'],
      ['a malformed Authorization', { authorization: 'Token abc' }, 'Authorization must be "Bearer <token>"'],
      ['no credentials', {}, 'Missing credentials: send x-api-key or Authorization: Bearer'],
    ])('SSE: %s is UNAUTHENTICATED with HTTP\'s message', async (_name, headers, message) => {
      const live = stream(overSse(port, headers));
      cleanup.push(() => live.stop());
      await live.until((s) => s.ended, 'refused', 10_000);
      expect(live.errors).toEqual([{ message, extensions: { code: 'UNAUTHENTICATED' } }]);
    });

    it.each([
      ['GET', '', 400, 'BAD_REQUEST', /non-empty `query`/],
      ['GET', '?query=%7B__typename%7D&variables=%7Bnot-json', 400, 'BAD_REQUEST', /`variables` must be JSON/],
      ['GET', '?query=%7B__typename%7D&variables=%5B1%5D', 400, 'BAD_REQUEST', /`variables` must be a JSON object/],
      ['PUT', '', 405, 'METHOD_NOT_ALLOWED', /GET or POST/],
    ])('SSE: %s /graphql%s (no operation) is %i with a code, not graphql-sse\'s bare message', async (method, search, status, code, message) => {
      const res = await fetch(`http://127.0.0.1:${port}/graphql${search}`, { method, headers: { accept: 'text/event-stream', 'x-api-key': 'mas_whatever' } });
      expect(res.status).toBe(status);
      const body = (await res.json()) as { errors: ErrorLike[] };
      expect(body.errors).toEqual([{ message: expect.stringMatching(message), extensions: { code } }]);
    });

    it('SSE as EventSource sends it: GET with the operation in the query string, credentials in a header', async () => {
      const me = await createAccount(t.orm);
      const runId = await start(me.headers);
      const query = new URLSearchParams({ query: RUNS, variables: JSON.stringify({ initial: 1 }) });
      const controller = new AbortController();
      cleanup.push(() => controller.abort());
      const res = await fetch(`http://127.0.0.1:${port}/graphql?${query}`, { headers: { accept: 'text/event-stream', ...me.headers }, signal: controller.signal });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const reader = res.body!.getReader();
      let text = '';
      await within((async () => {
        while (!text.includes('event: next')) text += new TextDecoder().decode((await reader.read()).value);
        while (!/event: next\ndata: .*\n\n/.test(text)) text += new TextDecoder().decode((await reader.read()).value);
      })(), 10_000, 'first event');
      const data = JSON.parse(/event: next\ndata: (.*)\n/.exec(text)![1]);
      expect(data).toEqual({ data: { renderRuns: expect.objectContaining({ id: runId, status: 'QUEUED' }) } });
    });
  });

  describe('caps', () => {
    it('SSE streams and websockets share the per-account connection cap (GRAPHQL_WS_MAX_CONNECTIONS_PER_ACCOUNT=3)', async () => {
      const me = await createAccount(t.orm);
      const streams = [stream(overSse(port, me.headers), { initial: 1 }), stream(overSse(port, me.headers), { initial: 1 })];
      cleanup.push(() => streams.forEach((s) => s.stop()));
      // A websocket makes the third connection; the fourth (an SSE stream) is refused.
      const client = ws(port, me.headers);
      const third = stream(overWs(client), { initial: 1 });
      cleanup.push(() => third.stop());
      const runId = await start(me.headers);
      for (const s of [...streams, third]) await s.until((x) => x.runs.some((r) => r.id === runId), 'each open stream hears the run');
      const fourth = stream(overSse(port, me.headers), { initial: 0 });
      cleanup.push(() => fourth.stop());
      await fourth.until((s) => s.ended, 'refused');
      expect(codes(fourth)).toEqual(['RATE_LIMITED']);
      expect(fourth.errors[0].message).toBe('Too many connections: at most 3 per account');
      // Once a stream ends, its place is free again (as soon as the server sees the request closed).
      streams[0].stop();
      let admitted = false;
      for (let attempt = 0; !admitted && attempt < 50; attempt += 1) {
        const next = stream(overSse(port, me.headers), { initial: 1 });
        cleanup.push(() => next.stop());
        await next.until((s) => s.runs.length > 0 || s.ended, 'admitted or refused');
        admitted = next.runs.length > 0;
        if (!admitted) {
          expect(codes(next)).toEqual(['RATE_LIMITED']);
          await new Promise((r) => setTimeout(r, 100));
        }
      }
      expect(admitted).toBe(true);
    });

    it('an operation over SSE is weighed and charged like one over HTTP (past GRAPHQL_MAX_COST: the same 400 code)', async () => {
      const me = await createAccount(t.orm);
      // `me { id }` 2^30 times through doubling fragments: past GRAPHQL_MAX_COST.
      const fragments = Array.from({ length: 30 }, (_, i) => `fragment F${i} on Query { ...F${i + 1} ...F${i + 1} }`);
      const query = `{ ...F0 } ${fragments.join(' ')} fragment F30 on Query { me { id } }`;
      const http = await t.graphql(query, undefined, me.headers);
      const code = http.body.errors?.[0]?.extensions?.code;
      expect(http.body.errors[0].message).toMatch(/^Operation cost \d+ exceeds the maximum/);
      const client = sseClient(port, me.headers);
      const errors = await within(new Promise<ErrorLike[]>((resolve) => {
        client.subscribe({ query }, { next: (m) => resolve((m.errors ?? []) as unknown as ErrorLike[]), error: (e) => resolve(e as ErrorLike[]), complete: () => undefined });
      }), 10_000, 'answer');
      client.dispose();
      expect(errors.map((e) => [e.extensions?.code, e.message])).toEqual([[code, http.body.errors[0].message]]);
    });
  });
});

describe('refused live credentials are charged to the client address, as over HTTP (RATE_LIMIT_PER_MINUTE=2, TRUST_PROXY)', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await createTestApp({ env: { RATE_LIMIT_PER_MINUTE: '2', TRUST_PROXY: 'true' } });
    await new Promise<void>((resolve) => t.app.server.listen(0, '127.0.0.1', resolve));
    port = (t.app.server.address() as { port: number }).port;
  });
  afterAll(async () => {
    await t.close();
  });

  /** One graphql-ws connection from `ip` (X-Forwarded-For on the upgrade request) with a bad key: the code its operation is answered with. */
  const refusedOverWs = async (ip: string) => {
    const client = createWsClient({
      url: `ws://127.0.0.1:${port}/graphql`,
      webSocketImpl: class extends WebSocket {
        constructor(url: string, protocols: string[]) {
          super(url, protocols, { headers: { 'x-forwarded-for': ip, 'x-api-key': 'mas_not-a-key' } });
        }
      },
      retryAttempts: 0,
    });
    const live = stream(overWs(client));
    await live.until((s) => s.ended, 'refused', 10_000);
    await client.dispose();
    return codes(live);
  };

  it('a third refusal from one address within the minute is RATE_LIMITED; another address is not', async () => {
    expect(await refusedOverWs('203.0.113.7')).toEqual(['UNAUTHENTICATED']);
    expect(await refusedOverWs('203.0.113.7')).toEqual(['UNAUTHENTICATED']);
    expect(await refusedOverWs('203.0.113.7')).toEqual(['RATE_LIMITED']);
    expect(await refusedOverWs('203.0.113.8')).toEqual(['UNAUTHENTICATED']);
    // Over SSE, the same budget by the same address.
    const sse = stream(overSse(port, { 'x-forwarded-for': '203.0.113.7', 'x-api-key': 'mas_not-a-key' }));
    await sse.until((s) => s.ended, 'refused', 10_000);
    expect(codes(sse)).toEqual(['RATE_LIMITED']);
  });
});
