import { poolDb, type Db } from './db/request-db';
import type { Logger } from './common/logger';
import type { Config } from './config/config';
import type { Orm } from './db/orm';
import { Authenticator } from './auth/authenticate';
import { JwtVerifier } from './auth/jwt';
import { ViewerCache } from './auth/viewer-cache';
import { LastUseWriter } from './auth/last-use';
import { createMailer } from './auth/mailer';
import { createRenderRuntime } from './modules/render';
import { createProviders } from './providers';
import { RateLimiter } from './auth/rate-limit';
import { IdempotencyStore } from './http/idempotency';
import { UsageRecorder } from './auth/usage';
import { LimitOverrides } from './auth/limit-overrides';
import type { Prefetches } from './graphql/prefetch';
import { createLoaders, Loaders, prefetches } from './modules';
import { identityAccounts } from './modules/account';
import type { RequestDeps } from './request/context';

/**
 * Long-lived collaborators, made once per process and shared by every request: what a request
 * reaches (RequestDeps, declared by the request's room) and what only the faces use.
 */
export interface AppDeps extends RequestDeps {
  /** Idempotency-Key on POST: keys and their answers, shared by every instance (src/http/idempotency.ts). */
  idempotency: IdempotencyStore;
  /** Every module's DataLoaders, made fresh per request context. */
  createLoaders(db: Db): Loaders;
  /** Relations the modules read ahead inside a parent list's statement (graphql/prefetch.ts). */
  prefetches?: Prefetches;
}

export function createDeps(config: Config, orm: Orm, logger: Logger): AppDeps {
  // LISTEN/NOTIFY and pg-boss need session connections: they bypass a transaction pooler that DATABASE_URL may name.
  const sessionUrl = config.database.listenUrl ?? (orm.config.get('clientUrl') as string);
  const usage = new UsageRecorder(orm, config.usage, logger);
  const limits = new LimitOverrides(orm, sessionUrl, logger);
  const pool = poolDb(orm);
  return {
    config,
    orm,
    logger,
    authenticator: new Authenticator(
      config,
      new JwtVerifier(config, identityAccounts),
      new ViewerCache(config.auth.cacheTtlMs, config.auth.cacheMax, sessionUrl, logger),
      new LastUseWriter(pool, logger),
      pool,
      logger,
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
