import { createOrganization } from '../factories';
import type { AccessCases, Situation } from './registry';

/** A fresh account with a pending invitation to the organization (written directly, as setup). */
async function invitee(s: Situation, organizationId: string): Promise<string> {
  const fresh = await s.freshAccount();
  await s.t.orm.em.getConnection().execute(
    `insert into organization_invitations (id, created_at, updated_at, organization_id, account_id, invited_by_id)
     values (gen_random_uuid(), now(), now(), ?, ?, null)`,
    [organizationId, fresh.id],
  );
  return fresh.id;
}

const membersPath = (s: Situation) => `/api/organizations/${s.organizationId}/members`;

export const cases: AccessCases = {
  'GET /api/accounts/me': {},
  'GET /api/organizations': {},
  'POST /api/organizations': { request: (s) => ({ body: { name: `Org ${s.unique}` } }) },
  // Members invite (admins add directly); an account adds only itself, and only when invited.
  'POST /api/organizations/:id/members': {
    placesIds: true,
    organizationId: true,
    request: async (s) => {
      switch (s.case) {
        // Bob is already a member of A: idempotent.
        case 'same-org account_id':
          return { path: membersPath(s), body: { account_id: s.accountId } };
        // Alice invites Carol to A: a pending invitation only; the GraphQL reach cases below still
        // find Carol's rows out of Alice's reach.
        case 'other-org account_id':
          return { path: membersPath(s), body: { account_id: s.accountId } };
        // Alice adds herself to B without an invitation.
        case 'non-member organization_id':
          return { path: membersPath(s), body: { account_id: s.callerId } };
        default:
          return { path: membersPath(s), body: { account_id: (await s.freshAccount()).id } };
      }
    },
  },
  // Members remove members and revoke invitations; someone neither member nor invited is a 404.
  'DELETE /api/organizations/:id/members/:accountId': {
    placesIds: true,
    organizationId: true,
    request: async (s) => {
      switch (s.case) {
        // An account neither a member of A nor invited to it (not Carol: the POST cases invite her).
        case 'other-org account_id':
          return { path: `${membersPath(s)}/${(await s.freshAccount()).id}` };
        // Alice declines an invitation to B she does not have: a non-member, so 403.
        case 'non-member organization_id':
          return { path: `${membersPath(s)}/${s.callerId}` };
        // Revoking a pending invitation (Alice in A, Dave as admin in B).
        case 'own account via JWT':
        case 'admin account_id':
          return { path: `${membersPath(s)}/${await invitee(s, s.organizationId)}` };
        default:
          return { path: `${membersPath(s)}/${(await s.freshAccount([s.organizationId])).id}` };
      }
    },
    expect: { 'other-org account_id': 404 },
  },
  // Members (and admins) delete an organization: each case deletes a fresh one, the caller's own
  // except for "non-member organization_id" (Carol's, 403) and "admin account_id" (Carol's, Dave deletes it).
  'DELETE /api/organizations/:id': {
    placesIds: true,
    organizationId: true,
    request: async (s) => {
      const outsider = s.case === 'non-member organization_id' || s.case === 'admin account_id';
      const org = await createOrganization(s.t.orm, `Doomed ${s.unique}`, [outsider ? s.world.carol.account.id : s.callerId]);
      return { path: `/api/organizations/${org.id}` };
    },
  },
};
