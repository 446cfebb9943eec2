import { createTestApp, TestApp } from '../../../test/app';
import { as, DEMO } from '../../../test/demo';
import { createAccount } from '../../../test/factories';
import { AddOrganizationMemberDocument } from '../../../test/generated/graphql';

describe('organization membership (/api/organizations/:id/members)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const add = (headers: Record<string, string>, org: string, accountId: unknown) =>
    t.http().post(`/api/organizations/${org}/members`).set(headers).send({ account_id: accountId });
  const remove = (headers: Record<string, string>, org: string, accountId: string) =>
    t.http().delete(`/api/organizations/${org}/members/${accountId}`).set(headers);

  it('lets a member add an account (idempotently), which then belongs to the organization', async () => {
    const newcomer = await createAccount(t.orm, { name: 'Aaron Newcomer' });
    const res = await add(as.nora, DEMO.northwind, newcomer.account.id);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      status: 'success',
      organization: { id: DEMO.northwind, name: 'Northwind Records', created_at: expect.any(String) },
      members: [
        { id: newcomer.account.id, name: 'Aaron Newcomer', kind: 'person' },
        { id: DEMO.liam, name: 'Liam Lane', kind: 'person' },
        { id: DEMO.nora, name: 'Nora North', kind: 'person' },
      ],
    });
    const again = await add(as.nora, DEMO.northwind, newcomer.account.id);
    expect(again.body).toEqual(res.body);
    const me = await t.http().get('/api/accounts/me').set(newcomer.headers);
    expect(me.body.account.organizations).toEqual([{ id: DEMO.northwind, name: 'Northwind Records' }]);

    const removed = await remove(as.nora, DEMO.northwind, newcomer.account.id);
    expect(removed.status).toBe(200);
    expect(removed.body.members.map((m: { id: string }) => m.id)).toEqual([DEMO.liam, DEMO.nora]);
    expect((await t.http().get('/api/accounts/me').set(newcomer.headers)).body.account.organizations).toEqual([]);
    expect((await remove(as.nora, DEMO.northwind, newcomer.account.id)).status).toBe(404);
  });

  it('refuses accounts outside the organization (403), but not admins', async () => {
    const newcomer = await createAccount(t.orm);
    for (const res of [await add(as.sam, DEMO.northwind, newcomer.account.id), await remove(as.sam, DEMO.northwind, DEMO.liam), await add(as.otto, DEMO.northwind, DEMO.otto)]) {
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('FORBIDDEN');
    }
    expect((await t.http().get('/api/accounts/me').set(as.otto)).body.account.organizations).toEqual([]);
    const byAdmin = await add(as.ada, DEMO.southside, newcomer.account.id);
    expect(byAdmin.status).toBe(200);
    expect(byAdmin.body.members.map((m: { id: string }) => m.id)).toContain(newcomer.account.id);
    expect((await remove(as.ada, DEMO.southside, newcomer.account.id)).status).toBe(200);
  });

  it('answers 404 for an unknown account or organization, and 400 naming a bad field', async () => {
    expect((await add(as.nora, DEMO.northwind, '00000000-0000-4000-8000-00000000ffff')).status).toBe(404);
    expect((await add(as.ada, '00000000-0000-4000-8000-00000000ffff', DEMO.otto)).status).toBe(404);
    expect((await add(as.ada, DEMO.otto, DEMO.nora)).status).toBe(404);
    const self = await add(as.nora, DEMO.northwind, DEMO.northwind);
    expect(self.status).toBe(400);
    expect(self.body.details).toEqual([{ field: 'account_id', message: expect.any(String) }]);
    expect((await add(as.nora, DEMO.northwind, 'nope')).body.details).toEqual([{ field: 'account_id', message: 'must be a UUID' }]);
    expect((await add(as.nora, 'nope', DEMO.otto)).body.details).toEqual([{ field: 'id', message: 'must be a UUID' }]);
    expect((await add(as.nora, DEMO.northwind, undefined)).body.details).toEqual([{ field: 'account_id', message: 'is required' }]);
    expect((await remove(as.nora, DEMO.northwind, 'nope')).body.details).toEqual([{ field: 'accountId', message: 'must be a UUID' }]);
  });

  it('is the same operation on GraphQL', async () => {
    const newcomer = await createAccount(t.orm);
    const res = await t.graphql(AddOrganizationMemberDocument, { id: DEMO.southside, account_id: newcomer.account.id }, as.sam);
    expect(res.body.data.addOrganizationMember.members.map((m: { id: string }) => m.id)).toContain(newcomer.account.id);
    const refused = await t.graphql(AddOrganizationMemberDocument, { id: DEMO.southside, account_id: newcomer.account.id }, as.nora);
    expect(refused.body.errors[0].extensions.code).toBe('FORBIDDEN');
  });
});
