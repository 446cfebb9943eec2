import { createTestApp, TestApp } from './app';
import { createAccount, createApiKeyFor, createOrganization } from './factories';
import { renderEnv, secondInstance, startWorker, waitForRun } from './support/render';
import { watchRun, within, wsClient } from './support/live';
import type { RenderWorker } from '../src/modules/render/render.worker';

const TINY = { compositionId: 'title-card', inputProps: { title: 'Standing' }, width: 16, height: 16, durationInFrames: 5 };

type ErrorLike = { message?: string; extensions?: { code?: string } };
const codes = (errors: unknown[]) =>
  errors.flatMap((e) => (Array.isArray(e) ? (e as ErrorLike[]) : [e as ErrorLike])).map((e) => e.extensions?.code ?? String((e as Error).message ?? e));

describe.each(['5000', '0'])('a standing renderRun subscription is re-checked when its viewer changes (every instance; AUTH_CACHE_TTL_MS=%s)', (ttl) => {
  let t: TestApp;
  const workers: RenderWorker[] = [];
  beforeAll(async () => {
    t = await createTestApp({ env: renderEnv({ AUTH_CACHE_TTL_MS: ttl }) });
  });
  afterAll(async () => {
    for (const w of workers) await w.stop(1000);
    await t.close();
  });

  /** Owner's account renders; the member reaches the run through the organization they share. */
  async function sharedRun() {
    const owner = await createAccount(t.orm);
    const member = await createAccount(t.orm);
    const org = await createOrganization(t.orm, undefined, [owner.account.id, member.account.id]);
    const started = await t.http().post('/api/video/render').set(owner.headers).send(TINY);
    expect(started.status).toBe(200);
    const runId = started.body.runId as string;
    // The member reaches it before anything changes.
    expect((await t.http().get('/api/tasks/runs').query({ runId }).set(member.headers)).status).toBe(200);
    return { owner, member, org, runId };
  }

  it('ends with NOT_FOUND when the subscriber is removed from the organization, and never sends the COMPLETED link', async () => {
    const { owner, member, org, runId } = await sharedRun();
    // Subscribed on another instance: the removal is heard there through viewer_changes.
    const other = await secondInstance(t);
    const client = wsClient(other.port, member.headers);
    try {
      const live = watchRun(client, runId);
      await within(live.first, 10_000, 'first state');
      expect(live.states[0]).toMatchObject({ id: runId, status: 'QUEUED' });
      const removed = await t.http().delete(`/api/organizations/${org.id}/members/${member.account.id}`).set(owner.headers);
      expect(removed.status).toBe(200);
      await within(live.done, 10_000, 'the subscription ends');
      expect(codes(live.errors)).toEqual(['NOT_FOUND']);
      // The run completes; the ex-member was sent no link.
      workers.push(await startWorker(t));
      const done = await waitForRun(t, owner.headers, runId, ['COMPLETED']);
      expect(done.output?.url).toEqual(expect.any(String));
      expect(live.states.filter((s) => s.status === 'COMPLETED' || s.output)).toEqual([]);
    } finally {
      await client.dispose();
      await other.close();
      for (const w of workers.splice(0)) await w.stop(1000);
    }
  });

  it('ends with UNAUTHENTICATED when the subscriber\'s API key is revoked, and never sends the COMPLETED link', async () => {
    const { owner, member, runId } = await sharedRun();
    const extra = await createApiKeyFor(t.orm, member.account.id);
    const other = await secondInstance(t);
    const client = wsClient(other.port, extra.headers);
    try {
      const live = watchRun(client, runId);
      await within(live.first, 10_000, 'first state');
      expect((await t.http().delete(`/api/keys/${extra.id}`).set(member.headers)).status).toBe(200);
      await within(live.done, 10_000, 'the subscription ends');
      expect(codes(live.errors)).toEqual(['UNAUTHENTICATED']);
      workers.push(await startWorker(t));
      await waitForRun(t, owner.headers, runId, ['COMPLETED']);
      expect(live.states.filter((s) => s.status === 'COMPLETED' || s.output)).toEqual([]);
    } finally {
      await client.dispose();
      await other.close();
      for (const w of workers.splice(0)) await w.stop(1000);
    }
  });

  it('ends with NOT_FOUND when the run\'s owner leaves the organization they shared', async () => {
    const { owner, member, org, runId } = await sharedRun();
    const client = wsClient(await listening(t), member.headers);
    try {
      const live = watchRun(client, runId);
      await within(live.first, 10_000, 'first state');
      // The member is untouched; the owner's membership ends (announced for the owner's account).
      await t.orm.em.getConnection().execute('delete from memberships where organization_id = ? and member_id = ?', [org.id, owner.account.id]);
      await within(live.done, 10_000, 'the subscription ends');
      expect(codes(live.errors)).toEqual(['NOT_FOUND']);
      workers.push(await startWorker(t));
      await waitForRun(t, owner.headers, runId, ['COMPLETED']);
      expect(live.states.filter((s) => s.output)).toEqual([]);
    } finally {
      await client.dispose();
      for (const w of workers.splice(0)) await w.stop(1000);
    }
  });

  it('a subscriber who keeps reach gets every state and the link', async () => {
    const { owner, member, runId } = await sharedRun();
    const client = wsClient(await listening(t), member.headers);
    try {
      const live = watchRun(client, runId);
      await within(live.first, 10_000, 'first state');
      // A change to the account that keeps its reach (another key) is checked and changes nothing.
      await createApiKeyFor(t.orm, member.account.id, 'another');
      workers.push(await startWorker(t));
      await waitForRun(t, owner.headers, runId, ['COMPLETED']);
      await within(live.done, 10_000, 'the subscription ends');
      expect(live.errors).toEqual([]);
      expect(live.states.at(-1)).toMatchObject({ status: 'COMPLETED', output: { url: expect.stringContaining(runId) } });
    } finally {
      await client.dispose();
      for (const w of workers.splice(0)) await w.stop(1000);
    }
  });
});

async function listening(t: TestApp): Promise<number> {
  if (!t.app.server.listening) await new Promise<void>((resolve) => t.app.server.listen(0, '127.0.0.1', resolve));
  return (t.app.server.address() as { port: number }).port;
}
