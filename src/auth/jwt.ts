import type { EntityManager } from '@mikro-orm/postgresql';
import { createPublicKey, KeyObject } from 'node:crypto';
import { createRemoteJWKSet, errors as joseErrors, jwtVerify, JWTPayload, JWTVerifyGetKey } from 'jose';
import { AppError } from '../common/errors';
import type { Config } from '../config/config';
import { AccountKind } from './viewer';

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
   * The token's account: the one bound to its issuer and subject; else, when the token proves its
   * e-mail address, the person whose address was proven too (and the identity is bound to it); else
   * a new person, bound to the identity, taking the address from any account holding it unproven
   * (an agent+ signup). An unproven address is never matched nor stored.
   */
  async accountFor(em: EntityManager, token: string): Promise<{ accountId: string; expiresAt: number }> {
    const payload = await this.verify(token);
    // requiredClaims makes exp present; the viewer may be remembered until then, never longer.
    const expiresAt = Number(payload.exp) * 1000;
    const issuer = String(payload.iss);
    const subject = typeof payload.sub === 'string' && payload.sub.trim() ? payload.sub : null;
    const email = this.provenEmail(payload);
    if (!subject && !email) throw new AppError('UNAUTHENTICATED', 'Token has neither a subject (sub) nor a verified e-mail claim');

    // Two first requests may race: the loser's insert finds the winner's row on the next pass.
    for (let attempt = 0; attempt < 3; attempt += 1) {
      if (subject) {
        const bound = await em.execute<{ account_id: string }[]>(
          'select account_id from account_identities where issuer = ? and subject = ?',
          [issuer, subject],
        );
        if (bound[0]) return { accountId: bound[0].account_id, expiresAt };
      }
      if (email) {
        // Only a proven address: an agent+ signup's (no mailbox proof) is never signed in to by e-mail.
        const byEmail = await em.execute<{ id: string }[]>(`select id from accounts where email = ? and kind = 'person' and email_verified_at is not null`, [email]);
        if (byEmail[0]) {
          if (subject) await this.bind(em, byEmail[0].id, issuer, subject);
          return { accountId: byEmail[0].id, expiresAt };
        }
      }
      const created = await this.createAccount(em, payload, email, issuer, subject);
      if (created) return { accountId: created, expiresAt };
    }
    throw new AppError('UNAUTHENTICATED', 'The account for this token could not be created');
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

  private async bind(em: EntityManager, accountId: string, issuer: string, subject: string): Promise<boolean> {
    const rows = await em.execute<{ id: string }[]>(
      `insert into account_identities (id, created_at, updated_at, account_id, issuer, subject)
       values (gen_random_uuid(), now(), now(), ?, ?, ?)
       on conflict (issuer, subject) do nothing returning id`,
      [accountId, issuer, subject],
    );
    return rows.length > 0;
  }

  /** A new person with its identity, in one transaction; null when a concurrent request won. */
  private async createAccount(em: EntityManager, payload: JWTPayload, email: string | null, issuer: string, subject: string | null): Promise<string | null> {
    const name = typeof payload.name === 'string' && payload.name.trim() ? payload.name.trim().slice(0, 200) : (email ?? String(subject).slice(0, 200));
    try {
      return await em.transactional(async (tx) => {
        // Proof takes the address from an account that holds it unproven (it keeps its keys and data, not the address).
        if (email) await tx.execute(`update accounts set email = null, updated_at = now() where email = ? and email_verified_at is null`, [email]);
        const rows = await tx.execute<{ id: string }[]>(
          `insert into accounts (id, created_at, updated_at, kind, name, email, email_verified_at)
           values (gen_random_uuid(), now(), now(), ?, ?, ?, case when ?::text is null then null else now() end)
           on conflict do nothing returning id`,
          [AccountKind.person, name, email, email],
        );
        if (!rows[0]) throw new LostRace();
        if (subject && !(await this.bind(tx as EntityManager, rows[0].id, issuer, subject))) throw new LostRace();
        return rows[0].id;
      });
    } catch (error) {
      if (error instanceof LostRace) return null;
      throw error;
    }
  }
}

/** Rolls back an account insert another request already made (same e-mail or identity). */
class LostRace extends Error {}

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
