import type { ChildProcess } from 'node:child_process';
import type { EntityManager } from '@mikro-orm/postgresql';
import supertest from 'supertest';
import { Webhook } from 'standardwebhooks';
import { createTestApp, TestApp } from './app';
import { createAccount, CreatedAccount, createOrganization } from './factories';
import { renderEnv, secondInstance, spawnWorker, startWorker, waitForRun } from './support/render';
import { Received, WebhookReceiver } from './support/webhook-receiver';
import type { RenderWorker } from '../src/modules/render/render.worker';
import { WebhookDelivery } from '../src/modules/webhook';
import { RESPONSE_EXCERPT_BYTES } from '../src/modules/webhook/webhook.delivery';
import { WEBHOOK_LOG_PER_ENDPOINT } from '../src/modules/webhook/webhook.inputs';
import { WebhookRepository } from '../src/modules/webhook/webhook.repository';
import { newSigningSecret } from '../src/modules/webhook/webhook.service';
import { as } from './demo';
import { dbOf } from '../src/db/request-db';

const ALL_EVENTS = ['render_run.queued', 'render_run.executing', 'render_run.completed', 'render_run.failed', 'render_run.canceled'];
/** A public address as an IP literal (no DNS needed): registration accepts it; nothing is ever sent to it in these tests. */
const PUBLIC = 'https://93.184.215.14/hooks';

/** Verifies a received request with the library's own verifier (throws when the signature does not hold). */
const verify = (secret: string, r: Received) => new Webhook(secret).verify(r.body, r.headers);
const verifies = (secret: string, r: Received) => {
  try {
    verify(secret, r);
    return true;
  } catch {
    return false;
  }
};

function startDelivery(t: TestApp): Promise<WebhookDelivery> {
  const delivery = new WebhookDelivery({ orm: t.orm, queue: t.deps.render.queue, render: t.deps.render, config: t.config.webhook, renderSettings: t.config.render, logger: t.deps.logger });
  return delivery.start(2).then(() => delivery);
}

describe('webhook endpoints: registration, URL safety, caps, ownership (https only, public addresses only)', () => {
  let t: TestApp;
  let me: CreatedAccount;
  let other: CreatedAccount;
  beforeAll(async () => {
    t = await createTestApp({ env: { WEBHOOK_MAX_ENDPOINTS_PER_ACCOUNT: '3' } });
    me = await createAccount(t.orm);
    other = await createAccount(t.orm);
  });
  afterAll(async () => {
    await t?.close();
  });

  const create = (headers: Record<string, string>, body: Record<string, unknown>) => t.http().post('/api/webhooks').set(headers).send(body);

  it('registers an endpoint and answers its whsec_ secret once; reads never show it', async () => {
    const res = await create(me.headers, { url: PUBLIC, events: ['render_run.completed', 'render_run.failed'], description: 'back office' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'success',
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
      webhook: { id: expect.any(String), url: PUBLIC, events: ['render_run.completed', 'render_run.failed'], description: 'back office', enabled: true, disabled_reason: null },
    });
    const id = res.body.webhook.id as string;
    const one = await t.http().get(`/api/webhooks/${id}`).set(me.headers);
    expect(one.status).toBe(200);
    expect(JSON.stringify(one.body)).not.toContain('whsec_');
    const list = await t.http().get('/api/webhooks').set(me.headers);
    expect(list.body.webhooks.map((w: { id: string }) => w.id)).toContain(id);
    expect(JSON.stringify(list.body)).not.toContain('whsec_');
    const graph = await t.graphql('{ webhookEndpoints { items { id url events enabled } pagination { totalCount } } }', {}, me.headers);
    expect(graph.body.data.webhookEndpoints.items).toEqual([{ id, url: PUBLIC, events: ['render_run.completed', 'render_run.failed'], enabled: true }]);
    await t.http().delete(`/api/webhooks/${id}`).set(me.headers).expect(200);
  });

  it.each([
    ['http://93.184.215.14/hooks', 'must be an https:// URL'],
    ['ftp://93.184.215.14/hooks', 'must be an https:// URL'],
    ['not a url', 'must be an absolute URL'],
    ['https://user:pw@93.184.215.14/hooks', 'must not carry a user name or password'],
    ['https://127.0.0.1/hooks', 'non-public address (loopback)'],
    ['https://localhost:8443/hooks', 'non-public address (loopback)'],
    ['https://[::1]/hooks', 'non-public address (loopback)'],
    ['https://[::ffff:127.0.0.1]/hooks', 'non-public address (loopback)'],
    ['https://10.1.2.3/hooks', 'non-public address (private)'],
    ['https://192.168.0.10/hooks', 'non-public address (private)'],
    ['https://169.254.169.254/latest/meta-data', 'non-public address (linkLocal)'],
    ['https://100.100.100.200/hooks', 'non-public address (carrierGradeNat)'],
    ['https://[fd00:ec2::254]/hooks', 'non-public address (uniqueLocal)'],
    ['https://0.0.0.0/hooks', 'non-public address (unspecified)'],
    ['https://2130706433/hooks', 'non-public address (loopback)'],
    ['https://no-such-host.invalid/hooks', 'does not resolve'],
  ])('refuses %s with a 400 naming url (%s)', async (url, message) => {
    const res = await create(me.headers, { url, events: ['render_run.completed'] });
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([{ field: 'url', message: expect.stringContaining(message) }]);
  });

  it('refuses hostile or malformed fields with a 400 naming each, and stores nothing', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ url: PUBLIC, events: [] }, 'events'],
      [{ url: PUBLIC, events: ['render_run.exploded'] }, 'events[0]'],
      [{ url: PUBLIC, events: ['render_run.completed', 'render_run.completed'] }, 'events'],
      [{ url: PUBLIC, events: 'render_run.completed' }, 'events'],
      [{ url: PUBLIC, events: ['ping'] }, 'events[0]'],
      [{ url: PUBLIC, events: ['render_run.completed'], description: 'x'.repeat(501) }, 'description'],
      [{ url: `${PUBLIC}/${'a'.repeat(2001)}`, events: ['render_run.completed'] }, 'url'],
      [{ url: PUBLIC, events: ['render_run.completed'], enabled: 'yes' }, 'enabled'],
      [{ url: PUBLIC, events: ['render_run.completed'], secret: 'whsec_mine' }, 'secret'],
      [{ url: PUBLIC, events: ['render_run.completed'], account_id: other.account.id }, 'account_id'],
      [{ events: ['render_run.completed'] }, 'url'],
    ];
    for (const [body, field] of cases) {
      const res = await create(me.headers, body);
      expect({ body, status: res.status, fields: (res.body.details ?? []).map((d: { field: string }) => d.field) }).toEqual({ body, status: 400, fields: expect.arrayContaining([field]) });
    }
    expect((await t.http().get('/api/webhooks').set(me.headers)).body.webhooks).toEqual([]);
  });

  it(`holds WEBHOOK_MAX_ENDPOINTS_PER_ACCOUNT (3 here) even against concurrent creation: CONFLICT past it`, async () => {
    const account = await createAccount(t.orm);
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => create(account.headers, { url: `${PUBLIC}/${i}`, events: ['render_run.completed'] })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 409, 409, 409]);
    expect(answers.find((a) => a.status === 409)!.body).toMatchObject({ code: 'CONFLICT', error: expect.stringContaining('at most 3 webhook endpoints') });
    expect((await t.http().get('/api/webhooks').set(account.headers)).body.pagination.total_count).toBe(3);
    // Another account's cap is its own.
    expect((await create(other.headers, { url: PUBLIC, events: ['render_run.completed'] })).status).toBe(200);
  });

  it("takes an admin's per-account override of the cap (webhook_endpoints_max) instead of WEBHOOK_MAX_ENDPOINTS_PER_ACCOUNT, for that account only", async () => {
    const account = await createAccount(t.orm);
    const set = await t.http().put(`/api/accounts/${account.account.id}/limits`).set(as.ada).send({ webhook_endpoints_max: 1 });
    expect(set.status).toBe(200);
    expect((await create(account.headers, { url: `${PUBLIC}/one`, events: ['render_run.completed'] })).status).toBe(200);
    const second = await create(account.headers, { url: `${PUBLIC}/two`, events: ['render_run.completed'] });
    expect({ status: second.status, error: second.body.error }).toEqual({ status: 409, error: expect.stringContaining('at most 1 webhook endpoints') });
    // The usage view shows the cap in force; the default shows for an account without an override.
    expect((await t.http().get('/api/accounts/me/usage').set(account.headers)).body.usage.limits.webhook_endpoints_max).toBe(1);
    expect((await t.http().get('/api/accounts/me/usage').set(other.headers)).body.usage.limits.webhook_endpoints_max).toBe(3);
    // Raised again: the next create passes.
    expect((await t.http().put(`/api/accounts/${account.account.id}/limits`).set(as.ada).send({ webhook_endpoints_max: 2 })).status).toBe(200);
    expect((await create(account.headers, { url: `${PUBLIC}/two`, events: ['render_run.completed'] })).status).toBe(200);
  });

  it('updates url, events, description and enabled; a private URL on update is refused and nothing changes', async () => {
    const { body } = await create(me.headers, { url: PUBLIC, events: ['render_run.completed'] });
    const id = body.webhook.id as string;
    const patched = await t.http().patch(`/api/webhooks/${id}`).set(me.headers).send({ url: `${PUBLIC}/v2`, events: ALL_EVENTS, description: 'new', enabled: false });
    expect(patched.status).toBe(200);
    expect(patched.body.webhook).toMatchObject({ url: `${PUBLIC}/v2`, events: ALL_EVENTS, description: 'new', enabled: false });
    const refused = await t.http().patch(`/api/webhooks/${id}`).set(me.headers).send({ url: 'https://127.0.0.1/x', enabled: true });
    expect(refused.status).toBe(400);
    expect((await t.http().get(`/api/webhooks/${id}`).set(me.headers)).body.webhook).toMatchObject({ url: `${PUBLIC}/v2`, enabled: false });
    const graph = await t.graphql('mutation($input: UpdateWebhookEndpointInput!) { updateWebhookEndpoint(input: $input) { id enabled description } }', { input: { id, enabled: true } }, me.headers);
    expect(graph.body.data.updateWebhookEndpoint).toEqual({ id, enabled: true, description: 'new' });
    await t.http().delete(`/api/webhooks/${id}`).set(me.headers).expect(200);
    expect((await t.http().get(`/api/webhooks/${id}`).set(me.headers)).status).toBe(404);
  });

  it("never shows or touches another account's endpoint, its deliveries or its receiver's answers: 404 everywhere", async () => {
    const { body } = await create(me.headers, { url: PUBLIC, events: ['render_run.completed'] });
    const id = body.webhook.id as string;
    const repo = new WebhookRepository(dbOf(t.orm.em.fork() as EntityManager));
    const delivery = await repo.insertPing(me.account.id, id, { endpointId: id });
    await repo.rows(`update webhook_deliveries set status = 'failed', last_response_excerpt = 'receiver secret answer' where id = ?`, [delivery]);
    const attempts = [
      t.http().get(`/api/webhooks/${id}`),
      t.http().patch(`/api/webhooks/${id}`).send({ enabled: false }),
      t.http().delete(`/api/webhooks/${id}`),
      t.http().post(`/api/webhooks/${id}/rotate-secret`),
      t.http().post(`/api/webhooks/${id}/ping`),
      t.http().get(`/api/webhooks/${id}/deliveries`),
      t.http().post(`/api/webhooks/${id}/deliveries/${delivery}/redeliver`),
    ];
    for (const request of attempts) {
      const res = await request.set(other.headers);
      expect({ status: res.status, body: JSON.stringify(res.body) }).toEqual({ status: 404, body: expect.not.stringContaining('receiver secret answer') });
    }
    // Personal, as API keys are: a member of the same organization does not see it either.
    const org = await createOrganization(t.orm, undefined, [me.account.id]);
    const teammate = await createAccount(t.orm, { organizations: [org.id] });
    expect((await t.http().get(`/api/webhooks/${id}`).set(teammate.headers)).status).toBe(404);
    expect((await t.http().get('/api/webhooks').set(teammate.headers)).body.webhooks).toEqual([]);
    const asGraph = await t.graphql('query($input: WebhookEndpointIdInput!) { webhookEndpoint(input: $input) { id } }', { input: { id } }, teammate.headers);
    expect(asGraph.body.errors[0].extensions.code).toBe('NOT_FOUND');
    // The delivery id of one endpoint does not redeliver through another endpoint of the same account either.
    const mine2 = (await create(me.headers, { url: PUBLIC, events: ['render_run.completed'] })).body.webhook.id as string;
    expect((await t.http().post(`/api/webhooks/${mine2}/deliveries/${delivery}/redeliver`).set(me.headers)).status).toBe(404);
    const graph = await t.graphql('query($input: WebhookDeliveriesInput!) { webhookDeliveries(input: $input) { items { lastResponseExcerpt } } }', { input: { id } }, other.headers);
    expect(graph.body.data.webhookDeliveries).toBeNull();
    expect(graph.body.errors[0].extensions.code).toBe('NOT_FOUND');
    const log = await t.http().get(`/api/webhooks/${id}/deliveries`).set(me.headers);
    expect(log.body.deliveries[0]).toMatchObject({ id: delivery, event_type: 'ping', status: 'failed', last_response_excerpt: 'receiver secret answer' });
    expect(await repo.rows('select 1 from webhook_endpoints where id = ? and enabled', [id])).toHaveLength(1);
    for (const w of [id, mine2]) await t.http().delete(`/api/webhooks/${w}`).set(me.headers).expect(200);
  });

  it('checks the address again at delivery time: a URL that resolves to 127.0.0.1 is not called, and the log says why', async () => {
    const receiver = await new WebhookReceiver().start();
    const delivery = await startDelivery(t);
    try {
      // Written directly, as if the name had resolved to a public address at registration (DNS rebinding).
      const repo = new WebhookRepository(dbOf(t.orm.em.fork() as EntityManager));
      const endpoint = await repo.insertEndpoint(me.account.id, { url: `https://localhost:${receiver.port}/hooks`, description: '', events: ALL_EVENTS, enabled: true, secret: newSigningSecret() });
      const ping = await t.http().post(`/api/webhooks/${endpoint.id}/ping`).set(me.headers);
      expect(ping.status).toBe(200);
      let row: { attempts: number; last_error: string | null } | undefined;
      const deadline = Date.now() + 20_000;
      while (Date.now() < deadline) {
        [row] = await repo.rows<{ attempts: number; last_error: string | null }>('select attempts, last_error from webhook_deliveries where id = ?', [ping.body.delivery.id]);
        if (row.attempts > 0) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(row).toMatchObject({ attempts: 1, last_error: expect.stringContaining('non-public address (loopback)') });
      expect(receiver.received).toEqual([]);
      await repo.deleteEndpoint(endpoint.id);
    } finally {
      await delivery.stop();
      await receiver.close();
    }
  });
});

describe('webhook delivery to a real receiver (http and private addresses allowed, as in a private deployment)', () => {
  let t: TestApp;
  let worker: RenderWorker;
  let delivery: WebhookDelivery;
  let receiver: WebhookReceiver;
  let repo: WebhookRepository;
  beforeAll(async () => {
    t = await createTestApp({
      env: renderEnv({
        WEBHOOK_ALLOW_HTTP: 'true',
        WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
        WEBHOOK_RETRY_SCHEDULE_S: '1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1',
        WEBHOOK_DISPATCH_INTERVAL_MS: '100',
        WEBHOOK_TIMEOUT_MS: '1500',
      }),
    });
    receiver = await new WebhookReceiver().start();
    worker = await startWorker(t, 1);
    delivery = await startDelivery(t);
    repo = new WebhookRepository(dbOf(t.orm.em.fork() as EntityManager));
  });
  afterAll(async () => {
    await delivery?.stop();
    await worker?.stop(1000);
    await receiver?.close();
    await t?.close();
  });
  beforeEach(() => {
    receiver.answer = { status: 204 };
  });

  const register = async (headers: Record<string, string>, path: string, events = ALL_EVENTS) => {
    const res = await t.http().post('/api/webhooks').set(headers).send({ url: receiver.url(path), events });
    expect(res.status).toBe(200);
    return { id: res.body.webhook.id as string, secret: res.body.secret as string };
  };
  const ofRun = (runId: string) => receiver.received.filter((r) => r.json.data?.id === runId);
  /** Each event once (at least once means a repeat is possible: receivers dedupe on webhook-id). */
  const distinct = (list: Received[]) => list.filter((r, i) => list.findIndex((o) => o.headers['webhook-id'] === r.headers['webhook-id']) === i);
  const deliveryRow = async (id: string) =>
    (await repo.rows<{ status: string; attempts: number; last_response_code: number | null; last_response_excerpt: string | null; last_error: string | null }>('select * from webhook_deliveries where id = ?', [id]))[0];
  const waitDelivery = async (id: string, test: (row: Awaited<ReturnType<typeof deliveryRow>>) => boolean) => {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const row = await deliveryRow(id);
      if (test(row)) return row;
      if (Date.now() > deadline) throw new Error(`delivery ${id} stuck: ${JSON.stringify(row)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  it('sends every state of a run, signed, in order, with the run as GET /api/tasks/runs shows it (the output link on completed)', async () => {
    const account = await createAccount(t.orm);
    const { secret } = await register(account.headers, '/runs');
    const started = await t.http().post('/api/video/render').set(account.headers).send({ compositionId: 'title-card', inputProps: { title: 'Hook' }, width: 32, height: 32, fps: 4, durationInFrames: 4 });
    expect(started.status).toBe(200);
    const runId = started.body.runId as string;
    const run = await waitForRun(t, account.headers, runId, ['COMPLETED', 'FAILED']);
    expect(run.status).toBe('COMPLETED');
    await receiver.waitFor(() => distinct(ofRun(runId)).some((r) => r.json.type === 'render_run.completed'), 'the completed event');
    const events = distinct(ofRun(runId));
    expect(events.map((r) => r.json.type)).toEqual(['render_run.queued', 'render_run.executing', 'render_run.completed']);
    for (const r of events) {
      expect(verify(secret, r)).toMatchObject({ type: r.json.type, data: { id: runId } });
      expect(r.headers['webhook-id']).toMatch(/^msg_[0-9a-f]{32}$/);
      expect(r.headers['content-type']).toBe('application/json');
    }
    const completed = events[2].json.data;
    const { output, ...rest } = run;
    expect(Object.keys(completed)).toEqual(Object.keys(run));
    expect(Object.keys(completed.output as object)).toEqual(Object.keys(output!));
    expect(completed).toMatchObject({ ...rest, output: { ...output, url: expect.stringContaining('/media/renders/'), expiresAt: expect.any(String) } });
    expect(events[0].json.data).toMatchObject({ id: runId, status: 'QUEUED', output: null });
  });

  it('sends failed (with the error) and canceled; an endpoint gets only the events it asked for, and only its own account\'s runs', async () => {
    const account = await createAccount(t.orm);
    const stranger = await createAccount(t.orm);
    const { secret } = await register(account.headers, '/ends', ['render_run.failed', 'render_run.canceled']);
    await register(stranger.headers, '/stranger');
    const em = t.orm.em.fork() as EntityManager;
    const payload = JSON.stringify({ compositionId: 'title-card', inputProps: { title: 'x' }, width: 16, height: 16, fps: 1, durationInFrames: 1, codec: 'h264' });
    const insert = async () =>
      (
        await em.getConnection().execute<{ id: string }[]>(
          `insert into render_runs (id, account_id, task_identifier, payload, created_at, updated_at) values (gen_random_uuid(), ?, 'render-video', ?::jsonb, now(), now()) returning id`,
          [account.account.id, payload],
        )
      )[0].id;
    const failing = await insert();
    await em.getConnection().execute(`update render_runs set status = 'EXECUTING', started_at = now() where id = ?`, [failing]);
    await em.getConnection().execute(`update render_runs set status = 'FAILED', error = 'ffmpeg exploded', finished_at = now() where id = ?`, [failing]);
    const canceled = await insert();
    expect((await t.http().post(`/api/tasks/runs/${canceled}/cancel`).set(account.headers)).status).toBe(200);
    await receiver.waitFor(() => distinct(ofRun(failing)).length === 1 && distinct(ofRun(canceled)).length === 1, 'failed and canceled');
    const [failed] = distinct(ofRun(failing));
    expect(failed.json).toMatchObject({ type: 'render_run.failed', data: { id: failing, status: 'FAILED', error: 'ffmpeg exploded' } });
    expect(verifies(secret, failed)).toBe(true);
    expect(distinct(ofRun(canceled))[0].json).toMatchObject({ type: 'render_run.canceled', data: { id: canceled, status: 'CANCELED' } });
    // Nothing of these runs went to the stranger's endpoint.
    expect(receiver.received.filter((r) => r.headers['webhook-id'] && [failing, canceled].includes(r.json.data?.id as string)).every((r) => verifies(secret, r))).toBe(true);
  });

  it('pings on demand; a receiver that is down gets the event once it is back, and the log shows each attempt\'s answer', async () => {
    const account = await createAccount(t.orm);
    const { id, secret } = await register(account.headers, '/flaky');
    receiver.answer = { status: 503, body: 'down for maintenance' };
    const ping = await t.http().post(`/api/webhooks/${id}/ping`).set(account.headers);
    expect(ping.status).toBe(200);
    expect(ping.body.delivery).toMatchObject({ event_type: 'ping', status: 'pending', attempts: 0 });
    const deliveryId = ping.body.delivery.id as string;
    await waitDelivery(deliveryId, (row) => row.attempts >= 2);
    const failing = (await t.http().get(`/api/webhooks/${id}/deliveries`).set(account.headers)).body.deliveries[0];
    expect(failing).toMatchObject({ id: deliveryId, status: 'pending', last_response_code: 503, last_response_excerpt: 'down for maintenance', last_error: 'answered HTTP 503' });
    expect((await t.http().get(`/api/webhooks/${id}`).set(account.headers)).body.webhook.failing_since).toEqual(expect.any(String));
    receiver.answer = { status: 200, body: 'ok' };
    const done = await waitDelivery(deliveryId, (row) => row.status === 'delivered');
    expect(done).toMatchObject({ last_response_code: 200, last_response_excerpt: 'ok', last_error: null });
    const pings = receiver.received.filter((r) => r.json.type === 'ping' && r.json.data.endpointId === id);
    expect(pings.length).toBeGreaterThanOrEqual(3);
    expect(new Set(pings.map((r) => r.headers['webhook-id'])).size).toBe(1);
    expect(pings.every((r) => verifies(secret, r))).toBe(true);
    expect((await t.http().get(`/api/webhooks/${id}`).set(account.headers)).body.webhook.failing_since).toBeNull();
    // Every attempt is in the account's usage, the failed ones too (docs/api/usage.md), counted with the attempt.
    const usage = await t.http().get('/api/accounts/me/usage').query({ granularity: 'hour' }).set(account.headers);
    expect(usage.status).toBe(200);
    expect(usage.body.usage.totals.webhook_deliveries).toBe(done.attempts);
  });

  it('connects to a host name through the addresses it was checked with (localhost, with private networks allowed)', async () => {
    const account = await createAccount(t.orm);
    const res = await t.http().post('/api/webhooks').set(account.headers).send({ url: `http://localhost:${receiver.port}/named`, events: ['render_run.completed'] });
    expect(res.status).toBe(200);
    const id = res.body.webhook.id as string;
    const deliveryId = (await t.http().post(`/api/webhooks/${id}/ping`).set(account.headers)).body.delivery.id as string;
    expect(await waitDelivery(deliveryId, (row) => row.status !== 'pending')).toMatchObject({ status: 'delivered', last_response_code: 204 });
    expect(receiver.received.filter((r) => r.json.data?.endpointId === id).map((r) => r.headers.host)).toEqual([`localhost:${receiver.port}`]);
  });

  it('redelivers an event with the same webhook-id; rotation signs with both secrets for the overlap, then only the new one', async () => {
    const account = await createAccount(t.orm);
    const { id, secret: old } = await register(account.headers, '/rotate');
    const first = (await t.http().post(`/api/webhooks/${id}/ping`).set(account.headers)).body.delivery.id as string;
    await waitDelivery(first, (row) => row.status === 'delivered');
    const rotated = await t.http().post(`/api/webhooks/${id}/rotate-secret`).set(account.headers);
    expect(rotated.status).toBe(200);
    const fresh = rotated.body.secret as string;
    expect(fresh).not.toBe(old);
    expect(rotated.body.webhook.previous_secret_expires_at).toEqual(expect.any(String));
    const again = await t.http().post(`/api/webhooks/${id}/deliveries/${first}/redeliver`).set(account.headers);
    expect(again.status).toBe(200);
    expect(again.body.delivery.id).not.toBe(first);
    await waitDelivery(again.body.delivery.id, (row) => row.status === 'delivered');
    const sent = receiver.received.filter((r) => r.json.type === 'ping' && r.json.data.endpointId === id);
    expect(sent).toHaveLength(2);
    expect(sent[1].headers['webhook-id']).toBe(sent[0].headers['webhook-id']);
    expect(sent[1].headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect([verifies(old, sent[1]), verifies(fresh, sent[1])]).toEqual([true, true]);
    expect([verifies(old, sent[0]), verifies(fresh, sent[0])]).toEqual([true, false]);
    // The overlap over: only the new secret signs.
    await repo.rows(`update webhook_endpoints set previous_secret_expires_at = now() - interval '1 second' where id = ?`, [id]);
    const late = (await t.http().post(`/api/webhooks/${id}/ping`).set(account.headers)).body.delivery.id as string;
    await waitDelivery(late, (row) => row.status === 'delivered');
    const last = receiver.received.filter((r) => r.json.type === 'ping' && r.json.data.endpointId === id).pop()!;
    expect([verifies(old, last), verifies(fresh, last)]).toEqual([false, true]);
  });

  it('follows no redirect, keeps only the first bytes of an answer, gives up on a silent receiver after the timeout', async () => {
    const account = await createAccount(t.orm);
    const { id } = await register(account.headers, '/odd');
    const attempt = async (answer: WebhookReceiver['answer']) => {
      receiver.answer = answer;
      const deliveryId = (await t.http().post(`/api/webhooks/${id}/ping`).set(account.headers)).body.delivery.id as string;
      const row = await waitDelivery(deliveryId, (r) => r.attempts >= 1);
      await repo.rows(`update webhook_deliveries set status = 'failed' where id = ?`, [deliveryId]);
      return row;
    };
    const before = receiver.received.length;
    const redirected = await attempt({ status: 302, headers: { location: receiver.url('/elsewhere') } });
    expect(redirected).toMatchObject({ last_response_code: 302, last_error: 'answered HTTP 302' });
    expect(receiver.received.slice(before).filter((r) => r.headers.host && r.json.type === 'ping')).toHaveLength(1);
    const long = await attempt({ status: 500, body: Buffer.concat([Buffer.from('a\u0000b'), Buffer.alloc(100_000, 'x')]) });
    expect(long.last_response_code).toBe(500);
    expect(Buffer.byteLength(long.last_response_excerpt!)).toBeLessThanOrEqual(RESPONSE_EXCERPT_BYTES + 3);
    expect(long.last_response_excerpt!.startsWith('a\uFFFDb')).toBe(true);
    const silent = await attempt('hang');
    expect(silent).toMatchObject({ last_response_code: null, last_error: 'no answer within 1500 ms' });
  });

  it(`keeps the newest ${WEBHOOK_LOG_PER_ENDPOINT} finished deliveries per endpoint (and drops the events nothing names any more)`, async () => {
    const account = await createAccount(t.orm);
    const { id } = await register(account.headers, '/bounded');
    for (let i = 0; i < WEBHOOK_LOG_PER_ENDPOINT + 5; i += 1) {
      const old = await repo.insertPing(account.account.id, id, { endpointId: id, n: i });
      await repo.rows(`update webhook_deliveries set status = 'delivered', enqueued_at = now(), created_at = now() - interval '1 hour' where id = ?`, [old]);
    }
    const latest = (await t.http().post(`/api/webhooks/${id}/ping`).set(account.headers)).body.delivery.id as string;
    await waitDelivery(latest, (row) => row.status === 'delivered');
    const [{ n }] = await repo.rows<{ n: number }>('select count(*)::int as n from webhook_deliveries where endpoint_id = ?', [id]);
    expect(n).toBe(WEBHOOK_LOG_PER_ENDPOINT);
    const [{ orphans }] = await repo.rows<{ orphans: number }>(
      'select count(*)::int as orphans from webhook_events e where e.account_id = ? and not exists (select 1 from webhook_deliveries d where d.event_id = e.id)',
      [account.account.id],
    );
    expect(orphans).toBe(0);
    const page = await t.http().get(`/api/webhooks/${id}/deliveries`).query({ limit: 100, page: 2 }).set(account.headers);
    expect(page.body.pagination).toMatchObject({ total_count: WEBHOOK_LOG_PER_ENDPOINT, page: 2, limit: 100, total_pages: 2 });
    // Deleting the endpoint takes its log and its events.
    await t.http().delete(`/api/webhooks/${id}`).set(account.headers).expect(200);
    expect(await repo.rows('select 1 from webhook_events where account_id = ?', [account.account.id])).toEqual([]);
  });

  it('disables an endpoint whose deliveries failed for WEBHOOK_DISABLE_AFTER_S (3 days) without a success, and says why; enabling clears it', async () => {
    const account = await createAccount(t.orm);
    const { id } = await register(account.headers, '/dead');
    await repo.rows(`update webhook_endpoints set failing_since = now() - interval '3 days 1 minute' where id = ?`, [id]);
    receiver.answer = { status: 410, body: 'gone' };
    const deliveryId = (await t.http().post(`/api/webhooks/${id}/ping`).set(account.headers)).body.delivery.id as string;
    await waitDelivery(deliveryId, (row) => row.attempts >= 1);
    const endpoint = (await t.http().get(`/api/webhooks/${id}`).set(account.headers)).body.webhook;
    expect(endpoint).toMatchObject({ enabled: false, disabled_reason: expect.stringContaining('answered HTTP 410'), disabled_at: expect.any(String) });
    // A run event is no longer made for it while disabled.
    const em = t.orm.em.fork() as EntityManager;
    await em.getConnection().execute(
      `insert into render_runs (id, account_id, task_identifier, payload, created_at, updated_at) values (gen_random_uuid(), ?, 'render-video', ?::jsonb, now(), now())`,
      [account.account.id, JSON.stringify({ compositionId: 'title-card', inputProps: {}, width: 16, height: 16, fps: 1, durationInFrames: 1, codec: 'h264' })],
    );
    expect(await repo.rows('select 1 from webhook_deliveries where endpoint_id = ? and run_id is not null', [id])).toEqual([]);
    const enabled = await t.http().patch(`/api/webhooks/${id}`).set(account.headers).send({ enabled: true });
    expect(enabled.body.webhook).toMatchObject({ enabled: true, disabled_reason: null, failing_since: null });
  });
});

describe('webhook delivery from worker processes: one killed mid-attempt, two API and two worker instances', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  const children: ChildProcess[] = [];
  const workerEnv = {
    WEBHOOK_ALLOW_HTTP: 'true',
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    WEBHOOK_RETRY_SCHEDULE_S: '1,1,1,1,1,1,1,1,1,1',
    WEBHOOK_DISPATCH_INTERVAL_MS: '100',
    WEBHOOK_TIMEOUT_MS: '1000',
  };
  beforeAll(async () => {
    t = await createTestApp({ env: renderEnv({ ...workerEnv, RENDER_MAINTENANCE_INTERVAL_S: '1' }) });
    receiver = await new WebhookReceiver().start();
  });
  afterAll(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await receiver?.close();
    await t?.close();
  });

  const spawn = () => {
    const child = spawnWorker(t, { ...workerEnv, RENDER_MAINTENANCE_INTERVAL_S: '1' });
    children.push(child);
    return child;
  };
  const exited = (child: ChildProcess) => new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())));

  it('delivers after the worker holding the attempt is killed, and every run state once or more from 2 API + 2 worker instances', async () => {
    const account = await createAccount(t.orm);
    const created = await t.http().post('/api/webhooks').set(account.headers).send({ url: receiver.url('/workers'), events: ALL_EVENTS });
    const { id, secret } = { id: created.body.webhook.id as string, secret: created.body.secret as string };

    // A worker takes the ping and hangs on the receiver; it is killed mid-attempt.
    receiver.answer = 'hang';
    const doomed = spawn();
    const ping = (await t.http().post(`/api/webhooks/${id}/ping`).set(account.headers)).body.delivery.id as string;
    await receiver.waitFor(() => receiver.received.some((r) => r.json.type === 'ping'), 'the first attempt', 60_000);
    doomed.kill('SIGKILL');
    await exited(doomed);
    receiver.answer = { status: 204 };

    // Two API instances start runs; two other workers render them and deliver.
    const second = await secondInstance(t);
    try {
      spawn();
      spawn();
      const apis = [t, { http: () => supertest(second.app.server) }];
      const runIds: string[] = [];
      for (let i = 0; i < 4; i += 1) {
        const res = await apis[i % 2].http().post('/api/video/render').set(account.headers).send({ compositionId: 'title-card', inputProps: { title: `W${i}` }, width: 16, height: 16, fps: 2, durationInFrames: 2 });
        expect(res.status).toBe(200);
        runIds.push(res.body.runId as string);
      }
      for (const runId of runIds) expect((await waitForRun(t, account.headers, runId, ['COMPLETED', 'FAILED'], 90_000)).status).toBe('COMPLETED');
      const states = (runId: string) => distinctIds(receiver.received.filter((r) => r.json.data?.id === runId)).map((r) => r.json.type);
      await receiver.waitFor(() => runIds.every((runId) => states(runId).includes('render_run.completed')), 'every run completed', 60_000);
      for (const runId of runIds) expect(states(runId)).toEqual(['render_run.queued', 'render_run.executing', 'render_run.completed']);
      expect(receiver.received.filter((r) => r.json.type !== 'ping').every((r) => verifies(secret, r))).toBe(true);

      // The ping the killed worker held was delivered by another (its job expired and ran again).
      const repo = new WebhookRepository(dbOf(t.orm.em.fork() as EntityManager));
      const deadline = Date.now() + 60_000;
      let status = '';
      while (Date.now() < deadline && status !== 'delivered') {
        status = (await repo.delivery(ping))!.status;
        if (status !== 'delivered') await new Promise((r) => setTimeout(r, 200));
      }
      expect(status).toBe('delivered');
      const pings = receiver.received.filter((r) => r.json.type === 'ping');
      expect(pings.length).toBeGreaterThanOrEqual(2);
      expect(new Set(pings.map((r) => r.headers['webhook-id'])).size).toBe(1);
      expect(pings.every((r) => verifies(secret, r))).toBe(true);
    } finally {
      await second.close();
    }
  });
});

const distinctIds = (list: Received[]) => list.filter((r, i) => list.findIndex((o) => o.headers['webhook-id'] === r.headers['webhook-id']) === i);
