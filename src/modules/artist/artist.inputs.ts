import { z } from 'zod';
import { limitArg, pageArg, uuid } from '../../common/validation';

export const artistName = z
  .string()
  .trim()
  .min(1, { message: 'must not be empty' })
  .max(200, { message: 'must be at most 200 characters' })
  .describe('Artist name as credited');

const httpUrl = (what: string) =>
  z
    .url({ protocol: /^https?$/, message: 'must be an http(s) URL' })
    .max(2000, { message: 'must be at most 2000 characters' })
    .describe(what);

const count = z.number().int().min(0, { message: 'must be at least 0' }).max(2_147_483_647, { message: 'is out of range' });

export const socialsByAccountInput = z.object({
  artist_account_id: uuid().describe('The artist account'),
  page: pageArg().describe('Page number, from 1'),
  limit: limitArg().describe('Socials per page, 1 to 100'),
});

export const socialsByIdInput = z.object({
  id: uuid().describe('The artist account'),
  page: pageArg().describe('Page number, from 1'),
  limit: limitArg().describe('Socials per page, 1 to 100'),
});

/** The most roster artists one read answers (Query.artists `limit`), and how many without a `limit`. */
export const ROSTER_PAGE_MAX = 500;
export const ROSTER_PAGE_DEFAULT = 100;

export const rosterInput = z
  .object({
    account_id: uuid().optional().describe('Roster of this account (it must be reachable) instead of the caller and its organizations'),
    organization_id: uuid().optional().describe('Roster of this organization (the caller must be a member)'),
    page: pageArg().describe('Page number of `limit` artists, from 1; in place of offset'),
    limit: limitArg(ROSTER_PAGE_MAX, ROSTER_PAGE_DEFAULT).describe(`Artists to answer, 1 to ${ROSTER_PAGE_MAX}, default ${ROSTER_PAGE_DEFAULT}`),
    offset: z.number().int().min(0, { message: 'must be at least 0' }).max(1_000_000, { message: 'must be at most 1000000' }).default(0).describe('Artists to skip, in name order; default 0'),
  })
  .refine((v) => !(v.account_id && v.organization_id), { message: 'give account_id or organization_id, not both', path: ['organization_id'] });

export const createArtistInput = z.object({
  name: artistName,
  organization_id: uuid().optional().describe("Put the artist on this organization's roster (the caller must be a member)"),
});

export const upsertSocialInput = z.object({
  id: uuid().describe('The artist account'),
  profile_url: httpUrl('Profile URL; a profile with the same URL is updated'),
  username: z.string().trim().min(1, { message: 'must not be empty' }).max(200, { message: 'must be at most 200 characters' }).describe('User name on the social platform, 1-200 characters'),
  avatar: httpUrl('Avatar image URL').optional().describe('Avatar image URL (http or https, at most 2000 characters)'),
  bio: z.string().max(5000, { message: 'must be at most 5000 characters' }).optional().describe('Profile text, at most 5000 characters'),
  follower_count: count.optional().describe('Followers of the profile, 0 or more'),
  following_count: count.optional().describe('Accounts the profile follows, 0 or more'),
  region: z.string().trim().min(1, { message: 'must not be empty' }).max(100, { message: 'must be at most 100 characters' }).optional().describe('Region of the profile, 1-100 characters'),
});

export const artistIdInput = z.object({ id: uuid() });

export type SocialsByAccountInput = z.output<typeof socialsByAccountInput>;
export type SocialsByIdInput = z.output<typeof socialsByIdInput>;
export type RosterInput = z.output<typeof rosterInput>;
export type CreateArtistInput = z.output<typeof createArtistInput>;
export type UpsertSocialInput = z.output<typeof upsertSocialInput>;
