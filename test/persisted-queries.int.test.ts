import { createHash } from 'node:crypto';
import { Client } from 'pg';
import supertest from 'supertest';
import { App, createApp } from '../src/app';
import { createLogger } from '../src/common/logger';
import { initOrm, Orm } from '../src/db/orm';
import { createDeps } from '../src/deps';
import { PersistedQueryStore } from '../src/graphql/persisted-queries';
import { entities } from '../src/modules';
import { createTestApp, GRAPHQL_RESPONSE_JSON, TestApp, withoutBudgetLeft } from './app';
import { as } from './demo';
import { createAccount } from './factories';

const sha = (query: string) => createHash('sha256').update(query).digest('hex');
const apq = (sha256Hash: string) => ({ persistedQuery: { version: 1, sha256Hash } });
/** Apollo's CSRF prevention lets a GET through with this header (docs/api/caching.md: persisted queries). */
const PREFLIGHT = { 'apollo-require-preflight': 'true' };

describe('automatic persisted queries shared by every instance (PostgreSQL)', () => {
  let t: TestApp;
  let orm: Orm;
  let b: App;
  beforeAll(async () => {
    t = await createTestApp();
    // A second instance on the same database, as a balancer's other target.
    orm = await initOrm({ url: t.db.url, poolMax: 3, entities });
    b = await createApp(createDeps(t.config, orm, createLogger('silent')));
  });
  afterAll(async () => {
    await b?.stop();
    await orm?.close(true);
    await t?.close();
  });

  // Statuses as the GraphQL-over-HTTP spec gives them for its own media type (docs/api/errors.md).
  const onA = () => ({ post: (path: string) => supertest(t.app.server).post(path).set(GRAPHQL_RESPONSE_JSON), get: (path: string) => supertest(t.app.server).get(path).set(GRAPHQL_RESPONSE_JSON) });
  const onB = () => ({ post: (path: string) => supertest(b.server).post(path).set(GRAPHQL_RESPONSE_JSON), get: (path: string) => supertest(b.server).get(path).set(GRAPHQL_RESPONSE_JSON) });

  const rows = async (hash: string) => (await t.orm.em.getConnection().execute('select count(*)::int as n from persisted_queries where hash = ?', [hash]))[0].n as number;

  it('registered on one instance, the hash alone runs on another, over POST and GET', async () => {
    const query = 'query Compositions { compositions { id } }';
    const hash = sha(query);
    // 1. The hash alone, never registered: PERSISTED_QUERY_NOT_FOUND (the client then sends the document).
    const unknown = await onA().post('/graphql').set(as.nora).send({ extensions: apq(hash) });
    expect(unknown.body.errors[0].extensions.code).toBe('PERSISTED_QUERY_NOT_FOUND');
    expect(unknown.headers['cache-control']).toBe('no-store');
    // 2. With the document: it runs, and is registered once its answer is out.
    const registered = await onA().post('/graphql').set(as.nora).send({ query, extensions: apq(hash) });
    expect(registered.status).toBe(200);
    expect(registered.body.data.compositions.length).toBeGreaterThan(0);
    expect(await rows(hash)).toBe(1);
    // 3. The hash alone, on the other instance (which never saw it).
    const hit = await onB().post('/graphql').set(as.nora).send({ extensions: apq(hash) });
    expect(hit.status).toBe(200);
    expect(withoutBudgetLeft(hit.body)).toEqual(withoutBudgetLeft(registered.body));
    // And as a GET, which a browser or CDN in front of the caller may keep per the route's policy.
    const get = await onB().get('/graphql').query({ extensions: JSON.stringify(apq(hash)) }).set(as.nora).set(PREFLIGHT);
    expect(get.status).toBe(200);
    expect(withoutBudgetLeft(get.body)).toEqual(withoutBudgetLeft(registered.body));
    expect(get.headers['cache-control']).toBe('private, max-age=300');
    expect(get.headers.vary).toMatch(/Authorization/);
    expect(get.headers.vary).toMatch(/x-api-key/);
    expect(get.headers.vary).toMatch(/Accept/);
    // A credential header is itself a preflighted header: no Apollo CSRF header is needed with one.
    const plain = await onB().get('/graphql').query({ extensions: JSON.stringify(apq(hash)) }).set(as.nora);
    expect(plain.status).toBe(200);
    // Without credentials or a preflighted header, Apollo's CSRF prevention still refuses a GET.
    const simple = await onB().get('/graphql').query({ extensions: JSON.stringify(apq(hash)) });
    expect(simple.status).toBe(400);
    expect(simple.headers['cache-control']).toBe('no-store');
  });

  it('a GET of the caller\'s own data is private, no-cache; of runs (signed links) no-store', async () => {
    const own = 'query { me { id } }';
    await onA().post('/graphql').set(as.nora).send({ query: own, extensions: apq(sha(own)) });
    const me = await onB().get('/graphql').query({ extensions: JSON.stringify(apq(sha(own))) }).set(as.nora).set(PREFLIGHT);
    expect(me.status).toBe(200);
    expect(me.headers['cache-control']).toBe('private, no-cache');
    const runs = 'query { compositions { id } runs { pagination { totalCount } } }';
    const mixed = await onB().get('/graphql').query({ query: runs }).set(as.nora).set(PREFLIGHT);
    expect(mixed.status).toBe(200);
    expect(mixed.headers['cache-control']).toBe('no-store');
  });

  it('a hash that does not match its document stays a 400 PERSISTED_QUERY_HASH_MISMATCH, and stores nothing', async () => {
    const query = '{ me { name } }';
    const wrong = sha('{ me { id name } }');
    const res = await onA().post('/graphql').set(as.nora).send({ query, extensions: apq(wrong) });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions.code).toBe('PERSISTED_QUERY_HASH_MISMATCH');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(await rows(wrong)).toBe(0);
    expect(await rows(sha(query))).toBe(0);
  });

  it('a document that does not validate, or is refused by the rate limit, is not registered', async () => {
    const invalid = '{ noSuchField }';
    const bad = await onA().post('/graphql').set(as.nora).send({ query: invalid, extensions: apq(sha(invalid)) });
    expect(bad.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(await rows(sha(invalid))).toBe(0);

    // Registering is a request like any other: past the budget, a 429 and nothing stored.
    const owner = await createAccount(t.orm);
    const query = '{ me { id kind } }';
    expect((await onA().post('/graphql').set(owner.headers).send({ query: '{ __typename }' })).status).toBe(200);
    await t.orm.em.getConnection().execute('update rate_limit_counters set points = ? where key = ?', [t.config.requestLimits.perMinute, `api:acct:${owner.account.id}`]);
    const limited = await onA().post('/graphql').set(owner.headers).send({ query, extensions: apq(sha(query)) });
    expect(limited.status).toBe(429);
    expect(limited.body.errors[0].extensions.code).toBe('RATE_LIMITED');
    expect(await rows(sha(query))).toBe(0);
  });

  it('a GET answer with errors is no-store', async () => {
    const res = await onA().get('/graphql').query({ query: '{ noSuchField }' }).set(as.nora).set(PREFLIGHT);
    expect(res.body.errors.length).toBeGreaterThan(0);
    expect(res.headers['cache-control']).toBe('no-store');
  });

  describe('the table is bounded and entries expire', () => {
    const limits = { ttlS: 3600, maxDocumentBytes: 2048, maxEntries: 3, maxBytes: 4096, memoryBytes: 0 };
    const store = () => new PersistedQueryStore(t.orm, limits, createLogger('silent'));
    const docs = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => `query ${prefix}${i} { me { id } }`);
    const clear = () => t.orm.em.getConnection().execute('delete from persisted_queries');

    it('keeps at most maxEntries documents, dropping the oldest registrations', async () => {
      await clear();
      const s = store();
      const queries = docs(5, 'Entries');
      for (const q of queries) await s.set(`apq:${sha(q)}`, q);
      const kept = (await t.orm.em.getConnection().execute<{ hash: string }[]>('select hash from persisted_queries')).map((r) => r.hash).sort();
      expect(kept).toEqual(queries.slice(2).map(sha).sort());
      expect(await s.get(`apq:${sha(queries[0]!)}`)).toBeUndefined();
      expect(await s.get(`apq:${sha(queries[4]!)}`)).toBe(queries[4]);
    });

    it('keeps at most maxBytes, and never a document past maxDocumentBytes', async () => {
      await clear();
      const s = store();
      const big = (i: number) => `query Big${i} { me { id } } # ${'x'.repeat(1500)}`;
      for (let i = 0; i < 3; i += 1) await s.set(`apq:${sha(big(i))}`, big(i));
      const [{ n, total }] = await t.orm.em.getConnection().execute('select count(*)::int as n, coalesce(sum(bytes), 0)::int as total from persisted_queries');
      expect(total).toBeLessThanOrEqual(limits.maxBytes);
      expect(n).toBe(2);
      const huge = `query Huge { me { id } } # ${'x'.repeat(limits.maxDocumentBytes)}`;
      await s.set(`apq:${sha(huge)}`, huge);
      expect(await rows(sha(huge))).toBe(0);
    });

    it('an expired entry is not found, and is pruned by the next registration', async () => {
      await clear();
      const s = store();
      const [old, fresh] = docs(2, 'Expiry');
      await s.set(`apq:${sha(old!)}`, old!);
      await t.orm.em.getConnection().execute(`update persisted_queries set expires_at = now() - interval '1 second' where hash = ?`, [sha(old!)]);
      expect(await s.get(`apq:${sha(old!)}`)).toBeUndefined();
      await s.set(`apq:${sha(fresh!)}`, fresh!);
      expect(await rows(sha(old!))).toBe(0);
    });

    it('a registration is done once its row is in: it does not wait for the pruning of other rows after it (issue 31)', async () => {
      await clear();
      const s = store();
      const [old, fresh] = docs(2, 'Waiting');
      await s.set(`apq:${sha(old!)}`, old!);
      await t.orm.em.getConnection().execute(`update persisted_queries set expires_at = now() - interval '1 second' where hash = ?`, [sha(old!)]);
      // Another session holds the expired row: pruning it has to wait for that session.
      const other = new Client({ connectionString: t.db.url });
      await other.connect();
      try {
        await other.query('begin');
        await other.query('select 1 from persisted_queries where hash = $1 for update', [sha(old!)]);
        let settled = false;
        const registering = s.set(`apq:${sha(fresh!)}`, fresh!).then(() => {
          settled = true;
        });
        // What the registering answer waits for (persistedQueriesPlugin): the new row only.
        await s.registered(sha(fresh!));
        expect(await rows(sha(fresh!))).toBe(1);
        expect(settled).toBe(false);
        await other.query('commit');
        await registering;
        expect(await rows(sha(old!))).toBe(0);
      } finally {
        await other.end();
      }
    });

    it('a key that is not apq:<sha256 hex> names nothing and stores nothing', async () => {
      await clear();
      const s = store();
      await s.set('apq:../../etc', '{ me { id } }');
      await s.set(`apq:${sha('x').toUpperCase()}`, 'x');
      expect(await s.get('apq:[object Object]')).toBeUndefined();
      const [{ n }] = await t.orm.em.getConnection().execute('select count(*)::int as n from persisted_queries');
      expect(n).toBe(0);
    });
  });
});
