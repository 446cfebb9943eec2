import type { DocumentNode, GraphQLSchema } from 'graphql';
import { getOperationAST, GraphQLError, parse, validate } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { LRUCache } from 'lru-cache';
import type { Server } from 'node:http';
import { WebSocket, WebSocketServer } from 'ws';
import type { AppDeps } from '../deps';
import { AppError } from '../common/errors';
import { toHttpError } from '../http/rest/error-status';
import type { Credentials } from '../auth/authenticate';
import type { StandingViewer } from '../auth/standing';
import { createContext } from './context';
import { formatGraphQLError } from './apollo';
import { clientValidationError, websocketRules } from './introspection';
import { depthLimit } from './limits';
import { variablesError } from './input-guard';
import { Caller, chargeOperation, chargeRefusedOperation, costExtension, OnRateLimited, OperationCharge, settleOperation } from './rate-limit.plugin';
import { rateLimitedError } from '../auth/rate-limit';
import { boundedAnswer } from './executor';
import { operationRequestErrors } from './request-errors';
import { answerCost, noProviderFields, ProviderFields } from './cost';
import type { Context } from './context';

const MAX_PAYLOAD_BYTES = 64 * 1024;
/**
 * Close code past a websocket limit (the reason says which): a connection past
 * GRAPHQL_WS_MAX_CONNECTIONS_PER_ACCOUNT, or one that keeps subscribing past its refusals.
 * graphql-ws clients may retry it later.
 */
export const TOO_MANY_CONNECTIONS = 4029;

type ConnectionExtra = {
  credentials?: Credentials;
  accountId?: string;
  socket: WebSocket;
  /** Ids of the operations this connection runs. */
  live?: Set<string>;
  /** Operations refused past the cap in the current minute. */
  refused?: { since: number; count: number };
};
const REFUSAL_WINDOW_MS = 60_000;

export interface WebsocketLimits {
  /** `Type.field` names of provider-backed fields (src/graphql/cost.ts), charged to the research budget. */
  providerFields: ProviderFields;
  onLimited?: (budget: string) => void;
}

/**
 * graphql-ws on /graphql. It bypasses Apollo's plugins and validation rules, so it authenticates
 * in onConnect (credentials in connectionParams) and applies the same limits in onSubscribe:
 * connections per account, live operations per connection, and the per-minute budgets.
 */
export function attachWebsockets(deps: AppDeps, schema: GraphQLSchema, httpServer: Server, limits: WebsocketLimits = { providerFields: noProviderFields() }) {
  const wss = new WebSocketServer({ server: httpServer, path: '/graphql', maxPayload: MAX_PAYLOAD_BYTES });
  const { introspection } = deps.config.graphql;
  const rules = websocketRules(introspection, [depthLimit(deps.config.graphql.maxDepth)]);
  const { wsMaxConnectionsPerAccount, wsMaxSubscriptions } = deps.config.requestLimits;
  // Open connections per account on this instance.
  const connections = new Map<string, number>();
  const onLimited: OnRateLimited = (budget) => limits.onLimited?.(budget);
  const { maxResponseBytes } = deps.config.graphql;
  // A query's or mutation's charge, settled on its one answer (onNext). A subscription is charged once, when it starts.
  const charges = new WeakMap<Context, { charge: OperationCharge; caller: Caller }>();
  /** A refused operation's errors, once its 1 point is charged (RATE_LIMITED past the budget). */
  const refused = async (caller: Caller, errors: readonly GraphQLError[]): Promise<readonly GraphQLError[]> => {
    const decision = await chargeRefusedOperation(deps, caller, onLimited);
    if (decision && !decision.allowed) throw rateLimitedError(decision);
    return errors;
  };
  const documents = new DocumentCache((query) => {
    let document: DocumentNode;
    try {
      document = parse(query, { maxTokens: deps.config.graphql.maxTokens });
    } catch (error) {
      return { errors: [new GraphQLError((error as Error).message, { extensions: { code: 'GRAPHQL_PARSE_FAILED' } })] };
    }
    const errors = validate(schema, document, rules);
    return errors.length ? { errors: errors.map((error) => clientValidationError(error, introspection)) } : { document };
  });
  // One immutable answer for every refusal past the cap: a burst of thousands allocates nothing.
  const tooManyOperations = [
    new GraphQLError(`Too many operations on this connection: at most ${wsMaxSubscriptions} at once; complete one first`, { extensions: { code: 'RATE_LIMITED' } }),
  ];

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
        } catch (error) {
          // The database (or key set) is unavailable: not the client's fault, so not 4403 Forbidden.
          if (toHttpError(error).status === 503) ctx.extra.socket.close(1013, 'Service unavailable: try again later');
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
      onSubscribe: async (ctx, id, payload) => {
        // First and synchronous, so a burst past the cap is refused without parsing, SQL or any await.
        // Operations this connection runs: graphql-ws drops an id from ctx.subscriptions when it ends
        // (however it ends), so stale ids are pruned here; the set never holds more than the cap.
        const live = (ctx.extra.live ??= new Set());
        for (const id of live) if (!(id in ctx.subscriptions)) live.delete(id);
        if (live.size >= wsMaxSubscriptions) {
          const socket = ctx.extra.socket;
          // Already closing: whatever the client queued is dropped unanswered.
          if (socket.readyState !== WebSocket.OPEN) return tooManyOperations;
          limits.onLimited?.('ws_subscriptions');
          const now = Date.now();
          const refused = ctx.extra.refused && now - ctx.extra.refused.since < REFUSAL_WINDOW_MS ? ctx.extra.refused : { since: now, count: 0 };
          refused.count += 1;
          ctx.extra.refused = refused;
          // A client that keeps asking past its refusals is flooding: answering each one would cost a
          // write per message, so the connection ends instead.
          if (refused.count === wsMaxSubscriptions + 1) {
            // What the client queued after this is no longer handed to graphql-ws (ws still reads frames
            // up to the client's close frame); the close goes after the refusals already answered.
            socket.removeAllListeners('message');
            setImmediate(() => socket.close(TOO_MANY_CONNECTIONS, `Too many operations refused: at most ${wsMaxSubscriptions} at once per connection`));
          }
          return tooManyOperations;
        }
        live.add(id);
        // Let other sockets and requests run between accepted operations of a burst.
        await new Promise<void>((resolve) => setImmediate(resolve));
        const accountId = ctx.extra.accountId;
        const caller = { viewer: accountId ? { accountId } : null };
        // Credentials are checked again for every operation: a key revoked mid-connection stops
        // working. A failure (revoked key, database down, budget spent) is an error message with its
        // code, not a dropped socket. A client's mistake gets the code and message HTTP gives it.
        try {
          const checked = documents.check(payload.query);
          // A refused document is charged 1 point, as over HTTP.
          if ('errors' in checked) return await refused(caller, checked.errors);
          const { document } = checked;
          // Before anything walks the variables (the cost of a list may read its limit from them).
          const tooDeep = variablesError(payload.variables, deps.config.http.maxDepth);
          if (tooDeep) return await refused(caller, [tooDeep]);
          const charge = await chargeOperation(
            deps,
            caller,
            { schema, document, operationName: payload.operationName, variables: payload.variables ?? undefined },
            limits.providerFields,
            onLimited,
          );
          // An operation name naming no operation, variables that do not coerce: 400s over HTTP.
          const requestErrors = operationRequestErrors(schema, document, payload.operationName, payload.variables);
          if (requestErrors.length) return requestErrors;
          const credentials = ctx.extra.credentials;
          const contextValue = credentials ? await createContext(deps, { credentials }) : undefined;
          if (!contextValue?.viewer) throw new AppError('UNAUTHENTICATED', 'Not authenticated');
          // The operation outlives this check: a subscription re-reads its viewer when the account changes.
          contextValue.standing = standingViewer(deps, credentials!, contextValue.viewer.accountId);
          if (getOperationAST(document, payload.operationName)?.operation !== 'subscription') charges.set(contextValue, { charge, caller });
          // Parsed and validated here: graphql-ws then runs it as is instead of parsing it again.
          return { schema, document, operationName: payload.operationName, variableValues: payload.variables, contextValue };
        } catch (error) {
          const http = toHttpError(error);
          if (http.unexpected) deps.logger.error({ err: error }, 'websocket operation failed');
          const retryAfter = http.headers['Retry-After'];
          return [new GraphQLError(http.body.error, { extensions: { code: http.body.code, ...(retryAfter ? { retryAfter: Number(retryAfter) } : {}) } })];
        }
      },
      // Execution errors of an operation get the same masking and codes as over HTTP.
      // An answer past GRAPHQL_MAX_RESPONSE_BYTES is replaced by the error HTTP gives.
      // A query's or mutation's answer settles its charge on what it read (as over HTTP) and says so in extensions.cost.
      onNext: async (_ctx, _id, _payload, args, result) => {
        const answer = boundedAnswer(result, maxResponseBytes);
        const charged = charges.get(args.contextValue as Context);
        let cost: ReturnType<typeof costExtension> | undefined;
        if (charged) {
          charges.delete(args.contextValue as Context);
          const { providerCalls } = args.contextValue as Context;
          // An answer without data (or replaced for its size) keeps its whole charge.
          const ran = answer === result && result.data != null;
          const actual = ran ? answerCost(schema, args.document, args.operationName, result.data, limits.providerFields, providerCalls.made) : charged.charge.requested;
          const settled = await settleOperation(deps, charged.caller, charged.charge, actual, ran ? providerCalls.made : charged.charge.providerCalls);
          cost = costExtension(charged.charge.requested, settled.actual, settled.api);
        }
        const extensions = cost ? { extensions: { ...('extensions' in answer ? answer.extensions : {}), cost } } : {};
        if (!answer.errors?.length) return answer === result && !cost ? undefined : { ...answer, ...extensions };
        return { ...answer, errors: answer.errors.map((error) => formatGraphQLError(deps, error.toJSON(), error)), ...extensions };
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

type Checked = { document: DocumentNode } | { errors: readonly GraphQLError[] };
const DOCUMENT_CACHE_SIZE = 200;

/** Parsed and validated documents by query text (the least recently used dropped first): a client repeating a query is checked once. */
class DocumentCache {
  private readonly entries = new LRUCache<string, Checked>({ max: DOCUMENT_CACHE_SIZE });

  constructor(private readonly compute: (query: string) => Checked) {}

  check(query: string): Checked {
    const hit = this.entries.get(query);
    if (hit) return hit;
    const checked = this.compute(query);
    this.entries.set(query, checked);
    return checked;
  }
}

/**
 * The connection's credential as a standing viewer: re-authenticated on demand (the viewer cache is
 * emptied of the account on every announced change, so this reads it afresh), null once refused.
 */
function standingViewer(deps: AppDeps, credentials: Credentials, accountId: string): StandingViewer {
  return {
    async current() {
      try {
        return (await createContext(deps, { credentials })).viewer;
      } catch (error) {
        if (error instanceof AppError && error.code === 'UNAUTHENTICATED') return null;
        throw error;
      }
    },
    onChange: (listener, related = []) => {
      const offs = [...new Set([accountId, ...related])].map((id) => deps.authenticator.watch(id, listener));
      return () => offs.forEach((off) => off());
    },
  };
}

function stringParam(value: unknown): string | undefined {
  return typeof value === 'string' && value ? value : undefined;
}
