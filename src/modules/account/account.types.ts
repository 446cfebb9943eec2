import { Directive, Field, ID, InputType, ObjectType, registerEnumType } from 'type-graphql';
import { describe } from '../../common/validation';
import { AccountKind } from './account.entity';
import { addMemberInput, createOrganizationInput, removeMemberInput } from './account.inputs';

registerEnumType(AccountKind, { name: 'AccountKind', description: 'person, artist or organization' });

@ObjectType('Organization', { description: 'An organization account (a federation entity: other subgraphs may extend it by id)' })
@Directive('@key(fields: "id")')
export class OrganizationType {
  @Field(() => ID)
  id!: string;

  @Field()
  name!: string;

  @Field()
  created_at!: Date;
}

@ObjectType('AccountInvitation', { description: 'A pending invitation of the authenticated account to an organization' })
export class AccountInvitation {
  @Field(() => OrganizationType)
  organization!: OrganizationType;

  @Field()
  invited_at!: Date;
}

@ObjectType('AccountProfile', { description: 'The authenticated account' })
export class AccountProfile {
  @Field(() => ID)
  id!: string;

  @Field()
  name!: string;

  @Field(() => String, { nullable: true })
  email!: string | null;

  @Field(() => AccountKind)
  kind!: AccountKind;

  @Field(() => [OrganizationType])
  organizations!: OrganizationType[];

  @Field(() => [AccountInvitation], {
    description: 'Pending invitations, oldest first: accept by adding yourself to the organization (your own account_id), decline by removing yourself',
  })
  invitations!: AccountInvitation[];
}

@ObjectType('OrganizationMember', { description: 'A member of an organization' })
export class OrganizationMember {
  @Field(() => ID)
  id!: string;

  @Field()
  name!: string;

  @Field(() => AccountKind)
  kind!: AccountKind;
}

@ObjectType('OrganizationInvitee', { description: 'An account invited to an organization that has not accepted yet (not a member)' })
export class OrganizationInvitee {
  @Field(() => ID)
  id!: string;

  @Field()
  name!: string;

  @Field(() => AccountKind)
  kind!: AccountKind;

  @Field()
  invited_at!: Date;
}

@ObjectType('OrganizationMembership', { description: 'The membership of an organization: its members and pending invitations' })
export class OrganizationMembership {
  @Field(() => OrganizationType)
  organization!: OrganizationType;

  @Field(() => [OrganizationMember], { description: 'Every member after the change, by name' })
  members!: OrganizationMember[];

  @Field(() => [OrganizationInvitee], { description: 'Pending invitations after the change, by name' })
  invitations!: OrganizationInvitee[];
}

@InputType('CreateOrganizationInput', { description: 'A new organization' })
export class CreateOrganizationInputType {
  @Field({ description: describe(createOrganizationInput, 'name') })
  name!: string;
}

@InputType('AddOrganizationMemberInput', { description: 'An account to add to (or invite into) an organization' })
export class AddOrganizationMemberInputType {
  // account_id before id: the order the REST edge has always checked and reported (400 details) these fields in.
  @Field(() => ID, { description: describe(addMemberInput, 'account_id') })
  account_id!: string;

  @Field(() => ID, { description: describe(addMemberInput, 'id') })
  id!: string;
}

@InputType('RemoveOrganizationMemberInput', { description: 'A member (or invited account) to remove from an organization' })
export class RemoveOrganizationMemberInputType {
  // accountId before id: the order the REST edge has always checked and reported (400 details) these fields in.
  @Field(() => ID, { description: describe(removeMemberInput, 'accountId') })
  accountId!: string;

  @Field(() => ID, { description: describe(removeMemberInput, 'id') })
  id!: string;
}
