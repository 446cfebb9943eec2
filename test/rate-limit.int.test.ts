import type { AddressInfo } from 'node:net';
import { Client } from 'pg';
import supertest from 'supertest';
import { createApp, App } from '../src/app';
import { createLogger } from '../src/common/logger';
import { initOrm, Orm } from '../src/db/orm';
import { entities } from '../src/modules';
import { createDeps } from '../src/deps';
import { RateLimiter } from '../src/auth/rate-limit';
import { createTestApp, GRAPHQL_RESPONSE_JSON, TestApp } from './app';
import { as } from './demo';
import { createAccount, createApiKeyFor } from './factories';
import { RENDER_RUN_SUBSCRIPTION, wsClient } from './support/live';

const LIMITS = { RATE_LIMIT_PER_MINUTE: '12', RESEARCH_RATE_LIMIT_PER_MINUTE: '3', GRAPHQL_MAX_COST: '200' };

const ME = '{ me { id name organizations { name } } }';
/** 100 songs with their artists: weighs far more than `me`. */
// 100 songs with at most 5 of their catalogs each: 600 objects, 7 points (with their artists, 50 a song at most, they would weigh 52).
const HUNDRED_SONGS = 'query($id: ID!) { catalogSongs(input: { catalogId: $id, limit: 100 }) { items { isrc catalogs(limit: 5) { items { id name } } } } }';

function expectHeaders(res: supertest.Response, limit: number, remaining: number) {
  expect(res.headers['ratelimit-limit']).toBe(String(limit));
  expect(res.headers['ratelimit-remaining']).toBe(String(remaining));
  const reset = Number(res.headers['ratelimit-reset']);
  expect(reset).toBeGreaterThanOrEqual(1);
  expect(reset).toBeLessThanOrEqual(60);
}

function expectRateLimited(res: supertest.Response) {
  expect(res.status).toBe(429);
  // Every 429 names its budget and when it refills (docs/api/usage.md).
  expect(res.body).toEqual({
    status: 'error',
    code: 'RATE_LIMITED',
    error: expect.stringMatching(/rate limit/i),
    details: [
      { field: 'budget', message: expect.stringMatching(/^(request|research)_points_per_minute$/) },
      { field: 'refills_in', message: `${res.headers['retry-after']} s` },
    ],
  });
  const retry = Number(res.headers['retry-after']);
  expect(retry).toBeGreaterThanOrEqual(1);
  expect(retry).toBeLessThanOrEqual(60);
  expect(res.headers['ratelimit-remaining']).toBe('0');
}

describe('request rate limits (real PostgreSQL)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: LIMITS });
  });
  afterAll(async () => {
    await t.close();
  });

  it('counts every /api request against the account (all its keys together), with RateLimit-* headers, then answers 429 with Retry-After', async () => {
    const owner = await createAccount(t.orm);
    const second = await createApiKeyFor(t.orm, owner.account.id);
    const other = await createAccount(t.orm);
    for (let i = 1; i <= 12; i += 1) {
      const res = await t.http().get('/api/accounts/me').set(i % 2 ? owner.headers : second.headers);
      expect(res.status).toBe(200);
      expectHeaders(res, 12, 12 - i);
    }
    expectRateLimited(await t.http().get('/api/accounts/me').set(owner.headers));
    expectRateLimited(await t.http().post('/api/sessions').set(second.headers).send({ title: 'x' }));
    // Nothing was written by the refused POST.
    const sessions = await t.orm.em.getConnection().execute('select count(*)::int as n from sessions where account_id = ?', [owner.account.id]);
    expect(sessions[0].n).toBe(0);
    // Another account has a budget of its own.
    const fresh = await t.http().get('/api/accounts/me').set(other.headers);
    expect(fresh.status).toBe(200);
    expectHeaders(fresh, 12, 11);
  });

  it('research and platform search spend a stricter budget of their own, on REST and GraphQL alike', async () => {
    const stats = () => t.http().get('/api/research/track/stats').query({ isrc: 'GBNWR2400001', source: 'platform_a' }).set(as.nora);
    for (let i = 1; i <= 3; i += 1) {
      const res = await stats();
      expect(res.status).toBe(200);
      expectHeaders(res, 3, 3 - i);
    }
    expectRateLimited(await stats());
    expectRateLimited(await t.http().get('/api/platform_a/search').query({ q: 'Luna Waves', type: 'artist' }).set(as.nora));
    // REST research routes leave the general budget alone.
    const me = await t.http().get('/api/accounts/me').set(as.nora);
    expect(me.status).toBe(200);
    expectHeaders(me, 12, 11);
    const graph = await t.graphql('{ trackStats(input: { isrc: "GBNWR2400001", source: "platform_a" }) { result } }', {}, as.nora);
    expect(graph.status).toBe(429);
    expect(graph.body.errors[0]).toMatchObject({ message: expect.stringMatching(/research rate limit/i), extensions: { code: 'RATE_LIMITED' } });
  });

  it('weighs GraphQL operations: `me` costs 1, a hundred songs with artists cost more, an operation over GRAPHQL_MAX_COST is a 400', async () => {
    const owner = await createAccount(t.orm);
    const me = await t.graphql(ME, {}, owner.headers);
    expect(me.status).toBe(200);
    expectHeaders(me, 12, 11);

    const catalog = await t.http().post('/api/catalogs').set(owner.headers).send({ name: 'Weighed' });
    expect(catalog.status).toBe(200);
    const songs = await t.graphql(HUNDRED_SONGS, { id: catalog.body.catalog.id }, owner.headers);
    expect(songs.status).toBe(200);
    // 10 left after `me` and the catalog; 100 songs with a page of up to 5 catalogs each weigh 8, charged up front. The catalog
    // is empty: settled on what was read (the root field), 7 of them come back.
    expect(songs.body.extensions.cost).toMatchObject({ requestedQueryCost: 8, actualQueryCost: 1 });
    expectHeaders(songs, 12, 9);

    const aliases = Array.from({ length: 201 }, (_, i) => `m${i}: me { id }`).join(' ');
    const tooCostly = await t.graphql(`{ ${aliases} }`, {}, owner.headers);
    expect(tooCostly.status).toBe(400);
    expect(tooCostly.body.errors[0]).toMatchObject({ message: expect.stringMatching(/cost 201 exceeds the maximum of 200/), extensions: { code: 'BAD_USER_INPUT' } });
    // Refused before it ran: charged 1 point, not its cost (issue 30: refusals were free).
    const after = await t.graphql(ME, {}, owner.headers);
    expectHeaders(after, 12, 7);

    // Two pages weigh 14 up front: more than the 7 left, whatever they would read.
    const twoPages = HUNDRED_SONGS.replace('catalogSongs', 'a: catalogSongs').replace(/ }$/, ` b: catalogSongs(input: { catalogId: $id, limit: 100 }) { items { isrc catalogs(limit: 5) { items { id name } } } } }`);
    const overBudget = await t.graphql(twoPages, { id: catalog.body.catalog.id }, owner.headers);
    expect(overBudget.status).toBe(429);
    expect(overBudget.body.errors[0]).toMatchObject({ message: expect.stringMatching(/rate limit/i), extensions: { code: 'RATE_LIMITED' } });
    expect(Number(overBudget.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });

  it('charges GraphQL documents that fail to parse or validate (1 point each)', async () => {
    const owner = await createAccount(t.orm);
    const broken = await t.graphql('{ me { ', {}, owner.headers);
    expect(broken.status).toBe(400);
    expectHeaders(broken, 12, 11);
    const invalid = await t.graphql('{ me { noSuchField } }', {}, owner.headers);
    expect(invalid.status).toBe(400);
    expectHeaders(invalid, 12, 10);
    expectHeaders(await t.graphql(ME, {}, owner.headers), 12, 9);
  });

  it('limits unauthenticated routes and failed credentials per client IP', async () => {
    const ip = '203.0.113.9';
    // TRUST_PROXY defaults to loopback: the test client is loopback, so X-Forwarded-For names the client.
    const bad = () => t.http().get('/api/accounts/me').set('x-forwarded-for', ip).set('x-api-key', 'mas_not_a_key');
    for (let i = 1; i <= 11; i += 1) {
      const res = await bad();
      expect(res.status).toBe(401);
      expectHeaders(res, 12, 12 - i);
    }
    const signup = await t.http().post('/api/agents/signup').set('x-forwarded-for', ip).send({ email: 'agent+limits@example.test' });
    expect(signup.status).toBe(200);
    expectHeaders(signup, 12, 0);
    expectRateLimited(await bad());
    expectRateLimited(await t.http().post('/api/agents/signup').set('x-forwarded-for', ip).send({ email: 'agent+more@example.test' }));
    const graph = await t.http().post('/graphql').set('x-forwarded-for', ip).set('x-api-key', 'mas_not_a_key').set(GRAPHQL_RESPONSE_JSON).send({ query: ME });
    expect(graph.status).toBe(429);
    expect(Number(graph.headers['retry-after'])).toBeGreaterThan(0);
    expect(graph.body.errors[0].extensions).toEqual({ code: 'RATE_LIMITED', retryAfter: Number(graph.headers['retry-after']), details: [{ field: 'budget', message: 'request_points_per_minute' }, { field: 'refills_in', message: `${graph.headers['retry-after']} s` }] });
    // As application/json the same refusal is a 200 (what a gateway passes on), the wait in extensions.
    const json = await t.http().post('/graphql').set('x-forwarded-for', ip).set('x-api-key', 'mas_not_a_key').set('accept', 'application/json').send({ query: ME });
    expect(json.status).toBe(200);
    expect(json.headers['retry-after']).toBeUndefined();
    expect(json.body.errors[0].extensions).toEqual({ code: 'RATE_LIMITED', retryAfter: expect.any(Number), details: [{ field: 'budget', message: 'request_points_per_minute' }, { field: 'refills_in', message: expect.any(String) }] });
    // Probing for routes is no way around it.
    expectRateLimited(await t.http().get('/api/no/such/route').set('x-forwarded-for', ip));
    const unmatched = await t.http().get('/api/no/such/route').set('x-forwarded-for', '203.0.113.11');
    expect(unmatched.status).toBe(404);
    expectHeaders(unmatched, 12, 11);
    // Another address, and a valid credential from the same address, are not affected.
    expect((await t.http().get('/api/accounts/me').set('x-forwarded-for', '203.0.113.10').set('x-api-key', 'mas_not_a_key')).status).toBe(401);
    const owner = await createAccount(t.orm);
    expect((await t.http().get('/api/accounts/me').set('x-forwarded-for', ip).set(owner.headers)).status).toBe(200);
  });

  it('counts rejections by route in /metrics', async () => {
    const metrics = await t.http().get('/metrics');
    expect(metrics.text).toMatch(/rate_limit_rejections_total\{route="\/api\/accounts\/me",budget="api"\} [1-9]/);
    expect(metrics.text).toMatch(/rate_limit_rejections_total\{route="\/api\/research\/track\/stats",budget="research"\} 1/);
    expect(metrics.text).toMatch(/rate_limit_rejections_total\{route="\/graphql",budget="research"\} 1/);
  });

  it('holds across two API instances on one database', async () => {
    const orm: Orm = await initOrm({ url: t.db.url, poolMax: 3, entities });
    const other: App = await createApp(createDeps(t.config, orm, createLogger('silent')));
    try {
      const owner = await createAccount(t.orm);
      const statuses: number[] = [];
      for (let i = 0; i < 14; i += 1) {
        const server = i % 2 ? other.server : t.app.server;
        statuses.push((await supertest(server).get('/api/accounts/me').set(owner.headers)).status);
      }
      expect(statuses).toEqual([...Array(12).fill(200), 429, 429]);
    } finally {
      await other.stop();
      await orm.close(true);
    }
  });

  it('forgets windows that have passed (the counter table does not grow forever)', async () => {
    const owner = await createAccount(t.orm);
    await t.http().get('/api/accounts/me').set(owner.headers);
    const rows = async () =>
      (await t.orm.em.getConnection().execute('select count(*)::int as n from rate_limit_counters where key like ?', [`%${owner.account.id}`]))[0].n as number;
    expect(await rows()).toBe(1);
    await t.orm.em.getConnection().execute(`update rate_limit_counters set window_start = now() - interval '2 minutes' where key like ?`, [`%${owner.account.id}`]);
    expect(await t.deps.rateLimiter.cleanup()).toBeGreaterThanOrEqual(1);
    expect(await rows()).toBe(0);
    // An expired window starts afresh.
    const res = await t.http().get('/api/accounts/me').set(owner.headers);
    expectHeaders(res, 12, 11);
  });
});

describe('rate-limit leases (RATE_LIMIT_LEASE_MAX, real PostgreSQL)', () => {
  const LIMIT = 200;
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { RATE_LIMIT_PER_MINUTE: String(LIMIT), RATE_LIMIT_LEASE_MAX: '50' } });
  });
  afterAll(async () => {
    await t.close();
  });

  const charges = (statements: string[]) => statements.filter((sql) => sql.includes('rate_limit_counters')).length;

  it('hands out points reserved ahead with no statement, the headers exact as with one statement a request', async () => {
    const owner = await createAccount(t.orm);
    const m = await t.sql.measure(async () => {
      for (let i = 1; i <= 120; i += 1) {
        const res = await t.http().get('/api/accounts/me').set(owner.headers);
        expect(res.status).toBe(200);
        expectHeaders(res, LIMIT, LIMIT - i);
      }
    });
    // The first request has no lease (one point), the second reserves 1 + 12 (1/16 of the 198 left),
    // and so on: far fewer charges than requests.
    expect(charges(m.statements)).toBeLessThanOrEqual(30);
    expect(charges(m.statements)).toBeGreaterThan(1);
    // What the instance reserved and has not handed out yet counts as spent in PostgreSQL (a lease reserved ahead included).
    await t.deps.rateLimiter.idle();
    const [row] = await t.orm.em.getConnection().execute('select points from rate_limit_counters where key = ?', [`api:acct:${owner.account.id}`]);
    expect(row.points).toBeGreaterThanOrEqual(120);
    expect(row.points).toBeLessThanOrEqual(120 + 5);
  });

  it('refuses a spent window with no statement until it ends', async () => {
    const owner = await createAccount(t.orm);
    let allowed = 0;
    for (let i = 0; i < LIMIT + 5; i += 1) if ((await t.http().get('/api/accounts/me').set(owner.headers)).status === 200) allowed += 1;
    expect(allowed).toBe(LIMIT);
    const m = await t.sql.measure(async () => {
      for (let i = 0; i < 10; i += 1) expectRateLimited(await t.http().get('/api/accounts/me').set(owner.headers));
    });
    expect(charges(m.statements)).toBe(0);
  });

  /** Another instance's charges, as PostgreSQL sees them: the window's count set outright. */
  const takenElsewhere = (subject: string, points: number) =>
    t.orm.em.getConnection().execute('update rate_limit_counters set points = ? where key = ?', [points, `api:${subject}`]);

  it('hands out only the leased points that were under the limit when others spent the rest meanwhile', async () => {
    const owner = await createAccount(t.orm);
    const me = () => t.http().get('/api/accounts/me').set(owner.headers);
    // 2 requests: the second leases 12 more (1/16 of the 198 left). Once fewer than half of them are left
    // (the 9th request), the next lease is reserved ahead: 11 (1/16 of the 186 neither spent nor held).
    for (let i = 0; i < 14; i += 1) expect((await me()).status).toBe(200);
    await t.deps.rateLimiter.idle();
    // 25 reserved, 14 spent: this instance holds 11.
    const [row] = await t.orm.em.getConnection().execute('select points from rate_limit_counters where key = ?', [`api:acct:${owner.account.id}`]);
    expect(row.points).toBe(25);
    // Other instances take all but 5 points (the 11 held here counted as taken): this instance hands out the 11
    // it holds; of the next lease (10, reserved ahead as they run out) only 5 fit.
    await takenElsewhere(`acct:${owner.account.id}`, LIMIT - 5);
    const statuses: number[] = [];
    for (let i = 0; i < 20; i += 1) statuses.push((await me()).status);
    expect(statuses).toEqual([...Array(16).fill(200), ...Array(4).fill(429)]);
  });

  it('does not hand out leased points twice while a charge that took them is on its way', async () => {
    const subject = `acct:lease-race-${Date.now()}`;
    const charge = (points: number) => t.deps.rateLimiter.consume([{ budget: 'api', subject, points }]).then(([d]) => d);
    await charge(1);
    // Leases 12 (1/16 of the 198 left).
    expect(await charge(1)).toMatchObject({ allowed: true, remaining: LIMIT - 2 });
    // Other instances take the rest but one point: the 12 leased are this instance's, and one more.
    await takenElsewhere(subject, LIMIT - 1);
    // A 13-point charge takes the 12 leased (it needs one point more); twelve 1-point charges,
    // started while it is on its way, find no lease left and wait for it (single flight), then learn
    // the window is spent. Either way no more than 13 points are let through.
    const sizes = [13, ...Array(12).fill(1)];
    const decisions = await Promise.all(sizes.map((points) => charge(points)));
    const granted = decisions.reduce((sum, d, i) => sum + (d.allowed ? sizes[i] : 0), 0);
    expect(granted).toBeGreaterThanOrEqual(1);
    expect(granted).toBeLessThanOrEqual(13);
    expect(decisions.filter((d) => d.allowed).length).toBe(1);
  });

  it('leases as many charges of a costly kind as of a cheap one', async () => {
    const limiter = new RateLimiter(t.orm, { ...t.config.requestLimits, perMinute: 1_000_000, leaseMax: 50 }, createLogger('silent'));
    try {
      const leasesFor = async (points: number) => {
        const subject = `acct:lease-size-${points}-${Date.now()}`;
        const m = await t.sql.measure(async () => {
          for (let i = 0; i < 200; i += 1) expect((await limiter.consume([{ budget: 'api', subject, points }]))[0].allowed).toBe(true);
          // The lease reserved ahead is part of these charges' cost: wait for it to land inside the measure.
          await limiter.idle();
        });
        return charges(m.statements);
      };
      // The first charge, the second with a lease of 50 charges, then 50 charges per statement reserved ahead whenever
      // fewer than 25 are left (after 27, 78, 128 and 178 charges): 6 statements for 200 charges, the last one's lease unspent.
      expect(await leasesFor(1)).toBe(6);
      expect(await leasesFor(7)).toBe(6);
    } finally {
      await limiter.close();
    }
  });

  /** An admin's overrides as LimitOverrides delivers them to the limiter: the value read, then the listeners told. */
  const adminOverrides = () => {
    const byAccount = new Map<string, number>();
    const listeners: ((accountId: string | null) => void)[] = [];
    return {
      limit: (accountId: string, _name: string, fallback: number) => byAccount.get(accountId) ?? fallback,
      onChange: (listener: (accountId: string | null) => void) => void listeners.push(listener),
      set(accountId: string, limit: number) {
        byAccount.set(accountId, limit);
        for (const listener of listeners) listener(accountId);
      },
    };
  };

  /** Another session that holds a counter row locked, so a reservation of that key waits on its way until released. */
  const rowLock = async () => {
    const client = new Client({ connectionString: t.db.url });
    await client.connect();
    return {
      client,
      async hold(key: string) {
        await client.query('begin');
        await client.query('select points from rate_limit_counters where key = $1 for update', [key]);
      },
      release: () => client.query('commit'),
      async end() {
        await client.query('rollback').catch(() => undefined);
        await client.end();
      },
    };
  };

  it('leaves no points ahead from the old limit when an override lands while a reservation is on its way', async () => {
    const overrides = adminOverrides();
    const limiter = new RateLimiter(t.orm, { ...t.config.requestLimits, perMinute: 1000, leaseMax: 50 }, createLogger('silent'), undefined, overrides);
    const account = `lease-override-${Date.now()}`;
    const charge = (points: number) => limiter.consume([{ budget: 'api', subject: `acct:${account}`, points }]).then(([d]) => d);
    const lock = await rowLock();
    try {
      expect(await charge(1)).toMatchObject({ allowed: true });
      // The second charge leases 50 more under the limit of 1000.
      expect(await charge(1)).toMatchObject({ allowed: true, limit: 1000 });
      // The next reservation (51 points: past the lease) is held on its way by a lock on the counter row...
      await lock.hold(`api:acct:${account}`);
      const inFlight = charge(51);
      await new Promise((r) => setTimeout(r, 200));
      // ...while the admin lowers the account's budget to 5.
      overrides.set(account, 5);
      await lock.release();
      // The reservation lands under the limit in force now: refused, and no lease from the old limit.
      expect(await inFlight).toMatchObject({ allowed: false, limit: 5 });
      const after = await Promise.all(Array.from({ length: 10 }, () => charge(1)));
      expect(after.map((d) => [d.allowed, d.limit])).toEqual(Array(10).fill([false, 5]));
    } finally {
      await lock.end();
      await limiter.close();
    }
  });

  it('reserves the next lease ahead: after the first two charges of a window no charge waits for a reservation while the lease has points left', async () => {
    const limiter = new RateLimiter(t.orm, { ...t.config.requestLimits, perMinute: 1000, leaseMax: 50 }, createLogger('silent'));
    const subject = `acct:refresh-ahead-${Date.now()}`;
    const charge = () => limiter.consume([{ budget: 'api', subject, points: 1 }]).then(([d]) => d);
    const lock = await rowLock();
    try {
      expect(await charge()).toMatchObject({ allowed: true, remaining: 999 });
      // The second charge leases 50 more.
      expect(await charge()).toMatchObject({ allowed: true, remaining: 998 });
      // From now on every reservation is held on its way by a lock on the counter row.
      await lock.hold(`api:${subject}`);
      // The 28th charge leaves 24 of the 50 (fewer than half): the next lease is reserved in the background, and waits
      // for the lock. Every charge up to the 52nd is still answered from the lease, the count exact, none held by the
      // lock (a charge that waited for the reservation would not settle until the lock is let go, below).
      for (let i = 3; i <= 52; i += 1) expect(await charge()).toMatchObject({ allowed: true, remaining: 1000 - i });
      // The lease is spent: the 53rd waits for the reservation on its way (single flight), and no other is sent.
      let settled = false;
      const waiting = charge().then((d) => ((settled = true), d));
      await new Promise((r) => setImmediate(r));
      expect(settled).toBe(false);
      await lock.release();
      expect(await waiting).toMatchObject({ allowed: true, remaining: 947 });
      await limiter.idle();
      // 1 + 51 + the 50 reserved ahead: one reservation was on its way, not one per waiting charge.
      const [row] = await t.orm.em.getConnection().execute('select points from rate_limit_counters where key = ?', [`api:${subject}`]);
      expect(row.points).toBe(102);
      for (let i = 54; i <= 120; i += 1) expect(await charge()).toMatchObject({ allowed: true, remaining: 1000 - i });
    } finally {
      await lock.end();
      await limiter.close();
    }
  });

  it('leaves no points ahead from the old limit when an override lands while a background reservation is on its way', async () => {
    const overrides = adminOverrides();
    const limiter = new RateLimiter(t.orm, { ...t.config.requestLimits, perMinute: 1000, leaseMax: 50 }, createLogger('silent'), undefined, overrides);
    const account = `refresh-override-${Date.now()}`;
    const charge = () => limiter.consume([{ budget: 'api', subject: `acct:${account}`, points: 1 }]).then(([d]) => d);
    const lock = await rowLock();
    try {
      expect(await charge()).toMatchObject({ allowed: true, limit: 1000 });
      expect(await charge()).toMatchObject({ allowed: true, limit: 1000 });
      await lock.hold(`api:acct:${account}`);
      // The 28th charge sends the next lease's reservation (50 under the limit of 1000) in the background; the lock holds it.
      for (let i = 3; i <= 30; i += 1) expect(await charge()).toMatchObject({ allowed: true, limit: 1000 });
      // The admin lowers the account's budget to 5 (30 points are spent): the lease is dropped, and a charge now waits
      // for the reservation on its way.
      overrides.set(account, 5);
      const waiting = charge();
      await lock.release();
      // The reservation lands under the limit in force now: it adds nothing, and the charge is refused.
      expect(await waiting).toMatchObject({ allowed: false, limit: 5, remaining: 0 });
      await limiter.idle();
      const after = await Promise.all(Array.from({ length: 10 }, () => charge()));
      expect(after.map((d) => [d.allowed, d.limit])).toEqual(Array(10).fill([false, 5]));
    } finally {
      await lock.end();
      await limiter.close();
    }
  });

  it('leaves the lease as it was when a background reservation fails, and the next charge that finds it spent reserves itself', async () => {
    const limiter = new RateLimiter(t.orm, { ...t.config.requestLimits, perMinute: 1000, leaseMax: 50 }, createLogger('silent'));
    const subject = `acct:refresh-fails-${Date.now()}`;
    const charge = () => limiter.consume([{ budget: 'api', subject, points: 1 }]).then(([d]) => d);
    const lock = await rowLock();
    const holder = lock.client;
    try {
      expect(await charge()).toMatchObject({ allowed: true, remaining: 999 });
      expect(await charge()).toMatchObject({ allowed: true, remaining: 998 });
      await lock.hold(`api:${subject}`);
      // The 28th charge sends the next lease's reservation; it waits for the lock, and is cancelled there.
      for (let i = 3; i <= 30; i += 1) expect(await charge()).toMatchObject({ allowed: true, remaining: 1000 - i });
      const blocked = async () =>
        (await holder.query(`select pid from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and query like '%rate_limit_counters%'`)).rows.map((r) => r.pid as number);
      let pids = await blocked();
      while (!pids.length) pids = await new Promise((r) => setImmediate(r)).then(blocked);
      await holder.query('select pg_cancel_backend($1)', [pids[0]]);
      await limiter.idle();
      // The cancelled reservation took nothing: 1 + 51.
      expect((await holder.query('select points from rate_limit_counters where key = $1', [`api:${subject}`])).rows[0].points).toBe(52);
      await lock.release();
      // Logged, not thrown: the lease is as it was (22 left), then the 53rd charge reserves itself.
      for (let i = 31; i <= 60; i += 1) expect(await charge()).toMatchObject({ allowed: true, remaining: 1000 - i });
    } finally {
      await lock.end();
      await limiter.close();
    }
  });

  it('never lets more than the limit through across two instances, sequential or concurrent', async () => {
    const orm: Orm = await initOrm({ url: t.db.url, poolMax: 3, entities });
    const other: App = await createApp(createDeps(t.config, orm, createLogger('silent')));
    try {
      const servers = [t.app.server, other.server];
      // Alternating, one at a time: each instance holds a lease the other cannot use.
      const sequential = await createAccount(t.orm);
      const statuses: number[] = [];
      for (let i = 0; i < LIMIT + 40; i += 1) statuses.push((await supertest(servers[i % 2]).get('/api/accounts/me').set(sequential.headers)).status);
      const allowed = statuses.filter((s) => s === 200).length;
      expect(allowed).toBeLessThanOrEqual(LIMIT);
      // At most one lease of the other instance (1/16 of what was left) goes unused.
      expect(allowed).toBeGreaterThanOrEqual(LIMIT - Math.ceil(LIMIT / 16));
      expect(statuses.slice(allowed).every((s) => s === 429)).toBe(true);

      // All at once, on both instances: leases taken while other charges are on their way.
      const concurrent = await createAccount(t.orm);
      const burst = await Promise.all(
        Array.from({ length: LIMIT + 60 }, (_, i) => supertest(servers[i % 2]).get('/api/accounts/me').set(concurrent.headers).then((r) => r.status)),
      );
      expect(burst.filter((s) => s !== 200 && s !== 429)).toEqual([]);
      const burstAllowed = burst.filter((s) => s === 200).length;
      expect(burstAllowed).toBeLessThanOrEqual(LIMIT);
      expect(burstAllowed).toBeGreaterThanOrEqual(LIMIT - 2 * Math.ceil(LIMIT / 16));
    } finally {
      await other.stop();
      await orm.close(true);
    }
  });
});

describe('rate-limit leases under concurrency (defaults: RATE_LIMIT_PER_MINUTE 600, RATE_LIMIT_LEASE_MAX 50)', () => {
  const LIMIT = 600;
  /** The most one lease takes: 1/16 of what the window has left. */
  const ONE_LEASE = Math.floor(LIMIT / 16);
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { RATE_LIMIT_PER_MINUTE: String(LIMIT), RATE_LIMIT_LEASE_MAX: '50', GRAPHQL_WS_MAX_SUBSCRIPTIONS: '20' } });
  });
  afterAll(async () => {
    await t.close();
  });

  it('reserves one lease at a time per subject: 40 concurrent charges leave another instance all but the points spent and at most one lease', async () => {
    const orm: Orm = await initOrm({ url: t.db.url, poolMax: 3, entities });
    const other: App = await createApp(createDeps(t.config, orm, createLogger('silent')));
    try {
      const owner = await createAccount(t.orm);
      const me = (server: App['server']) => supertest(server).post('/graphql').set(owner.headers).send({ query: '{ me { name } }' });
      // The client has been seen in this window (as a dashboard's first load would be): from now on charges lease.
      expect((await me(t.app.server)).status).toBe(200);
      const m = await t.sql.measure(async () => {
        const burst = await Promise.all(Array.from({ length: 40 }, () => me(t.app.server)));
        expect(burst.map((r) => r.status)).toEqual(Array(40).fill(200));
        // Every request saw a distinct count: each point was handed out once.
        expect(new Set(burst.map((r) => r.headers['ratelimit-remaining'])).size).toBe(40);
      });
      // The 40 waited for the reservation in flight instead of each reserving a lease of its own.
      expect(m.statements.filter((sql) => sql.includes('rate_limit_counters')).length).toBeLessThanOrEqual(3);
      // 41 points spent on this instance; the other instance sees them, its own, and at most one unused lease.
      const seen = await me(other.server);
      expect(seen.status).toBe(200);
      const remaining = Number(seen.headers['ratelimit-remaining']);
      expect(remaining).toBeLessThanOrEqual(LIMIT - 42);
      expect(remaining).toBeGreaterThanOrEqual(LIMIT - 42 - ONE_LEASE);
      const [row] = await t.orm.em.getConnection().execute('select points from rate_limit_counters where key = ?', [`api:acct:${owner.account.id}`]);
      expect(row.points).toBe(LIMIT - remaining);
    } finally {
      await other.stop();
      await orm.close(true);
    }
  });

  it('does not refuse a dashboard opening 20 subscriptions for each of 10 accounts', async () => {
    if (!t.app.server.listening) await new Promise<void>((resolve) => t.app.server.listen(0, '127.0.0.1', resolve));
    const port = (t.app.server.address() as AddressInfo).port;
    const accounts = await Promise.all(Array.from({ length: 10 }, () => createAccount(t.orm)));
    const clients = accounts.map((a) => wsClient(port, a.headers));
    try {
      const codes = await Promise.all(
        accounts.map(async (a, i) => {
          // The dashboard's page load, then its 20 live views at once.
          expect((await t.http().get('/api/accounts/me').set(a.headers)).status).toBe(200);
          return Promise.all(
            Array.from(
              { length: 20 },
              (_, n) =>
                new Promise<string>((resolve) => {
                  clients[i].subscribe({ query: RENDER_RUN_SUBSCRIPTION, variables: { runId: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}` } }, {
                    next: (msg) => resolve(String((msg.errors?.[0]?.extensions as { code?: string } | undefined)?.code ?? 'DATA')),
                    error: (error) => resolve(String((error as { extensions?: { code?: string } }[])[0]?.extensions?.code ?? error)),
                    complete: () => resolve('COMPLETE'),
                  });
                }),
            ),
          );
        }),
      );
      const all = codes.flat();
      expect(all).toHaveLength(200);
      // Each is answered (the run does not exist), none refused for a budget the account has barely touched.
      expect(all.filter((c) => c === 'RATE_LIMITED')).toEqual([]);
      expect(new Set(all)).toEqual(new Set(['NOT_FOUND']));
    } finally {
      await Promise.all(clients.map((c) => c.dispose()));
    }
  });
});
