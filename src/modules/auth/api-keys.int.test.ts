import { Client as PgClient } from 'pg';
import { createTestApp, TestApp } from '../../../test/app';
import { as, DEMO } from '../../../test/demo';
import { createAccount, createApiKeyFor } from '../../../test/factories';
import { ApiKeysDocument, CreateApiKeyDocument } from '../../../test/generated/graphql';

describe('personal API keys (/api/keys)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('creates a key for the caller, shows the secret once, and lists it without secrets', async () => {
    const owner = await createAccount(t.orm);
    const res = await t.http().post('/api/keys').set(owner.headers).send({ name: '  ci runner ' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      status: 'success',
      key: { id: expect.any(String), name: 'ci runner', created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) },
      api_key: expect.stringMatching(/^mas_[\w-]{40,}$/),
    });
    const me = await t.http().get('/api/accounts/me').set('x-api-key', res.body.api_key);
    expect(me.body.account.id).toBe(owner.account.id);
    // The key's last use is written off the request path (src/auth/last-use.ts): it lands right after.
    await t.deps.authenticator.lastUseWritten();

    const list = await t.http().get('/api/keys').set(owner.headers);
    expect(list.status).toBe(200);
    expect(list.body.keys).toHaveLength(2);
    expect(list.body.keys[0]).toEqual({
      id: res.body.key.id,
      name: 'ci runner',
      hint: `${res.body.api_key.slice(0, 12)}…`,
      created_at: res.body.key.created_at,
      last_used_at: expect.any(String),
      revoked: false,
      revoked_at: null,
    });
    expect(JSON.stringify(list.body)).not.toContain(res.body.api_key);
    expect(JSON.stringify(list.body)).not.toContain(owner.headers['x-api-key']);
  });

  it('refuses account_id in the body or the query with a 400 naming it, and creates nothing', async () => {
    const owner = await createAccount(t.orm);
    for (const req of [
      t.http().post('/api/keys').set(owner.headers).send({ name: 'x', account_id: owner.account.id }),
      t.http().post('/api/keys').query({ account_id: DEMO.nora }).set(owner.headers).send({ name: 'x' }),
      t.http().get('/api/keys').query({ account_id: DEMO.nora }).set(owner.headers),
    ]) {
      const res = await req;
      expect(res.status).toBe(400);
      expect(res.body.details).toEqual([{ field: 'account_id', message: expect.stringContaining('personal') }]);
    }
    const rows = await t.orm.em.getConnection().execute('select count(*)::int as n from api_keys where account_id = ?', [owner.account.id]);
    expect(rows[0].n).toBe(1);
    const gql = await t.graphql('mutation { createApiKey(input: { name: "x", account_id: "abc" }) { api_key: apiKey } }', {}, owner.headers);
    expect(gql.status).toBe(400);
  });

  it('revokes a key with immediate effect; another account cannot revoke or see it', async () => {
    const owner = await createAccount(t.orm);
    const spare = await createApiKeyFor(t.orm, owner.account.id, 'spare');
    expect((await t.http().get('/api/accounts/me').set(spare.headers)).status).toBe(200);

    const foreign = await t.http().delete(`/api/keys/${spare.id}`).set(as.nora);
    expect(foreign.status).toBe(404);
    expect((await t.http().get('/api/keys').set(as.nora)).body.keys.map((k: { id: string }) => k.id)).not.toContain(spare.id);
    expect((await t.http().get('/api/accounts/me').set(spare.headers)).status).toBe(200);

    const revoked = await t.http().delete(`/api/keys/${spare.id}`).set(owner.headers);
    expect(revoked.status).toBe(200);
    expect(revoked.body.key).toMatchObject({ id: spare.id, name: 'spare', revoked: true, revoked_at: expect.any(String) });
    const after = await t.http().get('/api/accounts/me').set(spare.headers);
    expect(after.status).toBe(401);
    expect(after.body.code).toBe('UNAUTHENTICATED');
    const again = await t.http().delete(`/api/keys/${spare.id}`).set(owner.headers);
    expect(again.body.key.revoked_at).toBe(revoked.body.key.revoked_at);
    const listed = (await t.http().get('/api/keys').set(owner.headers)).body.keys.find((k: { id: string }) => k.id === spare.id);
    expect(listed).toMatchObject({ revoked: true });
  });

  it('names bad fields', async () => {
    const owner = await createAccount(t.orm);
    expect((await t.http().post('/api/keys').set(owner.headers).send({ name: ' ' })).body.details).toEqual([{ field: 'name', message: 'must not be empty' }]);
    expect((await t.http().post('/api/keys').set(owner.headers).send({ name: 'x'.repeat(101) })).body.details).toEqual([
      { field: 'name', message: 'must be at most 100 characters' },
    ]);
    const badId = await t.http().delete('/api/keys/not-a-uuid').set(owner.headers);
    expect(badId.status).toBe(400);
    expect(badId.body.details).toEqual([{ field: 'id', message: 'must be a UUID' }]);
  });

  it('records last use at most once a minute', async () => {
    const owner = await createAccount(t.orm);
    const lastUsed = async () =>
      (await t.orm.em.getConnection().execute('select extract(epoch from last_used_at)::float8 * 1000 as ms from api_keys where account_id = ?', [owner.account.id]))[0]
        .ms as number | null;
    expect(await lastUsed()).toBeNull();
    await t.http().get('/api/accounts/me').set(owner.headers);
    await t.deps.authenticator.lastUseWritten();
    const first = await lastUsed();
    expect(first).toBeGreaterThan(Date.now() - 10_000);
    const { statements } = await t.sql.measure(async () => {
      const answer = await t.http().get('/api/accounts/me').set(owner.headers);
      await t.deps.authenticator.lastUseWritten();
      return answer;
    });
    expect(await lastUsed()).toEqual(first);
    expect(statements.filter((s) => /^update/i.test(s))).toEqual([]);
    // Two minutes on (cached viewer or not), the next use is written again.
    const clock = jest.spyOn(Date, 'now').mockReturnValue(Date.now() + 120_000);
    try {
      await t.http().get('/api/accounts/me').set(owner.headers);
    } finally {
      clock.mockRestore();
    }
    await t.deps.authenticator.lastUseWritten();
    expect(await lastUsed()).toBeGreaterThan(first! + 60_000);
  });

  it('answers without waiting for the last-use write, which lands once the key row is free', async () => {
    const owner = await createAccount(t.orm);
    const lastUsed = async () =>
      (await t.orm.em.getConnection().execute('select last_used_at from api_keys where account_id = ?', [owner.account.id]))[0].last_used_at as Date | null;
    // Another session holds the key's row: the write has to wait for it, the request must not.
    const locker = new PgClient({ connectionString: t.db.url });
    await locker.connect();
    try {
      await locker.query('begin');
      await locker.query('select 1 from api_keys where account_id = $1 for update', [owner.account.id]);
      const me = await t.http().get('/api/accounts/me').set(owner.headers);
      expect(me.status).toBe(200);
      expect(await lastUsed()).toBeNull();
      await locker.query('commit');
    } finally {
      await locker.end();
    }
    await t.deps.authenticator.lastUseWritten();
    expect(await lastUsed()).not.toBeNull();
  });

  it('caps active keys at 25 per account: one more is a 409 saying so, even when created all at once', async () => {
    const owner = await createAccount(t.orm); // one key already
    const burst = await Promise.all(Array.from({ length: 40 }, (_, i) => t.http().post('/api/keys').set(owner.headers).send({ name: `burst ${i}` })));
    expect(burst.filter((r) => r.status === 200).length).toBe(24);
    const refused = burst.filter((r) => r.status !== 200);
    expect(refused.length).toBe(16);
    for (const r of refused) {
      expect(r.status).toBe(409);
      expect(r.body).toEqual({ status: 'error', code: 'CONFLICT', error: expect.stringMatching(/at most 25 active API keys/) });
    }
    const active = async () =>
      (await t.orm.em.getConnection().execute('select count(*)::int as n from api_keys where account_id = ? and revoked_at is null', [owner.account.id]))[0].n as number;
    expect(await active()).toBe(25);

    // A revoked key frees its place; GraphQL answers the same CONFLICT.
    const one = burst.find((r) => r.status === 200)!;
    expect((await t.http().delete(`/api/keys/${one.body.key.id}`).set(owner.headers)).status).toBe(200);
    expect((await t.http().post('/api/keys').set(owner.headers).send({ name: 'after revoke' })).status).toBe(200);
    const again = await t.graphql(CreateApiKeyDocument, { input: { name: 'one too many' } }, owner.headers);
    expect(again.body.errors[0].extensions.code).toBe('CONFLICT');
    expect(await active()).toBe(25);
  });

  it('is the same on GraphQL', async () => {
    const owner = await createAccount(t.orm);
    const created = await t.graphql(CreateApiKeyDocument, { input: { name: 'from graphql' } }, owner.headers);
    expect(created.body.data.createApiKey.api_key).toMatch(/^mas_/);
    const list = await t.graphql(ApiKeysDocument, {}, { 'x-api-key': created.body.data.createApiKey.api_key });
    expect(list.body.data.apiKeys.items.map((k: { name: string }) => k.name).sort()).toEqual(['from graphql', 'test']);
  });
});
