import type { ProvidersConfig } from '../../config/config';
import { musicIntelSandbox, SANDBOX_REFRESH_TOKEN } from './music-intel.sandbox';
import { platformASandbox, SANDBOX_CLIENT_ID, SANDBOX_CLIENT_SECRET } from './platform-a.sandbox';
import { generateSandboxData, SandboxData } from './sandbox-data';
import { SandboxServerOptions, SandboxTokens } from './sandbox-server';
import { SANDBOX_TRACK_STATS_KEY, trackStatsSandbox } from './track-stats.sandbox';

export interface SandboxOptions extends SandboxServerOptions {
  /** Lifetime of issued access tokens, seconds (short values exercise the clients' refresh). */
  tokenLifetimeS?: number;
  data?: SandboxData;
}

export type Sandbox = Awaited<ReturnType<typeof startSandbox>>;

/** Generated data is the same every time: made once per process and shared by every sandbox. */
let shared: SandboxData | undefined;
export const sandboxData = (): SandboxData => (shared ??= generateSandboxData());

/**
 * The three provider upstreams on loopback ephemeral ports, speaking the real protocols over one
 * generated data set; `providersConfig` points the real clients at them with sandbox credentials.
 */
export async function startSandbox(options: SandboxOptions = {}) {
  const data = options.data ?? sandboxData();
  const server = { rateLimitEvery: options.rateLimitEvery, maxRecorded: options.maxRecorded };
  const platformA = platformASandbox(data, new SandboxTokens(options.tokenLifetimeS ?? 3600, 'sandbox-a-token'), server);
  const trackStats = trackStatsSandbox(data, server);
  const musicIntel = musicIntelSandbox(data, new SandboxTokens(options.tokenLifetimeS ?? 3600, 'sandbox-mi-token'), server);
  const servers = [platformA.server, trackStats, musicIntel.server];
  await Promise.all(servers.map((s) => s.start()));
  return {
    data,
    platformA,
    trackStats,
    musicIntel,
    servers,
    /** The same settings as environment variables (for loadConfig). */
    env: {
      PLATFORM_A_API_URL: platformA.server.url,
      PLATFORM_A_ACCOUNTS_URL: platformA.server.url,
      PLATFORM_A_CLIENT_ID: SANDBOX_CLIENT_ID,
      PLATFORM_A_CLIENT_SECRET: SANDBOX_CLIENT_SECRET,
      TRACK_STATS_API_URL: `${trackStats.url}/enterprise/v1`,
      TRACK_STATS_API_KEY: SANDBOX_TRACK_STATS_KEY,
      MUSIC_INTEL_API_URL: musicIntel.server.url,
      MUSIC_INTEL_REFRESH_TOKEN: SANDBOX_REFRESH_TOKEN,
    },
    providersConfig(base: ProvidersConfig): ProvidersConfig {
      return {
        ...base,
        platformA: { apiUrl: platformA.server.url, accountsUrl: platformA.server.url, clientId: SANDBOX_CLIENT_ID, clientSecret: SANDBOX_CLIENT_SECRET },
        trackStats: { apiUrl: `${trackStats.url}/enterprise/v1`, apiKey: SANDBOX_TRACK_STATS_KEY },
        musicIntel: { apiUrl: musicIntel.server.url, refreshToken: SANDBOX_REFRESH_TOKEN },
      };
    },
    requestCount: () => servers.reduce((n, s) => n + s.requests.length, 0),
    reset: () => servers.forEach((s) => s.reset()),
    close: async () => {
      await Promise.all(servers.map((s) => s.close()));
    },
  };
}
