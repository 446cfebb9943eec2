import type { Db } from '../db/request-db';
import { createPublicKey, KeyObject } from 'node:crypto';
import { createRemoteJWKSet, errors as joseErrors, jwtVerify, JWTPayload, JWTVerifyGetKey } from 'jose';
import { AppError } from '../common/errors';
import type { Config } from '../config/config';

/** The identity provider's key set could not be fetched or read: not the client's fault (503). */
class KeySetUnavailable extends Error {}

/** What a verified token says about its holder: the identity and, when proven, the e-mail address. */
export interface TokenIdentity {
  issuer: string;
  subject: string | null;
  /** Lower-cased, and only when the token proves it. */
  email: string | null;
  /** The name a new account takes. */
  name: string;
}

/** The accounts tokens sign in to: found or made by the account module, handed in by the composition root. */
export interface IdentityAccounts {
  accountFor(db: Db, identity: TokenIdentity): Promise<string>;
}

/**
 * Verifies identity-provider JWTs (jose) against a JWKS URL or a configured PEM public key, with
 * issuer, audience and exp required, asymmetric algorithms only, and maps the token to an account
 * (created on first sight by IdentityAccounts).
 */
export class JwtVerifier {
  private readonly getKey?: JWTVerifyGetKey;
  private publicKey?: KeyObject;

  constructor(
    private readonly config: Config,
    private readonly accounts: IdentityAccounts,
  ) {
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
   * The token's account (IdentityAccounts: the one bound to its issuer and subject, else the person
   * with its proven address, else a new person) and until when it may be remembered.
   */
  async accountFor(db: Db, token: string): Promise<{ accountId: string; expiresAt: number }> {
    const payload = await this.verify(token);
    // requiredClaims makes exp present; the viewer may be remembered until then, never longer.
    const expiresAt = Number(payload.exp) * 1000;
    const issuer = String(payload.iss);
    const subject = typeof payload.sub === 'string' && payload.sub.trim() ? payload.sub : null;
    const email = this.provenEmail(payload);
    if (!subject && !email) throw new AppError('UNAUTHENTICATED', 'Token has neither a subject (sub) nor a verified e-mail claim');
    const name = typeof payload.name === 'string' && payload.name.trim() ? payload.name.trim().slice(0, 200) : (email ?? String(subject).slice(0, 200));
    return { accountId: await this.accounts.accountFor(db, { issuer, subject, email, name }), expiresAt };
  }

  /** The e-mail claim, lower-cased, when the token proves it; null otherwise. */
  private provenEmail(payload: JWTPayload): string | null {
    const claim = payload[this.config.auth.emailClaim];
    if (typeof claim !== 'string' || !/^[^\s@]+@[^\s@]+$/.test(claim.trim())) return null;
    // Only the boolean true is proof ("false" is a truthy string); trust covers an absent claim only.
    const verified = payload.email_verified;
    const proven = verified === true || (this.config.auth.trustEmail && verified === undefined);
    return proven ? claim.trim().toLowerCase() : null;
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
