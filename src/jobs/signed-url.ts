import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** HMAC-signed, expiring links to rendered files: the link itself is the credential. */
export class UrlSigner {
  constructor(
    private secret: string | undefined,
    private readonly baseUrl: string,
    private readonly ttlS: number,
  ) {}

  /** True when no key was configured: the app then loads the one every instance shares. */
  get needsKey(): boolean {
    return this.secret === undefined;
  }

  /** Sets the shared key once, before the first link is signed or checked. */
  useKey(secret: string): void {
    if (this.secret !== undefined) throw new Error('the link signer already has a key');
    this.secret = secret;
  }

  sign(key: string, now = Date.now()): { url: string; expiresAt: Date } {
    const expires = Math.floor(now / 1000) + this.ttlS;
    const signature = this.signature(key, expires);
    return { url: `${this.baseUrl}/media/renders/${key}?expires=${expires}&signature=${signature}`, expiresAt: new Date(expires * 1000) };
  }

  /** 'ok', or why the link is refused. */
  verify(key: string, expires: unknown, signature: unknown, now = Date.now()): 'ok' | 'invalid' | 'expired' {
    if (typeof expires !== 'string' || !/^\d{1,12}$/.test(expires) || typeof signature !== 'string') return 'invalid';
    const expected = Buffer.from(this.signature(key, Number(expires)));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return 'invalid';
    return Number(expires) * 1000 < now ? 'expired' : 'ok';
  }

  private signature(key: string, expires: number): string {
    // Only reachable when the composition root skipped useKey: never sign with a made-up key.
    if (this.secret === undefined) throw new Error('the link signer has no key');
    return createHmac('sha256', this.secret).update(`${key}\n${expires}`).digest('base64url');
  }
}

/** Name of the settings row holding the generated link key when RENDER_URL_SECRET is unset. */
export const URL_SECRET_SETTING = 'render_url_secret';

/** A fresh link key, stored once by the first instance (sharedSetting) and used by all. */
export function newUrlSecret(): string {
  return randomBytes(32).toString('base64url');
}
