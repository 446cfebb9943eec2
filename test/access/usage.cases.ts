import type { AccessCases } from './registry';

const limitsPath = (s: { accountId?: string; callerId: string }) => `/api/accounts/${s.accountId ?? s.callerId}/limits`;

/**
 * Usage is the caller's own: the route takes no account_id (the harness checks the 400 naming it,
 * then expects the caller's own answer). Limits: an admin or the account itself reads them, only an
 * admin sets them (Dave, in the admin organization, on Carol's account).
 */
export const cases: AccessCases = {
  'GET /api/accounts/me/usage': {},
  'GET /api/accounts/:accountId/limits': {
    placesIds: true,
    accountId: true,
    request: (s) => ({ path: limitsPath(s) }),
    expect: { 'same-org account_id': 403 },
  },
  'PUT /api/accounts/:accountId/limits': {
    placesIds: true,
    accountId: true,
    // The whole set, empty: the account keeps the defaults (nothing a later case depends on).
    request: (s) => ({ path: limitsPath(s), body: {} }),
    expect: { 'own account': 403, 'own account via JWT': 403, 'same-org account_id': 403, 'non-member organization_id': 403 },
  },
};
