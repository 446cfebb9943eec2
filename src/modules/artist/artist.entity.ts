import { Entity, Index, ManyToOne, Property, Unique } from '@mikro-orm/core';
import { BaseEntity } from '../../db/base.entity';
import { Account } from '../account';

/** An artist account on the roster of an owner (a person or an organization). */
@Entity({ tableName: 'roster_entries' })
@Unique({ name: 'roster_owner_artist_unique', properties: ['owner', 'artist'] })
export class RosterEntry extends BaseEntity {
  @ManyToOne(() => Account, { deleteRule: 'cascade' })
  owner!: Account;

  @ManyToOne(() => Account, { deleteRule: 'cascade' })
  @Index({ name: 'roster_artist_idx' })
  artist!: Account;
}

/** A social-platform profile of one artist account, unique per artist and URL. */
@Entity({ tableName: 'socials' })
@Unique({ name: 'socials_account_profile_url_unique', properties: ['account', 'profileUrl'] })
export class Social extends BaseEntity {
  @ManyToOne(() => Account, { deleteRule: 'cascade' })
  account!: Account;

  @Property({ type: 'text' })
  profileUrl!: string;

  @Property({ type: 'text' })
  username!: string;

  @Property({ type: 'text', nullable: true })
  avatar: string | null = null;

  @Property({ type: 'text', nullable: true })
  bio: string | null = null;

  @Property({ type: 'integer', nullable: true })
  followerCount: number | null = null;

  @Property({ type: 'integer', nullable: true })
  followingCount: number | null = null;

  @Property({ type: 'text', nullable: true })
  region: string | null = null;
}

/** Links an (artist) account to a social profile; its id is the `id` of a social in the API. */
@Entity({ tableName: 'account_socials' })
@Unique({ name: 'account_socials_account_social_unique', properties: ['account', 'social'] })
@Unique({ name: 'account_socials_social_unique', properties: ['social'] })
@Index({ name: 'account_socials_account_created_idx', properties: ['account', 'createdAt', 'id'] })
export class AccountSocial extends BaseEntity {
  @ManyToOne(() => Account, { deleteRule: 'cascade' })
  account!: Account;

  @ManyToOne(() => Social, { deleteRule: 'cascade' })
  social!: Social;
}
