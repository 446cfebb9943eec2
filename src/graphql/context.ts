import type { EntityManager } from '@mikro-orm/postgresql';
import { randomUUID } from 'node:crypto';
import { lazyChild, Logger } from '../common/logger';
import type { AppDeps } from '../deps';
import { AccessPolicy } from '../auth/access';
import { requestEntityManager } from '../db/request-em';
import type { Viewer } from '../auth/viewer';
import type { StandingViewer } from '../auth/standing';
import { Credentials } from '../auth/authenticate';
import type { Loaders } from '../modules';

/** The one request context, built the same way for Apollo, sofa (REST) and graphql-ws. */
export interface Context {
  requestId: string;
  viewer: Viewer | null;
  em: EntityManager;
  loaders: Loaders;
  access: AccessPolicy;
  deps: AppDeps;
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

export async function createContext(deps: AppDeps, input: ContextInput): Promise<Context> {
  // Forked on first use: a request served by hot reads alone never forks (see requestEntityManager).
  const em = requestEntityManager(deps.orm);
  const requestId = input.requestId ?? randomUUID();
  // Built when something logs through it (most requests write nothing at the configured level).
  const log = input.log ?? lazyChild(deps.logger, () => ({ requestId }));
  const viewer = await deps.authenticator.authenticate(em, input.credentials);
  return {
    requestId,
    viewer,
    em,
    loaders: deps.createLoaders(em),
    access: new AccessPolicy(em),
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
