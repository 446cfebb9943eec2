import { AppError } from '../../common/errors';
import type { Logger } from '../../common/logger';
import type { ProvidersConfig } from '../../config/config';
import { ResilientHttpClient, unexpectedStatus } from '../http/resilient-http';
import { TokenCache } from '../http/token-cache';

export interface PlatformSearchParams {
  q: string;
  type: string[];
  market?: string;
  limit: number;
  offset: number;
}

/** Search answer: one paging object per requested item type (`artists`, `tracks`, …). */
export type PlatformSearchAnswer = Record<string, Record<string, unknown>>;

/**
 * The streaming platform (platform_a) Web API: a client-credentials token from the accounts
 * service (Basic auth, form `grant_type=client_credentials`), then Bearer calls to /v1/search.
 */
export class PlatformAClient {
  static readonly missingSetting = 'PLATFORM_A_CLIENT_ID and PLATFORM_A_CLIENT_SECRET';
  private readonly http: ResilientHttpClient;
  private readonly tokens: TokenCache;

  constructor(
    private readonly config: ProvidersConfig['platformA'],
    policy: ProvidersConfig['http'],
    log: Logger,
  ) {
    this.http = new ResilientHttpClient('platform_a', policy, log);
    this.tokens = new TokenCache(() => this.mintToken());
  }

  get configured(): boolean {
    return Boolean(this.config.clientId && this.config.clientSecret);
  }

  get circuitState() {
    return this.http.circuitState;
  }

  async search(params: PlatformSearchParams): Promise<PlatformSearchAnswer> {
    const res = await this.authorized({
      url: `${this.config.apiUrl}/v1/search`,
      query: { q: params.q, type: params.type.join(','), market: params.market, limit: params.limit, offset: params.offset },
    });
    if (res.status !== 200 || typeof res.body !== 'object' || res.body === null) throw unexpectedStatus('platform_a', res, 'Search');
    return res.body as PlatformSearchAnswer;
  }

  private async authorized(req: { url: string; query: Record<string, string | number | undefined> }) {
    const token = await this.tokens.get();
    const res = await this.http.request({ ...req, headers: { authorization: `Bearer ${token}` } });
    if (res.status !== 401) return res;
    // Revoked or expired early: mint once more, then give up.
    this.tokens.invalidate(token);
    return this.http.request({ ...req, headers: { authorization: `Bearer ${await this.tokens.get()}` } });
  }

  private async mintToken() {
    if (!this.configured) throw new AppError('PROVIDER_UNAVAILABLE', `platform_a is not configured: set ${PlatformAClient.missingSetting}`, { retryAfter: 300 });
    const basic = Buffer.from(`${this.config.clientId}:${this.config.clientSecret}`).toString('base64');
    const res = await this.http.request<{ access_token?: string; expires_in?: number }>({
      method: 'POST',
      url: `${this.config.accountsUrl}/api/token`,
      headers: { authorization: `Basic ${basic}` },
      form: { grant_type: 'client_credentials' },
    });
    if (res.status !== 200 || typeof res.body?.access_token !== 'string') {
      throw new AppError('PROVIDER_ERROR', `The platform_a provider refused the configured client credentials (${res.status})`);
    }
    return { token: res.body.access_token, expiresInS: Number(res.body.expires_in ?? 3600) };
  }
}
