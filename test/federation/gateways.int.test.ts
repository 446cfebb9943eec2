import { composeServices } from '@apollo/composition';
import { ApolloGateway, RemoteGraphQLDataSource } from '@apollo/gateway';
import { ApolloServer } from '@apollo/server';
import { startStandaloneServer } from '@apollo/server/standalone';
import { createGatewayRuntime, getGraphQLWSOptions, type GatewayRuntime } from '@graphql-hive/gateway-runtime';
import httpTransport from '@graphql-mesh/transport-http';
import wsTransport from '@graphql-mesh/transport-ws';
import { parse } from 'graphql';
import { createClient as createSseClient } from 'graphql-sse';
import { createClient as createWsClient } from 'graphql-ws';
import { useServer } from 'graphql-ws/use/ws';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket, { WebSocketServer } from 'ws';
import { DEMO } from '../../src/db/seeders/demo.data';
import { createTestApp, TestApp } from '../app';
import { as, TEST_ROUTER_SECRET } from '../demo';
import { createAccount } from '../factories';
import { renderEnv, startWorker } from '../support/render';
import { within } from '../support/live';
import type { RenderWorker } from '../../src/modules/render/render.worker';
import { noteFieldName, notesSchema, notesTypeDefs } from './notes.subgraph';
import type * as HiveConfig from '../../deploy/hive-gateway/gateway.config';
import { TARGETS } from './targets';

/**
 * Both gateways from their npm packages, as servers on real ports, in front of this service (the
 * "music" subgraph, over HTTP) and the foreign "notes" subgraph (test/federation/notes.subgraph.ts,
 * over HTTP too): @apollo/gateway in Apollo Server, and Hive Gateway running
 * deploy/hive-gateway/gateway.config.ts itself, with graphql-ws and SSE for its clients.
 */
const SUBGRAPH_SDL = readFileSync(join(__dirname, '..', '..', 'schema', 'subgraph.graphql'), 'utf8');
type Answer = { data?: Record<string, unknown> | null; errors?: { message: string; path?: unknown[]; extensions?: Record<string, unknown> }[] };
type Headers = Record<string, string>;

const port = (server: Server) => (server.address() as AddressInfo).port;
const listen = (server: Server) => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

/** POST a GraphQL request to a gateway (or the service), as a plain HTTP client. */
async function post(url: string, query: string, headers: Headers = {}, variables?: Record<string, unknown>): Promise<{ status: number; body: Answer; headers: globalThis.Headers }> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json', ...headers }, body: JSON.stringify({ query, variables }) });
  return { status: res.status, body: (await res.json()) as Answer, headers: res.headers };
}

/** The caller's credentials as a gateway reads them from an incoming request. */
function credentialsOf(req: IncomingMessage): Headers {
  const out: Headers = {};
  for (const name of ['x-api-key', 'authorization']) {
    const value: unknown = req.headers[name];
    if (typeof value === 'string') out[name] = value;
  }
  return out;
}

/** @apollo/gateway in Apollo Server: forwards the caller's credentials and the router secret to "music" only. */
async function startApolloGateway(supergraphSdl: string) {
  const gateway = new ApolloGateway({
    supergraphSdl,
    buildService: ({ name, url }) =>
      new RemoteGraphQLDataSource<{ credentials: Headers }>({
        url,
        willSendRequest({ request, context }) {
          if (name !== 'music') return;
          for (const [header, value] of Object.entries((context as { credentials?: Headers }).credentials ?? {})) request.http?.headers.set(header, value);
          request.http?.headers.set('x-router-secret', TEST_ROUTER_SECRET);
        },
      }),
  });
  const server = new ApolloServer<{ credentials: Headers }>({ gateway });
  const { url } = await startStandaloneServer(server, { listen: { port: 0, host: '127.0.0.1' }, context: async ({ req }) => ({ credentials: credentialsOf(req) }) });
  return { url, stop: () => server.stop() };
}

/** Hive Gateway with deploy/hive-gateway/gateway.config.ts, over HTTP (and SSE) and graphql-ws. */
async function startHiveGateway(supergraphSdl: string) {
  const dir = mkdtempSync(join(tmpdir(), 'mas-hive-'));
  const supergraph = join(dir, 'supergraph.graphql');
  writeFileSync(supergraph, supergraphSdl);
  // The module builds the CLI's gatewayConfig from the environment when loaded, and refuses to without ROUTER_SECRET.
  const had = process.env.ROUTER_SECRET;
  process.env.ROUTER_SECRET = TEST_ROUTER_SECRET;
  let gatewayConfigFor: typeof HiveConfig.gatewayConfigFor;
  try {
    ({ gatewayConfigFor } = require('../../deploy/hive-gateway/gateway.config') as typeof HiveConfig);
  } finally {
    if (had === undefined) delete process.env.ROUTER_SECRET;
    else process.env.ROUTER_SECRET = had;
  }
  const runtime: GatewayRuntime = createGatewayRuntime({
    ...gatewayConfigFor({ ROUTER_SECRET: TEST_ROUTER_SECRET, SUPERGRAPH: supergraph }),
    // The CLI image bundles the transports; in process they are given.
    transports: { http: httpTransport, ws: wsTransport },
    logging: false,
  });
  const server = createServer(runtime);
  const wss = new WebSocketServer({ server, path: runtime.graphqlEndpoint });
  const ws = useServer(
    getGraphQLWSOptions<Record<string, unknown>, { request: IncomingMessage; socket: WebSocket }>(runtime, (ctx) => ({ req: ctx.extra.request, socket: ctx.extra.socket })),
    wss,
  );
  await listen(server);
  return {
    url: `http://127.0.0.1:${port(server)}/graphql`,
    port: port(server),
    async stop() {
      await ws.dispose();
      await runtime.dispose();
      server.closeAllConnections();
      await close(server);
    },
  };
}

/** This service, the notes subgraph, and both gateways over them. */
async function startStack(env: Record<string, string>) {
  const t = await createTestApp({ env });
  /** Every request reaching this service's /graphql, with the headers the gateway sent. */
  const seen: { headers: IncomingMessage['headers'] }[] = [];
  t.app.server.on('request', (req: IncomingMessage) => {
    // Express has already mounted the request (its url is then relative to /graphql): the original one.
    const url = (req as IncomingMessage & { originalUrl?: string }).originalUrl ?? req.url;
    if (url === '/graphql' && req.method === 'POST') seen.push({ headers: req.headers });
  });
  await listen(t.app.server);
  const music = `http://127.0.0.1:${port(t.app.server)}/graphql`;
  const notes = new ApolloServer({ schema: notesSchema() });
  const notesUrl = (await startStandaloneServer(notes, { listen: { port: 0, host: '127.0.0.1' } })).url;
  const composed = composeServices([
    { name: 'music', typeDefs: parse(SUBGRAPH_SDL), url: music },
    { name: 'notes', typeDefs: parse(notesTypeDefs()), url: notesUrl },
  ]);
  expect(composed.errors ?? []).toEqual([]);
  const apollo = await startApolloGateway(composed.supergraphSdl!);
  const hive = await startHiveGateway(composed.supergraphSdl!);
  return {
    t,
    music,
    seen,
    apollo,
    hive,
    gateways: () => [['@apollo/gateway', apollo.url], ['Hive Gateway', hive.url]] as const,
    async stop() {
      await hive.stop();
      await apollo.stop();
      await notes.stop();
      await t.close();
    },
  };
}

describe('through @apollo/gateway and Hive Gateway: this service and a foreign subgraph', () => {
  let stack: Awaited<ReturnType<typeof startStack>>;
  let t: TestApp;
  let music: string;
  let hive: Awaited<ReturnType<typeof startHiveGateway>>;
  let seen: { headers: IncomingMessage['headers'] }[];
  const workers: RenderWorker[] = [];

  beforeAll(async () => {
    stack = await startStack(renderEnv());
    ({ t, music, hive, seen } = stack);
  });
  afterAll(async () => {
    for (const w of workers) await w.stop(1000);
    await stack?.stop();
  });

  const gateways = () => stack.gateways();

  // The composed research query of docs/api/research.md (roster → catalogs → songs → stats), with the notes subgraph's fields on the way.
  const RESEARCH = `{ artists(limit: 5) { items { id name notes { text } catalogs(limit: 5) { items { name songs(limit: 20) { items { isrc name notes { text }
    stats(source: "platform_a") { stats { source } } } } } } } } }`;

  it('answers the composed research query as the service does, with the foreign subgraph’s fields added', async () => {
    const direct = await post(music, RESEARCH.replace(/ notes \{ text \}/g, ''), as.nora);
    expect(direct.body.errors).toBeUndefined();
    for (const [name, url] of gateways()) {
      const answer = await post(url, RESEARCH, as.nora);
      expect({ name, status: answer.status, errors: answer.body.errors }).toEqual({ name, status: 200, errors: undefined });
      const artists = (answer.body.data!.artists as { items: unknown }).items as { id: string; notes: { text: string }[]; catalogs: { items: { songs: { items: { isrc: string; notes: { text: string }[]; stats: unknown }[] } }[] } }[];
      // Without the notes, exactly the service's own answer.
      const stripped = JSON.parse(JSON.stringify(answer.body.data, (key, value) => (key === 'notes' ? undefined : value)));
      expect(stripped).toEqual(direct.body.data);
      expect(artists.find((a) => a.id === DEMO.luna)!.notes).toEqual([{ text: `about Artist ${DEMO.luna}` }]);
      const song = artists.flatMap((a) => a.catalogs.items.flatMap((c) => c.songs.items)).find((s) => s.isrc === 'GBNWR2400002')!;
      expect(song.notes).toEqual([{ text: 'about Song GBNWR2400002' }]);
      expect(song.stats).not.toBeNull();
    }
  });

  it('resolves the foreign subgraph’s references in one _entities request per type (Hive Gateway: one in all), whatever their number', async () => {
    const query = `{ notes { id ${TARGETS.map((target) => `${noteFieldName(target)} { ${target.fields} }`).join(' ')} } }`;
    for (const [name, url] of gateways()) {
      const before = seen.length;
      const answer = await post(url, query, as.nora);
      const requests = seen.slice(before);
      const notesAnswer = answer.body.data!.notes as Record<string, unknown>[];
      // Ten notes, two references of each of the five types: @apollo/gateway sends one _entities
      // request per type, Hive Gateway all five types in one (aliased _entities); never one per note.
      const expected = name === 'Hive Gateway' ? 1 : TARGETS.length;
      expect({ name, notes: notesAnswer.length, requests: requests.length }).toEqual({ name, notes: 10, requests: expected });
      // Each with the caller's credentials and the router secret, which only this subgraph is sent.
      for (const r of requests) expect(r.headers).toMatchObject({ 'x-api-key': as.nora['x-api-key'], 'x-router-secret': TEST_ROUTER_SECRET });
      expect(notesAnswer.find((n) => n.id === 'n0-visible')!.artist).toEqual({ id: DEMO.luna, name: 'Luna Waves' });
      expect(notesAnswer.find((n) => n.id === 'n0-hidden')!.artist).toBeNull();
    }
  });

  it('passes a 401 on with its code: UNAUTHENTICATED, not an INTERNAL_SERVER_ERROR "401: Unauthorized"', async () => {
    for (const [name, url] of gateways()) {
      const answer = await post(url, '{ me { name } }', { 'x-api-key': 'mas_not_a_key' });
      const codes = answer.body.errors?.map((e) => e.extensions?.code);
      expect({ name, codes }).toEqual({ name, codes: ['UNAUTHENTICATED'] });
      expect(answer.body.errors![0]!.message).not.toMatch(/^\d{3}:/);
    }
  });

  describe('Hive Gateway: a run’s status over graphql-ws and SSE, from a run started through the gateway', () => {
    const RUN = 'subscription($runId: String!) { renderRun(runId: $runId) { id status progress } }';
    type Pushed = { data?: { renderRun: { id: string; status: string } } | null; errors?: unknown[] };

    /** Collects the pushes of one subscription until it completes or fails. */
    function collect(subscribe: (sink: { next(value: Pushed): void; error(error: unknown): void; complete(): void }) => void) {
      const pushed: Pushed[] = [];
      let first!: () => void;
      const started = new Promise<void>((resolve) => (first = resolve));
      const done = new Promise<void>((resolve, reject) =>
        subscribe({
          next: (value) => {
            pushed.push(value);
            first();
          },
          error: reject,
          complete: resolve,
        }),
      );
      return { pushed, started, done };
    }

    it('streams QUEUED → EXECUTING → COMPLETED to a graphql-ws client and an SSE client, credentials from connectionParams and headers', async () => {
      const started = await post(hive.url, 'mutation { renderVideo(input: { compositionId: "title-card", inputProps: { title: "Through Hive" }, width: 16, height: 16, durationInFrames: 5 }) { id status } }', as.nora);
      expect(started.body.errors).toBeUndefined();
      const runId = (started.body.data!.renderVideo as { id: string }).id;

      const ws = createWsClient({ url: `ws://127.0.0.1:${hive.port}/graphql`, webSocketImpl: WebSocket, connectionParams: { 'x-api-key': as.nora['x-api-key'] }, retryAttempts: 0 });
      const sse = createSseClient({ url: hive.url, headers: { 'x-api-key': as.nora['x-api-key'] }, retryAttempts: 0 });
      try {
        const overWs = collect((sink) => ws.subscribe<Pushed['data']>({ query: RUN, variables: { runId } }, sink as never));
        const overSse = collect((sink) => sse.subscribe<Pushed['data']>({ query: RUN, variables: { runId } }, sink as never));
        await within(Promise.all([overWs.started, overSse.started]), 30_000, 'the first pushed states');
        workers.push(await startWorker(t));
        await within(Promise.all([overWs.done, overSse.done]), 60_000, 'the run to complete');
        for (const [name, pushed] of [['graphql-ws', overWs.pushed], ['SSE', overSse.pushed]] as const) {
          expect({ name, errors: pushed.flatMap((p) => p.errors ?? []) }).toEqual({ name, errors: [] });
          const statuses = pushed.map((p) => p.data!.renderRun.status).filter((s, i, all) => all[i - 1] !== s);
          expect({ name, statuses }).toEqual({ name, statuses: ['QUEUED', 'EXECUTING', 'COMPLETED'] });
          expect(pushed.every((p) => p.data!.renderRun.id === runId)).toBe(true);
        }
      } finally {
        await ws.dispose();
        sse.dispose();
      }
    });

    it('refuses a subscription without credentials, or to another account’s run, with the service’s code', async () => {
      const runId = DEMO.sessionNora; // no run of that id: NOT_FOUND for anyone
      const anonymous = createSseClient({ url: hive.url, retryAttempts: 0 });
      const sam = createWsClient({ url: `ws://127.0.0.1:${hive.port}/graphql`, webSocketImpl: WebSocket, connectionParams: { 'x-api-key': as.sam['x-api-key'] }, retryAttempts: 0 });
      const own = (await post(hive.url, 'mutation { renderVideo(input: { compositionId: "title-card", inputProps: { title: "Nora only" }, width: 16, height: 16, durationInFrames: 5 }) { id } }', as.nora)).body.data!.renderVideo as { id: string };
      try {
        const outcome = async (run: ReturnType<typeof collect>) => {
          try {
            await within(run.done, 30_000, 'the refusal');
            return run.pushed;
          } catch (error) {
            return [{ errors: Array.isArray(error) ? error : [error] }];
          }
        };
        const none = await outcome(collect((sink) => anonymous.subscribe({ query: RUN, variables: { runId } }, sink as never)));
        const other = await outcome(collect((sink) => sam.subscribe({ query: RUN, variables: { runId: own.id } }, sink as never)));
        const codes = (pushed: Pushed[]) => pushed.flatMap((p) => (p.errors ?? []) as { extensions?: { code?: string } }[]).map((e) => e.extensions?.code);
        expect(codes(none)).toEqual(['UNAUTHENTICATED']);
        expect(codes(other)).toEqual(['NOT_FOUND']);
        expect(other.every((p) => !('data' in p) || !p.data?.renderRun)).toBe(true);
      } finally {
        anonymous.dispose();
        await sam.dispose();
      }
    });
  });
});

describe('through both gateways: a spent budget', () => {
  let stack: Awaited<ReturnType<typeof startStack>>;
  beforeAll(async () => {
    // `me` costs 1 point: the fifth operation of a minute is over the budget.
    stack = await startStack({ RATE_LIMIT_PER_MINUTE: '4', RATE_LIMIT_LEASE_MAX: '0' });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('passes a 429 on with its code and extensions.retryAfter, not an INTERNAL_SERVER_ERROR "429: Too Many Requests"', async () => {
    for (const [name, url] of stack.gateways()) {
      const owner = await createAccount(stack.t.orm);
      const answers: Answer[] = [];
      for (let i = 0; i < 5; i += 1) answers.push((await post(url, '{ me { name } }', owner.headers)).body);
      expect({ name, errors: answers.slice(0, 4).flatMap((a) => a.errors ?? []) }).toEqual({ name, errors: [] });
      const error = answers[4]!.errors?.[0];
      expect({ name, code: error?.extensions?.code, message: error?.message }).toEqual({ name, code: 'RATE_LIMITED', message: expect.stringMatching(/rate limit/i) });
      expect(error!.extensions!.retryAfter).toEqual(expect.any(Number));
      expect(error!.extensions!.retryAfter as number).toBeGreaterThanOrEqual(1);
      expect(error!.extensions!.retryAfter as number).toBeLessThanOrEqual(60);
    }
  });
});
