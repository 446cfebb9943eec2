import { randomUUID } from 'node:crypto';
import { lazyChild, Logger } from '../common/logger';
import type { Config } from '../config/config';
import type { Orm } from '../db/orm';
import { AccessPolicy } from '../auth/access';
import { Db, requestDb } from '../db/request-db';
import type { Viewer } from '../auth/viewer';
import type { StandingViewer } from '../auth/standing';
import type { Authenticator, Credentials } from '../auth/authenticate';
import type { Mailer } from '../auth/mailer';
import type { Providers } from '../providers';
import type { RateLimiter } from '../auth/rate-limit';
import type { UsageRecorder } from '../auth/usage';
import type { LimitOverrides } from '../auth/limit-overrides';

// The request's room: it imports no module and not the composition root (src/deps.ts). What the
// modules and the faces add to a request, they add here by declaration merging, from their side.

/**
 * The request's DataLoaders, by name. Each module adds its own in its `<domain>.loaders.ts`
 * (`declare module '../../request/context' { interface Loaders extends …Loaders {} }`), so the
 * request names no module; the composition root makes them (`createLoaders`, src/modules/index.ts).
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by the modules' declaration merging
export interface Loaders {}

/**
 * The long-lived collaborators a request reaches (src/deps.ts's AppDeps is one): the context
 * carries them, and createContext needs orm, logger, authenticator and createLoaders. By declaration
 * merging the GraphQL layer adds `prefetches` (src/graphql/prefetch.ts) and the render module `render`
 * (src/modules/render/render.runtime.ts).
 */
export interface RequestDeps {
  config: Config;
  orm: Orm;
  logger: Logger;
  authenticator: Authenticator;
  mailer: Mailer;
  providers: Providers;
  /** Per-minute request budgets (src/auth/rate-limit.ts). */
  rateLimiter: RateLimiter;
  /** Usage per account (src/auth/usage.ts). */
  usage: UsageRecorder;
  /** Per-account limit overrides (src/auth/limit-overrides.ts). */
  limits: LimitOverrides;
  /** Every module's DataLoaders, made fresh per request context. */
  createLoaders(db: Db): Loaders;
}

/** The one request context, built the same way for Apollo, REST, MCP, graphql-ws and graphql-sse. */
export interface Context {
  requestId: string;
  viewer: Viewer | null;
  /** The request's database: statements on the pool, and an entity manager forked on first use (src/db/request-db.ts). */
  db: Db;
  loaders: Loaders;
  access: AccessPolicy;
  deps: RequestDeps;
  log: Logger;
  /** Shared secret presented by the federation router, if any. */
  routerSecret?: string;
  /** The client's address (express req.ip, proxy-aware), for per-address limits such as signups. */
  clientIp?: string;
  /** A subscription's viewer as it is now (graphql-ws): standing requests re-check reach and credentials with it. */
  standing?: StandingViewer;
  /** Upstream provider calls this request made outside a batch (the research service counts them): what its charge settles on. */
  providerCalls: { made: number };
}

export interface ContextInput {
  credentials: Credentials;
  clientIp?: string;
  requestId?: string;
  log?: Logger;
  routerSecret?: string;
}

export async function createContext(deps: RequestDeps, input: ContextInput): Promise<Context> {
  // Its entity manager is forked on first use: a request served by hot reads alone never forks.
  const db = requestDb(deps.orm);
  const requestId = input.requestId ?? randomUUID();
  // Built when something logs through it (most requests write nothing at the configured level).
  const log = input.log ?? lazyChild(deps.logger, () => ({ requestId }));
  const viewer = await deps.authenticator.authenticate(db, input.credentials);
  return {
    requestId,
    viewer,
    db,
    loaders: deps.createLoaders(db),
    access: new AccessPolicy(db),
    deps,
    log,
    routerSecret: input.routerSecret,
    clientIp: input.clientIp,
    providerCalls: { made: 0 },
  };
}

export function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
