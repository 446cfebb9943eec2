import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'graphql';
import { createClient } from 'graphql-ws';
import type { AddressInfo } from 'node:net';
import supertest from 'supertest';
import WebSocket from 'ws';
import { App, createApp } from '../src/app';
import { createLogger } from '../src/common/logger';
import { AppDeps, createDeps } from '../src/deps';
import { initOrm, Orm } from '../src/db/orm';
import { entities } from '../src/modules';
import { operationCost, providerFieldsOf } from '../src/graphql/cost';
import { buildPlainSchema } from '../src/graphql/schema';
import { resolvers } from '../src/modules';
import { createTestApp, GRAPHQL_RESPONSE_JSON, TestApp } from './app';
import { as, DEMO } from './demo';
import { createAccount, createArtist } from './factories';

/** The composed research query of docs/api/limits.md, as the page writes it. */
function readmeComposedQuery(): string {
  const readme = readFileSync(join(__dirname, '..', 'docs', 'api', 'limits.md'), 'utf8');
  const block = /```graphql\n\s*# the composed research query[^\n]*\n([\s\S]*?)```/.exec(readme);
  if (!block) throw new Error('docs/api/limits.md has no "# the composed research query" graphql block');
  return block[1];
}

interface Cost {
  requestedQueryCost: number | null;
  actualQueryCost: number;
  dryRun?: true;
  maximumQueryCost?: number;
  throttleStatus?: { maximumAvailable: number; currentlyAvailable: number; resetAfter: number };
}
const costOf = (res: { body: { extensions?: { cost?: Cost } } }): Cost => {
  const cost = res.body.extensions?.cost;
  if (!cost) throw new Error(`no extensions.cost in ${JSON.stringify(res.body).slice(0, 300)}`);
  return cost;
};
const remainingHeader = (res: { headers: Record<string, string> }) => Number(res.headers['ratelimit-remaining']);

describe('operation cost settled on what was read (RATE_LIMIT_PER_MINUTE 600, real PostgreSQL)', () => {
  const LIMIT = 600;
  let t: TestApp;
  let weigh: (query: string) => { cost: number; providerCalls: number };
  beforeAll(async () => {
    // deterministicBudgets: these tests read the budget from rate_limit_counters, which with production's leases also holds
    // the points an instance took ahead (a lease); the leases are tested in the two-instance describe below and in rate-limit.int.test.ts.
    t = await createTestApp({ deterministicBudgets: true, env: { RATE_LIMIT_PER_MINUTE: String(LIMIT), RESEARCH_RATE_LIMIT_PER_MINUTE: '60' } });
    const schema = await buildPlainSchema({ resolvers });
    const providers = providerFieldsOf(schema);
    weigh = (query) => operationCost(schema, parse(query), undefined, undefined, providers);
  });
  afterAll(async () => {
    await t.close();
  });

  const pointsOf = async (key: string): Promise<number> => {
    const rows = await t.orm.em.getConnection().execute<{ points: number }[]>('select points from rate_limit_counters where key = ?', [key]);
    return rows[0]?.points ?? 0;
  };

  it('40 concurrent requests of one document from one account: each weighed by its own variables (one kept plan), the budget charged exactly what they settled on', async () => {
    const query = 'query Page($id: ID!, $limit: Int) { catalogSongs(input: { catalogId: $id, limit: $limit }) { items { isrc artists { name } } } }';
    const limits = Array.from({ length: 40 }, (_, i) => 1 + (i % 6));
    const before = await pointsOf(`api:acct:${DEMO.nora}`);
    const answers = await Promise.all(limits.map((limit) => t.graphql(query, { id: DEMO.catalogNorthwind, limit }, as.nora)));
    for (const [i, res] of answers.entries()) {
      expect({ status: res.status, errors: res.body.errors }).toEqual({ status: 200, errors: undefined });
      // What a freshly parsed copy with the limit written in weighs: the kept plan froze nothing of another request.
      const literal = weigh(`{ catalogSongs(input: { catalogId: "${DEMO.catalogNorthwind}", limit: ${limits[i]} }) { items { isrc artists { name } } } }`);
      expect({ limit: limits[i], requested: costOf(res).requestedQueryCost }).toEqual({ limit: limits[i], requested: literal.cost });
    }
    const settled = answers.reduce((sum, res) => sum + costOf(res).actualQueryCost, 0);
    expect((await pointsOf(`api:acct:${DEMO.nora}`)) - before).toBe(settled);
  });

  it('charges the documented composed query under 40 points for an account with two artists, and tells the client', async () => {
    const query = readmeComposedQuery();
    const upperBound = weigh(query);
    // The bound it is charged up front: 5 artists (research and profile: provider calls) × 5 catalogs × 20 songs with stats.
    expect(upperBound.cost).toBe(191);
    expect(upperBound.providerCalls).toBe(10);
    const before = await pointsOf(`api:acct:${DEMO.nora}`);
    const researchBefore = await pointsOf(`research:acct:${DEMO.nora}`);
    const res = await t.graphql(query, undefined, as.nora);
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    const artists = res.body.data.artists.items as { name: string; research: { profile: { name: string } }; catalogs: { items: { songs: { items: { stats: unknown }[] } }[] } }[];
    // Nora's roster (Northwind's): two artists, with their research profiles and catalogs' songs and stats.
    expect(artists.map((a) => a.name).sort()).toEqual(['Luna Waves', 'The Midnight Owls']);
    expect(artists.every((a) => a.research?.profile?.name)).toBe(true);
    expect(artists.flatMap((a) => a.catalogs.items.flatMap((c) => c.songs.items)).length).toBeGreaterThan(0);
    const cost = costOf(res);
    expect(cost.requestedQueryCost).toBe(upperBound.cost);
    expect(cost.actualQueryCost).toBeGreaterThanOrEqual(1);
    expect(cost.actualQueryCost).toBeLessThan(40);
    // As docs/api/limits.md says: 1 root + 1 batch of stats (10) + 1 per 10 songs answered; the objects are under 100.
    expect(cost.actualQueryCost).toBe(13);
    // What the budget holds is what the answer says: the upper bound was taken, the difference given back.
    expect(await pointsOf(`api:acct:${DEMO.nora}`)).toBe(before + cost.actualQueryCost);
    expect(cost.throttleStatus).toEqual({ maximumAvailable: LIMIT, currentlyAvailable: LIMIT - before - cost.actualQueryCost, resetAfter: expect.any(Number) });
    expect(remainingHeader(res)).toBe(cost.throttleStatus!.currentlyAvailable);
    // Research and profiles were served from stored answers: no provider call, so the 10 research points charged up front came back.
    expect(await pointsOf(`research:acct:${DEMO.nora}`)).toBe(researchBefore);
  });

  it('charges an account with no roster the one root field, whatever the upper bound', async () => {
    const res = await t.graphql(readmeComposedQuery(), undefined, as.otto);
    expect(res.body.data).toEqual({ artists: { items: [] } });
    expect(costOf(res)).toMatchObject({ requestedQueryCost: weigh(readmeComposedQuery()).cost, actualQueryCost: 1 });
  });

  it('answers extensions.cost on refusals too: 1 point for a document that does not validate or weighs past GRAPHQL_MAX_COST', async () => {
    const invalid = await t.graphql('{ me { nope } }', undefined, as.nora);
    expect(invalid.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(costOf(invalid)).toMatchObject({ requestedQueryCost: null, actualQueryCost: 1 });
    expect(costOf(invalid).throttleStatus!.currentlyAvailable).toBe(remainingHeader(invalid));

    const tooCostly = '{ artists { items { research { id } } } }';
    expect(weigh(tooCostly).cost).toBeGreaterThan(600);
    const refused = await t.graphql(tooCostly, undefined, as.nora);
    expect(refused.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect(costOf(refused)).toEqual({ requestedQueryCost: weigh(tooCostly).cost, actualQueryCost: 1 });
  });

  it('weighs a document without running it (extensions.cost.dryRun) for 1 point: a mutation is not run', async () => {
    const owner = await createAccount(t.orm);
    const keys = async () => (await t.orm.em.getConnection().execute<{ n: number }[]>('select count(*)::int as n from api_keys where account_id = ?', [owner.account.id]))[0].n;
    const before = await keys();
    const mutation = 'mutation { createApiKey(input: { name: "dry run" }) { api_key: apiKey } }';
    const dry = await t.http().post('/graphql').set(owner.headers).send({ query: mutation, extensions: { cost: { dryRun: true } } });
    expect(dry.status).toBe(200);
    expect(dry.body.data).toBeUndefined();
    expect(dry.body.errors).toBeUndefined();
    expect(costOf(dry)).toEqual({
      requestedQueryCost: weigh(mutation).cost,
      actualQueryCost: 1,
      dryRun: true,
      maximumQueryCost: 600,
      throttleStatus: { maximumAvailable: LIMIT, currentlyAvailable: LIMIT - 1, resetAfter: expect.any(Number) },
    });
    expect(await keys()).toBe(before);
    expect(await pointsOf(`api:acct:${owner.account.id}`)).toBe(1);

    // Past GRAPHQL_MAX_COST it still answers the weight (1 point), where running it would be refused.
    const heavy = await t.http().post('/graphql').set(owner.headers).send({ query: '{ artists { items { research { id } } } }', extensions: { cost: { dryRun: true } } });
    expect(heavy.status).toBe(200);
    expect(costOf(heavy)).toMatchObject({ requestedQueryCost: 1003, actualQueryCost: 1, dryRun: true });
    // The composed query weighs the same dry as it is charged up front when run.
    const composed = await t.http().post('/graphql').set(owner.headers).send({ query: readmeComposedQuery(), extensions: { cost: { dryRun: true } } });
    expect(costOf(composed).requestedQueryCost).toBe(weigh(readmeComposedQuery()).cost);
    expect(await pointsOf(`api:acct:${owner.account.id}`)).toBe(3);
    // Anything but `true` runs the operation as usual.
    const run = await t.http().post('/graphql').set(owner.headers).send({ query: '{ me { name } }', extensions: { cost: { dryRun: 'yes' } } });
    expect(run.body.data.me.name).toEqual(expect.any(String));
  });

  it('settles a query over graphql-ws the same way, and says so in its answer', async () => {
    await new Promise<void>((resolve) => t.app.server.listen(0, '127.0.0.1', resolve));
    const port = (t.app.server.address() as AddressInfo).port;
    const owner = await createAccount(t.orm, { organizations: [DEMO.northwind] });
    const client = createClient({ url: `ws://127.0.0.1:${port}/graphql`, webSocketImpl: WebSocket, connectionParams: owner.headers, retryAttempts: 0, lazy: true });
    try {
      const query = readmeComposedQuery();
      const results: { data?: unknown; extensions?: { cost?: Cost } }[] = [];
      await new Promise<void>((resolve, reject) => client.subscribe({ query }, { next: (r) => void results.push(r as never), error: reject, complete: resolve }));
      expect(results).toHaveLength(1);
      const cost = results[0].extensions!.cost!;
      // A member of Northwind sees its roster: the same two artists, the same settlement as over HTTP.
      expect(cost).toEqual({ requestedQueryCost: 191, actualQueryCost: 13, throttleStatus: { maximumAvailable: LIMIT, currentlyAvailable: LIMIT - 13, resetAfter: expect.any(Number) } });
      expect(await pointsOf(`api:acct:${owner.account.id}`)).toBe(13);
    } finally {
      await client.dispose();
    }
  });

  it('charges REST as before: 1 point a request, however large the page, and no extensions in the REST body', async () => {
    const first = await t.http().get('/api/catalogs/songs').query({ catalog_id: DEMO.catalogNorthwind, limit: 100 }).set(as.sam);
    const second = await t.http().get('/api/catalogs/songs').query({ catalog_id: DEMO.catalogKai, limit: 100 }).set(as.sam);
    expect(remainingHeader(first) - remainingHeader(second)).toBe(1);
    expect(second.body.extensions).toBeUndefined();
  });
});

describe('refunds and refusals on a small budget (RATE_LIMIT_PER_MINUTE 300)', () => {
  const LIMIT = 300;
  let t: TestApp;
  beforeAll(async () => {
    // deterministicBudgets: these tests read the budget from rate_limit_counters, which with production's leases also holds
    // the points an instance took ahead (a lease); the leases are tested in the two-instance describe below and in rate-limit.int.test.ts.
    t = await createTestApp({ deterministicBudgets: true, env: { RATE_LIMIT_PER_MINUTE: String(LIMIT) } });
  });
  afterAll(async () => {
    await t.close();
  });

  /** 100 songs with up to 50 credited artists each: weighs 52, reads what the catalog holds. */
  const PAGE = `query($id: ID!) { catalogSongs(input: { catalogId: $id, limit: 100 }) { items { isrc artists { id name } } } }`;

  it('lets a client run what the budget holds by actual cost, then refuses with the budget as it stands', async () => {
    const owner = await createAccount(t.orm, { organizations: [DEMO.northwind] });
    const statuses: number[] = [];
    let spent = 0;
    // Without refunds 5 of these (52 each) would spend the window; settled on what they read, 20 fit.
    for (let i = 0; i < 20; i += 1) {
      const res = await t.graphql(PAGE, { id: DEMO.catalogNorthwind }, owner.headers);
      statuses.push(res.status);
      const cost = costOf(res);
      expect(cost.requestedQueryCost).toBe(52);
      expect(cost.actualQueryCost).toBeLessThan(52);
      spent += cost.actualQueryCost;
      expect(cost.throttleStatus!.currentlyAvailable).toBe(LIMIT - spent);
      expect(remainingHeader(res)).toBe(LIMIT - spent);
    }
    expect(statuses.every((s) => s === 200)).toBe(true);
    // Spend the window down to less than one upper bound: 52 more cannot be charged up front.
    const [row] = await t.orm.em.getConnection().execute<{ points: number }[]>('update rate_limit_counters set points = ? where key = ? returning points', [LIMIT - 40, `api:acct:${owner.account.id}`]);
    expect(row.points).toBe(LIMIT - 40);
    const refused = await t.graphql(PAGE, { id: DEMO.catalogNorthwind }, owner.headers);
    expect(refused.status).toBe(429);
    expect(refused.body.errors[0].extensions.code).toBe('RATE_LIMITED');
    expect(refused.headers['ratelimit-remaining']).toBe('0');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // The refused charge counts against the window, as every refused charge does; nothing ran.
    expect(costOf(refused)).toEqual({
      requestedQueryCost: 52,
      actualQueryCost: 52,
      throttleStatus: { maximumAvailable: LIMIT, currentlyAvailable: 0, resetAfter: Number(refused.headers['ratelimit-reset']) },
    });
    expect(refused.body.data).toBeUndefined();
  });
});

describe('refunds under concurrency on two instances (RATE_LIMIT_PER_MINUTE 300, RATE_LIMIT_LEASE_MAX 50)', () => {
  const LIMIT = 300;
  let t: TestApp;
  let orm: Orm;
  let other: App;
  let otherDeps: AppDeps;
  beforeAll(async () => {
    t = await createTestApp({ env: { RATE_LIMIT_PER_MINUTE: String(LIMIT), RATE_LIMIT_LEASE_MAX: '50' } });
    orm = await initOrm({ url: t.db.url, poolMax: 3, entities });
    otherDeps = createDeps(t.config, orm, createLogger('silent'));
    other = await createApp(otherDeps);
  });
  afterAll(async () => {
    await other.stop();
    await orm.close(true);
    await t.close();
  });

  const PAGE = `query($id: ID!) { catalogSongs(input: { catalogId: $id, limit: 100 }) { items { isrc artists { id name } } } }`;

  it('never lets more through than the budget, nor gives back more than was charged', async () => {
    const owner = await createAccount(t.orm, { organizations: [DEMO.northwind] });
    const servers = [t.app.server, other.server];
    const send = (i: number) =>
      supertest(servers[i % 2]).post('/graphql').set('content-type', 'application/json').set(GRAPHQL_RESPONSE_JSON).set(owner.headers).send({ query: PAGE, variables: { id: DEMO.catalogNorthwind } });
    const burst = await Promise.all(Array.from({ length: 80 }, (_, i) => send(i)));
    expect(burst.filter((r) => r.status !== 200 && r.status !== 429).map((r) => r.status)).toEqual([]);
    const answered = burst.filter((r) => r.status === 200).map(costOf);
    for (const cost of burst.map(costOf)) expect(cost.requestedQueryCost!).toBeGreaterThanOrEqual(cost.actualQueryCost);
    const settled = answered.reduce((sum, c) => sum + c.actualQueryCost, 0);
    // Every answered operation was charged its upper bound under the limit and settled on less.
    expect(answered.length).toBeGreaterThan(Math.floor(LIMIT / 52));
    expect(settled).toBeLessThanOrEqual(LIMIT);
    // What PostgreSQL counts (reserved by either instance, refunds by statement taken off) covers every point kept:
    // a refund larger than its charge would have let points be handed out twice.
    const [row] = await t.orm.em.getConnection().execute<{ points: number }[]>('select points from rate_limit_counters where key = ?', [`api:acct:${owner.account.id}`]);
    expect(row.points).toBeGreaterThanOrEqual(settled);
    // Sequentially afterwards, on both instances, the budget runs out at the limit, not past it.
    let more = 0;
    for (let i = 0; i < 400; i += 1) {
      const res = await send(i);
      if (res.status !== 200) break;
      more += costOf(res).actualQueryCost;
    }
    expect(settled + more).toBeLessThanOrEqual(LIMIT);
  });

  it('gives points back into the lease that holds the window, and by statement only to the window they came from', async () => {
    const limiter = t.deps.rateLimiter;
    const subject = `acct:refund-${Date.now()}`;
    const key = `api:${subject}`;
    const pointsOf = async () => (await t.orm.em.getConnection().execute<{ points: number }[]>('select points from rate_limit_counters where key = ?', [key]))[0]?.points;
    const [first] = await limiter.consume([{ budget: 'api', subject, points: 40 }]);
    expect(first).toMatchObject({ allowed: true, remaining: LIMIT - 40 });
    // This instance holds the window (a lease with nothing ahead yet): the refund needs no statement.
    const m = await t.sql.measure(() => limiter.refund([{ budget: 'api', subject, points: 30, window: first.window! }]));
    expect(m.count).toBe(0);
    expect(m.result).toEqual([expect.objectContaining({ budget: 'api', remaining: LIMIT - 10 })]);
    // The points stay reserved in PostgreSQL, handed out from here: the next charges use them with no statement.
    expect(await pointsOf()).toBe(40);
    const again = await t.sql.measure(() => limiter.consume([{ budget: 'api', subject, points: 30 }]));
    expect(again.count).toBe(0);
    expect(again.result[0]).toMatchObject({ allowed: true, remaining: LIMIT - 40 });

    // Another instance (no lease) gives back by statement, to the window the points came from only.
    const otherLimiter = otherDeps.rateLimiter;
    const s = await otherLimiter.refund([{ budget: 'api', subject, points: 5, window: first.window! }]);
    expect(s).toEqual([expect.objectContaining({ remaining: LIMIT - 35 })]);
    expect(await pointsOf()).toBe(35);
    // A window that has ended (another start) takes nothing back.
    expect(await otherLimiter.refund([{ budget: 'api', subject, points: 5, window: String(Number(first.window) - 60_000_000) }])).toEqual([]);
    expect(await pointsOf()).toBe(35);
  });
});

describe('research points settled on the provider calls made (PROVIDERS=sandbox)', () => {
  let t: TestApp;
  beforeAll(async () => {
    // deterministicBudgets: these tests read the budget from rate_limit_counters, which with production's leases also holds
    // the points an instance took ahead (a lease); the leases are tested above and in rate-limit.int.test.ts.
    t = await createTestApp({ deterministicBudgets: true, env: { PROVIDERS: 'sandbox', PROVIDER_RETRIES: '0', RATE_LIMIT_PER_MINUTE: '600', RESEARCH_RATE_LIMIT_PER_MINUTE: '60' } });
  });
  afterAll(async () => {
    await t.close();
  });

  const pointsOf = async (key: string): Promise<number> =>
    (await t.orm.em.getConnection().execute<{ points: number }[]>('select points from rate_limit_counters where key = ?', [key]))[0]?.points ?? 0;

  it('keeps a point and 10 of the weight for each upstream call made, and gives back the calls answered from storage', async () => {
    const owner = await createAccount(t.orm);
    // Two roster artists never linked, under names no stored search answers: asking for their research searches the
    // provider by name, once each.
    await createArtist(t.orm, { rosterOf: owner.account.id, name: `Settled Artist ${owner.account.id.slice(0, 8)} A` });
    await createArtist(t.orm, { rosterOf: owner.account.id, name: `Settled Artist ${owner.account.id.slice(0, 8)} B` });
    const searches = () => t.providerMode.sandbox!.musicIntel.server.requests.filter((r) => r.path === '/api/search').length;
    const query = '{ artists(limit: 5) { items { name research { id } } } }';
    const before = searches();
    const first = await t.graphql(query, undefined, owner.headers);
    expect(first.body.errors).toBeUndefined();
    expect(first.body.data.artists.items).toHaveLength(2);
    expect(searches() - before).toBe(2);
    // 5 research calls charged up front (5 artists at most), 2 made: 3 research points back. The weight: 1 root + 10 a call.
    expect(costOf(first)).toMatchObject({ requestedQueryCost: 51, actualQueryCost: 21 });
    expect(await pointsOf(`research:acct:${owner.account.id}`)).toBe(2);
    // Asked again, the links are stored: no call, every research point back, the root field only.
    const again = await t.graphql(query, undefined, owner.headers);
    expect(searches() - before).toBe(2);
    expect(costOf(again)).toMatchObject({ requestedQueryCost: 51, actualQueryCost: 1 });
    expect(await pointsOf(`research:acct:${owner.account.id}`)).toBe(2);
    expect(await pointsOf(`api:acct:${owner.account.id}`)).toBe(22);
  });
});
