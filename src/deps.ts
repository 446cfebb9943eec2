import type { Logger } from './common/logger';
import type { Config } from './config/config';
import type { Orm } from './db/orm';
import { Authenticator } from './auth/authenticate';
import { JwtVerifier } from './auth/jwt';
import { createMailer, Mailer } from './auth/mailer';
import { createRenderRuntime, RenderRuntime } from './jobs/runtime';
import { createProviders, Providers } from './providers';
import { RateLimiter } from './auth/rate-limit';

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
}

export function createDeps(config: Config, orm: Orm, logger: Logger): AppDeps {
  return {
    config,
    orm,
    logger,
    authenticator: new Authenticator(config, new JwtVerifier(config)),
    mailer: createMailer(config, logger),
    providers: createProviders(config, logger),
    // LISTEN/NOTIFY and pg-boss bypass a transaction pooler that DATABASE_URL may name.
    render: createRenderRuntime(config, config.database.listenUrl ?? (orm.config.get('clientUrl') as string), logger),
    rateLimiter: new RateLimiter(orm, config.requestLimits, logger),
  };
}
