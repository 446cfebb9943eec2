import supertest from 'supertest';
import { App, createApp } from '../src/app';
import { createLogger } from '../src/common/logger';
import { initOrm, Orm } from '../src/db/orm';
import { createDeps } from '../src/deps';
import { entities } from '../src/modules';
import { createTestApp, TestApp } from './app';
import { addMember, createAccount, createApiKeyFor, createOrganization } from './factories';
import { JwtIssuer, startJwtIssuer } from './jwt';

/** Polls `check` until it holds or `ms` pass; answers whether it held. */
async function eventually(check: () => Promise<boolean>, ms = 1_500): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return check();
}

describe('credentials cached per instance, changes heard by every instance (real PostgreSQL)', () => {
  let t: TestApp;
  let orm: Orm;
  let other: App;
  beforeAll(async () => {
    // A minute of TTL: anything seen here within a second was invalidated by a notification, not by expiry.
    t = await createTestApp({ seed: false, env: { AUTH_CACHE_TTL_MS: '60000' } });
    orm = await initOrm({ url: t.db.url, poolMax: 3, entities });
    other = await createApp(createDeps(t.config, orm, createLogger('silent')));
  });
  afterAll(async () => {
    await other.stop();
    await orm.close(true);
    await t.close();
  });

  const me = (server: App, headers: Record<string, string>) => supertest(server.server).get('/api/accounts/me').set(headers);
  // The credential's own statements: the key lookup (with the viewer) and its last_used_at write.
  const credentialStatements = (statements: string[]) => statements.filter((sql) => /\bapi_keys\b/.test(sql));

  it('looks a key and its viewer up in one statement, and in none while it is cached', async () => {
    const { headers } = await createAccount(t.orm);
    const cold = await t.sql.measure(async () => {
      const answer = await me(t.app, headers);
      // The last-use write is off the request path: wait for it so it is counted here.
      await t.deps.authenticator.lastUseWritten();
      return answer;
    });
    expect(cold.result.status).toBe(200);
    // The key's lookup, and the once-a-minute last_used_at write.
    expect(credentialStatements(cold.statements)).toHaveLength(2);
    const warm = await t.sql.measure(() => me(t.app, headers));
    expect(warm.result.status).toBe(200);
    expect(credentialStatements(warm.statements)).toEqual([]);
  });

  it('refuses a revoked key on the next request on this instance, and at once on another', async () => {
    const { account, headers } = await createAccount(t.orm);
    const doomed = await createApiKeyFor(t.orm, account.id, 'doomed');
    expect((await me(t.app, doomed.headers)).status).toBe(200);
    expect((await me(other, doomed.headers)).status).toBe(200);
    const revoked = await supertest(t.app.server).delete(`/api/keys/${doomed.id}`).set(headers);
    expect(revoked.status).toBe(200);
    expect((await me(t.app, doomed.headers)).status).toBe(401);
    expect(await eventually(async () => (await me(other, doomed.headers)).status === 401)).toBe(true);
    // The account's other key still works.
    expect((await me(other, headers)).status).toBe(200);
  });

  it('hears a membership written by anyone (here straight to the database) on every instance', async () => {
    const { account, headers } = await createAccount(t.orm);
    const org = await createOrganization(t.orm, 'Late Label');
    const orgsOf = async (server: App) => (await me(server, headers)).body.account.organizations.map((o: { id: string }) => o.id) as string[];
    expect(await orgsOf(t.app)).toEqual([]);
    expect(await orgsOf(other)).toEqual([]);
    await addMember(t.orm, org.id, account.id);
    expect(await eventually(async () => (await orgsOf(t.app)).includes(org.id))).toBe(true);
    expect(await eventually(async () => (await orgsOf(other)).includes(org.id))).toBe(true);
  });

  it('serves nothing from the cache while the change channel is lost, and caches again once it is back', async () => {
    const { account, headers } = await createAccount(t.orm);
    const key = await createApiKeyFor(t.orm, account.id);
    expect((await me(t.app, key.headers)).status).toBe(200);
    const kill = () =>
      t.orm.em.getConnection().execute(`select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'viewer-changes' and datname = current_database()`);
    await kill();
    // A change nobody could hear: with the channel down, the next requests read the database.
    await t.orm.em.getConnection().execute('update api_keys set revoked_at = now() where id = ?', [key.id]);
    expect(await eventually(async () => (await me(t.app, key.headers)).status === 401 && (await me(other, key.headers)).status === 401)).toBe(true);
    // Reconnected (with backoff) and caching again: a warm request reads no credential.
    expect(await eventually(async () => (await t.sql.measure(() => me(t.app, headers)).then((m) => credentialStatements(m.statements).length)) === 0, 5_000)).toBe(true);
  });
});

describe('a cached credential is read again ahead of its expiry (real PostgreSQL)', () => {
  // From half of its TTL on, an entry a request is served from is read ahead. Long enough that each step below
  // lands in its window however slow the machine: each request has 1.5 s or more of slack to arrive in time.
  const TTL_MS = 8_000;
  let t: TestApp;
  let idp: JwtIssuer;
  beforeAll(async () => {
    idp = await startJwtIssuer();
    t = await createTestApp({ seed: false, env: { ...idp.env, AUTH_CACHE_TTL_MS: String(TTL_MS) } });
  });
  afterAll(async () => {
    await t.close();
    await idp.close();
  });

  const me = (headers: Record<string, string>) => supertest(t.app.server).get('/api/accounts/me').set(headers);
  const keyLookups = (statements: string[]) => statements.filter((sql) => /\bfrom api_keys\b/.test(sql));
  // A token's account is found by its issuer and subject (each time the token is verified).
  const identityLookups = (statements: string[]) => statements.filter((sql) => /\baccount_identities\b/.test(sql));
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('so a client calling at least every half TTL never waits for its key or token, and concurrent requests read it once', async () => {
    const { headers } = await createAccount(t.orm);
    const bearer = { authorization: `Bearer ${await idp.sign({ sub: `reader-${Date.now()}` })}` };
    const both = () => Promise.all([me(headers), me(bearer)]);
    const cold = await t.sql.measure(both);
    expect(cold.result.map((answer) => answer.status)).toEqual([200, 200]);
    expect(keyLookups(cold.statements)).toHaveLength(1);
    expect(identityLookups(cold.statements).length).toBeGreaterThan(0);
    const cachedAt = Date.now();

    // In the first half of its life the entry is served as it is: no read at all.
    const young = await t.sql.measure(async () => {
      const answers = await both();
      await t.deps.authenticator.readAheadSettled();
      return answers;
    });
    expect(young.result.map((answer) => answer.status)).toEqual([200, 200]);
    expect(keyLookups(young.statements)).toEqual([]);
    expect(identityLookups(young.statements)).toEqual([]);

    // In the second half: five requests of each at once are served from the entries and start one read of each.
    await sleep(TTL_MS * 0.75 - (Date.now() - cachedAt));
    const due = await t.sql.measure(async () => {
      const answers = await Promise.all(Array.from({ length: 5 }, both));
      await t.deps.authenticator.readAheadSettled();
      return answers.flat();
    });
    expect(due.result.map((answer) => answer.status)).toEqual(Array(10).fill(200));
    expect(keyLookups(due.statements)).toHaveLength(1);
    // The token verified again and its account found again by its identity (made on first sight: one read now), once.
    expect(identityLookups(due.statements)).toHaveLength(1);

    // Past the first entries' expiry, in the first half of the ones the reads ahead made (at 0.75 TTL or later):
    // those serve the requests, which read nothing.
    await sleep(TTL_MS * 1.06 - (Date.now() - cachedAt));
    const later = await t.sql.measure(both);
    expect(later.result.map((answer) => answer.status)).toEqual([200, 200]);
    expect(keyLookups(later.statements)).toEqual([]);
    expect(identityLookups(later.statements)).toEqual([]);
  });

  it('and a key revoked meanwhile is refused on the next request, read ahead or not', async () => {
    const { account, headers } = await createAccount(t.orm);
    const key = await createApiKeyFor(t.orm, account.id, 'short-lived');
    expect((await me(key.headers)).status).toBe(200);
    await sleep(TTL_MS * 0.6);
    // Due: this request starts a read ahead, and the revocation is sent while it may be on its way (before or
    // after its statement: either way the key must be refused from then on).
    expect((await me(key.headers)).status).toBe(200);
    expect((await supertest(t.app.server).delete(`/api/keys/${key.id}`).set(headers)).status).toBe(200);
    expect((await me(key.headers)).status).toBe(401);
    await t.deps.authenticator.readAheadSettled();
    expect((await me(key.headers)).status).toBe(401);
  });
});
