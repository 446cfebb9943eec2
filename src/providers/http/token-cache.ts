export interface MintedToken {
  token: string;
  /** Lifetime in seconds as the issuer states it. */
  expiresInS: number;
}

/**
 * One access token per provider, shared by all requests: minted once (concurrent callers share
 * the same mint), reused until shortly before it expires, and dropped when the upstream says 401.
 */
export class TokenCache {
  private current?: { token: string; refreshAt: number };
  private pending?: Promise<string>;

  constructor(
    private readonly mint: () => Promise<MintedToken>,
    private readonly now: () => number = Date.now,
  ) {}

  async get(): Promise<string> {
    if (this.current && this.now() < this.current.refreshAt) return this.current.token;
    this.pending ??= this.mint()
      .then(({ token, expiresInS }) => {
        // Renew a little early: a tenth of the lifetime, at most a minute.
        const skewMs = Math.min(60_000, expiresInS * 100);
        this.current = { token, refreshAt: this.now() + expiresInS * 1000 - skewMs };
        return token;
      })
      .finally(() => {
        this.pending = undefined;
      });
    return this.pending;
  }

  /** The upstream rejected `token`: the next get() mints a new one (unless another caller already did). */
  invalidate(token: string): void {
    if (this.current?.token === token) this.current = undefined;
  }
}
