import { Arg, Authorized, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { Context } from '../../graphql/context';
import { SuccessStatus } from '../../graphql/common.types';
import { AccountService } from './account.service';
import { MeResult, OrganizationMembersResult, OrganizationResult, OrganizationsResult } from './account.types';

@Resolver()
export class AccountResolver {
  @Authorized()
  @Query(() => MeResult, { description: 'The authenticated account, its organizations and pending invitations' })
  async me(@Ctx() ctx: Context): Promise<MeResult> {
    return { status: SuccessStatus.success, account: await new AccountService(ctx).me() };
  }

  @Authorized()
  @Query(() => OrganizationsResult, { description: 'Organizations the authenticated account is a member of' })
  async organizations(@Ctx() ctx: Context): Promise<OrganizationsResult> {
    return { status: SuccessStatus.success, organizations: await new AccountService(ctx).organizations() };
  }

  @Authorized()
  @Mutation(() => OrganizationResult, { description: 'Creates an organization; the caller becomes its first member' })
  async createOrganization(@Ctx() ctx: Context, @Arg('name', () => String) name: string): Promise<OrganizationResult> {
    return { status: SuccessStatus.success, organization: await new AccountService(ctx).createOrganization(name) };
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
    return { status: SuccessStatus.success, ...(await new AccountService(ctx).addMember(id, accountId)) };
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
    return { status: SuccessStatus.success, ...(await new AccountService(ctx).removeMember(id, accountId)) };
  }
}
