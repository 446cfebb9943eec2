import { Entity, Index, ManyToOne, Property } from '@mikro-orm/core';
import { BaseEntity } from '../db/base.entity';
// Related by entity name: the Account entity belongs to the account module, which auth does not import.
import type { Account } from '../modules/account/account.entity';

/** A personal API key. Only the SHA-256 hash of the secret is stored; lookups go by hash. */
@Entity({ tableName: 'api_keys' })
export class ApiKey extends BaseEntity {
  @ManyToOne('Account', { deleteRule: 'cascade' })
  @Index({ name: 'api_keys_account_idx' })
  account!: Account;

  @Property({ type: 'text' })
  name!: string;

  /** First characters of the key (prefix + a few), shown in listings so a user can tell keys apart. */
  @Property({ type: 'text' })
  hint!: string;

  @Property({ type: 'text', unique: 'api_keys_hash_unique' })
  hash!: string;

  @Property({ type: 'Date', columnType: 'timestamptz', nullable: true })
  lastUsedAt: Date | null = null;

  @Property({ type: 'Date', columnType: 'timestamptz', nullable: true })
  revokedAt: Date | null = null;
}
