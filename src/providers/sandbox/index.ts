export { startSandbox, sandboxData } from './sandbox';
export type { Sandbox, SandboxOptions } from './sandbox';
export { SandboxServer, SandboxTokens } from './sandbox-server';
export type { RecordedRequest, SandboxReply } from './sandbox-server';
export { platformASandbox, SANDBOX_CLIENT_ID, SANDBOX_CLIENT_SECRET } from './platform-a.sandbox';
export { trackStatsSandbox, SANDBOX_TRACK_STATS_KEY } from './track-stats.sandbox';
export { musicIntelSandbox, SANDBOX_REFRESH_TOKEN } from './music-intel.sandbox';
export { generateSandboxData, SANDBOX_ARTIST_COUNT } from './sandbox-data';
