import { Entity, Index, Property } from '@mikro-orm/core';
import { BaseEntity } from '../../db/base.entity';

/** A 6-digit e-mail code: stored as a hash, 10 minutes, single use, dead after 5 wrong tries. */
@Entity({ tableName: 'verification_codes' })
@Index({ name: 'verification_codes_email_idx', properties: ['email', 'createdAt'] })
export class VerificationCode extends BaseEntity<'attempts' | 'usedAt'> {
  @Property({ type: 'text' })
  email!: string;

  @Property({ type: 'text' })
  codeHash!: string;

  @Property({ type: 'Date', columnType: 'timestamptz' })
  expiresAt!: Date;

  @Property({ type: 'integer', default: 0 })
  attempts: number = 0;

  @Property({ type: 'Date', columnType: 'timestamptz', nullable: true })
  usedAt: Date | null = null;
}

/** One accepted signup request; the per-IP and per-address hourly limits count these rows. */
@Entity({ tableName: 'signup_attempts' })
@Index({ name: 'signup_attempts_ip_idx', properties: ['ip', 'createdAt'] })
@Index({ name: 'signup_attempts_email_idx', properties: ['email', 'createdAt'] })
export class SignupAttempt extends BaseEntity {
  @Property({ type: 'text' })
  ip!: string;

  @Property({ type: 'text' })
  email!: string;
}
