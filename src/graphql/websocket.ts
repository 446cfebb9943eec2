import type { GraphQLSchema } from 'graphql';
import { GraphQLError, parse, validate, specifiedRules } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import type { Server } from 'node:http';
import { WebSocket, WebSocketServer } from 'ws';
import type { AppDeps } from '../deps';
import { AppError, findAppError } from '../common/errors';
import { toHttpError } from '../http/rest/error-status';
import type { Credentials } from '../auth/authenticate';
import { createContext } from './context';
import { depthLimit } from './limits';
import { chargeOperation, OnRateLimited } from './rate-limit.plugin';

const MAX_PAYLOAD_BYTES = 64 * 1024;
/** Close code for a connection past GRAPHQL_WS_MAX_CONNECTIONS_PER_ACCOUNT (graphql-ws clients may retry it later). */
export const TOO_MANY_CONNECTIONS = 4029;

type ConnectionExtra = { credentials?: Credentials; accountId?: string; socket: WebSocket };

export interface WebsocketLimits {
  /** `Type.field` names of provider-backed fields (src/graphql/cost.ts), charged to the research budget. */
  providerFields: Set<string>;
  onLimited?: (budget: string) => void;
}

/**
 * graphql-ws on /graphql. It bypasses Apollo's plugins and validation rules, so it authenticates
 * in onConnect (credentials in connectionParams) and applies the same limits in onSubscribe:
 * connections per account, live operations per connection, and the per-minute budgets.
 */
export function attachWebsockets(deps: AppDeps, schema: GraphQLSchema, httpServer: Server, limits: WebsocketLimits = { providerFields: new Set() }) {
  const wss = new WebSocketServer({ server: httpServer, path: '/graphql', maxPayload: MAX_PAYLOAD_BYTES });
  const rules = [...specifiedRules, depthLimit(deps.config.graphql.maxDepth)];
  const { wsMaxConnectionsPerAccount, wsMaxSubscriptions } = deps.config.requestLimits;
  // Open connections per account on this instance.
  const connections = new Map<string, number>();
  const onLimited: OnRateLimited = (budget) => limits.onLimited?.(budget);

  const disposable = useServer<Record<string, unknown>, ConnectionExtra>(
    {
      schema,
      onConnect: async (ctx) => {
        const params = ctx.connectionParams ?? {};
        const apiKey = stringParam(params['x-api-key'] ?? params.apiKey);
        const authorization = stringParam(params.authorization ?? params.Authorization);
        let accountId: string;
        try {
          const context = await createContext(deps, { credentials: { apiKey, authorization } });
          if (!context.viewer) return false;
          accountId = context.viewer.accountId;
        } catch {
          return false;
        }
        // No await between the check and the count: concurrent handshakes cannot both slip in.
        const open = connections.get(accountId) ?? 0;
        if (open >= wsMaxConnectionsPerAccount) {
          limits.onLimited?.('ws_connections');
          ctx.extra.socket.close(TOO_MANY_CONNECTIONS, `Too many connections: at most ${wsMaxConnectionsPerAccount} per account`);
          return false;
        }
        connections.set(accountId, open + 1);
        Object.assign(ctx.extra, { credentials: { apiKey, authorization }, accountId });
        return true;
      },
      onClose: (ctx) => {
        const accountId = ctx.extra.accountId;
        if (!accountId) return;
        ctx.extra.accountId = undefined;
        const open = (connections.get(accountId) ?? 1) - 1;
        if (open > 0) connections.set(accountId, open);
        else connections.delete(accountId);
      },
      onSubscribe: async (ctx, _id, payload) => {
        // First and synchronous: graphql-ws registers the operation before calling this hook, so a
        // burst past the cap is refused without parsing, SQL or any await.
        if (Object.keys(ctx.subscriptions).length > wsMaxSubscriptions) {
          limits.onLimited?.('ws_subscriptions');
          return [
            new GraphQLError(`Too many operations on this connection: at most ${wsMaxSubscriptions} at once; complete one first`, {
              extensions: { code: 'RATE_LIMITED' },
            }),
          ];
        }
        let document;
        try {
          document = parse(payload.query, { maxTokens: deps.config.graphql.maxTokens });
        } catch (error) {
          return [new GraphQLError((error as Error).message, { extensions: { code: 'GRAPHQL_PARSE_FAILED' } })];
        }
        const errors = validate(schema, document, rules);
        if (errors.length) return errors;
        const accountId = ctx.extra.accountId;
        try {
          await chargeOperation(
            deps,
            { viewer: accountId ? { accountId } : null },
            { schema, document, operationName: payload.operationName, variables: payload.variables ?? undefined },
            limits.providerFields,
            onLimited,
          );
        } catch (error) {
          const appError = findAppError(error);
          if (!appError) throw error;
          return [new GraphQLError(appError.message, { extensions: appError.extensions })];
        }
        // Parsed and validated here: graphql-ws then runs it as is instead of parsing it again.
        return { schema, document, operationName: payload.operationName, variableValues: payload.variables };
      },
      // Credentials are checked again for every subscription: a key revoked mid-connection stops working.
      context: async (ctx) => {
        const credentials = ctx.extra.credentials;
        const context = credentials ? await createContext(deps, { credentials }) : undefined;
        if (!context?.viewer) throw new AppError('UNAUTHENTICATED', 'Not authenticated');
        return context;
      },
      onError: (_ctx, _id, _payload, errors) => {
        for (const error of errors) {
          if (toHttpError(error.originalError ?? error).unexpected) deps.logger.error({ err: error }, 'websocket operation failed');
        }
      },
    },
    wss,
  );
  return {
    /** Closes every client (1001) and stops accepting connections. */
    async close() {
      await disposable.dispose();
    },
  };
}

function stringParam(value: unknown): string | undefined {
  return typeof value === 'string' && value ? value : undefined;
}
