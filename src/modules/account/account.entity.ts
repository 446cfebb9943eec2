import { Entity, Enum, Index, ManyToOne, Property, Unique } from '@mikro-orm/core';
import { AccountKind } from '../../auth/viewer';
import { BaseEntity } from '../../db/base.entity';

export { AccountKind };

@Entity({ tableName: 'accounts' })
@Index({ name: 'accounts_artist_lower_name_idx', expression: `create index "accounts_artist_lower_name_idx" on "accounts" (lower("name")) where "kind" = 'artist'` })
export class Account extends BaseEntity {
  @Enum({ items: () => AccountKind, nativeEnumName: 'account_kind' })
  kind!: AccountKind;

  @Property({ type: 'text' })
  name!: string;

  /** Stored lower-cased; unique among accounts that have one. */
  @Property({ type: 'text', nullable: true, unique: 'accounts_email_unique' })
  email: string | null = null;

  @Property({ type: 'text', nullable: true })
  image: string | null = null;

  /** When the address was proven (a mailed code, an identity provider's verified e-mail); null for an `agent+` signup. */
  @Property({ type: 'timestamptz', nullable: true })
  emailVerifiedAt: Date | null = null;
}

/** An account (member) belongs to an organization account. */
@Entity({ tableName: 'memberships' })
@Unique({ name: 'memberships_org_member_unique', properties: ['organization', 'member'] })
export class Membership extends BaseEntity {
  @ManyToOne(() => Account, { deleteRule: 'cascade' })
  organization!: Account;

  @ManyToOne(() => Account, { deleteRule: 'cascade' })
  @Index({ name: 'memberships_member_idx' })
  member!: Account;
}

/**
 * A pending invitation of an account to an organization: it grants no reach (access rules read
 * memberships only) until the invited account accepts it, which turns it into a membership.
 */
@Entity({ tableName: 'organization_invitations' })
@Unique({ name: 'organization_invitations_org_account_unique', properties: ['organization', 'account'] })
export class OrganizationInvitation extends BaseEntity {
  @ManyToOne(() => Account, { deleteRule: 'cascade' })
  organization!: Account;

  @ManyToOne(() => Account, { deleteRule: 'cascade' })
  @Index({ name: 'organization_invitations_account_idx' })
  account!: Account;

  /** Who invited; kept null when that account is deleted so the invitation survives it. */
  @ManyToOne(() => Account, { deleteRule: 'set null', nullable: true })
  invitedBy!: Account | null;

  /** The inviter's membership: the invitation dies with it (null when the organization itself invited). */
  @ManyToOne(() => Membership, { deleteRule: 'cascade', nullable: true })
  @Index({ name: 'organization_invitations_inviter_membership_idx' })
  inviterMembership!: Membership | null;
}
