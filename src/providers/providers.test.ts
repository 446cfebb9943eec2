import { ConfigError, loadConfig } from '../config/config';
import { TokenCache } from './http/token-cache';
import { PlatformNames } from './platforms';

describe('provider configuration', () => {
  it('defaults to the real services and leaves providers unconfigured without credentials', () => {
    const p = loadConfig({}).providers;
    expect(p.platformA).toEqual({ apiUrl: 'https://api.spotify.com', accountsUrl: 'https://accounts.spotify.com', clientId: undefined, clientSecret: undefined });
    expect(p.trackStats.apiUrl).toBe('https://api.songstats.com/enterprise/v1');
    expect(p.musicIntel.apiUrl).toBe('https://api.chartmetric.com');
    expect(p.http.timeoutMs).toBe(5000);
    expect(p.platformNames).toEqual({ platform_a: 'spotify', platform_b: 'apple_music', platform_c: 'deezer', platform_d: 'youtube' });
    expect(p.curatorPlatformNames.platform_b).toBe('applemusic');
  });

  it('reads the platform name table and rejects a malformed one naming the variable', () => {
    expect(loadConfig({ PROVIDER_PLATFORM_NAMES: 'platform_a=tidal, platform_b=qobuz' }).providers.platformNames).toEqual({ platform_a: 'tidal', platform_b: 'qobuz' });
    expect(() => loadConfig({ PROVIDER_PLATFORM_NAMES: 'spotify' })).toThrow(ConfigError);
    expect(() => loadConfig({ PROVIDER_PLATFORM_NAMES: 'spotify' })).toThrow(/PROVIDER_PLATFORM_NAMES/);
    expect(() => loadConfig({ PROVIDER_TIMEOUT_MS: '0' })).toThrow(/PROVIDER_TIMEOUT_MS/);
  });
});

describe('PlatformNames', () => {
  const names = new PlatformNames({ platform_a: 'spotify', platform_b: 'apple_music' });
  it('maps both ways and keeps names without a neutral counterpart', () => {
    expect(names.upstream('platform_b')).toBe('apple_music');
    expect(names.neutral('spotify')).toBe('platform_a');
    expect(names.neutral('tiktok')).toBe('tiktok');
    expect(names.neutralKeys({ spotify: 1, shazam: 2 })).toEqual({ platform_a: 1, shazam: 2 });
  });
});

describe('TokenCache', () => {
  it('shares one mint between concurrent callers, reuses the token, and renews it before expiry', async () => {
    let now = 0;
    let minted = 0;
    const cache = new TokenCache(async () => ({ token: `t${++minted}`, expiresInS: 100 }), () => now);
    expect(await Promise.all([cache.get(), cache.get()])).toEqual(['t1', 't1']);
    now = 89_000;
    expect(await cache.get()).toBe('t1');
    now = 91_000; // within the last tenth of the lifetime
    expect(await cache.get()).toBe('t2');
    cache.invalidate('t1'); // a stale rejection does not drop the newer token
    expect(await cache.get()).toBe('t2');
    cache.invalidate('t2');
    expect(await cache.get()).toBe('t3');
  });

  it('does not cache a failed mint', async () => {
    let calls = 0;
    const cache = new TokenCache(async () => {
      calls += 1;
      if (calls === 1) throw new Error('down');
      return { token: 'ok', expiresInS: 60 };
    });
    await expect(cache.get()).rejects.toThrow('down');
    await expect(cache.get()).resolves.toBe('ok');
  });
});
