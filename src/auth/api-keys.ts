import { hash, randomBytes } from 'node:crypto';

/** A new random key: the configured prefix and 32 random bytes, base64url. Shown to its owner once. */
export function generateApiKey(prefix: string): string {
  return `${prefix}${randomBytes(32).toString('base64url')}`;
}

/**
 * Keys are stored and looked up only by this hash. One request in every one hashes its key, so
 * it is the one-shot `crypto.hash`: `createHash(...).update().digest()` cost 19-23 µs a request in
 * a service process at saturation (OpenSSL looks the digest up and builds a context each time),
 * `crypto.hash` 4-5 µs (bench/results/2026-11-27-young-generation.md).
 */
export function hashApiKey(raw: string): string {
  return hash('sha256', raw, 'hex');
}

/** The part of a key shown in listings: enough to tell keys apart, useless to an attacker. */
export function apiKeyHint(raw: string): string {
  return `${raw.slice(0, Math.min(raw.length, 12))}…`;
}
