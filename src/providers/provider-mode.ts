import type { Logger } from '../common/logger';
import type { Config } from '../config/config';
import { Sandbox, startSandbox } from './sandbox/sandbox';

export interface ProviderMode {
  /** The configuration the clients are built from (sandbox: pointed at the local upstreams). */
  config: Config;
  /** One line of the start-up banner. */
  banner: string;
  /** The running sandbox upstreams (PROVIDERS=sandbox only). */
  sandbox?: Sandbox;
  close(): Promise<void>;
}

/** PROVIDERS=sandbox starts the local upstreams before any client is built; live changes nothing. */
export async function startProviderMode(config: Config, logger: Logger): Promise<ProviderMode> {
  if (config.providers.mode === 'sandbox') {
    const sandbox = await startSandbox({ rateLimitEvery: config.providers.sandboxRateLimitEvery, maxRecorded: 1000 });
    logger.warn({ platformA: sandbox.platformA.server.url, trackStats: sandbox.trackStats.url, musicIntel: sandbox.musicIntel.server.url }, 'providers: sandbox upstreams on loopback, generated data');
    return {
      config: { ...config, providers: sandbox.providersConfig(config.providers) },
      banner: `  Providers sandbox (local, generated data): ${sandbox.data.artists.length} artists, ${sandbox.data.tracks.length} tracks, no credentials needed; PROVIDERS=live for the real ones`,
      sandbox,
      close: sandbox.close,
    };
  }
  const p = config.providers;
  const configured = [
    p.platformA.clientId && p.platformA.clientSecret ? 'platform_a' : undefined,
    p.trackStats.apiKey ? 'track stats' : undefined,
    p.musicIntel.refreshToken ? 'music intelligence' : undefined,
  ].filter(Boolean);
  return {
    config,
    banner: `  Providers live (${configured.length ? `configured: ${configured.join(', ')}` : 'none configured: stored answers only; PROVIDERS=sandbox to try research offline'})`,
    close: async () => undefined,
  };
}
