import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from './common/logger';
import type { Config } from './config/config';
import type { Orm } from './db/orm';
import { Authenticator } from './auth/authenticate';
import { JwtVerifier } from './auth/jwt';
import { ViewerCache } from './auth/viewer-cache';
import { createMailer, Mailer } from './auth/mailer';
import { createRenderRuntime, RenderRuntime } from './modules/render';
import { createProviders, Providers } from './providers';
import { RateLimiter } from './auth/rate-limit';
import { IdempotencyStore } from './http/idempotency';
import { UsageRecorder } from './auth/usage';
import { LimitOverrides } from './auth/limit-overrides';
import type { Prefetches } from './graphql/prefetch';
import { createLoaders, Loaders, prefetches } from './modules';
import { identityAccounts } from './modules/account';

/** Long-lived collaborators, made once per process and shared by every request. */
export interface AppDeps {
  config: Config;
  orm: Orm;
  logger: Logger;
  authenticator: Authenticator;
  mailer: Mailer;
  providers: Providers;
  /** Render queue, run events (LISTEN/NOTIFY), video storage and link signer; closed by App.stop(). */
  render: RenderRuntime;
  /** Per-minute request budgets in PostgreSQL (shared by every instance); closed by App.stop(). */
  rateLimiter: RateLimiter;
  /** Usage per account, gathered in memory and flushed to PostgreSQL every few seconds (src/auth/usage.ts). */
  usage: UsageRecorder;
  /** Per-account limit overrides, in memory on every instance, changed everywhere at once (src/auth/limit-overrides.ts). */
  limits: LimitOverrides;
  /** Idempotency-Key on POST: keys and their answers, shared by every instance (src/http/idempotency.ts). */
  idempotency: IdempotencyStore;
  /** Every module's DataLoaders, made fresh per request context. */
  createLoaders(em: EntityManager): Loaders;
  /** Relations the modules read ahead inside a parent list's statement (graphql/prefetch.ts). */
  prefetches?: Prefetches;
}

export function createDeps(config: Config, orm: Orm, logger: Logger): AppDeps {
  // LISTEN/NOTIFY and pg-boss need session connections: they bypass a transaction pooler that DATABASE_URL may name.
  const sessionUrl = config.database.listenUrl ?? (orm.config.get('clientUrl') as string);
  const usage = new UsageRecorder(orm, config.usage, logger);
  const limits = new LimitOverrides(orm, sessionUrl, logger);
  return {
    config,
    orm,
    logger,
    authenticator: new Authenticator(
      config,
      new JwtVerifier(config, identityAccounts),
      new ViewerCache(config.auth.cacheTtlMs, config.auth.cacheMax, sessionUrl, logger),
    ),
    mailer: createMailer(config, logger),
    providers: createProviders(config, logger),
    render: createRenderRuntime(config, sessionUrl, logger),
    rateLimiter: new RateLimiter(orm, config.requestLimits, logger, usage, limits),
    usage,
    limits,
    idempotency: new IdempotencyStore(orm, config.idempotency, logger),
    createLoaders,
    prefetches,
  };
}
