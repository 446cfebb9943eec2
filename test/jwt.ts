import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, exportSPKI, generateKeyPair, JWTPayload, KeyLike, SignJWT } from 'jose';

export const JWT_ISSUER = 'https://idp.example.test/';
export const JWT_AUDIENCE = 'music-agent-service';

export interface JwtIssuer {
  /** AUTH_* variables pointing the app at this issuer's JWKS. */
  env: Record<string, string>;
  jwksUrl: string;
  /** The public key as PEM (for AUTH_JWT_PUBLIC_KEY). */
  publicPem: string;
  /** A valid RS256 token (1 hour) with these claims; options override the registered claims. */
  sign(claims?: JWTPayload, options?: { issuer?: string; audience?: string; expiresIn?: string | number | null; kid?: string }): Promise<string>;
  /** The same claims, HS256-signed with the public key PEM as the secret (algorithm confusion). */
  signHs256(claims?: JWTPayload): Promise<string>;
  /** An unsecured token: alg none, no signature. */
  unsigned(claims?: JWTPayload): string;
  /** Number of JWKS requests served. */
  fetches(): number;
  close(): Promise<void>;
}

const KID = 'test-key-1';

/** A local identity provider: an RSA key made by jose, its JWKS served over HTTP on a free port. */
export async function startJwtIssuer(): Promise<JwtIssuer> {
  const { publicKey, privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = { ...(await exportJWK(publicKey)), kid: KID, alg: 'RS256', use: 'sig' };
  const publicPem = await exportSPKI(publicKey as KeyLike);
  let count = 0;
  const server: Server = createServer((req, res) => {
    count += 1;
    if (req.url === '/jwks.json') {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ keys: [jwk] }));
      return;
    }
    res.statusCode = 404;
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const jwksUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks.json`;
  const now = () => Math.floor(Date.now() / 1000);
  return {
    env: { AUTH_JWKS_URL: jwksUrl, AUTH_JWT_ISSUER: JWT_ISSUER, AUTH_JWT_AUDIENCE: JWT_AUDIENCE },
    jwksUrl,
    publicPem,
    async sign(claims = {}, options = {}) {
      const jwt = new SignJWT(claims)
        .setProtectedHeader({ alg: 'RS256', kid: options.kid ?? KID })
        .setIssuedAt()
        .setIssuer(options.issuer ?? JWT_ISSUER)
        .setAudience(options.audience ?? JWT_AUDIENCE);
      if (options.expiresIn !== null) jwt.setExpirationTime(options.expiresIn ?? '1h');
      return jwt.sign(privateKey);
    },
    async signHs256(claims = {}) {
      return new SignJWT(claims)
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuer(JWT_ISSUER)
        .setAudience(JWT_AUDIENCE)
        .setExpirationTime(now() + 3600)
        .sign(new TextEncoder().encode(publicPem));
    },
    unsigned(claims = {}) {
      const part = (v: object) => Buffer.from(JSON.stringify(v)).toString('base64url');
      return `${part({ alg: 'none', typ: 'JWT' })}.${part({ iss: JWT_ISSUER, aud: JWT_AUDIENCE, exp: now() + 3600, ...claims })}.`;
    },
    fetches: () => count,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
