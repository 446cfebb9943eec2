import { z } from 'zod';
import type { OperationSpecs } from '../../common/operations';
import { addMemberInput, organizationName, removeMemberInput } from './account.inputs';

/** The zod schema each operation's input is parsed with (its service validates with the same one), by root field. */
export const accountOperations: OperationSpecs = {
  'Mutation.createOrganization': { input: z.object({ name: organizationName }) },
  'Mutation.addOrganizationMember': { input: addMemberInput },
  'Mutation.removeOrganizationMember': { input: removeMemberInput },
};
