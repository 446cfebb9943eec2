import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONFIG_VARIABLES, ConfigError, loadConfig } from './config';

describe('loadConfig', () => {
  it('applies documented defaults', () => {
    const config = loadConfig({});
    expect(config.port).toBe(4000);
    expect(config.database.url).toBeUndefined();
    expect(config.sessions.defaultModelId).toBe('gpt-4o-mini');
    expect(config.publicUrl).toBe('http://localhost:4000');
    expect(config.http.eventLoopResolutionMs).toBe(100);
  });

  it('stops with a message naming the variable when a value is wrong', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ DATABASE_URL: 'not a url' })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ GRAPHQL_INTROSPECTION: 'maybe' })).toThrow(/GRAPHQL_INTROSPECTION/);
    expect(() => loadConfig({ METRICS_EVENT_LOOP_RESOLUTION_MS: '5' })).toThrow(/METRICS_EVENT_LOOP_RESOLUTION_MS/);
  });

  it('reads the webhook settings: a retry schedule of 1 to 30 positive delays, about a day by default', () => {
    const { webhook } = loadConfig({});
    expect(webhook).toMatchObject({ workers: 2, maxEndpointsPerAccount: 10, allowHttp: false, allowPrivateNetworks: false, timeoutMs: 10_000, disableAfterS: 3 * 86_400, secretOverlapS: 86_400 });
    const total = webhook.retrySchedule.reduce((a, b) => a + b, 0);
    expect(total).toBeGreaterThan(20 * 3600);
    expect(total).toBeLessThan(26 * 3600);
    expect(loadConfig({ WEBHOOK_RETRY_SCHEDULE_S: '1, 2,3' }).webhook.retrySchedule).toEqual([1, 2, 3]);
    for (const bad of ['', '0', '1,,2', '-5', '1.5', 'soon', Array.from({ length: 31 }, () => '1').join(',')]) {
      expect(() => loadConfig({ WEBHOOK_RETRY_SCHEDULE_S: bad })).toThrow(/WEBHOOK_RETRY_SCHEDULE_S/);
    }
    expect(() => loadConfig({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'sure' })).toThrow(/WEBHOOK_ALLOW_PRIVATE_NETWORKS/);
    expect(() => loadConfig({ WEBHOOK_MAX_ENDPOINTS_PER_ACCOUNT: '0' })).toThrow(/WEBHOOK_MAX_ENDPOINTS_PER_ACCOUNT/);
  });

  it('treats empty optional values as unset', () => {
    expect(loadConfig({ DATABASE_URL: '' }).database.url).toBeUndefined();
  });

  it('accepts bearer tokens only with issuer and audience, and asymmetric algorithms only', () => {
    const jwks = { AUTH_JWKS_URL: 'https://idp.example.test/.well-known/jwks.json' };
    expect(() => loadConfig(jwks)).toThrow(/AUTH_JWT_ISSUER/);
    expect(() => loadConfig({ ...jwks, AUTH_JWT_ISSUER: 'https://idp.example.test/' })).toThrow(/AUTH_JWT_AUDIENCE/);
    const ok = loadConfig({ ...jwks, AUTH_JWT_ISSUER: 'https://idp.example.test/', AUTH_JWT_AUDIENCE: 'svc' });
    expect(ok.auth).toMatchObject({ jwtIssuer: 'https://idp.example.test/', jwtAudience: 'svc', jwtAlgorithms: ['RS256', 'ES256', 'PS256', 'EdDSA'], clockToleranceS: 30 });
    expect(() => loadConfig({ AUTH_JWT_ALGORITHMS: 'RS256,HS256' })).toThrow(/AUTH_JWT_ALGORITHMS/);
    expect(() => loadConfig({ AUTH_JWT_ALGORITHMS: 'none' })).toThrow(/AUTH_JWT_ALGORITHMS/);
    expect(() => loadConfig({ AUTH_CLOCK_TOLERANCE_S: '3600' })).toThrow(/AUTH_CLOCK_TOLERANCE_S/);
  });

  it('trusts identity-provider e-mails only when AUTH_TRUST_EMAIL says so', () => {
    expect(loadConfig({}).auth.trustEmail).toBe(false);
    expect(loadConfig({ AUTH_TRUST_EMAIL: 'true' }).auth.trustEmail).toBe(true);
    expect(() => loadConfig({ AUTH_TRUST_EMAIL: 'verified' })).toThrow(/AUTH_TRUST_EMAIL/);
  });

  it('reads CORS_ORIGINS as exact origins, closed when empty', () => {
    expect(loadConfig({}).http.corsOrigins).toEqual([]);
    expect(loadConfig({ CORS_ORIGINS: ' ' }).http.corsOrigins).toEqual([]);
    expect(loadConfig({ CORS_ORIGINS: 'https://app.example.com, http://localhost:3000,https://app.example.com' }).http.corsOrigins).toEqual([
      'https://app.example.com',
      'http://localhost:3000',
    ]);
    for (const bad of ['*', 'https://app.example.com/', 'https://app.example.com/path', 'app.example.com', 'ftp://files.example.com', 'https://*.example.com']) {
      expect(() => loadConfig({ CORS_ORIGINS: bad })).toThrow(/CORS_ORIGINS/);
    }
  });

  it('reads METRICS_TOKEN (16+ characters) or leaves /metrics open', () => {
    expect(loadConfig({}).http.metricsToken).toBeUndefined();
    expect(loadConfig({ METRICS_TOKEN: 'a-long-enough-metrics-token' }).http.metricsToken).toBe('a-long-enough-metrics-token');
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN/);
  });

  it('reads the signup limits', () => {
    expect(loadConfig({}).auth).toMatchObject({ signupLimitPerIpPerHour: 30, signupLimitPerAddressPerHour: 5 });
    expect(() => loadConfig({ SIGNUP_LIMIT_PER_ADDRESS_PER_HOUR: '0' })).toThrow(/SIGNUP_LIMIT_PER_ADDRESS_PER_HOUR/);
  });
});

describe('request limits', () => {
  it('defaults to 600 points a minute, 60 for research, leases of 50, a cost ceiling of 600, 20 subscriptions and 10 connections', () => {
    expect(loadConfig({}).requestLimits).toEqual({ perMinute: 600, researchPerMinute: 60, leaseMax: 50, graphqlMaxCost: 600, wsMaxSubscriptions: 20, wsMaxConnectionsPerAccount: 10 });
  });

  it('reads each variable and refuses zero, negatives and words naming the variable', () => {
    const config = loadConfig({
      RATE_LIMIT_PER_MINUTE: '1200',
      RESEARCH_RATE_LIMIT_PER_MINUTE: '30',
      GRAPHQL_MAX_COST: '900',
      GRAPHQL_WS_MAX_SUBSCRIPTIONS: '5',
      GRAPHQL_WS_MAX_CONNECTIONS_PER_ACCOUNT: '3',
      RATE_LIMIT_LEASE_MAX: '0',
    });
    expect(config.requestLimits).toEqual({ perMinute: 1200, researchPerMinute: 30, leaseMax: 0, graphqlMaxCost: 900, wsMaxSubscriptions: 5, wsMaxConnectionsPerAccount: 3 });
    for (const bad of ['-1', 'lots', '1.5', '100001']) expect(() => loadConfig({ RATE_LIMIT_LEASE_MAX: bad })).toThrow(/RATE_LIMIT_LEASE_MAX/);
    for (const name of ['RATE_LIMIT_PER_MINUTE', 'RESEARCH_RATE_LIMIT_PER_MINUTE', 'GRAPHQL_MAX_COST', 'GRAPHQL_WS_MAX_SUBSCRIPTIONS', 'GRAPHQL_WS_MAX_CONNECTIONS_PER_ACCOUNT']) {
      for (const bad of ['0', '-5', 'lots', '1.5']) expect(() => loadConfig({ [name]: bad })).toThrow(new RegExp(name));
    }
  });
});

describe('GRAPHQL_COMPILE_AFTER and GRAPHQL_COMPILED_MAX', () => {
  it('compiles an operation at its second run by default, at its first with 0, and refuses what is not a count', () => {
    expect(loadConfig({}).graphql.compileAfter).toBe(1);
    expect(loadConfig({ GRAPHQL_COMPILE_AFTER: '0' }).graphql.compileAfter).toBe(0);
    expect(loadConfig({ GRAPHQL_COMPILE_AFTER: '25' }).graphql.compileAfter).toBe(25);
    for (const bad of ['-1', 'often', '1.5', '1000001']) expect(() => loadConfig({ GRAPHQL_COMPILE_AFTER: bad })).toThrow(/GRAPHQL_COMPILE_AFTER/);
  });

  it('keeps 250 documents compiled by default (GRAPHQL_COMPILED_MAX), none with 0', () => {
    expect(loadConfig({}).graphql.compiledMax).toBe(250);
    expect(loadConfig({ GRAPHQL_COMPILED_MAX: '0' }).graphql.compiledMax).toBe(0);
    for (const bad of ['-1', 'all', '2.5', '100001']) expect(() => loadConfig({ GRAPHQL_COMPILED_MAX: bad })).toThrow(/GRAPHQL_COMPILED_MAX/);
  });
});

describe('GRAPHQL_INTROSPECTION and GRAPHQL_MAX_RESPONSE_BYTES', () => {
  it('turns introspection off by default under NODE_ENV=production only, and lets either be set explicitly', () => {
    expect(loadConfig({}).graphql.introspection).toBe(true);
    expect(loadConfig({ NODE_ENV: 'test' }).graphql.introspection).toBe(true);
    expect(loadConfig({ NODE_ENV: 'production' }).graphql.introspection).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production', GRAPHQL_INTROSPECTION: 'true' }).graphql.introspection).toBe(true);
    expect(loadConfig({ NODE_ENV: 'development', GRAPHQL_INTROSPECTION: 'false' }).graphql.introspection).toBe(false);
  });

  it('bounds an answer to 8 MiB by default; 0 lifts the bound', () => {
    expect(loadConfig({}).graphql.maxResponseBytes).toBe(8 * 1024 * 1024);
    expect(loadConfig({ GRAPHQL_MAX_RESPONSE_BYTES: '0' }).graphql.maxResponseBytes).toBe(0);
    for (const bad of ['-1', 'big', '1.5']) expect(() => loadConfig({ GRAPHQL_MAX_RESPONSE_BYTES: bad })).toThrow(/GRAPHQL_MAX_RESPONSE_BYTES/);
  });

  it('keeps persisted queries a day, 64 KiB each, 10000 and 64 MiB in all, 8 MiB in memory; refuses bounds that make no sense', () => {
    expect(loadConfig({}).graphql.apq).toEqual({ ttlS: 86_400, maxDocumentBytes: 65_536, maxEntries: 10_000, maxBytes: 64 * 1024 * 1024, memoryBytes: 8 * 1024 * 1024 });
    expect(loadConfig({ GRAPHQL_APQ_TTL_S: '600', GRAPHQL_APQ_MEMORY_BYTES: '0' }).graphql.apq).toMatchObject({ ttlS: 600, memoryBytes: 0 });
    for (const [name, bad] of [['GRAPHQL_APQ_TTL_S', '0'], ['GRAPHQL_APQ_MAX_ENTRIES', '0'], ['GRAPHQL_APQ_MAX_DOCUMENT_BYTES', 'big'], ['GRAPHQL_APQ_MAX_BYTES', '-1']] as const) {
      expect(() => loadConfig({ [name]: bad })).toThrow(new RegExp(name));
    }
    expect(() => loadConfig({ GRAPHQL_APQ_MAX_DOCUMENT_BYTES: '65536', GRAPHQL_APQ_MAX_BYTES: '4096' })).toThrow(/GRAPHQL_APQ_MAX_DOCUMENT_BYTES: must not be more than GRAPHQL_APQ_MAX_BYTES/);
  });
});

describe('TRUST_PROXY', () => {
  it('defaults to trusting only loopback proxies and parses hop counts and booleans', () => {
    expect(loadConfig({}).http.trustProxy).toBe('loopback');
    expect(loadConfig({ TRUST_PROXY: '2' }).http.trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: 'false' }).http.trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' }).http.trustProxy).toBe('10.0.0.0/8, 127.0.0.1');
    expect(() => loadConfig({ TRUST_PROXY: 'everyone!' })).toThrow(/TRUST_PROXY/);
  });
});

describe('render limits', () => {
  it('defaults to 3 active runs, 1e11 pixel-frames a day, a week of retention and a 30 s lease renewed every 5 s', () => {
    expect(loadConfig({}).render).toMatchObject({
      maxActivePerAccount: 3, dailyPixelFrames: 100_000_000_000, retentionHours: 168, heartbeatIntervalS: 5, heartbeatTimeoutS: 30,
    });
    // The default budget holds dozens of full-HD renders of the longest duration, and the largest render allowed.
    expect(loadConfig({}).render.dailyPixelFrames / (1920 * 1080 * 1800)).toBeGreaterThan(24);
    expect(loadConfig({}).render.dailyPixelFrames).toBeGreaterThan(3840 * 3840 * 1800);
  });

  it('reads them and refuses values that make no sense, naming the variable', () => {
    const c = loadConfig({ RENDER_MAX_ACTIVE_PER_ACCOUNT: '5', RENDER_DAILY_PIXEL_FRAMES: '1000', RENDER_RETENTION_HOURS: '0', RENDER_HEARTBEAT_INTERVAL_S: '2', RENDER_HEARTBEAT_TIMEOUT_S: '6' });
    expect(c.render).toMatchObject({ maxActivePerAccount: 5, dailyPixelFrames: 1000, retentionHours: 0, heartbeatIntervalS: 2, heartbeatTimeoutS: 6 });
    expect(() => loadConfig({ RENDER_MAX_ACTIVE_PER_ACCOUNT: '0' })).toThrow(/RENDER_MAX_ACTIVE_PER_ACCOUNT/);
    expect(() => loadConfig({ RENDER_DAILY_PIXEL_FRAMES: '-1' })).toThrow(/RENDER_DAILY_PIXEL_FRAMES/);
    expect(() => loadConfig({ RENDER_RETENTION_HOURS: 'a week' })).toThrow(/RENDER_RETENTION_HOURS/);
    expect(() => loadConfig({ RENDER_HEARTBEAT_INTERVAL_S: '10', RENDER_HEARTBEAT_TIMEOUT_S: '20' })).toThrow(/RENDER_HEARTBEAT_TIMEOUT_S/);
  });
});

describe('render object storage (issue 17)', () => {
  it('keeps videos in RENDER_STORAGE_DIR unless RENDER_STORAGE names a bucket', () => {
    expect(loadConfig({}).render.s3).toBeUndefined();
    expect(loadConfig({ RENDER_STORAGE: ' ' }).render.s3).toBeUndefined();
  });

  it('reads s3://bucket/prefix with the endpoint, region and path style', () => {
    expect(loadConfig({ RENDER_STORAGE: 's3://media.example/renders/v1/', S3_ENDPOINT: 'http://127.0.0.1:9000', S3_REGION: 'auto', S3_FORCE_PATH_STYLE: 'true' }).render.s3).toEqual({
      bucket: 'media.example', prefix: 'renders/v1', endpoint: 'http://127.0.0.1:9000', region: 'auto', forcePathStyle: true,
    });
    expect(loadConfig({ RENDER_STORAGE: 's3://videos' }).render.s3).toEqual({ bucket: 'videos', prefix: '', endpoint: undefined, region: 'us-east-1', forcePathStyle: false });
  });

  it('refuses a value that is not an s3:// bucket, naming the variable', () => {
    for (const bad of ['/var/renders', 'https://bucket/x', 's3://', 's3://UPPER', 's3://b', 's3://bucket/pre fix', 's3://bucket/a?b']) {
      expect(() => loadConfig({ RENDER_STORAGE: bad })).toThrow(/RENDER_STORAGE/);
    }
    expect(() => loadConfig({ RENDER_STORAGE: 's3://videos', S3_ENDPOINT: 'minio:9000' })).toThrow(/S3_ENDPOINT/);
    expect(() => loadConfig({ RENDER_STORAGE: 's3://videos', S3_ENDPOINT: 'ftp://minio' })).toThrow(/S3_ENDPOINT/);
    expect(() => loadConfig({ S3_REGION: 'us east' })).toThrow(/S3_REGION/);
    expect(() => loadConfig({ S3_FORCE_PATH_STYLE: 'maybe' })).toThrow(/S3_FORCE_PATH_STYLE/);
  });

  it('routes session connections to DATABASE_LISTEN_URL (default: DATABASE_URL) and sizes the pools', () => {
    const direct = 'postgres://app@db.internal:5432/music';
    const pooled = 'postgres://app@pgbouncer:6432/music';
    expect(loadConfig({ DATABASE_URL: direct }).database).toMatchObject({ url: direct, listenUrl: undefined, poolMax: 10, queuePoolMax: 3 });
    expect(loadConfig({ DATABASE_URL: pooled, DATABASE_LISTEN_URL: direct }).database).toMatchObject({ url: pooled, listenUrl: direct });
    // pg-boss's pool follows the render concurrency unless set.
    expect(loadConfig({ RENDER_WORKERS: '0' }).database.queuePoolMax).toBe(2);
    expect(loadConfig({ RENDER_WORKERS: '4' }).database.queuePoolMax).toBe(6);
    expect(loadConfig({ DATABASE_QUEUE_POOL_MAX: '7', DATABASE_POOL_MAX: '25' }).database).toMatchObject({ queuePoolMax: 7, poolMax: 25 });
    expect(loadConfig({ DATABASE_QUEUE_POOL_MAX: '' }).database.queuePoolMax).toBe(3);
    for (const bad of ['0', '101', 'many', '2.5']) expect(() => loadConfig({ DATABASE_QUEUE_POOL_MAX: bad })).toThrow(/DATABASE_QUEUE_POOL_MAX/);
    expect(() => loadConfig({ DATABASE_POOL_MAX: '0' })).toThrow(/DATABASE_POOL_MAX/);
    // The warm minimum (issue 31): 2 by default (the maximum when that is smaller), 0 allowed (close every idle connection), never above the maximum.
    expect(loadConfig({}).database).toMatchObject({ poolMin: 2, poolIdleTimeoutMs: 30_000 });
    expect(loadConfig({ DATABASE_POOL_MAX: '1' }).database).toMatchObject({ poolMin: 1, poolMax: 1 });
    expect(loadConfig({ DATABASE_POOL_MIN: '' }).database.poolMin).toBe(2);
    expect(loadConfig({ DATABASE_POOL_MIN: '0', DATABASE_POOL_IDLE_TIMEOUT_MS: '120000' }).database).toMatchObject({ poolMin: 0, poolIdleTimeoutMs: 120_000 });
    expect(loadConfig({ DATABASE_POOL_MIN: '25', DATABASE_POOL_MAX: '25' }).database).toMatchObject({ poolMin: 25, poolMax: 25 });
    expect(() => loadConfig({ DATABASE_POOL_MIN: '11' })).toThrow(/DATABASE_POOL_MIN: must not be more than DATABASE_POOL_MAX \(10\)/);
    for (const bad of ['-1', 'two', '1.5', '201']) expect(() => loadConfig({ DATABASE_POOL_MIN: bad })).toThrow(/DATABASE_POOL_MIN/);
    for (const bad of ['999', 'soon', '3600001']) expect(() => loadConfig({ DATABASE_POOL_IDLE_TIMEOUT_MS: bad })).toThrow(/DATABASE_POOL_IDLE_TIMEOUT_MS/);
    expect(() => loadConfig({ DATABASE_URL: direct, DATABASE_LISTEN_URL: 'https://db.internal/' })).toThrow(/DATABASE_LISTEN_URL: must be a postgres/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://db.internal/music' })).toThrow(/DATABASE_URL: must be a postgres/);
    // Without DATABASE_URL everything runs on the embedded PostgreSQL: a listen URL would name another database.
    expect(() => loadConfig({ DATABASE_LISTEN_URL: direct })).toThrow(/DATABASE_LISTEN_URL: needs DATABASE_URL/);
  });

  it('reads S3_PUBLIC_ENDPOINT for presigned links, only with RENDER_STORAGE', () => {
    const s3 = { RENDER_STORAGE: 's3://videos/renders', S3_ENDPOINT: 'http://minio:9000' };
    expect(loadConfig(s3).render.s3).toMatchObject({ endpoint: 'http://minio:9000', publicEndpoint: undefined });
    expect(loadConfig({ ...s3, S3_PUBLIC_ENDPOINT: 'https://media.example.com' }).render.s3?.publicEndpoint).toBe('https://media.example.com');
    expect(() => loadConfig({ ...s3, S3_PUBLIC_ENDPOINT: 'ftp://media.example.com' })).toThrow(/S3_PUBLIC_ENDPOINT/);
    expect(() => loadConfig({ S3_PUBLIC_ENDPOINT: 'https://media.example.com' })).toThrow(/S3_PUBLIC_ENDPOINT: is only used with RENDER_STORAGE/);
  });

  it('documents every variable in docs/operations/configuration.md (the RESEARCH_TTL_* family by its suffixes)', () => {
    const readme = readFileSync(join(__dirname, '..', '..', 'docs', 'operations', 'configuration.md'), 'utf8');
    const undocumented = CONFIG_VARIABLES.filter((name) => !readme.includes(`\`${name}\``) && !(name.startsWith('RESEARCH_TTL_') && readme.includes(`\`${name.slice('RESEARCH_TTL'.length)}\``)));
    expect(undocumented).toEqual([]);
  });
});
