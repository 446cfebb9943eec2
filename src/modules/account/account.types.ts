import { Directive, Field, ID, ObjectType, registerEnumType } from 'type-graphql';
import { SuccessStatus } from '../../graphql/common.types';
import { AccountKind } from './account.entity';

registerEnumType(AccountKind, { name: 'AccountKind', description: 'person, artist or organization' });

@ObjectType('OrganizationRef', { description: 'An organization the account is a member of' })
export class OrganizationRef {
  @Field(() => ID)
  id!: string;

  @Field()
  name!: string;
}

@ObjectType('AccountInvitation', { description: 'A pending invitation of the authenticated account to an organization' })
export class AccountInvitation {
  @Field(() => OrganizationRef)
  organization!: OrganizationRef;

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

  @Field(() => [OrganizationRef])
  organizations!: OrganizationRef[];

  @Field(() => [AccountInvitation], {
    description: 'Pending invitations, oldest first: accept with POST /api/organizations/{id}/members {account_id: own id}, decline with DELETE',
  })
  invitations!: AccountInvitation[];
}

@ObjectType({ description: 'Answer of GET /api/accounts/me' })
export class MeResult {
  @Field(() => SuccessStatus)
  status!: SuccessStatus;

  @Field(() => AccountProfile)
  account!: AccountProfile;
}

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

@ObjectType({ description: 'Answer of GET /api/organizations' })
export class OrganizationsResult {
  @Field(() => SuccessStatus)
  status!: SuccessStatus;

  @Field(() => [OrganizationType])
  organizations!: OrganizationType[];
}

@ObjectType({ description: 'Answer of POST /api/organizations' })
export class OrganizationResult {
  @Field(() => SuccessStatus)
  status!: SuccessStatus;

  @Field(() => OrganizationType)
  organization!: OrganizationType;
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

@ObjectType({ description: 'Answer of POST /api/organizations/{id}/members and DELETE /api/organizations/{id}/members/{accountId}' })
export class OrganizationMembersResult {
  @Field(() => SuccessStatus)
  status!: SuccessStatus;

  @Field(() => OrganizationType)
  organization!: OrganizationType;

  @Field(() => [OrganizationMember], { description: 'Every member after the change, by name' })
  members!: OrganizationMember[];

  @Field(() => [OrganizationInvitee], { description: 'Pending invitations after the change, by name' })
  invitations!: OrganizationInvitee[];
}
