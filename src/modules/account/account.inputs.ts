import { z } from 'zod';
import { uuid } from '../../common/validation';

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
