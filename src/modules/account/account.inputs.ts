import { z } from 'zod';
import { limitArg, pageArg, uuid } from '../../common/validation';

export const organizationName = z
  .string()
  .trim()
  .min(1, { message: 'must not be empty' })
  .max(200, { message: 'must be at most 200 characters' })
  .describe('Organization name, 1 to 200 characters');

export const addMemberInput = z.object({
  id: uuid().describe('The organization'),
  account_id: uuid().describe('The account to add as a member'),
});

export const removeMemberInput = z.object({
  id: uuid().describe('The organization'),
  accountId: uuid().describe('The member to remove'),
});

export const deleteOrganizationInput = z.object({
  id: uuid().describe('The organization to delete'),
});

export const createOrganizationInput = z.object({ name: organizationName });

export type CreateOrganizationInput = z.output<typeof createOrganizationInput>;
export type AddMemberInput = z.output<typeof addMemberInput>;
export type RemoveMemberInput = z.output<typeof removeMemberInput>;
export type DeleteOrganizationInput = z.output<typeof deleteOrganizationInput>;

/** Organizations one page answers by default, and at most (Query.organizations, GET /api/organizations). */
export const ORGANIZATIONS_PAGE_DEFAULT = 100;
export const ORGANIZATIONS_PAGE_MAX = 500;
export const organizationsInput = z.object({
  page: pageArg().describe('Page number, from 1'),
  limit: limitArg(ORGANIZATIONS_PAGE_MAX, ORGANIZATIONS_PAGE_DEFAULT).describe(`Organizations per page, 1 to ${ORGANIZATIONS_PAGE_MAX}, default ${ORGANIZATIONS_PAGE_DEFAULT}`),
});
