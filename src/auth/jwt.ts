import type { EntityManager } from '@mikro-orm/postgresql';
import { createPublicKey, KeyObject } from 'node:crypto';
import { createRemoteJWKSet, errors as joseErrors, jwtVerify, JWTPayload, JWTVerifyGetKey } from 'jose';
import { AppError } from '../common/errors';
import type { Config } from '../config/config';
import { AccountKind } from '../modules/account/account.entity';

/** The identity provider's key set could not be fetched or read: not the client's fault (503). */
class KeySetUnavailable extends Error {}

/**
 * Verifies identity-provider JWTs (jose) against a JWKS URL or a configured PEM public key, with
 * issuer, audience and exp required, asymmetric algorithms only, and maps the token to an account
 * (created on first sight).
 */
export class JwtVerifier {
  private readonly getKey?: JWTVerifyGetKey;
  private publicKey?: KeyObject;

  constructor(private readonly config: Config) {
    const { jwksUrl } = config.auth;
    if (jwksUrl) {
      const remote = createRemoteJWKSet(new URL(jwksUrl), { timeoutDuration: 3000, cooldownDuration: 30_000 });
      this.getKey = async (header, token) => {
        try {
          return await remote(header, token);
        } catch (error) {
          // No key for this kid/alg is the token's fault; anything else (connection refused,
          // timeout, non-200, malformed set) means the provider is unavailable.
          if (
            error instanceof joseErrors.JWKSNoMatchingKey ||
            error instanceof joseErrors.JWKSMultipleMatchingKeys ||
            error instanceof joseErrors.JOSENotSupported
          ) {
            throw error;
          }
          throw new KeySetUnavailable('JWKS unavailable', { cause: error });
        }
      };
    }
  }

  get configured(): boolean {
    const { jwksUrl, jwtPublicKey, jwtIssuer, jwtAudience } = this.config.auth;
    return Boolean((jwksUrl || jwtPublicKey) && jwtIssuer && jwtAudience);
  }

  /** The PEM key, parsed once; its type (RSA, EC, Ed25519) decides which algorithms can match. */
  private pemKey(): KeyObject {
    if (!this.publicKey) {
      try {
        this.publicKey = createPublicKey(this.config.auth.jwtPublicKey!.replace(/\\n/g, '\n'));
      } catch (error) {
        throw new KeySetUnavailable('AUTH_JWT_PUBLIC_KEY is not a PEM public key', { cause: error });
      }
    }
    return this.publicKey;
  }

  async verify(token: string): Promise<JWTPayload> {
    if (!this.configured) {
      throw new AppError('UNAUTHENTICATED', 'Bearer tokens are not accepted: no identity provider is configured');
    }
    const { jwtIssuer, jwtAudience, jwtAlgorithms, clockToleranceS } = this.config.auth;
    const options = {
      issuer: jwtIssuer,
      audience: jwtAudience,
      // Never HS* or "none": config only admits asymmetric algorithms.
      algorithms: jwtAlgorithms,
      clockTolerance: clockToleranceS,
      // jose accepts a token without exp unless told otherwise.
      requiredClaims: ['exp', 'iss', 'aud'],
    };
    try {
      const { payload } = this.getKey ? await jwtVerify(token, this.getKey, options) : await jwtVerify(token, this.pemKey(), options);
      return payload;
    } catch (error) {
      throw mapJoseError(error);
    }
  }

  /**
   * Finds the token's account by its subject, else by its e-mail claim (unless the provider says the
   * address is unverified), creating a person on first sight.
   */
  async accountFor(em: EntityManager, token: string): Promise<string> {
    const payload = await this.verify(token);
    const claim = payload[this.config.auth.emailClaim];
    const emailUsable = typeof claim === 'string' && /^[^\s@]+@[^\s@]+$/.test(claim.trim()) && payload.email_verified !== false;
    const email = emailUsable ? (claim as string).trim().toLowerCase() : null;
    const subject = typeof payload.sub === 'string' && payload.sub ? `${payload.iss ?? ''}|${payload.sub}` : null;
    if (!email && !subject) throw new AppError('UNAUTHENTICATED', 'Token has neither a verified e-mail claim nor a subject');

    const conn = em.getConnection();
    const find = async () => {
      const rows = await conn.execute<{ id: string }[]>(
        `select id from accounts where external_subject = ? or email = ?
          order by (external_subject = ?) desc nulls last limit 1`,
        [subject, email, subject],
      );
      return rows[0]?.id;
    };
    const existing = await find();
    if (existing) return existing;
    const name = typeof payload.name === 'string' && payload.name.trim() ? payload.name.trim().slice(0, 200) : (email ?? String(payload.sub));
    // Insert-or-get: two first requests with the same token must not create two accounts.
    const rows = await conn.execute<{ id: string }[]>(
      `insert into accounts (id, created_at, updated_at, kind, name, email, external_subject)
       values (gen_random_uuid(), now(), now(), ?, ?, ?, ?)
       on conflict do nothing returning id`,
      [AccountKind.person, name, email, subject],
    );
    if (rows[0]) return rows[0].id;
    const again = await find();
    if (!again) throw new AppError('UNAUTHENTICATED', 'The account for this token could not be created');
    return again;
  }
}

function mapJoseError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof KeySetUnavailable) {
    return new AppError('PROVIDER_UNAVAILABLE', 'The identity provider key set is unavailable; try again shortly', { retryAfter: 30, cause: error });
  }
  if (error instanceof joseErrors.JWTExpired) return new AppError('UNAUTHENTICATED', 'Token has expired');
  if (error instanceof joseErrors.JWTClaimValidationFailed) {
    return new AppError('UNAUTHENTICATED', `Token claim "${error.claim}" is missing or invalid`);
  }
  if (error instanceof joseErrors.JOSEAlgNotAllowed) return new AppError('UNAUTHENTICATED', 'Token algorithm is not accepted');
  // Anything else (bad signature, malformed token, key type mismatch) is an invalid token.
  return new AppError('UNAUTHENTICATED', 'Invalid token');
}
