import { ApiKey } from '../../auth/api-key.entity';
import type { MailMessage } from '../../auth/mailer';
import { createLogger } from '../../common/logger';
import { Account, AccountKind } from '../account';
import type { SignupCounts } from './auth.repository';
import { VerificationCode } from './onboarding.entity';
import { MAX_WRONG_TRIES, MESSAGES, type OnboardingRepo, OnboardingService, type OnboardingStore } from './onboarding.service';

/** Accounts, keys, codes and signup attempts in memory (the SQL and its locks are covered by onboarding.int.test.ts). */
class FakeAuthStore implements OnboardingStore, OnboardingRepo {
  counts: SignupCounts = { by_ip: 0, ip_wait: null, by_email: 0, email_wait: null };
  attempts: string[] = [];
  accounts = new Map<string, Account>();
  keys: ApiKey[] = [];
  codes: VerificationCode[] = [];

  transaction<T>(work: (repo: OnboardingRepo) => Promise<T>): Promise<T> {
    return work(this);
  }
  async flush(): Promise<void> {}
  async signupCounts(): Promise<SignupCounts> {
    return this.counts;
  }
  async recordSignupAttempt(ip: string, email: string): Promise<void> {
    this.attempts.push(`${ip} ${email}`);
  }
  async accountIdByEmail(email: string): Promise<string | null> {
    return this.accounts.get(email)?.id ?? null;
  }
  async accountByEmail(email: string): Promise<Account | null> {
    return this.accounts.get(email) ?? null;
  }
  createPerson(email: string, proven: boolean): Account {
    const account = Object.assign(new Account(), { kind: AccountKind.person, name: email, email, emailVerifiedAt: proven ? new Date() : null });
    this.accounts.set(email, account);
    return account;
  }
  async releaseUnprovenAddress(email: string): Promise<void> {
    const holder = this.accounts.get(email);
    if (holder && !holder.emailVerifiedAt) {
      holder.email = null;
      this.accounts.delete(email);
    }
  }
  addApiKey(accountId: string, name: string, hint: string, hash: string): ApiKey {
    const key = Object.assign(new ApiKey(), { account: { id: accountId } as Account, name, hint, hash });
    this.keys.push(key);
    return key;
  }
  async replaceVerificationCode(code: { id: string; email: string; codeHash: string; expiresAt: Date }): Promise<void> {
    this.codes = [...this.codes.filter((c) => c.email !== code.email), Object.assign(new VerificationCode(), code)];
  }
  async latestUnusedCode(email: string): Promise<VerificationCode | null> {
    return this.codes.find((c) => c.email === email && c.usedAt === null) ?? null;
  }
}

describe('OnboardingService rules', () => {
  let store: FakeAuthStore;
  let mail: MailMessage[];
  let mailFails: boolean;
  let service: OnboardingService;
  const settings = { apiKeyPrefix: 'mas_', signupLimitPerIpPerHour: 30, signupLimitPerAddressPerHour: 5 };

  beforeEach(() => {
    store = new FakeAuthStore();
    mail = [];
    mailFails = false;
    const mailer = {
      send: async (m: MailMessage) => {
        if (mailFails) throw new Error('smtp down');
        mail.push(m);
      },
    };
    service = new OnboardingService(store, settings, mailer, createLogger('silent'));
  });

  const mailedCode = () => /(\d{6})/.exec(mail[mail.length - 1].text)![1];
  const failure = (promise: Promise<unknown>) => promise.then(() => null, (e: { code?: string; retryAfter?: number; message: string }) => e);

  it('refuses a signup past either hourly limit, waiting until the oldest attempt leaves the window, and records nothing', async () => {
    store.counts = { by_ip: 30, ip_wait: 120.5, by_email: 0, email_wait: null };
    expect(await failure(service.signup({ email: 'a@example.test' }, '10.0.0.1'))).toMatchObject({ code: 'RATE_LIMITED', retryAfter: 120.5 });
    store.counts = { by_ip: 0, ip_wait: null, by_email: 5, email_wait: 0.2 };
    expect(await failure(service.signup({ email: 'a@example.test' }, '10.0.0.1'))).toMatchObject({ code: 'RATE_LIMITED', retryAfter: 1, message: expect.stringMatching(/e-mail address/) });
    expect(store.attempts).toEqual([]);
    expect(mail).toEqual([]);
  });

  it('gives a new agent+ address a key at once, and a known one (or any other address) only a mailed code', async () => {
    const first = await service.signup({ email: 'agent+bot@example.test' }, undefined);
    expect(first).toMatchObject({ account_id: store.accounts.get('agent+bot@example.test')!.id, api_key: expect.stringMatching(/^mas_/), message: MESSAGES.keyIssued });
    expect(mail).toEqual([]);
    expect(store.attempts).toEqual(['unknown agent+bot@example.test']);

    const again = await service.signup({ email: 'agent+bot@example.test' }, '10.0.0.1');
    expect(again).toEqual({ account_id: null, api_key: null, message: MESSAGES.codeSent });
    const plain = await service.signup({ email: 'nora@example.test' }, '10.0.0.1');
    expect(plain).toEqual(again);
    expect(mail.map((m) => m.to)).toEqual(['agent+bot@example.test', 'nora@example.test']);
    expect(store.keys).toHaveLength(1);
  });

  it('answers PROVIDER_UNAVAILABLE when the code cannot be mailed', async () => {
    mailFails = true;
    expect(await failure(service.signup({ email: 'nora@example.test' }, '10.0.0.1'))).toMatchObject({ code: 'PROVIDER_UNAVAILABLE', retryAfter: 60 });
  });

  it('exchanges the mailed code once for a key; wrong codes count, and the code dies after the last allowed try', async () => {
    await service.signup({ email: 'nora@example.test' }, '10.0.0.1');
    const code = mailedCode();
    const wrong = code === '000000' ? '111111' : '000000';
    expect(await failure(service.verify({ email: 'nora@example.test', code: wrong }))).toMatchObject({ code: 'BAD_USER_INPUT', message: MESSAGES.wrongCode });
    const ok = await service.verify({ email: 'nora@example.test', code });
    expect(ok).toMatchObject({ account_id: store.accounts.get('nora@example.test')!.id, api_key: expect.stringMatching(/^mas_/), message: MESSAGES.verified });
    expect(await failure(service.verify({ email: 'nora@example.test', code }))).toMatchObject({ code: 'BAD_USER_INPUT' });

    await service.signup({ email: 'sam@example.test' }, '10.0.0.1');
    const samCode = mailedCode();
    for (let i = 0; i < MAX_WRONG_TRIES; i += 1) await failure(service.verify({ email: 'sam@example.test', code: samCode === '000000' ? '111111' : '000000' }));
    expect(await failure(service.verify({ email: 'sam@example.test', code: samCode }))).toMatchObject({ code: 'RATE_LIMITED', message: MESSAGES.deadCode });
    expect(store.accounts.has('sam@example.test')).toBe(false);
  });
});
