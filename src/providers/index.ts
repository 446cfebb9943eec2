import type { Logger } from '../common/logger';
import type { Config } from '../config/config';
import { MusicIntelClient } from './music-intel/music-intel.client';
import { PlatformAClient } from './platform-a/platform-a.client';
import { PlatformNames } from './platforms';
import { TrackStatsClient } from './track-stats/track-stats.client';

/** Upstream clients, made once per process: token caches and circuit breakers live here. */
export interface Providers {
  platformA: PlatformAClient;
  trackStats: TrackStatsClient;
  musicIntel: MusicIntelClient;
  platformNames: PlatformNames;
  curatorPlatformNames: PlatformNames;
}

export function createProviders(config: Config, logger: Logger): Providers {
  const p = config.providers;
  const log = logger.child({ component: 'providers' });
  return {
    platformA: new PlatformAClient(p.platformA, p.http, log),
    trackStats: new TrackStatsClient(p.trackStats, p.http, log),
    musicIntel: new MusicIntelClient(p.musicIntel, p.http, log),
    platformNames: new PlatformNames(p.platformNames),
    curatorPlatformNames: new PlatformNames(p.curatorPlatformNames),
  };
}
