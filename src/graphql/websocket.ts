import type { GraphQLSchema } from 'graphql';
import { GraphQLError, parse, validate } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import type { Server } from 'node:http';
import { WebSocket, WebSocketServer } from 'ws';
import type { AppDeps } from '../deps';
import { AppError } from '../common/errors';
import { toHttpError } from '../http/rest/error-status';
import type { Credentials } from '../auth/authenticate';
import { createContext } from './context';
import { depthLimit } from './limits';
import { formatGraphQLError } from './apollo';
import { clientValidationError, websocketRules } from './introspection';

const MAX_PAYLOAD_BYTES = 64 * 1024;

type ConnectionExtra = { credentials?: Credentials };

/**
 * graphql-ws on /graphql. It bypasses Apollo's plugins and validation rules, so it authenticates
 * in onConnect (credentials in connectionParams) and applies the same limits in onSubscribe.
 */
export function attachWebsockets(deps: AppDeps, schema: GraphQLSchema, httpServer: Server) {
  const wss = new WebSocketServer({ server: httpServer, path: '/graphql', maxPayload: MAX_PAYLOAD_BYTES });
  const { introspection } = deps.config.graphql;
  const rules = websocketRules(introspection, [depthLimit(deps.config.graphql.maxDepth)]);
  const disposable = useServer<Record<string, unknown>, ConnectionExtra>(
    {
      schema,
      onConnect: async (ctx) => {
        const params = ctx.connectionParams ?? {};
        const apiKey = stringParam(params['x-api-key'] ?? params.apiKey);
        const authorization = stringParam(params.authorization ?? params.Authorization);
        try {
          const context = await createContext(deps, { credentials: { apiKey, authorization } });
          if (!context.viewer) return false;
          (ctx.extra as ConnectionExtra).credentials = { apiKey, authorization };
          return true;
        } catch (error) {
          // The database (or key set) is unavailable: not the client's fault, so not 4403 Forbidden.
          if (toHttpError(error).status === 503) (ctx.extra as unknown as { socket: WebSocket }).socket.close(1013, 'Service unavailable: try again later');
          return false;
        }
      },
      onSubscribe: async (ctx, _id, payload) => {
        let document;
        try {
          document = parse(payload.query, { maxTokens: deps.config.graphql.maxTokens });
        } catch (error) {
          return [new GraphQLError((error as Error).message, { extensions: { code: 'GRAPHQL_PARSE_FAILED' } })];
        }
        const errors = validate(schema, document, rules);
        if (errors.length) return errors.map((error) => clientValidationError(error, introspection));
        // Credentials are checked again for every operation: a key revoked mid-connection stops
        // working. A failure (revoked key, database down) is an error message, not a dropped socket.
        try {
          const credentials = (ctx.extra as ConnectionExtra).credentials;
          const contextValue = credentials ? await createContext(deps, { credentials }) : undefined;
          if (!contextValue?.viewer) throw new AppError('UNAUTHENTICATED', 'Not authenticated');
          return { schema, document, variableValues: payload.variables, operationName: payload.operationName, contextValue };
        } catch (error) {
          const http = toHttpError(error);
          if (http.unexpected) deps.logger.error({ err: error }, 'websocket operation failed');
          const retryAfter = http.headers['Retry-After'];
          return [new GraphQLError(http.body.error, { extensions: { code: http.body.code, ...(retryAfter ? { retryAfter: Number(retryAfter) } : {}) } })];
        }
      },
      // Execution errors of an operation get the same masking and codes as over HTTP.
      onNext: (_ctx, _id, _payload, _args, result) => {
        if (!result.errors?.length) return undefined;
        return { ...result, errors: result.errors.map((error) => formatGraphQLError(deps, error.toJSON(), error)) };
      },
      // Also what a failing subscription stream sends: masked, with its code (formatGraphQLError logs the unexpected).
      onError: (_ctx, _id, _payload, errors) => errors.map((error) => formatGraphQLError(deps, error.toJSON(), error)),
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
