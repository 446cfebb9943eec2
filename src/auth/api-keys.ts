import { createHash, randomBytes } from 'node:crypto';

/** A new random key: the configured prefix and 32 random bytes, base64url. Shown to its owner once. */
export function generateApiKey(prefix: string): string {
  return `${prefix}${randomBytes(32).toString('base64url')}`;
}

/** Keys are stored and looked up only by this hash. */
export function hashApiKey(raw: string): string {
  return createHash('sha256').update(raw, 'utf8').digest('hex');
}

/** The part of a key shown in listings: enough to tell keys apart, useless to an attacker. */
export function apiKeyHint(raw: string): string {
  return `${raw.slice(0, Math.min(raw.length, 12))}…`;
}
