import type { AccessCases } from './registry';

export const cases: AccessCases = {
  'GET /api/accounts/me': {},
  'GET /api/organizations': {},
  'POST /api/organizations': { request: (s) => ({ body: { name: `Org ${s.unique}` } }) },
  // The organization is the path segment; the account to add is a fresh one every time.
  'POST /api/organizations/:id/members': {
    placesIds: true,
    organizationId: true,
    request: async (s) => ({ path: `/api/organizations/${s.organizationId}/members`, body: { account_id: (await s.freshAccount()).id } }),
  },
  'DELETE /api/organizations/:id/members/:accountId': {
    placesIds: true,
    organizationId: true,
    request: async (s) => ({ path: `/api/organizations/${s.organizationId}/members/${(await s.freshAccount([s.organizationId])).id}` }),
  },
};
