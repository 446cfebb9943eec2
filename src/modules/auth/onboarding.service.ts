import { createHash, randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Mailer } from '../../auth/mailer';
import { budgetDetails } from '../../auth/rate-limit';
import { AppError } from '../../common/errors';
import type { Logger } from '../../common/logger';
import { issueApiKey } from './api-key.service';
import type { SignupInput, VerifyInput } from './auth.inputs';
import type { AuthRepository } from './auth.repository';
import type { AgentOnboarding } from './auth.types';

export const CODE_TTL_MS = 10 * 60_000;
export const MAX_WRONG_TRIES = 5;

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
export async function issueVerificationCode(repo: Pick<AuthRepository, 'replaceVerificationCode'>, email: string): Promise<string> {
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const id = randomUUID();
  await repo.replaceVerificationCode({ id, email, codeHash: hashCode(id, code).toString('hex'), expiresAt: new Date(Date.now() + CODE_TTL_MS) });
  return code;
}

const isAgentAddress = (email: string) => email.split('@')[0].startsWith('agent+');

/** What onboarding reads and writes inside its transactions. */
export type OnboardingRepo = Pick<
  AuthRepository,
  'signupCounts' | 'recordSignupAttempt' | 'accountIdByEmail' | 'accountByEmail' | 'createPerson' | 'releaseUnprovenAddress' | 'addApiKey' | 'flush' | 'replaceVerificationCode' | 'latestUnusedCode'
>;

/** The repository's public shape for OnboardingService, and what a test fake implements. */
export interface OnboardingStore {
  transaction<T>(work: (repo: OnboardingRepo) => Promise<T>): Promise<T>;
}

/** The auth settings onboarding needs. */
export interface OnboardingSettings {
  apiKeyPrefix: string;
  signupLimitPerIpPerHour: number;
  signupLimitPerAddressPerHour: number;
}

/**
 * Agent onboarding (decisions §4). The answer to a signup never tells whether the address was
 * known: every address that does not get a key at once gets a code by e-mail.
 */
export class OnboardingService {
  constructor(
    private readonly repo: OnboardingStore,
    private readonly settings: OnboardingSettings,
    private readonly mailer: Mailer,
    private readonly log: Logger,
  ) {}

  /** `clientIp`: the caller's address, for the per-IP hourly limit. */
  async signup(input: SignupInput, clientIp: string | undefined): Promise<AgentOnboarding> {
    const { email } = input;
    const ip = clientIp ?? 'unknown';
    const outcome = await this.repo.transaction(async (repo) => {
      await this.enforceLimits(repo, ip, email);
      await repo.recordSignupAttempt(ip, email);
      const known = await repo.accountIdByEmail(email);
      // An agent+ address gets its account and key at once, but only the first time: a known
      // address must prove it receives the mail before anyone gets a key to it.
      if (isAgentAddress(email) && !known) {
        // No proof of the mailbox: the address stays unproven, and nothing matches by it (docs/api/auth.md, "Addresses").
        const account = repo.createPerson(email, false);
        const { raw } = issueApiKey(repo, this.settings.apiKeyPrefix, account.id, 'signup');
        await repo.flush();
        return { accountId: account.id, raw, code: null };
      }
      const code = await issueVerificationCode(repo, email);
      return { accountId: null, raw: null, code };
    });
    if (outcome.code === null) return { account_id: outcome.accountId, api_key: outcome.raw, message: MESSAGES.keyIssued };
    try {
      await this.mailer.send({
        to: email,
        subject: 'Your verification code',
        text: `Your verification code is ${outcome.code}. It expires in 10 minutes.`,
      });
    } catch (error) {
      this.log.error({ err: error }, 'could not send a verification e-mail');
      throw new AppError('PROVIDER_UNAVAILABLE', 'The verification e-mail could not be sent; try again shortly', { retryAfter: 60 });
    }
    return { account_id: null, api_key: null, message: MESSAGES.codeSent };
  }

  async verify(input: VerifyInput): Promise<AgentOnboarding> {
    const { email, code } = input;
    const outcome = await this.repo.transaction(async (repo) => {
      const row = await repo.latestUnusedCode(email);
      if (!row || row.expiresAt.getTime() <= Date.now()) return { kind: 'wrong' as const };
      if (row.attempts >= MAX_WRONG_TRIES) return { kind: 'dead' as const, retryAfter: (row.expiresAt.getTime() - Date.now()) / 1000 };
      if (!timingSafeEqual(hashCode(row.id, code), Buffer.from(row.codeHash, 'hex'))) {
        row.attempts += 1;
        await repo.flush();
        return { kind: 'wrong' as const };
      }
      row.usedAt = new Date();
      // The code proves the mailbox: a proven holder gets the key; an unproven one (agent+ signup) never does, it loses the address.
      const known = await repo.accountByEmail(email);
      if (known && !known.emailVerifiedAt) await repo.releaseUnprovenAddress(email);
      const account = known?.emailVerifiedAt ? known : repo.createPerson(email, true);
      const { raw } = issueApiKey(repo, this.settings.apiKeyPrefix, account.id, 'signup');
      await repo.flush();
      return { kind: 'ok' as const, accountId: account.id, raw };
    });
    if (outcome.kind === 'wrong') {
      throw new AppError('BAD_USER_INPUT', MESSAGES.wrongCode, { details: [{ field: 'code', message: 'is wrong or expired' }] });
    }
    if (outcome.kind === 'dead') throw new AppError('RATE_LIMITED', MESSAGES.deadCode, { retryAfter: Math.max(1, outcome.retryAfter), details: budgetDetails('verification_attempts', Math.max(1, outcome.retryAfter)) });
    return { account_id: outcome.accountId, api_key: outcome.raw, message: MESSAGES.verified };
  }

  /** The hourly limits per IP and per address, counted by the repository under its locks. */
  private async enforceLimits(repo: Pick<AuthRepository, 'signupCounts'>, ip: string, email: string): Promise<void> {
    const counts = await repo.signupCounts(ip, email);
    if (counts.by_ip >= this.settings.signupLimitPerIpPerHour) {
      throw new AppError('RATE_LIMITED', 'Too many signups from this network address; try again later', { retryAfter: Math.max(1, counts.ip_wait ?? 3600), details: budgetDetails('signups_per_address', Math.max(1, counts.ip_wait ?? 3600)) });
    }
    if (counts.by_email >= this.settings.signupLimitPerAddressPerHour) {
      throw new AppError('RATE_LIMITED', 'Too many signups for this e-mail address; try again later', { retryAfter: Math.max(1, counts.email_wait ?? 3600), details: budgetDetails('signups_per_email', Math.max(1, counts.email_wait ?? 3600)) });
    }
  }
}
