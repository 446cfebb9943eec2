import type { OperationSpecs } from '../../common/operations';
import { addMemberInput, createOrganizationInput, deleteOrganizationInput, removeMemberInput } from './account.inputs';

/** The zod schema each operation's input is parsed with (its resolver validates with this one, once), by root field. */
export const accountOperations: OperationSpecs = {
  'Mutation.createOrganization': { input: createOrganizationInput },
  'Mutation.addOrganizationMember': { input: addMemberInput },
  'Mutation.removeOrganizationMember': { input: removeMemberInput },
  'Mutation.deleteOrganization': { input: deleteOrganizationInput },
};
