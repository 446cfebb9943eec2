import { z } from 'zod';
import { LIST_BOUNDS } from '../common/bounds';

/**
 * The one place that reads process.env. Every variable is documented in docs/operations/configuration.md.
 * A wrong value stops start-up with a message naming the variable.
 */
const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'must be true or false' })
  .transform((v) => v === 'true' || v === '1' || v === 'yes');
const int = (def: number, min = 0, max = Number.MAX_SAFE_INTEGER) =>
  z.coerce.number().int().min(min).max(max).default(def);
const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v));
const optionalUrl = optionalString.pipe(z.string().url({ message: 'must be a URL' }).optional());

/** `platform_a=spotify,platform_b=apple_music`: the contract's neutral platform names → upstream names. */
const platformMap = (def: string) => z
  .string()
  .default(def)
  .transform((v, ctx) => {
    const map: Record<string, string> = {};
    for (const pair of v.split(',').map((p) => p.trim()).filter(Boolean)) {
      const m = /^(platform_[a-z])=([a-z0-9_]+)$/.exec(pair);
      if (!m) {
        ctx.addIssue({ code: 'custom', message: `"${pair}" is not platform_x=name` });
        return z.NEVER;
      }
      map[m[1]] = m[2];
    }
    return map;
  });
const ASYMMETRIC_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: int(4000, 0, 65535),
  HOST: z.string().default('0.0.0.0'),
  PUBLIC_URL: optionalUrl,
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOG_FORMAT: z.enum(['auto', 'json', 'pretty']).default('auto'),
  SHUTDOWN_TIMEOUT_MS: int(10_000, 100, 60_000),

  DATABASE_URL: optionalUrl.pipe(z.string().regex(/^postgres(ql)?:\/\//, { message: 'must be a postgres:// or postgresql:// URL' }).optional()),
  DATABASE_POOL_MAX: int(10, 1, 200),
  // Connections the ORM pool keeps open however long it idles (issue 31): no reconnect, no re-preparation after a pause.
  // Unset: 2, or DATABASE_POOL_MAX when that is smaller.
  DATABASE_POOL_MIN: optionalString.pipe(z.coerce.number<string | undefined>().int().min(0).max(200).optional()),
  DATABASE_POOL_IDLE_TIMEOUT_MS: int(30_000, 1000, 3_600_000),
  DATABASE_PREPARED_STATEMENTS: bool.default(true),
  DATABASE_STATEMENT_TIMEOUT_MS: int(15_000, 0, 3_600_000),
  // Session connections (LISTEN/NOTIFY, pg-boss, the migration lock): direct to PostgreSQL, never through a transaction pooler.
  DATABASE_LISTEN_URL: optionalUrl.pipe(z.string().regex(/^postgres(ql)?:\/\//, { message: 'must be a postgres:// or postgresql:// URL' }).optional()),
  DATABASE_QUEUE_POOL_MAX: optionalString.pipe(z.coerce.number<string | undefined>().int().min(1).max(100).optional()),
  EMBEDDED_PG_DIR: z.string().default('./.data/postgres'),
  EMBEDDED_PG_PORT: int(54329, 1, 65535),
  DEMO_SEED: z.enum(['auto', 'true', 'false']).default('auto'),

  ADMIN_ORG_ID: z.string().uuid({ message: 'must be a UUID' }).default('00000000-0000-4000-8000-000000000001'),
  API_KEY_PREFIX: z.string().regex(/^[a-z][a-z0-9_]{1,15}$/, { message: 'must be 2-16 lowercase letters, digits or _' }).default('mas_'),

  AUTH_JWKS_URL: optionalUrl,
  AUTH_JWT_PUBLIC_KEY: optionalString,
  AUTH_JWT_ISSUER: optionalString,
  AUTH_JWT_AUDIENCE: optionalString,
  // Asymmetric algorithms only: an HMAC or "none" token must never verify against a public key.
  AUTH_JWT_ALGORITHMS: z
    .string()
    .default('RS256,ES256,PS256,EdDSA')
    .refine((v) => v.split(',').map((a) => a.trim()).filter(Boolean).every((a) => ASYMMETRIC_ALGORITHMS.includes(a)), {
      message: `must be a comma-separated list of ${'RS256, RS384, RS512, PS256, PS384, PS512, ES256, ES384, ES512, EdDSA'}`,
    }),
  AUTH_CLOCK_TOLERANCE_S: int(30, 0, 300),
  AUTH_EMAIL_CLAIM: z.string().default('email'),
  AUTH_TRUST_EMAIL: bool.default(false),
  AUTH_CACHE_TTL_MS: int(5_000, 0, 60_000),
  AUTH_CACHE_MAX: int(10_000, 1, 1_000_000),

  SMTP_URL: optionalUrl,
  MAIL_FROM: z.string().default('Music Agent Service <no-reply@localhost>'),
  SIGNUP_LIMIT_PER_IP_PER_HOUR: int(30, 1),
  SIGNUP_LIMIT_PER_ADDRESS_PER_HOUR: int(5, 1),
  INVITATIONS_MAX_PER_ORGANIZATION: int(100, 1, 100_000),
  INVITATIONS_MAX_PER_ACCOUNT: int(20, 1, 10_000),

  DEFAULT_MODEL_ID: z.string().min(1).default('gpt-4o-mini'),

  GRAPHQL_MAX_DEPTH: int(12, 2, 64),
  GRAPHQL_MAX_TOKENS: int(5000, 100, 1_000_000),
  // Unset: on, but off under NODE_ENV=production.
  GRAPHQL_INTROSPECTION: bool.optional(),
  GRAPHQL_MAX_RESPONSE_BYTES: int(8 * 1024 * 1024, 0, 1024 * 1024 * 1024),
  GRAPHQL_COMPILE_AFTER: int(1, 0, 1_000_000),
  GRAPHQL_COMPILED_MAX: int(250, 0, 100_000),
  // Automatic persisted queries (issue 27): one store in PostgreSQL shared by every instance, bounded and expiring.
  GRAPHQL_APQ_TTL_S: int(86_400, 60, 30 * 86_400),
  GRAPHQL_APQ_MAX_DOCUMENT_BYTES: int(65_536, 1024, 16 * 1024 * 1024),
  GRAPHQL_APQ_MAX_ENTRIES: int(10_000, 1, 10_000_000),
  GRAPHQL_APQ_MAX_BYTES: int(64 * 1024 * 1024, 1024, 16 * 1024 * 1024 * 1024),
  GRAPHQL_APQ_MEMORY_BYTES: int(8 * 1024 * 1024, 0, 1024 * 1024 * 1024),
  // Idempotency-Key on POST (issue 26): how long a key is kept, what is stored of it, how many an account holds.
  IDEMPOTENCY_TTL_HOURS: int(24, 1, 24 * 30),
  IDEMPOTENCY_MAX_KEY_LENGTH: int(255, 8, 1024),
  IDEMPOTENCY_MAX_ANSWER_BYTES: int(256 * 1024, 1024, 16 * 1024 * 1024),
  IDEMPOTENCY_MAX_KEYS_PER_ACCOUNT: int(10_000, 1, 10_000_000),
  IDEMPOTENCY_RUNNING_TIMEOUT_S: int(120, 5, 3600),
  // Usage an account can see (issue 26): gathered in memory per instance, added to PostgreSQL this often.
  USAGE_FLUSH_INTERVAL_MS: int(5000, 100, 60_000),
  USAGE_MAX_PENDING: int(100_000, 100, 10_000_000),
  REQUEST_BODY_LIMIT: z.string().default('1mb'),
  // How long an idle keep-alive connection stays open: past a proxy's own idle timeout (AWS ALB 60 s, nginx 60 s).
  HTTP_KEEP_ALIVE_TIMEOUT_MS: int(65_000, 1000, 3_600_000),
  REQUEST_MAX_DEPTH: int(32, 2, 1000),
  // Exact browser origins allowed to call the API (scheme://host[:port]); empty: none.
  CORS_ORIGINS: z
    .string()
    .default('')
    .transform((v, ctx) => {
      const origins = v.split(',').map((o) => o.trim()).filter(Boolean);
      for (const origin of origins) {
        let exact = false;
        try {
          const url = new URL(origin);
          exact = (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === origin && !origin.includes('*');
        } catch {
          exact = false;
        }
        if (!exact) {
          ctx.addIssue({ code: 'custom', message: `"${origin}" is not an exact origin such as https://app.example.com (no path, no wildcard)` });
          return z.NEVER;
        }
      }
      return [...new Set(origins)];
    }),
  METRICS_TOKEN: optionalString.pipe(z.string().min(16, { message: 'must be at least 16 characters' }).optional()),
  METRICS_EVENT_LOOP_RESOLUTION_MS: int(100, 10, 1000),
  TRUST_PROXY: z
    .string()
    .regex(/^(true|false|\d{1,2}|(loopback|linklocal|uniquelocal|[\d.:/a-fA-F]+)(\s*,\s*(loopback|linklocal|uniquelocal|[\d.:/a-fA-F]+))*)$/, { message: 'must be true, false, a hop count, loopback/linklocal/uniquelocal, or addresses/CIDRs' })
    .default('loopback'),

  PROVIDERS: z.enum(['live', 'sandbox'], { message: 'must be live or sandbox' }).default('live'),
  SANDBOX_RATE_LIMIT_EVERY: int(0, 0, 1_000_000),
  PLATFORM_A_API_URL: z.string().url({ message: 'must be a URL' }).default('https://api.spotify.com'),
  PLATFORM_A_ACCOUNTS_URL: z.string().url({ message: 'must be a URL' }).default('https://accounts.spotify.com'),
  PLATFORM_A_CLIENT_ID: optionalString,
  PLATFORM_A_CLIENT_SECRET: optionalString,
  TRACK_STATS_API_URL: z.string().url({ message: 'must be a URL' }).default('https://api.songstats.com/enterprise/v1'),
  TRACK_STATS_API_KEY: optionalString,
  MUSIC_INTEL_API_URL: z.string().url({ message: 'must be a URL' }).default('https://api.chartmetric.com'),
  MUSIC_INTEL_REFRESH_TOKEN: optionalString,
  PROVIDER_PLATFORM_NAMES: platformMap('platform_a=spotify,platform_b=apple_music,platform_c=deezer,platform_d=youtube'),
  PROVIDER_CURATOR_PLATFORM_NAMES: platformMap('platform_a=spotify,platform_b=applemusic,platform_c=deezer'),
  PROVIDER_TIMEOUT_MS: int(5000, 1, 120_000),
  PROVIDER_RETRIES: int(2, 0, 10),
  PROVIDER_RETRY_BASE_MS: int(200, 0, 60_000),
  PROVIDER_RETRY_MAX_WAIT_MS: int(5000, 0, 600_000),
  PROVIDER_BREAKER_FAILURES: int(5, 1, 1000),
  PROVIDER_BREAKER_OPEN_MS: int(30_000, 1, 3_600_000),
  RESEARCH_TTL_TRACK_STATS_S: int(6 * 3600),
  RESEARCH_TTL_DISCOVER_S: int(24 * 3600),
  RESEARCH_TTL_CURATOR_S: int(24 * 3600),
  RESEARCH_TTL_SEARCH_S: int(3600),
  RESEARCH_TTL_GENRES_S: int(7 * 24 * 3600),
  RESEARCH_TTL_ARTIST_TRACKS_S: int(24 * 3600),
  RESEARCH_TTL_ARTIST_PLAYLISTS_S: int(24 * 3600),
  RESEARCH_TTL_ARTIST_S: int(24 * 3600),
  RESEARCH_TTL_PLATFORM_SEARCH_S: int(3600),
  RENDER_WORKERS: int(1, 0, 16),
  RENDER_STORAGE_DIR: z.string().min(1).default('./.data/renders'),
  // Object storage (issue 17): unset keeps videos in RENDER_STORAGE_DIR.
  RENDER_STORAGE: optionalString.pipe(
    z.string().regex(/^s3:\/\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](\/[A-Za-z0-9!_.*'()/-]*)?$/, { message: 'must be s3://bucket or s3://bucket/prefix (bucket: 3-63 lower-case letters, digits, dots, dashes)' }).optional(),
  ),
  S3_ENDPOINT: optionalString.pipe(z.url({ protocol: /^https?$/, message: 'must be an http(s) URL' }).optional()),
  S3_REGION: z.string().regex(/^[a-z0-9-]{1,32}$/, { message: 'must be a region name such as us-east-1 or auto' }).default('us-east-1'),
  S3_FORCE_PATH_STYLE: bool.default(false),
  S3_PUBLIC_ENDPOINT: optionalString.pipe(z.url({ protocol: /^https?$/, message: 'must be an http(s) URL' }).optional()),
  RENDER_URL_TTL: int(3600, 1, 7 * 24 * 3600),
  RENDER_URL_SECRET: optionalString.pipe(z.string().min(16, { message: 'must be at least 16 characters' }).optional()),
  RENDER_RETRY_LIMIT: int(2, 0, 10),
  RENDER_RETRY_DELAY_S: int(5, 0, 3600),
  RENDER_JOB_EXPIRE_S: int(1800, 1, 23 * 3600),
  RENDER_MAINTENANCE_INTERVAL_S: int(30, 1, 3600),
  RENDER_POLL_INTERVAL_MS: int(1000, 500, 60_000),
  RENDER_PROGRESS_INTERVAL_MS: int(500, 0, 60_000),
  FFMPEG_PATH: optionalString,
  // Media props (issue 30): an image may decode to at most this many pixels on each side.
  RENDER_MAX_IMAGE_SIDE: int(4096, 1, 16_384),
  // Render limits (issue 12): per-account admission, retention, worker leases.
  RENDER_MAX_ACTIVE_PER_ACCOUNT: int(3, 1, 1000),
  RENDER_DAILY_PIXEL_FRAMES: int(100_000_000_000, 1),
  RENDER_RETENTION_HOURS: int(168, 0, 10 * 365 * 24),
  RENDER_HEARTBEAT_INTERVAL_S: int(5, 1, 60),
  RENDER_HEARTBEAT_TIMEOUT_S: int(30, 3, 3600),

  // Webhooks (issue 26): endpoints per account, URL safety, delivery.
  WEBHOOK_MAX_ENDPOINTS_PER_ACCOUNT: int(10, 1, 1000),
  WEBHOOK_WORKERS: int(2, 0, 32),
  WEBHOOK_ALLOW_HTTP: bool.default(false),
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: bool.default(false),
  WEBHOOK_TIMEOUT_MS: int(10_000, 100, 60_000),
  WEBHOOK_RETRY_SCHEDULE_S: z
    .string()
    .default('5,30,120,600,1800,3600,7200,14400,28800,28800')
    .transform((v, ctx) => {
      const steps = v.split(',').map((p) => p.trim());
      if (steps.length < 1 || steps.length > 30 || steps.some((p) => !/^\d{1,6}$/.test(p) || Number(p) < 1)) {
        ctx.addIssue({ code: 'custom', message: 'must be 1 to 30 comma-separated delays in seconds (each 1 to 999999)' });
        return z.NEVER;
      }
      return steps.map(Number);
    }),
  WEBHOOK_DISABLE_AFTER_S: int(3 * 24 * 3600, 1, 365 * 24 * 3600),
  WEBHOOK_SECRET_OVERLAP_S: int(24 * 3600, 0, 30 * 24 * 3600),
  WEBHOOK_DISPATCH_INTERVAL_MS: int(1000, 50, 60_000),

  // Request limits (issue 12): per-credential rate budgets, GraphQL operation cost, websocket caps.
  RATE_LIMIT_PER_MINUTE: int(600, 1, 1_000_000_000),
  RESEARCH_RATE_LIMIT_PER_MINUTE: int(60, 1, 1_000_000_000),
  RATE_LIMIT_LEASE_MAX: int(50, 0, 100_000),
  GRAPHQL_MAX_COST: int(600, 1, 1_000_000_000),
  GRAPHQL_WS_MAX_SUBSCRIPTIONS: int(20, 1, 10_000),
  GRAPHQL_WS_MAX_CONNECTIONS_PER_ACCOUNT: int(10, 1, 10_000),

  // Bounds on growth (issue 30): what one write may create; per-parent caps are in src/common/bounds.ts.
  CATALOG_MAX_NEW_ARTISTS_PER_WRITE: int(100, 1, 10_000),
  CATALOG_MAX_ARTISTS_PER_SONG: int(LIST_BOUNDS.creditsPerSong, 1, LIST_BOUNDS.creditsPerSong),
  ROSTER_MAX_ARTISTS: int(1000, 1, 1_000_000),

  MCP_ENABLED: bool.default(true),

  ROUTER_SECRET: optionalString.pipe(z.string().min(16, { message: 'must be at least 16 characters' }).optional()),
}).superRefine((e, ctx) => {
  // Generated data must never pass for real research in production: refuse rather than warn.
  if (e.PROVIDERS === 'sandbox' && e.NODE_ENV === 'production') {
    ctx.addIssue({ code: 'custom', path: ['PROVIDERS'], message: 'sandbox serves generated data and is refused with NODE_ENV=production' });
  }
  // Bearer tokens are accepted only with issuer and audience enforced (decisions §4).
  // A lease must survive a missed heartbeat or two, or live workers would lose their renders.
  if (e.RENDER_HEARTBEAT_TIMEOUT_S < 3 * e.RENDER_HEARTBEAT_INTERVAL_S) {
    ctx.addIssue({ code: 'custom', path: ['RENDER_HEARTBEAT_TIMEOUT_S'], message: 'must be at least 3 × RENDER_HEARTBEAT_INTERVAL_S' });
  }
  if (e.DATABASE_POOL_MIN !== undefined && e.DATABASE_POOL_MIN > e.DATABASE_POOL_MAX) {
    ctx.addIssue({ code: 'custom', path: ['DATABASE_POOL_MIN'], message: `must not be more than DATABASE_POOL_MAX (${e.DATABASE_POOL_MAX})` });
  }
  // Both URLs must name one database: the listen URL only bypasses a pooler in front of DATABASE_URL.
  if (e.DATABASE_LISTEN_URL && !e.DATABASE_URL) {
    ctx.addIssue({ code: 'custom', path: ['DATABASE_LISTEN_URL'], message: 'needs DATABASE_URL (unset, the embedded PostgreSQL is used for everything)' });
  }
  if (e.GRAPHQL_APQ_MAX_DOCUMENT_BYTES > e.GRAPHQL_APQ_MAX_BYTES) {
    ctx.addIssue({ code: 'custom', path: ['GRAPHQL_APQ_MAX_DOCUMENT_BYTES'], message: 'must not be more than GRAPHQL_APQ_MAX_BYTES' });
  }
  if (e.S3_PUBLIC_ENDPOINT && !e.RENDER_STORAGE) {
    ctx.addIssue({ code: 'custom', path: ['S3_PUBLIC_ENDPOINT'], message: 'is only used with RENDER_STORAGE=s3://…' });
  }
  if (!e.AUTH_JWKS_URL && !e.AUTH_JWT_PUBLIC_KEY) return;
  for (const name of ['AUTH_JWT_ISSUER', 'AUTH_JWT_AUDIENCE'] as const) {
    if (!e[name]) ctx.addIssue({ code: 'custom', path: [name], message: 'is required when AUTH_JWKS_URL or AUTH_JWT_PUBLIC_KEY is set' });
  }
  if (e.AUTH_JWKS_URL && e.AUTH_JWT_PUBLIC_KEY) {
    ctx.addIssue({ code: 'custom', path: ['AUTH_JWT_PUBLIC_KEY'], message: 'set either AUTH_JWKS_URL or AUTH_JWT_PUBLIC_KEY, not both' });
  }
});

export type Env = z.infer<typeof envSchema>;

/** Names of every variable this module reads (deployment files are checked against it). */
export const CONFIG_VARIABLES: readonly string[] = Object.keys(envSchema.shape);

/** Where RENDER_STORAGE=s3://bucket/prefix points, with S3_ENDPOINT, S3_REGION, S3_FORCE_PATH_STYLE. */
export interface S3Location {
  bucket: string;
  /** Key prefix without leading or trailing slash; empty for the bucket's root. */
  prefix: string;
  endpoint?: string;
  /** Host that presigned links name when clients reach the storage by another address (S3_PUBLIC_ENDPOINT). */
  publicEndpoint?: string;
  region: string;
  forcePathStyle: boolean;
}

/** s3://bucket/prefix → bucket and a prefix without leading or trailing slashes. */
function s3Location(e: Env): S3Location {
  const [bucket, ...rest] = e.RENDER_STORAGE!.slice('s3://'.length).split('/');
  return {
    bucket,
    prefix: rest.filter(Boolean).join('/'),
    endpoint: e.S3_ENDPOINT,
    publicEndpoint: e.S3_PUBLIC_ENDPOINT,
    region: e.S3_REGION,
    forcePathStyle: e.S3_FORCE_PATH_STYLE,
  };
}

export interface Config {
  env: Env['NODE_ENV'];
  port: number;
  host: string;
  publicUrl: string;
  logLevel: Env['LOG_LEVEL'];
  /** Pretty lines for a terminal, else JSON. */
  logPretty: boolean;
  shutdownTimeoutMs: number;
  database: {
    url?: string;
    /** Session connections (LISTEN/NOTIFY, pg-boss, migration lock); unset: `url`. Never a transaction pooler. */
    listenUrl?: string;
    /** ORM pool size per process (DATABASE_URL). */
    poolMax: number;
    /** Connections the ORM pool keeps (and opens at start) however long it idles; at most poolMax. */
    poolMin: number;
    /** How long a connection past poolMin may idle before the pool closes it, ms. */
    poolIdleTimeoutMs: number;
    /** Hot statements go to PostgreSQL as named prepared statements (planned once per connection). */
    preparedStatements: boolean;
    /** statement_timeout of the ORM pool's connections (API and worker), ms; 0: none. Migrations run without it. */
    statementTimeoutMs: number;
    /** pg-boss pool size per process (DATABASE_LISTEN_URL); unset: RENDER_WORKERS + 2, at least 2. */
    queuePoolMax: number;
    embeddedDir: string;
    embeddedPort: number;
    demoSeed: 'auto' | 'true' | 'false';
  };
  auth: {
    adminOrgId: string;
    apiKeyPrefix: string;
    jwksUrl?: string;
    jwtPublicKey?: string;
    jwtIssuer?: string;
    jwtAudience?: string;
    jwtAlgorithms: string[];
    clockToleranceS: number;
    emailClaim: string;
    /** The provider only issues verified addresses: a token without email_verified may match by e-mail. */
    trustEmail: boolean;
    /** How long a credential's viewer is kept in memory (0: never); changes invalidate it at once on every instance. */
    cacheTtlMs: number;
    /** Most credentials kept in the viewer cache (least recently used go first). */
    cacheMax: number;
    smtpUrl?: string;
    mailFrom: string;
    signupLimitPerIpPerHour: number;
    signupLimitPerAddressPerHour: number;
  };
  /** Pending invitations an organization may have out, and an account may hold, at a time. */
  memberships: { invitationsPerOrganization: number; invitationsPerAccount: number };
  sessions: { defaultModelId: string };
  /** What one write may add to the catalog and rosters (docs/api/resources.md: Bounds on growth). */
  bounds: {
    /** New artist accounts one catalog-songs write may create (CATALOG_MAX_NEW_ARTISTS_PER_WRITE). */
    newArtistsPerWrite: number;
    /** Artists credited on one catalog song, after the write (CATALOG_MAX_ARTISTS_PER_SONG, at most LIST_BOUNDS.creditsPerSong). */
    artistsPerSong: number;
    /** Artists on one account's roster (ROSTER_MAX_ARTISTS). */
    rosterArtists: number;
  };
  graphql: {
    maxDepth: number;
    maxTokens: number;
    /** GRAPHQL_INTROSPECTION, or when unset: on unless NODE_ENV=production. */
    introspection: boolean;
    /** Largest answer of one operation, in bytes of JSON (GRAPHQL_MAX_RESPONSE_BYTES); 0: no bound. */
    maxResponseBytes: number;
    /** Runs of a document on graphql-js before Apollo runs it compiled (graphql-jit); 0: compiled from its first run. */
    compileAfter: number;
    /** Documents whose compiled operations are kept (least recently run dropped first); 0: none compiled. */
    compiledMax: number;
    /** Automatic persisted queries: the store shared by every instance (src/graphql/persisted-queries.ts). */
    apq: {
      /** How long a registered document is kept, from its (last) registration (GRAPHQL_APQ_TTL_S). */
      ttlS: number;
      /** Largest document stored, in bytes of UTF-8 (GRAPHQL_APQ_MAX_DOCUMENT_BYTES); a larger one runs but is not kept. */
      maxDocumentBytes: number;
      /** Most documents kept by all instances together (GRAPHQL_APQ_MAX_ENTRIES); the oldest registrations go first. */
      maxEntries: number;
      /** Most bytes of documents kept by all instances together (GRAPHQL_APQ_MAX_BYTES). */
      maxBytes: number;
      /** Bytes of documents one instance keeps in memory in front of the table (GRAPHQL_APQ_MEMORY_BYTES); 0: none. */
      memoryBytes: number;
    };
  };
  /** The usage record (docs/api/usage.md). */
  usage: {
    /** How often an instance adds the usage it gathered in memory to PostgreSQL (USAGE_FLUSH_INTERVAL_MS): what a crash may lose. */
    flushIntervalMs: number;
    /** Account-hours an instance gathers between flushes at most (USAGE_MAX_PENDING); past it a flush starts at once. */
    maxPending: number;
  };
  /** Idempotency-Key on POST (docs/api/idempotency.md). */
  idempotency: {
    /** How long a key and its answer are kept (IDEMPOTENCY_TTL_HOURS). */
    ttlHours: number;
    /** Longest key accepted, in characters (IDEMPOTENCY_MAX_KEY_LENGTH). */
    maxKeyLength: number;
    /** Largest answer kept for replay (IDEMPOTENCY_MAX_ANSWER_BYTES); a larger one is done but not replayed. */
    maxAnswerBytes: number;
    /** Most unexpired keys one account holds (IDEMPOTENCY_MAX_KEYS_PER_ACCOUNT); past it a POST with a key is a 429. */
    maxKeysPerAccount: number;
    /** A first request still "running" after this long is taken as lost (its instance died): a repeat runs again. */
    runningTimeoutS: number;
  };
  http: {
    bodyLimit: string;
    /**
     * How long the server keeps an idle keep-alive connection open (HTTP_KEEP_ALIVE_TIMEOUT_MS; node's
     * own default is 5 s). Longer than the idle timeout of the proxy in front, so the proxy closes an
     * idle connection first and never sends a request on one the server is closing (a 502); traffic
     * after a pause also finds its connections open.
     */
    keepAliveTimeoutMs: number;
    /** Deepest nesting of a JSON body or of GraphQL variables (REQUEST_MAX_DEPTH). */
    maxDepth: number;
    trustProxy: boolean | number | string;
    /** Browser origins CORS lets in; empty: none. */
    corsOrigins: string[];
    /** Bearer token /metrics requires; unset: /metrics is open (keep it off the public network). */
    metricsToken?: string;
    /** Whether /mcp (MCP over Streamable HTTP) and its protected-resource metadata are served (MCP_ENABLED). */
    mcpEnabled: boolean;
    /**
     * Period of the event-loop delay sampler behind nodejs_eventloop_lag_* (prom-client's default is
     * 10 ms): each period wakes an idle process once, so it costs CPU whatever the traffic.
     */
    eventLoopResolutionMs: number;
  };
  /** Request limits: points per minute per credential, GraphQL cost ceiling, websocket caps (docs/api/limits.md). */
  requestLimits: {
    /** Points a minute for an account (keys and JWTs alike), or a client IP when unauthenticated. */
    perMinute: number;
    /** Points a minute for routes and fields that spend provider quota. */
    researchPerMinute: number;
    /**
     * Charges (of the size of the one that takes the lease) an instance may take ahead in one
     * statement and serve without one (at most 1/16 of what the window has left); 0: every charge is
     * a statement, nothing kept here.
     */
    leaseMax: number;
    /** Highest cost one GraphQL operation may have; a costlier one is a 400. */
    graphqlMaxCost: number;
    wsMaxSubscriptions: number;
    wsMaxConnectionsPerAccount: number;
  };
  /** Federation: the shared secret the router sends in x-router-secret; unset refuses _service/_entities. */
  federation: { routerSecret?: string };
  providers: ProvidersConfig;
  research: { ttlSeconds: Record<ResearchKind, number> };
  webhook: {
    /** Deliveries this process sends at once (API and worker processes alike); 0: none here. */
    workers: number;
    /** Endpoints one account may register (WEBHOOK_MAX_ENDPOINTS_PER_ACCOUNT). */
    maxEndpointsPerAccount: number;
    /** http:// endpoint URLs accepted (else https only). */
    allowHttp: boolean;
    /** Endpoints may resolve to loopback, private, link-local or metadata addresses (tests, private deployments). */
    allowPrivateNetworks: boolean;
    /** One delivery attempt's limit, connection to the end of the answer. */
    timeoutMs: number;
    /** Delay before each retry after a failed attempt (seconds); past the last, the delivery has failed. */
    retrySchedule: number[];
    /** An endpoint whose deliveries failed without a success for this long is disabled. */
    disableAfterS: number;
    /** How long a rotated-out secret still signs deliveries beside the new one. */
    secretOverlapS: number;
    /** How often each worker hands new deliveries to the job queue. */
    dispatchIntervalMs: number;
  };
  render: {
    /** Render jobs this process works on at once; 0 in the API process means no in-process worker. */
    workers: number;
    storageDir: string;
    /** RENDER_STORAGE=s3://…: videos in that bucket (scratch files stay in storageDir); unset: in storageDir. */
    s3?: S3Location;
    urlTtlS: number;
    /** HMAC secret of signed video URLs; main.ts generates one (with a warning) when unset. */
    urlSecret?: string;
    retryLimit: number;
    retryDelayS: number;
    jobExpireS: number;
    maintenanceIntervalS: number;
    pollIntervalMs: number;
    progressIntervalMs: number;
    ffmpegPath?: string;
    /** Longest side (pixels) an image prop may decode to; over it the render is a 400 naming the prop. */
    maxImageSide: number;
    /** Render limits: runs QUEUED or EXECUTING per account, pixel-frames per account in a rolling 24 h. */
    maxActivePerAccount: number;
    dailyPixelFrames: number;
    /** Finished videos are deleted this long after the run finished; 0 keeps them. */
    retentionHours: number;
    /** A rendering worker renews its lease this often; a lease older than the timeout is taken over. */
    heartbeatIntervalS: number;
    heartbeatTimeoutS: number;
  };
}

/** Kinds of stored provider answers, each with its own freshness (RESEARCH_TTL_*_S). */
export type ResearchKind =
  | 'track_stats'
  | 'discover'
  | 'curator'
  | 'search'
  | 'genres'
  | 'artist_tracks'
  | 'artist_playlists'
  | 'artist'
  | 'platform_search';

export interface ProvidersConfig {
  /** live: the configured upstreams; sandbox: local upstreams with generated data, started by main.ts. */
  mode: 'live' | 'sandbox';
  /** Sandbox only: every Nth upstream request answers 429 with Retry-After (0: never). */
  sandboxRateLimitEvery: number;
  /** Resilience shared by every upstream client. */
  http: {
    timeoutMs: number;
    retries: number;
    retryBaseMs: number;
    /** Longest Retry-After the client waits out itself; a longer one fails at once with 503. */
    retryMaxWaitMs: number;
    breakerFailures: number;
    breakerOpenMs: number;
  };
  /** Neutral platform name (platform_a…) → upstream name, for track ids and stats sources. */
  platformNames: Record<string, string>;
  /** Neutral platform name → upstream name in the music intelligence provider's curator/playlist paths. */
  curatorPlatformNames: Record<string, string>;
  platformA: { apiUrl: string; accountsUrl: string; clientId?: string; clientSecret?: string };
  trackStats: { apiUrl: string; apiKey?: string };
  musicIntel: { apiUrl: string; refreshToken?: string };
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  ${problems.join('\n  ')}`);
    this.name = 'ConfigError';
  }
}

export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message} (got ${JSON.stringify(source[String(issue.path[0])])})`),
    );
  }
  const e = parsed.data;
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ''),
    logLevel: e.LOG_LEVEL,
    logPretty: e.LOG_FORMAT === 'pretty' || (e.LOG_FORMAT === 'auto' && Boolean(process.stdout.isTTY)),
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    database: {
      url: e.DATABASE_URL,
      listenUrl: e.DATABASE_LISTEN_URL,
      poolMax: e.DATABASE_POOL_MAX,
      poolMin: e.DATABASE_POOL_MIN ?? Math.min(2, e.DATABASE_POOL_MAX),
      poolIdleTimeoutMs: e.DATABASE_POOL_IDLE_TIMEOUT_MS,
      preparedStatements: e.DATABASE_PREPARED_STATEMENTS,
      statementTimeoutMs: e.DATABASE_STATEMENT_TIMEOUT_MS,
      queuePoolMax: e.DATABASE_QUEUE_POOL_MAX ?? Math.max(2, e.RENDER_WORKERS + 2),
      embeddedDir: e.EMBEDDED_PG_DIR,
      embeddedPort: e.EMBEDDED_PG_PORT,
      demoSeed: e.DEMO_SEED,
    },
    auth: {
      adminOrgId: e.ADMIN_ORG_ID,
      apiKeyPrefix: e.API_KEY_PREFIX,
      jwksUrl: e.AUTH_JWKS_URL,
      jwtPublicKey: e.AUTH_JWT_PUBLIC_KEY,
      jwtIssuer: e.AUTH_JWT_ISSUER,
      jwtAudience: e.AUTH_JWT_AUDIENCE,
      jwtAlgorithms: e.AUTH_JWT_ALGORITHMS.split(',').map((a) => a.trim()).filter(Boolean),
      clockToleranceS: e.AUTH_CLOCK_TOLERANCE_S,
      emailClaim: e.AUTH_EMAIL_CLAIM,
      trustEmail: e.AUTH_TRUST_EMAIL,
      cacheTtlMs: e.AUTH_CACHE_TTL_MS,
      cacheMax: e.AUTH_CACHE_MAX,
      smtpUrl: e.SMTP_URL,
      mailFrom: e.MAIL_FROM,
      signupLimitPerIpPerHour: e.SIGNUP_LIMIT_PER_IP_PER_HOUR,
      signupLimitPerAddressPerHour: e.SIGNUP_LIMIT_PER_ADDRESS_PER_HOUR,
    },
    memberships: { invitationsPerOrganization: e.INVITATIONS_MAX_PER_ORGANIZATION, invitationsPerAccount: e.INVITATIONS_MAX_PER_ACCOUNT },
    sessions: { defaultModelId: e.DEFAULT_MODEL_ID },
    bounds: {
      newArtistsPerWrite: e.CATALOG_MAX_NEW_ARTISTS_PER_WRITE,
      artistsPerSong: e.CATALOG_MAX_ARTISTS_PER_SONG,
      rosterArtists: e.ROSTER_MAX_ARTISTS,
    },
    graphql: { maxDepth: e.GRAPHQL_MAX_DEPTH, maxTokens: e.GRAPHQL_MAX_TOKENS, introspection: e.GRAPHQL_INTROSPECTION ?? e.NODE_ENV !== 'production', maxResponseBytes: e.GRAPHQL_MAX_RESPONSE_BYTES, compileAfter: e.GRAPHQL_COMPILE_AFTER, compiledMax: e.GRAPHQL_COMPILED_MAX,
      apq: { ttlS: e.GRAPHQL_APQ_TTL_S, maxDocumentBytes: e.GRAPHQL_APQ_MAX_DOCUMENT_BYTES, maxEntries: e.GRAPHQL_APQ_MAX_ENTRIES, maxBytes: e.GRAPHQL_APQ_MAX_BYTES, memoryBytes: e.GRAPHQL_APQ_MEMORY_BYTES } },
    usage: { flushIntervalMs: e.USAGE_FLUSH_INTERVAL_MS, maxPending: e.USAGE_MAX_PENDING },
    idempotency: {
      ttlHours: e.IDEMPOTENCY_TTL_HOURS,
      maxKeyLength: e.IDEMPOTENCY_MAX_KEY_LENGTH,
      maxAnswerBytes: e.IDEMPOTENCY_MAX_ANSWER_BYTES,
      maxKeysPerAccount: e.IDEMPOTENCY_MAX_KEYS_PER_ACCOUNT,
      runningTimeoutS: e.IDEMPOTENCY_RUNNING_TIMEOUT_S,
    },
    http: {
      bodyLimit: e.REQUEST_BODY_LIMIT,
      keepAliveTimeoutMs: e.HTTP_KEEP_ALIVE_TIMEOUT_MS,
      maxDepth: e.REQUEST_MAX_DEPTH,
      trustProxy: e.TRUST_PROXY === 'true' ? true : e.TRUST_PROXY === 'false' ? false : /^\d+$/.test(e.TRUST_PROXY) ? Number(e.TRUST_PROXY) : e.TRUST_PROXY,
      corsOrigins: e.CORS_ORIGINS,
      metricsToken: e.METRICS_TOKEN,
      mcpEnabled: e.MCP_ENABLED,
      eventLoopResolutionMs: e.METRICS_EVENT_LOOP_RESOLUTION_MS,
    },
    providers: {
      mode: e.PROVIDERS,
      sandboxRateLimitEvery: e.SANDBOX_RATE_LIMIT_EVERY,
      http: {
        timeoutMs: e.PROVIDER_TIMEOUT_MS,
        retries: e.PROVIDER_RETRIES,
        retryBaseMs: e.PROVIDER_RETRY_BASE_MS,
        retryMaxWaitMs: e.PROVIDER_RETRY_MAX_WAIT_MS,
        breakerFailures: e.PROVIDER_BREAKER_FAILURES,
        breakerOpenMs: e.PROVIDER_BREAKER_OPEN_MS,
      },
      platformNames: e.PROVIDER_PLATFORM_NAMES,
      curatorPlatformNames: e.PROVIDER_CURATOR_PLATFORM_NAMES,
      platformA: {
        apiUrl: e.PLATFORM_A_API_URL.replace(/\/$/, ''),
        accountsUrl: e.PLATFORM_A_ACCOUNTS_URL.replace(/\/$/, ''),
        clientId: e.PLATFORM_A_CLIENT_ID,
        clientSecret: e.PLATFORM_A_CLIENT_SECRET,
      },
      trackStats: { apiUrl: e.TRACK_STATS_API_URL.replace(/\/$/, ''), apiKey: e.TRACK_STATS_API_KEY },
      musicIntel: { apiUrl: e.MUSIC_INTEL_API_URL.replace(/\/$/, ''), refreshToken: e.MUSIC_INTEL_REFRESH_TOKEN },
    },
    research: {
      ttlSeconds: {
        track_stats: e.RESEARCH_TTL_TRACK_STATS_S,
        discover: e.RESEARCH_TTL_DISCOVER_S,
        curator: e.RESEARCH_TTL_CURATOR_S,
        search: e.RESEARCH_TTL_SEARCH_S,
        genres: e.RESEARCH_TTL_GENRES_S,
        artist_tracks: e.RESEARCH_TTL_ARTIST_TRACKS_S,
        artist_playlists: e.RESEARCH_TTL_ARTIST_PLAYLISTS_S,
        artist: e.RESEARCH_TTL_ARTIST_S,
        platform_search: e.RESEARCH_TTL_PLATFORM_SEARCH_S,
      },
    },
    render: {
      workers: e.RENDER_WORKERS,
      storageDir: e.RENDER_STORAGE_DIR,
      s3: e.RENDER_STORAGE ? s3Location(e) : undefined,
      urlTtlS: e.RENDER_URL_TTL,
      urlSecret: e.RENDER_URL_SECRET,
      retryLimit: e.RENDER_RETRY_LIMIT,
      retryDelayS: e.RENDER_RETRY_DELAY_S,
      jobExpireS: e.RENDER_JOB_EXPIRE_S,
      maintenanceIntervalS: e.RENDER_MAINTENANCE_INTERVAL_S,
      pollIntervalMs: e.RENDER_POLL_INTERVAL_MS,
      progressIntervalMs: e.RENDER_PROGRESS_INTERVAL_MS,
      ffmpegPath: e.FFMPEG_PATH,
      maxImageSide: e.RENDER_MAX_IMAGE_SIDE,
      maxActivePerAccount: e.RENDER_MAX_ACTIVE_PER_ACCOUNT,
      dailyPixelFrames: e.RENDER_DAILY_PIXEL_FRAMES,
      retentionHours: e.RENDER_RETENTION_HOURS,
      heartbeatIntervalS: e.RENDER_HEARTBEAT_INTERVAL_S,
      heartbeatTimeoutS: e.RENDER_HEARTBEAT_TIMEOUT_S,
    },

    webhook: {
      workers: e.WEBHOOK_WORKERS,
      maxEndpointsPerAccount: e.WEBHOOK_MAX_ENDPOINTS_PER_ACCOUNT,
      allowHttp: e.WEBHOOK_ALLOW_HTTP,
      allowPrivateNetworks: e.WEBHOOK_ALLOW_PRIVATE_NETWORKS,
      timeoutMs: e.WEBHOOK_TIMEOUT_MS,
      retrySchedule: e.WEBHOOK_RETRY_SCHEDULE_S,
      disableAfterS: e.WEBHOOK_DISABLE_AFTER_S,
      secretOverlapS: e.WEBHOOK_SECRET_OVERLAP_S,
      dispatchIntervalMs: e.WEBHOOK_DISPATCH_INTERVAL_MS,
    },

    requestLimits: {
      perMinute: e.RATE_LIMIT_PER_MINUTE,
      researchPerMinute: e.RESEARCH_RATE_LIMIT_PER_MINUTE,
      leaseMax: e.RATE_LIMIT_LEASE_MAX,
      graphqlMaxCost: e.GRAPHQL_MAX_COST,
      wsMaxSubscriptions: e.GRAPHQL_WS_MAX_SUBSCRIPTIONS,
      wsMaxConnectionsPerAccount: e.GRAPHQL_WS_MAX_CONNECTIONS_PER_ACCOUNT,
    },

    federation: { routerSecret: e.ROUTER_SECRET },
  };
}
