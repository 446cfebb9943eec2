import type { RestRoute } from '../../http/rest/route';
import { createApiKeyInput, revokeApiKeyInput, signupInput, verifyInput } from './auth.inputs';

/** Keys are personal (rule 4): the account always comes from the credentials. */
const personal = { account_id: 'must not be sent: API keys are personal, the account comes from your credentials' };

export const authRoutes: RestRoute[] = [
  { operation: 'Mutation.signupAgent', method: 'POST', path: '/agents/signup', public: true, tags: ['onboarding'], input: signupInput, errors: ['RATE_LIMITED'] },
  { operation: 'Mutation.verifyAgent', method: 'POST', path: '/agents/verify', public: true, tags: ['onboarding'], input: verifyInput, errors: ['RATE_LIMITED'] },
  { operation: 'Query.apiKeys', method: 'GET', path: '/keys', tags: ['keys'], refusedFields: personal },
  { operation: 'Mutation.createApiKey', method: 'POST', path: '/keys', tags: ['keys'], input: createApiKeyInput, refusedFields: personal, errors: ['CONFLICT'] },
  { operation: 'Mutation.revokeApiKey', method: 'DELETE', path: '/keys/:id', tags: ['keys'], input: revokeApiKeyInput, refusedFields: personal },
];
