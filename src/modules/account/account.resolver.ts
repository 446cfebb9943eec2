import { Arg, Authorized, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { Context } from '../../graphql/context';
import { SuccessStatus } from '../../graphql/common.types';
import { requireViewer } from '../../auth/access';
import { validate } from '../../common/validation';
import { addMemberInput, createOrganizationInput, removeMemberInput } from './account.inputs';
import { AccountRepository } from './account.repository';
import { AccountService } from './account.service';
import { MeResult, OrganizationMembersResult, OrganizationResult, OrganizationsResult } from './account.types';

/** The request's AccountService; the federation reference builds it the same way. */
export const accountService = (ctx: Context) => new AccountService(new AccountRepository(ctx.em), ctx.access, ctx.loaders);

@Resolver()
export class AccountResolver {
  @Authorized()
  @Query(() => MeResult, { description: 'The authenticated account, its organizations and pending invitations' })
  async me(@Ctx() ctx: Context): Promise<MeResult> {
    return { status: SuccessStatus.success, account: await accountService(ctx).me(requireViewer(ctx.viewer)) };
  }

  @Authorized()
  @Query(() => OrganizationsResult, { description: 'Organizations the authenticated account is a member of' })
  async organizations(@Ctx() ctx: Context): Promise<OrganizationsResult> {
    return { status: SuccessStatus.success, organizations: await accountService(ctx).organizations(requireViewer(ctx.viewer)) };
  }

  @Authorized()
  @Mutation(() => OrganizationResult, { description: 'Creates an organization; the caller becomes its first member' })
  async createOrganization(@Ctx() ctx: Context, @Arg('name', () => String) name: string): Promise<OrganizationResult> {
    const organization = await accountService(ctx).createOrganization(requireViewer(ctx.viewer), validate(createOrganizationInput, { name }));
    return { status: SuccessStatus.success, organization };
  }

  @Authorized()
  @Mutation(() => OrganizationMembersResult, {
    description:
      'Adds an account to an organization (idempotent); only its members (or admins) may. Invites it unless the caller is an admin or it is an artist on the organization roster; an invited account adding itself accepts',
  })
  async addOrganizationMember(
    @Ctx() ctx: Context,
    @Arg('id', () => ID) id: string,
    @Arg('account_id', () => ID) accountId: string,
  ): Promise<OrganizationMembersResult> {
    const state = await accountService(ctx).addMember(requireViewer(ctx.viewer), validate(addMemberInput, { id, account_id: accountId }));
    return { status: SuccessStatus.success, ...state };
  }

  @Authorized()
  @Mutation(() => OrganizationMembersResult, {
    description: 'Removes a member or revokes an invitation; only its members (or admins) may, and an invited account may decline its own',
  })
  async removeOrganizationMember(
    @Ctx() ctx: Context,
    @Arg('id', () => ID) id: string,
    @Arg('accountId', () => ID) accountId: string,
  ): Promise<OrganizationMembersResult> {
    const state = await accountService(ctx).removeMember(requireViewer(ctx.viewer), validate(removeMemberInput, { id, accountId }));
    return { status: SuccessStatus.success, ...state };
  }
}
