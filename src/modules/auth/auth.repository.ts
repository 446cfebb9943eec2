import { LockMode } from '@mikro-orm/core';
import { LIST_BOUNDS } from '../../common/bounds';
import { ApiKey } from '../../auth/api-key.entity';
import { Account, AccountKind } from '../account';
import { VerificationCode } from './onboarding.entity';
import type { Db } from '../../db/request-db';

const WINDOW = "interval '1 hour'";

/** Signups in the last hour, per IP and per address, with the seconds until the oldest leaves the window. */
export interface SignupCounts {
  by_ip: number;
  ip_wait: number | null;
  by_email: number;
  email_wait: number | null;
}

/** Every read and write of API keys, verification codes and signup attempts. */
export class AuthRepository {
  constructor(private readonly db: Db) {}

  /** Runs `work` in one transaction, on a repository bound to it. */
  transaction<T>(work: (repo: AuthRepository) => Promise<T>): Promise<T> {
    return this.db.transactional((tx) => work(new AuthRepository(tx)));
  }

  /** Writes the changes made to loaded rows (a revoked key, a counted wrong try). */
  flush(): Promise<void> {
    return this.db.em.flush();
  }

  /** The account's keys, newest first (revoked ones included). */
  keysOf(accountId: string): Promise<ApiKey[]> {
    // Active keys are capped; revoked ones accumulate, so the list is the newest LIST_BOUNDS.apiKeysListed.
    return this.db.em.find(ApiKey, { account: accountId }, { orderBy: { createdAt: 'desc', id: 'asc' }, limit: LIST_BOUNDS.apiKeysListed });
  }

  /** The key when `accountId` holds it; null when it does not exist or is another account's. */
  ownedKey(accountId: string, id: string): Promise<ApiKey | null> {
    return this.db.em.findOne(ApiKey, { id, account: accountId });
  }

  /** Serializes key creation per account until the transaction ends, so a burst cannot slip past the count. */
  async lockKeyCreation(accountId: string): Promise<void> {
    await this.db.em.execute(`select pg_advisory_xact_lock(hashtextextended(?, 0))`, [`api-keys:${accountId}`]);
  }

  countActiveKeys(accountId: string): Promise<number> {
    return this.db.em.count(ApiKey, { account: accountId, revokedAt: null });
  }

  /** Adds a key (by its hash) to the unit of work. */
  addApiKey(accountId: string, name: string, hint: string, hash: string): ApiKey {
    return this.db.em.create(ApiKey, { account: this.db.em.getReference(Account, accountId), name, hint, hash });
  }

  /** The id of the account with this address, if any. */
  async accountIdByEmail(email: string): Promise<string | null> {
    return (await this.db.em.findOne(Account, { email }, { fields: ['id'] }))?.id ?? null;
  }

  accountByEmail(email: string): Promise<Account | null> {
    return this.db.em.findOne(Account, { email });
  }

  /** Adds a person account named by its address to the unit of work; `proven` when a mailed code proved the address. */
  createPerson(email: string, proven: boolean): Account {
    return this.db.em.create(Account, { kind: AccountKind.person, name: email, email, emailVerifiedAt: proven ? new Date() : null });
  }

  /** Takes the address from an account that holds it unproven (an agent+ signup): proof of the mailbox wins it. */
  async releaseUnprovenAddress(email: string): Promise<void> {
    await this.db.em.execute(`update accounts set email = null, updated_at = now() where email = ? and email_verified_at is null`, [email]);
  }

  /**
   * Serializes signups of one IP and of one address until the transaction ends (always IP first:
   * no deadlock), then drops their attempts older than the window and counts the rest, in
   * PostgreSQL so the limits hold across instances.
   */
  async signupCounts(ip: string, email: string): Promise<SignupCounts> {
    // em.execute runs inside the transaction; em.getConnection().execute would take another connection.
    await this.db.em.execute(`select pg_advisory_xact_lock(hashtextextended(?, 0))`, [`signup:ip:${ip}`]);
    await this.db.em.execute(`select pg_advisory_xact_lock(hashtextextended(?, 0))`, [`signup:email:${email}`]);
    await this.db.em.execute(`delete from signup_attempts where (ip = ? or email = ?) and created_at <= now() - ${WINDOW}`, [ip, email]);
    const [counts] = await this.db.em.execute<SignupCounts[]>(
      `select count(*) filter (where ip = ?)::int as by_ip,
              extract(epoch from min(created_at) filter (where ip = ?) + ${WINDOW} - now())::float8 as ip_wait,
              count(*) filter (where email = ?)::int as by_email,
              extract(epoch from min(created_at) filter (where email = ?) + ${WINDOW} - now())::float8 as email_wait
         from signup_attempts where (ip = ? or email = ?) and created_at > now() - ${WINDOW}`,
      [ip, ip, email, email, ip, email],
    );
    return counts;
  }

  async recordSignupAttempt(ip: string, email: string): Promise<void> {
    await this.db.em.execute(
      `insert into signup_attempts (id, created_at, updated_at, ip, email) values (gen_random_uuid(), now(), now(), ?, ?)`,
      [ip, email],
    );
  }

  /** Stores a fresh code for the address; its previous codes stop working. */
  async replaceVerificationCode(code: { id: string; email: string; codeHash: string; expiresAt: Date }): Promise<void> {
    await this.db.em.nativeDelete(VerificationCode, { email: code.email });
    this.db.em.create(VerificationCode, code);
    await this.db.em.flush();
  }

  /** The address's newest unused code, locked until the transaction ends so concurrent tries count one by one. */
  latestUnusedCode(email: string): Promise<VerificationCode | null> {
    return this.db.em.findOne(VerificationCode, { email, usedAt: null }, { orderBy: { createdAt: 'desc' }, lockMode: LockMode.PESSIMISTIC_WRITE });
  }
}
