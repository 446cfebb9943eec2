import { Directive, Field, ID, InputType, ObjectType, registerEnumType } from 'type-graphql';
import { describe } from '../../common/validation';
import { AccountKind } from './account.entity';
import { Page } from '../../graphql/common.types';
import { addMemberInput, createOrganizationInput, deleteOrganizationInput, ORGANIZATIONS_PAGE_DEFAULT, removeMemberInput } from './account.inputs';

registerEnumType(AccountKind, {
  name: 'AccountKind',
  description: 'person, artist or organization',
  valuesConfig: {
    person: { description: 'A person: signs in, holds API keys, joins organizations' },
    artist: { description: 'An artist account: on rosters, credited on songs' },
    organization: { description: 'An organization: has members, a roster and catalogs of its own' },
  },
});

@ObjectType('Organization', { description: 'An organization account (a federation entity: other subgraphs may extend it by id)' })
@Directive('@key(fields: "id")')
export class OrganizationType {
  @Field(() => ID, { description: 'The organization account id (UUID)' })
  id!: string;

  @Field({ description: 'The organization name (1-200 characters)' })
  name!: string;

  @Field({ description: 'When the organization was created', name: 'createdAt' })
  created_at!: Date;
}

@ObjectType('OrganizationPage', { description: 'A page of the organizations the caller is a member of, by name' })
export class OrganizationPage extends Page(OrganizationType, ORGANIZATIONS_PAGE_DEFAULT) {}

@ObjectType('AccountInvitation', { description: 'A pending invitation of the authenticated account to an organization' })
export class AccountInvitation {
  @Field(() => OrganizationType, { description: 'The organization the account is invited to' })
  organization!: OrganizationType;

  @Field({ description: 'When the invitation was made', name: 'invitedAt' })
  invited_at!: Date;
}

@ObjectType('AccountProfile', { description: 'The authenticated account' })
export class AccountProfile {
  @Field(() => ID, { description: 'The account id (UUID)' })
  id!: string;

  @Field({ description: 'Display name of the account' })
  name!: string;

  @Field(() => String, { description: "The account's e-mail address (proven or not yet: signing in by it needs a proven one); null when it has none", nullable: true })
  email!: string | null;

  @Field(() => AccountKind, { description: 'Whether the account is a person, an artist or an organization' })
  kind!: AccountKind;

  @Field(() => [OrganizationType], { description: 'Organizations the account is a member of, by name' })
  organizations!: OrganizationType[];

  @Field(() => [AccountInvitation], {
    description: 'Pending invitations, oldest first: accept by adding yourself to the organization (your own account id), decline by removing yourself',
  })
  invitations!: AccountInvitation[];
}

@ObjectType('OrganizationMember', { description: 'A member of an organization' })
export class OrganizationMember {
  @Field(() => ID, { description: 'The member account id (UUID)' })
  id!: string;

  @Field({ description: 'Display name of the member' })
  name!: string;

  @Field(() => AccountKind, { description: 'Whether the member is a person or an artist' })
  kind!: AccountKind;
}

@ObjectType('OrganizationInvitee', {
  description:
    'An account invited to an organization that has not accepted yet (not a member). Its name and kind are shown only to a caller who reaches the account already: an invitation reveals nothing of its invitee',
})
export class OrganizationInvitee {
  @Field(() => ID, { description: 'The invited account id (UUID)' })
  id!: string;

  @Field(() => String, { nullable: true, description: 'The invitee’s name, when the caller reaches the account otherwise (null if not)' })
  name!: string | null;

  @Field(() => AccountKind, { nullable: true, description: 'The invitee’s kind, when the caller reaches the account otherwise (null if not)' })
  kind!: AccountKind | null;

  @Field({ description: 'When the invitation was made', name: 'invitedAt' })
  invited_at!: Date;
}

@ObjectType('RevokedCatalogLink', { description: 'A catalog link that ended with a membership' })
export class RevokedCatalogLink {
  @Field(() => ID, { description: 'The catalog', name: 'catalogId' })
  catalog_id!: string;

  @Field(() => ID, { description: 'The account the catalog was linked to', name: 'accountId' })
  account_id!: string;
}

@ObjectType('MembershipRevocation', { description: 'What a removal ended: the membership or invitation, and what the member had made through the membership' })
export class MembershipRevocation {
  @Field({ description: 'A membership ended' })
  membership!: boolean;

  @Field({ description: 'A pending invitation of the account was revoked or declined' })
  invitation!: boolean;

  @Field(() => [ID], { description: 'Accounts whose pending invitations, made by the removed member, died with the membership' })
  invitations!: string[];

  @Field(() => [RevokedCatalogLink], { name: 'catalogLinks', description: 'Catalog links the removed member had made through the membership, ended with it' })
  catalog_links!: RevokedCatalogLink[];
}

@ObjectType('OrganizationMembership', { description: 'The membership of an organization: its members and pending invitations' })
export class OrganizationMembership {
  @Field(() => OrganizationType, { description: 'The organization' })
  organization!: OrganizationType;

  @Field(() => [OrganizationMember], { description: 'Every member after the change, by name' })
  members!: OrganizationMember[];

  @Field(() => [OrganizationInvitee], { description: 'Pending invitations after the change, oldest first' })
  invitations!: OrganizationInvitee[];

  @Field(() => MembershipRevocation, { nullable: true, description: 'What a removal ended (null when adding)' })
  revoked!: MembershipRevocation | null;
}

@ObjectType('OrganizationDeletion', { description: 'A deleted organization and what ended with it' })
export class OrganizationDeletion {
  @Field(() => OrganizationType, { description: 'The organization as it was before deletion' })
  organization!: OrganizationType;

  @Field(() => [ID], { description: 'Its former members' })
  members!: string[];

  @Field(() => [ID], { description: 'Accounts whose pending invitations (to it, or made through its memberships) died with it' })
  invitations!: string[];

  @Field(() => [RevokedCatalogLink], { name: 'catalogLinks', description: 'Catalog links its members had made through their memberships' })
  catalog_links!: RevokedCatalogLink[];

  @Field(() => [ID], { name: 'deletedCatalogs', description: 'Its catalogs that were linked to no other account, deleted with their songs' })
  deleted_catalogs!: string[];
}

@InputType('DeleteOrganizationInput', { description: 'An organization to delete' })
export class DeleteOrganizationInputType {
  @Field(() => ID, { description: describe(deleteOrganizationInput, 'id') })
  id!: string;
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
  accountId!: string;

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
