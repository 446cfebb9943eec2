import type { Db } from '../db/request-db';
import { AccessPolicy } from './access';
import { AccountKind, Viewer } from './viewer';

/** A policy whose database fails any statement: what these answer, they answer from the viewer alone. */
const noDatabase = () => new AccessPolicy({} as Db);

const nora: Viewer = {
  accountId: '00000000-0000-4000-8000-000000000001',
  kind: AccountKind.person,
  name: 'Nora',
  email: null,
  organizationIds: ['00000000-0000-4000-8000-000000000002'],
  isAdmin: false,
  via: 'api_key',
};

describe('AccessPolicy without a statement', () => {
  it("reaches the caller's own scope (itself, its organizations) without asking the database", async () => {
    const policy = noDatabase();
    await expect(policy.canAccessAccountBatched(nora, nora.accountId)).resolves.toBe(true);
    await expect(policy.canAccessAccountBatched(nora, nora.organizationIds[0])).resolves.toBe(true);
    await expect(policy.accessibleAccountIds(nora, [nora.accountId, ...nora.organizationIds])).resolves.toEqual(new Set([nora.accountId, ...nora.organizationIds]));
    await expect(policy.requireAccess(nora, { account: undefined })).resolves.toBe(nora.accountId);
  });

  it('answers organization questions from the viewer: a member, the organization itself, or an admin', async () => {
    const policy = noDatabase();
    const other = '00000000-0000-4000-8000-000000000003';
    await expect(policy.requireAccess(nora, { organization: nora.organizationIds[0] })).resolves.toBe(nora.organizationIds[0]);
    await expect(policy.mayAccess(nora, { organization: other })).resolves.toBe(false);
    await expect(policy.requireAccess(nora, { organization: other })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(policy.requireAccess({ ...nora, isAdmin: true }, { organization: other })).resolves.toBe(other);
    await expect(policy.requireAccess(nora, { organization: 'x', field: 'id' })).rejects.toMatchObject({ code: 'BAD_USER_INPUT', details: [{ field: 'id', message: 'must be a UUID' }] });
  });
});
