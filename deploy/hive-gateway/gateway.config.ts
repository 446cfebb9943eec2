/**
 * Hive Gateway (the open-source GraphQL federation gateway by The Guild) in front of this subgraph,
 * named "music" in the supergraph (deploy/router/supergraph.graphql, composed by
 * deploy/router/compose-supergraph.js, the same file Apollo Router serves).
 *
 *   docker run -p 4100:4000 -e ROUTER_SECRET=... \
 *     -v ./deploy/hive-gateway/gateway.config.ts:/gateway/gateway.config.ts:ro \
 *     -v ./deploy/router/supergraph.graphql:/gateway/supergraph.graphql:ro \
 *     ghcr.io/graphql-hive/gateway:2.15.1 supergraph
 *
 * (deploy/compose.yaml runs it so, on port 4100.)
 *
 * Clients: queries and mutations over HTTP (POST /graphql), subscriptions over graphql-ws
 * (ws://…/graphql, credentials in connectionParams or the upgrade request's headers) or over SSE
 * (POST /graphql with `Accept: text/event-stream`, credentials in the request's headers).
 * To the subgraph: HTTP for queries, mutations and `_entities`, graphql-ws for subscriptions.
 *
 * test/federation/gateways.int.test.ts runs this very configuration (gatewayConfigFor) with
 * @graphql-hive/gateway-runtime in process; test/deploy.test.ts checks it against compose.yaml.
 */
import type { GatewayConfigSupergraph, GatewayPlugin } from '@graphql-hive/gateway-runtime';
import { GraphQLError } from 'graphql';

/** The subgraph's name in the supergraph: only it gets the caller's credentials and the secret. */
export const MUSIC_SUBGRAPH = 'music';

/** The caller's headers forwarded to the music subgraph over HTTP (lower case, as fetch gives them). */
export const FORWARDED_HEADERS = ['x-api-key', 'authorization', 'x-request-id'] as const;

/**
 * connectionParams of the gateway's graphql-ws connection to the music subgraph (subscriptions):
 * the caller's credentials, from its own connectionParams or its request's headers (Hive Gateway
 * merges both into `context.headers`). An absent one interpolates to "", which the service ignores.
 */
export const SUBSCRIPTION_CONNECTION_PARAMS: Record<string, string> = {
  'x-api-key': '{context.headers.x-api-key}',
  authorization: '{context.headers.authorization}',
};

/** The caller's credentials as the gateway holds them (headers, and a websocket client's connectionParams). */
function credentialsOf(context: { headers?: Record<string, string | undefined> }): Record<string, string> {
  const headers = context.headers ?? {};
  const found: Record<string, string> = {};
  for (const name of ['x-api-key', 'authorization']) {
    const value = headers[name];
    if (typeof value === 'string' && value) found[name] = value;
  }
  return found;
}

/**
 * Every subscription of the music subgraph needs credentials. Without any, the gateway answers
 * UNAUTHENTICATED itself: the subgraph would refuse the gateway's graphql-ws connection (close
 * 4403), which graphql-ws clients retry for half a minute before failing without a code.
 */
export function subscriptionsNeedCredentials(): GatewayPlugin {
  return {
    onSubscribe({ args, setResultAndStopExecution }) {
      if (Object.keys(credentialsOf(args.contextValue as { headers?: Record<string, string> })).length) return;
      setResultAndStopExecution({
        errors: [new GraphQLError('Not authenticated: send x-api-key or Authorization (headers, or connectionParams over graphql-ws)', { extensions: { code: 'UNAUTHENTICATED' } })],
      });
    },
  };
}

export interface GatewayEnv {
  /** The shared secret the subgraph expects in x-router-secret (ROUTER_SECRET on both sides). */
  ROUTER_SECRET?: string;
  /** The supergraph: a file path (default ./supergraph.graphql) or its SDL. */
  SUPERGRAPH?: string;
}

export function gatewayConfigFor(env: GatewayEnv): GatewayConfigSupergraph {
  const secret = env.ROUTER_SECRET;
  if (!secret) throw new Error('ROUTER_SECRET must be set: the music subgraph answers _entities only with it');
  return {
    supergraph: env.SUPERGRAPH || './supergraph.graphql',
    // The subgraph's messages and codes are the client's to see: it masks its own internals.
    maskedErrors: false,
    plugins: () => [subscriptionsNeedCredentials()],
    propagateHeaders: {
      fromClientToSubgraphs({ context, subgraphName }) {
        if (subgraphName !== MUSIC_SUBGRAPH) return undefined;
        // context.headers: the HTTP request's headers, with a websocket client's connectionParams over them.
        const headers = (context.headers ?? {}) as Record<string, string | undefined>;
        const forwarded: Record<string, string> = { 'x-router-secret': secret };
        for (const name of FORWARDED_HEADERS) {
          const value = headers[name];
          if (typeof value === 'string' && value) forwarded[name] = value;
        }
        return forwarded;
      },
    },
    transportEntries: {
      [MUSIC_SUBGRAPH]: {
        options: {
          // Subscriptions reach the subgraph over graphql-ws on the same path as its HTTP endpoint.
          subscriptions: {
            kind: 'ws',
            location: '/graphql',
            options: { connectionParams: SUBSCRIPTION_CONNECTION_PARAMS },
          },
        },
      },
    },
  };
}

/** What the hive-gateway CLI reads from this file. */
export const gatewayConfig = gatewayConfigFor(process.env);
