import type { EntityManager } from '@mikro-orm/postgresql';
import { createRemoteJWKSet, errors as joseErrors, importSPKI, jwtVerify, JWTPayload, JWTVerifyGetKey, KeyLike } from 'jose';
import { AppError } from '../common/errors';
import type { Config } from '../config/config';
import { Account, AccountKind } from '../modules/account/account.entity';

/**
 * Verifies identity-provider JWTs (jose) against a JWKS URL or a configured PEM public key, with
 * issuer, audience and exp required, and maps the token to an account (created on first sight).
 */
export class JwtVerifier {
  private keyPromise?: Promise<KeyLike | JWTVerifyGetKey>;

  constructor(private readonly config: Config) {}

  get configured(): boolean {
    return Boolean(this.config.auth.jwksUrl || this.config.auth.jwtPublicKey);
  }

  private key(): Promise<KeyLike | JWTVerifyGetKey> {
    const { jwksUrl, jwtPublicKey, jwtAlgorithms } = this.config.auth;
    this.keyPromise ??= jwksUrl
      ? Promise.resolve(createRemoteJWKSet(new URL(jwksUrl), { timeoutDuration: 3000, cooldownDuration: 30_000 }))
      : importSPKI(jwtPublicKey!.replace(/\\n/g, '\n'), jwtAlgorithms[0]);
    return this.keyPromise;
  }

  async verify(token: string): Promise<JWTPayload> {
    if (!this.configured) {
      throw new AppError('UNAUTHENTICATED', 'Bearer tokens are not accepted: no identity provider is configured');
    }
    const { jwtIssuer, jwtAudience, jwtAlgorithms, clockToleranceS } = this.config.auth;
    try {
      const key = await this.key();
      const options = {
        issuer: jwtIssuer,
        audience: jwtAudience,
        algorithms: jwtAlgorithms,
        clockTolerance: clockToleranceS,
        requiredClaims: ['exp', ...(jwtIssuer ? ['iss'] : []), ...(jwtAudience ? ['aud'] : [])],
      };
      const { payload } =
        typeof key === 'function' ? await jwtVerify(token, key, options) : await jwtVerify(token, key, options);
      return payload;
    } catch (error) {
      throw mapJoseError(error);
    }
  }

  /** Finds the token's account by its e-mail claim (or subject), creating a person on first sight. */
  async accountFor(em: EntityManager, token: string): Promise<string> {
    const payload = await this.verify(token);
    const claim = payload[this.config.auth.emailClaim];
    const email = typeof claim === 'string' && claim.includes('@') ? claim.trim().toLowerCase() : null;
    const subject = typeof payload.sub === 'string' && payload.sub ? `${payload.iss ?? ''}|${payload.sub}` : null;
    if (!email && !subject) throw new AppError('UNAUTHENTICATED', 'Token has neither an e-mail claim nor a subject');

    const existing = await em.findOne(Account, email ? { email } : { externalSubject: subject });
    if (existing) return existing.id;
    const name = typeof payload.name === 'string' && payload.name.trim() ? payload.name.trim() : (email ?? String(payload.sub));
    // Insert-or-get: two first requests with the same token must not create two accounts.
    const rows = await em.getConnection().execute<{ id: string }[]>(
      `insert into accounts (id, created_at, updated_at, kind, name, email, external_subject)
       values (gen_random_uuid(), now(), now(), ?, ?, ?, ?)
       on conflict do nothing returning id`,
      [AccountKind.person, name, email, subject],
    );
    if (rows[0]) return rows[0].id;
    const again = await em.findOneOrFail(Account, email ? { email } : { externalSubject: subject });
    return again.id;
  }
}

function mapJoseError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof joseErrors.JWKSTimeout || error instanceof TypeError || error instanceof joseErrors.JWKSInvalid) {
    // The identity provider's key set could not be fetched: not the client's fault.
    return new AppError('PROVIDER_UNAVAILABLE', 'The identity provider key set is unavailable; try again shortly', { retryAfter: 30 });
  }
  if (error instanceof joseErrors.JWTExpired) return new AppError('UNAUTHENTICATED', 'Token has expired');
  if (error instanceof joseErrors.JWTClaimValidationFailed) {
    return new AppError('UNAUTHENTICATED', `Token claim "${error.claim}" is invalid`);
  }
  return new AppError('UNAUTHENTICATED', 'Invalid token');
}
