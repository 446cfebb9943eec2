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

const ASYMMETRIC_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: int(4000, 0, 65535),
  HOST: z.string().default('0.0.0.0'),
  PUBLIC_URL: optionalUrl,
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
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
  // Asymmetric algorithms only: an HMAC or "none" token must never verify against a public key.
  AUTH_JWT_ALGORITHMS: z
    .string()
    .default('RS256,ES256,PS256,EdDSA')
    .refine((v) => v.split(',').map((a) => a.trim()).filter(Boolean).every((a) => ASYMMETRIC_ALGORITHMS.includes(a)), {
      message: `must be a comma-separated list of ${'RS256, RS384, RS512, PS256, PS384, PS512, ES256, ES384, ES512, EdDSA'}`,
    }),
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
}).superRefine((e, ctx) => {
  // Bearer tokens are accepted only with issuer and audience enforced (decisions §4).
  if (!e.AUTH_JWKS_URL && !e.AUTH_JWT_PUBLIC_KEY) return;
  for (const name of ['AUTH_JWT_ISSUER', 'AUTH_JWT_AUDIENCE'] as const) {
    if (!e[name]) ctx.addIssue({ code: 'custom', path: [name], message: 'is required when AUTH_JWKS_URL or AUTH_JWT_PUBLIC_KEY is set' });
  }
  if (e.AUTH_JWKS_URL && e.AUTH_JWT_PUBLIC_KEY) {
    ctx.addIssue({ code: 'custom', path: ['AUTH_JWT_PUBLIC_KEY'], message: 'set either AUTH_JWKS_URL or AUTH_JWT_PUBLIC_KEY, not both' });
  }
});

export type Env = z.infer<typeof envSchema>;

export interface Config {
  env: Env['NODE_ENV'];
  port: number;
  host: string;
  publicUrl: string;
  logLevel: Env['LOG_LEVEL'];
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
  };
}
