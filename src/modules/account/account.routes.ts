import { z } from 'zod';
import type { RestRoute } from '../../http/rest/route';
import { addMemberInput, organizationName, removeMemberInput } from './account.inputs';

export const accountRoutes: RestRoute[] = [
  { operation: 'Query.me', method: 'GET', path: '/accounts/me', tags: ['accounts'] },
  { operation: 'Query.organizations', method: 'GET', path: '/organizations', tags: ['organizations'] },
  {
    operation: 'Mutation.createOrganization',
    method: 'POST',
    path: '/organizations',
    tags: ['organizations'],
    input: z.object({ name: organizationName }),
  },
  {
    operation: 'Mutation.addOrganizationMember',
    method: 'POST',
    path: '/organizations/:id/members',
    tags: ['organizations'],
    input: addMemberInput,
  },
  {
    operation: 'Mutation.removeOrganizationMember',
    method: 'DELETE',
    path: '/organizations/:id/members/:accountId',
    tags: ['organizations'],
    input: removeMemberInput,
  },
];
