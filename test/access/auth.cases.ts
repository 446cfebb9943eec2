import { AuthRepository } from '../../src/modules/auth/auth.repository';
import { issueVerificationCode } from '../../src/modules/auth/onboarding.service';
import type { EntityManager } from '@mikro-orm/postgresql';
import { createApiKeyFor } from '../factories';
import type { AccessCases } from './registry';
import { dbOf } from '../../src/db/request-db';

/** API keys are personal: every /api/keys route refuses account_id. */
const refusesAccountId = { 'same-org account_id': 400, 'other-org account_id': 400, 'admin account_id': 400 } as const;

export const cases: AccessCases = {
  'POST /api/agents/signup': { request: (s) => ({ body: { email: `matrix-${s.unique}@example.test` } }) },
  'POST /api/agents/verify': {
    request: async (s) => {
      const email = `matrix-${s.unique}@example.test`;
      return { body: { email, code: await issueVerificationCode(new AuthRepository(dbOf(s.t.orm.em.fork() as EntityManager)), email) } };
    },
  },
  'GET /api/keys': { expect: refusesAccountId },
  'POST /api/keys': { request: (s) => ({ body: { name: `key ${s.unique}` } }), expect: refusesAccountId },
  'DELETE /api/keys/:id': {
    request: async (s) => ({ path: `/api/keys/${(await createApiKeyFor(s.t.orm, s.callerId)).id}` }),
    expect: refusesAccountId,
  },
};
