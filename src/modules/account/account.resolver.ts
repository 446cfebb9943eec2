import { Arg, Authorized, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import { AFTER_DESCRIPTION, firstDescription } from '../../common/paging';
import type { PageOf } from '../../graphql/common.types';
import type { Context } from '../../request/context';
import type { Viewer } from '../../auth/viewer';
import { CurrentViewer, type Paged, type Parsed, ParsedInput, ParsedPage } from '../../graphql/params';
import { describe } from '../../common/validation';
import { addMemberInput, createOrganizationInput, deleteOrganizationInput, ORGANIZATIONS_PAGE_DEFAULT, ORGANIZATIONS_PAGE_MAX, organizationsInput, removeMemberInput } from './account.inputs';
import { AccountRepository } from './account.repository';
import { AccountService } from './account.service';
import {
  AccountProfile,
  AddOrganizationMemberInputType,
  CreateOrganizationInputType,
  DeleteOrganizationInputType,
  OrganizationDeletion,
  OrganizationMembership,
  OrganizationPage,
  OrganizationType,
  RemoveOrganizationMemberInputType,
} from './account.types';

/** The request's AccountService; the federation reference builds it the same way. */
export const accountService = (ctx: Context) => new AccountService(new AccountRepository(ctx.db), ctx.access, ctx.loaders, {
    perOrganization: ctx.deps.config.memberships.invitationsPerOrganization,
    perAccount: ctx.deps.config.memberships.invitationsPerAccount,
  });

@Resolver()
export class AccountResolver {
  @Authorized()
  @Query(() => AccountProfile, { nullable: true, description: 'The authenticated account, its organizations and pending invitations' })
  me(@Ctx() ctx: Context, @CurrentViewer() viewer: Viewer): Promise<AccountProfile> {
    return accountService(ctx).me(viewer);
  }

  @Authorized()
  @Query(() => OrganizationPage, { nullable: true, description: 'Organizations the authenticated account is a member of, by name, a page at a time' })
  organizations(
    @Ctx() ctx: Context,
    @CurrentViewer() viewer: Viewer,
   
   @ParsedPage(organizationsInput, { args: ['limit', 'page'], maxFirst: ORGANIZATIONS_PAGE_MAX }) paged: Paged<Parsed<typeof organizationsInput>>,
    @Arg('limit', () => Int, { nullable: true, description: describe(organizationsInput, 'limit') }) _limit?: number | null,
    @Arg('page', () => Int, { nullable: true, description: describe(organizationsInput, 'page') }) _page?: number | null,
    @Arg('first', () => Int, { nullable: true, description: firstDescription(ORGANIZATIONS_PAGE_MAX, ORGANIZATIONS_PAGE_DEFAULT) }) _first?: number | null,
    @Arg('after', () => String, { nullable: true, description: AFTER_DESCRIPTION }) _after?: string | null,
  ): Promise<PageOf<OrganizationType>> {
    return accountService(ctx).organizations(viewer, paged.page);
  }

  @Authorized()
  @Mutation(() => OrganizationType, { description: 'Creates an organization; the caller becomes its first member' })
  createOrganization(@Ctx() ctx: Context, @CurrentViewer() viewer: Viewer, @ParsedInput(() => CreateOrganizationInputType, createOrganizationInput) input: Parsed<typeof createOrganizationInput>): Promise<OrganizationType> {
    return accountService(ctx).createOrganization(viewer, input);
  }

  @Authorized()
  @Mutation(() => OrganizationMembership, {
    description:
      'Adds an account to an organization (idempotent); only its members (or admins) may. Invites it unless the caller is an admin or it is an artist on the organization roster; an invited account adding itself accepts',
  })
  addOrganizationMember(
    @Ctx() ctx: Context,
    @CurrentViewer() viewer: Viewer,
    @ParsedInput(() => AddOrganizationMemberInputType, addMemberInput) input: Parsed<typeof addMemberInput>,
  ): Promise<OrganizationMembership> {
    return accountService(ctx).addMember(viewer, input);
  }

  @Authorized()
  @Mutation(() => OrganizationMembership, {
    description: 'Removes a member or revokes an invitation; only its members (or admins) may, and an invited account may decline its own',
  })
  removeOrganizationMember(
    @Ctx() ctx: Context,
    @CurrentViewer() viewer: Viewer,
    @ParsedInput(() => RemoveOrganizationMemberInputType, removeMemberInput) input: Parsed<typeof removeMemberInput>,
  ): Promise<OrganizationMembership> {
    return accountService(ctx).removeMember(viewer, input);
  }

  @Authorized()
  @Mutation(() => OrganizationDeletion, {
    description:
      'Deletes an organization; only its members (or admins) may. Its memberships, pending invitations, the catalog links its members made through their membership, and its catalogs linked to no other account end with it',
  })
  deleteOrganization(@Ctx() ctx: Context, @CurrentViewer() viewer: Viewer, @ParsedInput(() => DeleteOrganizationInputType, deleteOrganizationInput) input: Parsed<typeof deleteOrganizationInput>): Promise<OrganizationDeletion> {
    return accountService(ctx).deleteOrganization(viewer, input);
  }
}
