import { Arg, Authorized, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import { AFTER_DESCRIPTION, firstDescription, pageRequest } from '../../common/paging';
import type { PageOf } from '../../graphql/common.types';
import type { Context } from '../../graphql/context';
import { requireViewer } from '../../auth/access';
import { describe, validate, withoutNulls } from '../../common/validation';
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
export const accountService = (ctx: Context) => new AccountService(new AccountRepository(ctx.em), ctx.access, ctx.loaders, {
    perOrganization: ctx.deps.config.memberships.invitationsPerOrganization,
    perAccount: ctx.deps.config.memberships.invitationsPerAccount,
  });

@Resolver()
export class AccountResolver {
  @Authorized()
  @Query(() => AccountProfile, { nullable: true, description: 'The authenticated account, its organizations and pending invitations' })
  me(@Ctx() ctx: Context): Promise<AccountProfile> {
    return accountService(ctx).me(requireViewer(ctx.viewer));
  }

  @Authorized()
  @Query(() => OrganizationPage, { nullable: true, description: 'Organizations the authenticated account is a member of, by name, a page at a time' })
  organizations(
    @Ctx() ctx: Context,
    @Arg('limit', () => Int, { nullable: true, description: describe(organizationsInput, 'limit') }) limit?: number | null,
    @Arg('page', () => Int, { nullable: true, description: describe(organizationsInput, 'page') }) page?: number | null,
    @Arg('first', () => Int, { nullable: true, description: firstDescription(ORGANIZATIONS_PAGE_MAX, ORGANIZATIONS_PAGE_DEFAULT) }) first?: number | null,
    @Arg('after', () => String, { nullable: true, description: AFTER_DESCRIPTION }) after?: string | null,
  ): Promise<PageOf<OrganizationType>> {
    const parsed = validate(organizationsInput, withoutNulls({ limit, page }));
    return accountService(ctx).organizations(requireViewer(ctx.viewer), pageRequest(parsed, { limit, page, first, after }, ORGANIZATIONS_PAGE_MAX));
  }

  @Authorized()
  @Mutation(() => OrganizationType, { description: 'Creates an organization; the caller becomes its first member' })
  createOrganization(@Ctx() ctx: Context, @Arg('input', () => CreateOrganizationInputType) input: CreateOrganizationInputType): Promise<OrganizationType> {
    return accountService(ctx).createOrganization(requireViewer(ctx.viewer), validate(createOrganizationInput, withoutNulls({ ...input })));
  }

  @Authorized()
  @Mutation(() => OrganizationMembership, {
    description:
      'Adds an account to an organization (idempotent); only its members (or admins) may. Invites it unless the caller is an admin or it is an artist on the organization roster; an invited account adding itself accepts',
  })
  addOrganizationMember(
    @Ctx() ctx: Context,
    @Arg('input', () => AddOrganizationMemberInputType) input: AddOrganizationMemberInputType,
  ): Promise<OrganizationMembership> {
    return accountService(ctx).addMember(requireViewer(ctx.viewer), validate(addMemberInput, withoutNulls({ ...input })));
  }

  @Authorized()
  @Mutation(() => OrganizationMembership, {
    description: 'Removes a member or revokes an invitation; only its members (or admins) may, and an invited account may decline its own',
  })
  removeOrganizationMember(
    @Ctx() ctx: Context,
    @Arg('input', () => RemoveOrganizationMemberInputType) input: RemoveOrganizationMemberInputType,
  ): Promise<OrganizationMembership> {
    return accountService(ctx).removeMember(requireViewer(ctx.viewer), validate(removeMemberInput, withoutNulls({ ...input })));
  }

  @Authorized()
  @Mutation(() => OrganizationDeletion, {
    description:
      'Deletes an organization; only its members (or admins) may. Its memberships, pending invitations, the catalog links its members made through their membership, and its catalogs linked to no other account end with it',
  })
  deleteOrganization(@Ctx() ctx: Context, @Arg('input', () => DeleteOrganizationInputType) input: DeleteOrganizationInputType): Promise<OrganizationDeletion> {
    return accountService(ctx).deleteOrganization(requireViewer(ctx.viewer), validate(deleteOrganizationInput, withoutNulls({ ...input })));
  }
}
