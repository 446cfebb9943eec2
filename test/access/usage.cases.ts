import type { AccessCases } from './registry';

/** Usage is the caller's own: the route takes no account_id (the harness checks the 400 naming it, then expects the caller's own answer). */
export const cases: AccessCases = {
  'GET /api/accounts/me/usage': {},
};
