import type { EntityManager } from '@mikro-orm/postgresql';
import { createTestApp, TestApp } from '../../test/app';
import { DEMO } from '../../test/demo';
import { AccessPolicy } from './access';
import type { Viewer } from './viewer';
import { dbOf } from '../db/request-db';

/** The access rules of docs/api/auth.md ("Who may act on which account") and decisions §3 (docs/decisions.md), on the demo data set. */
describe('AccessPolicy', () => {
  let t: TestApp;
  let policy: AccessPolicy;
  const viewers: Record<string, Viewer> = {};
  beforeAll(async () => {
    t = await createTestApp();
    const db = dbOf(t.orm.em.fork() as EntityManager);
    policy = new AccessPolicy(db);
    for (const name of ['ada', 'nora', 'sam', 'otto'] as const) viewers[name] = await t.deps.authenticator.viewerFor(db, DEMO[name], 'api_key');
  });
  afterAll(async () => {
    await t.close();
  });

  it('reaches own data, the organization, its members and its roster artists; nothing else', async () => {
    const reach = async (viewer: string, ids: string[]) => Promise.all(ids.map((id) => policy.canAccessAccount(viewers[viewer], id)));
    expect(await reach('otto', [DEMO.otto, DEMO.nora, DEMO.northwind, DEMO.luna])).toEqual([true, false, false, false]);
    expect(await reach('nora', [DEMO.nora, DEMO.northwind, DEMO.liam, DEMO.luna, DEMO.owls])).toEqual([true, true, true, true, true]);
    expect(await reach('nora', [DEMO.sam, DEMO.southside, DEMO.kai, DEMO.ada, DEMO.adminOrg, 'not-a-uuid'])).toEqual([false, false, false, false, false, false]);
    expect(await reach('sam', [DEMO.kai, DEMO.nora])).toEqual([true, false]);
    expect(await reach('ada', [DEMO.otto, DEMO.kai, DEMO.southside])).toEqual([true, true, true]);
  });

  it('resolves account_id: own by default, reachable ones, 403 otherwise, 400 when malformed', async () => {
    await expect(policy.requireAccess(viewers.nora, { account: undefined })).resolves.toBe(DEMO.nora);
    await expect(policy.requireAccess(viewers.nora, { account: DEMO.liam })).resolves.toBe(DEMO.liam);
    await expect(policy.requireAccess(viewers.nora, { account: DEMO.sam })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(policy.requireAccess(viewers.otto, { account: DEMO.nora })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(policy.requireAccess(viewers.ada, { account: DEMO.sam })).resolves.toBe(DEMO.sam);
    await expect(policy.requireAccess(viewers.nora, { account: 'x' })).rejects.toMatchObject({ code: 'BAD_USER_INPUT', details: [{ field: 'account_id', message: 'must be a UUID' }] });
  });

  it('allows organization_id to members, the organization itself and admins only', async () => {
    await expect(policy.requireAccess(viewers.nora, { organization: DEMO.northwind })).resolves.toBe(DEMO.northwind);
    await expect(policy.requireAccess(viewers.nora, { organization: DEMO.southside })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(policy.requireAccess(viewers.otto, { organization: DEMO.northwind })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(policy.requireAccess(viewers.ada, { organization: DEMO.southside })).resolves.toBe(DEMO.southside);
    await expect(policy.requireAccess({ ...viewers.otto, accountId: DEMO.southside }, { organization: DEMO.southside })).resolves.toBe(DEMO.southside);
    await expect(policy.requireAccess(viewers.nora, { organization: 'x' })).rejects.toMatchObject({ code: 'BAD_USER_INPUT', details: [{ field: 'organization_id', message: 'must be a UUID' }] });
  });

  it('knows an artist on an owner\'s own roster (the organization adds it to its members directly)', async () => {
    expect(await policy.isOnRoster(DEMO.northwind, DEMO.luna)).toBe(true);
    expect(await policy.isOnRoster(DEMO.nora, DEMO.luna)).toBe(false);
    expect(await policy.isOnRoster(DEMO.southside, DEMO.luna)).toBe(false);
  });
});
