import { Entity, Index, ManyToOne, Property, Unique } from '@mikro-orm/core';
import { BaseEntity } from '../db/base.entity';
// Related by entity name: the Account entity belongs to the account module, which auth does not import.
import type { Account } from '../modules/account/account.entity';

/** An identity provider's user (issuer + subject) bound to the account its tokens sign in as. */
@Entity({ tableName: 'account_identities' })
@Unique({ name: 'account_identities_issuer_subject_unique', properties: ['issuer', 'subject'] })
export class AccountIdentity extends BaseEntity {
  @ManyToOne('Account', { deleteRule: 'cascade' })
  @Index({ name: 'account_identities_account_idx' })
  account!: Account;

  @Property({ type: 'text' })
  issuer!: string;

  @Property({ type: 'text' })
  subject!: string;
}
