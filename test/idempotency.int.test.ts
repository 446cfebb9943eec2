import { createTestApp, TestApp } from './app';
import { createAccount } from './factories';
import { renderEnv } from './support/render';
import { fingerprintOf } from '../src/http/idempotency';

const small = { compositionId: 'title-card', inputProps: { title: 'Once' }, width: 64, height: 48, fps: 10, durationInFrames: 10 };
const renderMutation = (title: string) => `mutation { renderVideo(input: { compositionId: "title-card", inputProps: { title: "${title}" }, width: 8, height: 8, durationInFrames: 1 }) { id } }`;

/** Idempotency-Key on POST (docs/api/idempotency.md): no worker runs, so accepted runs stay QUEUED and count against the active cap. */
describe('Idempotency-Key (real PostgreSQL)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: renderEnv({ RENDER_MAX_ACTIVE_PER_ACCOUNT: '1', IDEMPOTENCY_MAX_KEYS_PER_ACCOUNT: '20' }) });
    await t.deps.render.queue.start();
  });
  afterAll(async () => {
    await t?.close();
  });

  const runsOf = async (accountId: string) =>
    (await t.orm.em.getConnection().execute<{ n: number }[]>('select count(*)::int as n from render_runs where account_id = ?', [accountId]))[0].n;
  const render = (headers: Record<string, string>, key: string | undefined, body: object = small) => {
    const request = t.http().post('/api/video/render').set(headers);
    return (key === undefined ? request : request.set('idempotency-key', key)).send(body);
  };

  it('answers a repeat with the first answer (same run, Idempotency-Replayed: true) and charges no render quota', async () => {
    const { account, headers } = await createAccount(t.orm);
    const first = await render(headers, 'render-1');
    expect(first.status).toBe(200);
    expect(first.headers['idempotency-replayed']).toBeUndefined();
    // The active cap is 1: a second render would be a 429, a replay is not one.
    const again = await render(headers, 'render-1');
    expect(again.status).toBe(200);
    expect(again.headers['idempotency-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(again.headers['content-type']).toMatch(/application\/json/);
    expect(await runsOf(account.id)).toBe(1);
    // Members in another order are the same body.
    const reordered = Object.fromEntries(Object.entries(small).reverse());
    expect((await render(headers, 'render-1', reordered)).body.runId).toBe(first.body.runId);
    // Without the key, the cap applies: nothing was charged twice, but the one run is there.
    expect((await render(headers, undefined)).status).toBe(429);
  });

  it('refuses the same key with another body, or on another route, with 422 naming the header', async () => {
    const { account, headers } = await createAccount(t.orm);
    await render(headers, 'k-422').expect(200);
    const other = await render(headers, 'k-422', { ...small, inputProps: { title: 'Other' } });
    expect(other.status).toBe(422);
    expect(other.body).toMatchObject({ status: 'error', code: 'UNPROCESSABLE_CONTENT', details: [{ field: 'Idempotency-Key' }] });
    const otherRoute = await t.http().post('/api/sessions').set(headers).set('idempotency-key', 'k-422').send({ title: 'x' });
    expect(otherRoute.status).toBe(422);
    expect(await runsOf(account.id)).toBe(1);
  });

  it('answers 409 with Retry-After while the first request is running, and runs again once it is lost past the timeout', async () => {
    const { account, headers } = await createAccount(t.orm);
    const route = 'POST /api/video/render';
    // The first request's claim, as its instance holds it while the operation runs.
    await t.orm.em.getConnection().execute(
      `insert into idempotency_keys (account_id, key, route, fingerprint, expires_at) values (?, 'busy', ?, ?, now() + interval '1 hour')`,
      [account.id, route, fingerprintOf(route, {}, small)],
    );
    const busy = await render(headers, 'busy');
    expect(busy.status).toBe(409);
    expect(busy.body).toMatchObject({ code: 'CONFLICT', details: [{ field: 'Idempotency-Key' }] });
    expect(Number(busy.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(await runsOf(account.id)).toBe(0);
    // Its instance died: past IDEMPOTENCY_RUNNING_TIMEOUT_S the key is claimed afresh.
    await t.orm.em.getConnection().execute(`update idempotency_keys set started_at = now() - interval '1 hour' where account_id = ? and key = 'busy'`, [account.id]);
    expect((await render(headers, 'busy')).status).toBe(200);
    expect(await runsOf(account.id)).toBe(1);
  });

  it('makes one run of 10 concurrent requests with one key; the others replay it or are told to retry', async () => {
    const { account, headers } = await createAccount(t.orm);
    const answers = await Promise.all(Array.from({ length: 10 }, () => render(headers, 'burst')));
    const ok = answers.filter((a) => a.status === 200);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    expect(new Set(ok.map((a) => a.body.runId)).size).toBe(1);
    for (const a of answers) expect([200, 409]).toContain(a.status);
    expect(await runsOf(account.id)).toBe(1);
    // Once it is done, every repeat replays it.
    const later = await render(headers, 'burst');
    expect(later.body.runId).toBe(ok[0].body.runId);
  });

  it('keeps keys per account: another account with the same key and body gets its own run', async () => {
    const a = await createAccount(t.orm);
    const b = await createAccount(t.orm);
    const first = await render(a.headers, 'shared-key').expect(200);
    const theirs = await render(b.headers, 'shared-key').expect(200);
    expect(theirs.headers['idempotency-replayed']).toBeUndefined();
    expect(theirs.body.runId).not.toBe(first.body.runId);
    expect(await runsOf(b.account.id)).toBe(1);
  });

  it('forgets an expired key: a repeat past IDEMPOTENCY_TTL_HOURS runs again', async () => {
    const { account, headers } = await createAccount(t.orm);
    const first = await render(headers, 'old').expect(200);
    await t.http().post(`/api/tasks/runs/${first.body.runId}/cancel`).set(headers).expect(200);
    await t.orm.em.getConnection().execute(`update idempotency_keys set expires_at = now() - interval '1 second' where account_id = ?`, [account.id]);
    const again = await render(headers, 'old').expect(200);
    expect(again.headers['idempotency-replayed']).toBeUndefined();
    expect(again.body.runId).not.toBe(first.body.runId);
    expect(await t.deps.idempotency.prune()).toBeGreaterThanOrEqual(0);
  });

  it('does not keep a refusal that did nothing (429): the same key runs once the cap allows', async () => {
    const { headers } = await createAccount(t.orm);
    const first = await render(headers, 'a').expect(200);
    expect((await render(headers, 'b')).status).toBe(429);
    await t.http().post(`/api/tasks/runs/${first.body.runId}/cancel`).set(headers).expect(200);
    const b = await render(headers, 'b');
    expect(b.status).toBe(200);
    expect(b.headers['idempotency-replayed']).toBeUndefined();
  });

  it('honours the key on GraphQL mutations over HTTP, not on queries', async () => {
    const { account, headers } = await createAccount(t.orm);
    const first = await t.graphql(renderMutation('G'), {}, { ...headers, 'idempotency-key': 'gql-1' });
    expect(first.body.errors).toBeUndefined();
    expect(first.body.data.renderVideo.id).toEqual(expect.any(String));
    const again = await t.graphql(renderMutation('G'), {}, { ...headers, 'idempotency-key': 'gql-1' });
    expect(again.headers['idempotency-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await runsOf(account.id)).toBe(1);
    const other = await t.graphql(renderMutation('H'), {}, { ...headers, 'idempotency-key': 'gql-1' });
    expect(other.status).toBe(422);
    expect(other.body.errors[0].extensions).toMatchObject({ code: 'UNPROCESSABLE_CONTENT' });
    // A REST key and a GraphQL key of one name are one key: another route is a 422.
    expect((await render(headers, 'gql-1')).status).toBe(422);
    const query = await t.graphql('{ me { id } }', {}, { ...headers, 'idempotency-key': 'q-1' });
    const query2 = await t.graphql('{ me { id } }', {}, { ...headers, 'idempotency-key': 'q-1' });
    expect(query.status).toBe(200);
    expect(query2.headers['idempotency-replayed']).toBeUndefined();
  });

  it('refuses malformed keys with a 400 naming the header, on both faces', async () => {
    const { account, headers } = await createAccount(t.orm);
    for (const key of ['', 'x'.repeat(256), 'naïve', 'tab\tkey']) {
      const r = await render(headers, key);
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ code: 'BAD_USER_INPUT', details: [{ field: 'Idempotency-Key' }] });
      const g = await t.graphql(renderMutation('x'), {}, { ...headers, 'idempotency-key': key });
      expect(g.status).toBe(400);
      expect(g.body.errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT' });
    }
    expect(await runsOf(account.id)).toBe(0);
    // The draft's structured-field string form names the same key.
    const quoted = await render(headers, '"quoted"').expect(200);
    expect((await render(headers, 'quoted')).body.runId).toBe(quoted.body.runId);
  });

  it('bounds the keys an account holds (IDEMPOTENCY_MAX_KEYS_PER_ACCOUNT): past it a POST with a new key is a 429', async () => {
    const { headers, account } = await createAccount(t.orm);
    await t.orm.em.getConnection().execute(
      `insert into idempotency_keys (account_id, key, route, fingerprint, state, status, expires_at)
       select ?, 'filler-' || n, 'POST /api/x', repeat('0', 64), 'done', 200, now() + interval '1 hour' from generate_series(1, 20) n`,
      [account.id],
    );
    const refused = await render(headers, 'one-too-many');
    expect(refused.status).toBe(429);
    expect(refused.body.details).toContainEqual({ field: 'budget', message: 'idempotency_keys' });
    expect(await runsOf(account.id)).toBe(0);
    // Without a key the request goes on as usual.
    expect((await render(headers, undefined)).status).toBe(200);
  });

  it('does not let an unauthenticated request touch keys: a bad credential is a 401, never a replay', async () => {
    const r = await t.http().post('/api/video/render').set('x-api-key', 'mas_bogus').set('idempotency-key', 'x').send(small);
    expect(r.status).toBe(401);
    const g = await t.graphql(renderMutation('x'), {}, { 'x-api-key': 'mas_bogus', 'idempotency-key': 'x' });
    expect(g.status).toBe(401);
  });
});

describe('Idempotency-Key: an answer past IDEMPOTENCY_MAX_ANSWER_BYTES (real PostgreSQL)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { IDEMPOTENCY_MAX_ANSWER_BYTES: '1024' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('sends it, keeps only that it was done, and answers a repeat 409 saying so (never runs it again)', async () => {
    const { headers } = await createAccount(t.orm);
    // A mutation whose answer is about 2 KB (each alias answers its type name).
    const big = `mutation { ${Array.from({ length: 100 }, (_, i) => `a${i}: __typename`).join(' ')} }`;
    const first = await t.graphql(big, {}, { ...headers, 'idempotency-key': 'big' });
    expect(first.status).toBe(200);
    expect(first.text.length).toBeGreaterThan(1024);
    const again = await t.graphql(big, {}, { ...headers, 'idempotency-key': 'big' });
    expect(again.status).toBe(409);
    expect(again.body.errors[0].extensions).toMatchObject({ code: 'CONFLICT', details: [{ field: 'Idempotency-Key', message: 'was used; its answer was not kept' }] });
    expect(again.headers['retry-after']).toBeUndefined();
  });
});
