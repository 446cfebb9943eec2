import { z } from 'zod';

/**
 * The one place that reads process.env. Every variable is documented in README.md (Configuration).
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

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: int(4000, 0, 65535),
  HOST: z.string().default('0.0.0.0'),
  PUBLIC_URL: optionalUrl,
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOG_FORMAT: z.enum(['auto', 'json', 'pretty']).default('auto'),
  SHUTDOWN_TIMEOUT_MS: int(10_000, 100, 60_000),

  DATABASE_URL: optionalUrl,
  DATABASE_POOL_MAX: int(10, 1, 200),
  EMBEDDED_PG_DIR: z.string().default('./.data/postgres'),
  EMBEDDED_PG_PORT: int(54329, 1, 65535),
  DEMO_SEED: z.enum(['auto', 'true', 'false']).default('auto'),

  ADMIN_ORG_ID: z.string().uuid({ message: 'must be a UUID' }).default('00000000-0000-4000-8000-000000000001'),
  API_KEY_PREFIX: z.string().regex(/^[a-z][a-z0-9_]{1,15}$/, { message: 'must be 2-16 lowercase letters, digits or _' }).default('mas_'),

  AUTH_JWKS_URL: optionalUrl,
  AUTH_JWT_PUBLIC_KEY: optionalString,
  AUTH_JWT_ISSUER: optionalString,
  AUTH_JWT_AUDIENCE: optionalString,
  AUTH_JWT_ALGORITHMS: z.string().default('RS256,ES256,PS256,EdDSA'),
  AUTH_CLOCK_TOLERANCE_S: int(30, 0, 300),
  AUTH_EMAIL_CLAIM: z.string().default('email'),

  SMTP_URL: optionalUrl,
  MAIL_FROM: z.string().default('Music Agent Service <no-reply@localhost>'),
  SIGNUP_LIMIT_PER_IP_PER_HOUR: int(30, 1),
  SIGNUP_LIMIT_PER_ADDRESS_PER_HOUR: int(5, 1),

  DEFAULT_MODEL_ID: z.string().min(1).default('gpt-4o-mini'),

  GRAPHQL_MAX_DEPTH: int(12, 2, 64),
  GRAPHQL_MAX_TOKENS: int(5000, 100, 1_000_000),
  GRAPHQL_INTROSPECTION: bool.default(true),
  REQUEST_BODY_LIMIT: z.string().default('1mb'),

  ROUTER_SECRET: optionalString.pipe(z.string().min(16, { message: 'must be at least 16 characters' }).optional()),
});

export type Env = z.infer<typeof envSchema>;

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
    poolMax: number;
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
    smtpUrl?: string;
    mailFrom: string;
    signupLimitPerIpPerHour: number;
    signupLimitPerAddressPerHour: number;
  };
  sessions: { defaultModelId: string };
  graphql: { maxDepth: number; maxTokens: number; introspection: boolean };
  http: { bodyLimit: string };
  /** Federation: the shared secret the router sends in x-router-secret; unset refuses _service/_entities. */
  federation: { routerSecret?: string };
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
      poolMax: e.DATABASE_POOL_MAX,
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
      smtpUrl: e.SMTP_URL,
      mailFrom: e.MAIL_FROM,
      signupLimitPerIpPerHour: e.SIGNUP_LIMIT_PER_IP_PER_HOUR,
      signupLimitPerAddressPerHour: e.SIGNUP_LIMIT_PER_ADDRESS_PER_HOUR,
    },
    sessions: { defaultModelId: e.DEFAULT_MODEL_ID },
    graphql: { maxDepth: e.GRAPHQL_MAX_DEPTH, maxTokens: e.GRAPHQL_MAX_TOKENS, introspection: e.GRAPHQL_INTROSPECTION },
    http: { bodyLimit: e.REQUEST_BODY_LIMIT },
    federation: { routerSecret: e.ROUTER_SECRET },
  };
}
