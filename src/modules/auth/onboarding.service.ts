import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { AppError } from '../../common/errors';
import { validate } from '../../common/validation';
import type { Context } from '../../graphql/context';
import { Account, AccountKind } from '../account';
import { issueApiKey } from './api-key.service';
import { signupInput, verifyInput } from './auth.inputs';
import { OnboardingResult } from './auth.types';
import { VerificationCode } from './onboarding.entity';

export const CODE_TTL_MS = 10 * 60_000;
export const MAX_WRONG_TRIES = 5;
const WINDOW = "interval '1 hour'";

export const MESSAGES = {
  codeSent:
    'If this address can receive e-mail, a 6-digit code is on its way. POST it with the address to /api/agents/verify within 10 minutes to get an API key.',
  keyIssued: 'Account created. Store the api_key now: it is shown only once.',
  verified: 'Address verified. Store the api_key now: it is shown only once.',
  wrongCode: 'Wrong or expired code',
  deadCode: 'Too many wrong codes: request a new one with POST /api/agents/signup',
};

/** Salted by the row id, so equal codes never share a hash. */
const hashCode = (id: string, code: string) => createHash('sha256').update(`${id}:${code}`).digest();

/** Writes a fresh code for an address (the previous ones stop working) and returns it, raw. */
export async function issueVerificationCode(em: EntityManager, email: string): Promise<string> {
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  await em.nativeDelete(VerificationCode, { email });
  const row = em.create(VerificationCode, { email, codeHash: '', expiresAt: new Date(Date.now() + CODE_TTL_MS) });
  row.codeHash = hashCode(row.id, code).toString('hex');
  await em.flush();
  return code;
}

const isAgentAddress = (email: string) => email.split('@')[0].startsWith('agent+');

/**
 * Agent onboarding (decisions §4). The answer to a signup never tells whether the address was
 * known: every address that does not get a key at once gets a code by e-mail.
 */
export class OnboardingService {
  constructor(private readonly ctx: Context) {}

  async signup(rawEmail: string): Promise<OnboardingResult> {
    const { email } = validate(signupInput, { email: rawEmail });
    const ip = this.ctx.clientIp ?? 'unknown';
    const { prefix, limits } = { prefix: this.ctx.deps.config.auth.apiKeyPrefix, limits: this.ctx.deps.config.auth };
    const outcome = await this.ctx.em.transactional(async (em) => {
      await this.enforceLimits(em, ip, email, limits.signupLimitPerIpPerHour, limits.signupLimitPerAddressPerHour);
      await em.execute(
        `insert into signup_attempts (id, created_at, updated_at, ip, email) values (gen_random_uuid(), now(), now(), ?, ?)`,
        [ip, email],
      );
      const known = await em.findOne(Account, { email }, { fields: ['id'] });
      // An agent+ address gets its account and key at once, but only the first time: a known
      // address must prove it receives the mail before anyone gets a key to it.
      if (isAgentAddress(email) && !known) {
        const account = em.create(Account, { kind: AccountKind.person, name: email, email });
        const { raw } = issueApiKey(em, prefix, account.id, 'signup');
        await em.flush();
        return { accountId: account.id, raw, code: null };
      }
      const code = await issueVerificationCode(em, email);
      return { accountId: null, raw: null, code };
    });
    if (outcome.code === null) return { account_id: outcome.accountId, api_key: outcome.raw, message: MESSAGES.keyIssued };
    try {
      await this.ctx.deps.mailer.send({
        to: email,
        subject: 'Your verification code',
        text: `Your verification code is ${outcome.code}. It expires in 10 minutes.`,
      });
    } catch (error) {
      this.ctx.log.error({ err: error }, 'could not send a verification e-mail');
      throw new AppError('PROVIDER_UNAVAILABLE', 'The verification e-mail could not be sent; try again shortly', { retryAfter: 60 });
    }
    return { account_id: null, api_key: null, message: MESSAGES.codeSent };
  }

  async verify(rawEmail: string, rawCode: string): Promise<OnboardingResult> {
    const { email, code } = validate(verifyInput, { email: rawEmail, code: rawCode });
    const prefix = this.ctx.deps.config.auth.apiKeyPrefix;
    const outcome = await this.ctx.em.transactional(async (em) => {
      const row = await em.findOne(
        VerificationCode,
        { email, usedAt: null },
        { orderBy: { createdAt: 'desc' }, lockMode: LockMode.PESSIMISTIC_WRITE /* concurrent tries count one by one */ },
      );
      if (!row || row.expiresAt.getTime() <= Date.now()) return { kind: 'wrong' as const };
      if (row.attempts >= MAX_WRONG_TRIES) return { kind: 'dead' as const, retryAfter: (row.expiresAt.getTime() - Date.now()) / 1000 };
      if (!timingSafeEqual(hashCode(row.id, code), Buffer.from(row.codeHash, 'hex'))) {
        row.attempts += 1;
        await em.flush();
        return { kind: 'wrong' as const };
      }
      row.usedAt = new Date();
      const account = (await em.findOne(Account, { email })) ?? em.create(Account, { kind: AccountKind.person, name: email, email });
      const { raw } = issueApiKey(em, prefix, account.id, 'signup');
      await em.flush();
      return { kind: 'ok' as const, accountId: account.id, raw };
    });
    if (outcome.kind === 'wrong') {
      throw new AppError('BAD_USER_INPUT', MESSAGES.wrongCode, { details: [{ field: 'code', message: 'is wrong or expired' }] });
    }
    if (outcome.kind === 'dead') throw new AppError('RATE_LIMITED', MESSAGES.deadCode, { retryAfter: Math.max(1, outcome.retryAfter) });
    return { account_id: outcome.accountId, api_key: outcome.raw, message: MESSAGES.verified };
  }

  /**
   * The hourly limits, counted in PostgreSQL so they hold across instances. Transaction-scoped
   * advisory locks serialize signups of one IP and of one address (always IP first: no deadlock).
   */
  private async enforceLimits(em: EntityManager, ip: string, email: string, perIp: number, perAddress: number): Promise<void> {
    // em.execute runs inside the transaction; em.getConnection().execute would take another connection.
    await em.execute(`select pg_advisory_xact_lock(hashtextextended(?, 0))`, [`signup:ip:${ip}`]);
    await em.execute(`select pg_advisory_xact_lock(hashtextextended(?, 0))`, [`signup:email:${email}`]);
    await em.execute(`delete from signup_attempts where (ip = ? or email = ?) and created_at <= now() - ${WINDOW}`, [ip, email]);
    const [counts] = await em.execute<{ by_ip: number; ip_wait: number | null; by_email: number; email_wait: number | null }[]>(
      `select count(*) filter (where ip = ?)::int as by_ip,
              extract(epoch from min(created_at) filter (where ip = ?) + ${WINDOW} - now())::float8 as ip_wait,
              count(*) filter (where email = ?)::int as by_email,
              extract(epoch from min(created_at) filter (where email = ?) + ${WINDOW} - now())::float8 as email_wait
         from signup_attempts where (ip = ? or email = ?) and created_at > now() - ${WINDOW}`,
      [ip, ip, email, email, ip, email],
    );
    if (counts.by_ip >= perIp) {
      throw new AppError('RATE_LIMITED', 'Too many signups from this network address; try again later', { retryAfter: Math.max(1, counts.ip_wait ?? 3600) });
    }
    if (counts.by_email >= perAddress) {
      throw new AppError('RATE_LIMITED', 'Too many signups for this e-mail address; try again later', { retryAfter: Math.max(1, counts.email_wait ?? 3600) });
    }
  }
}
