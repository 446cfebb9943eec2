import { hash, randomBytes } from 'node:crypto';

/** A new random key: the configured prefix and 32 random bytes, base64url. Shown to its owner once. */
export function generateApiKey(prefix: string): string {
  return `${prefix}${randomBytes(32).toString('base64url')}`;
}

/**
 * Keys are stored and looked up only by this hash. Every request with a key hashes it, so it is the
 * one-shot `crypto.hash`: in a service process at saturation `createHash(...).update().digest()`
 * took 12-14 µs on average (OpenSSL looks the digest up and builds a context each time),
 * `crypto.hash` 7-13 µs (bench/results/2026-11-27-young-generation.md).
 */
export function hashApiKey(raw: string): string {
  return hash('sha256', raw, 'hex');
}

/** The part of a key shown in listings: enough to tell keys apart, useless to an attacker. */
export function apiKeyHint(raw: string): string {
  return `${raw.slice(0, Math.min(raw.length, 12))}…`;
}
