import type { GraphQLSchema } from 'graphql';
import { GraphQLError } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import type { IncomingMessage, Server } from 'node:http';
import { WebSocket, WebSocketServer } from 'ws';
import type { AppDeps } from '../deps';
import type { Credentials } from '../auth/authenticate';
import { LiveGate, liveCredentials } from './live';

const MAX_PAYLOAD_BYTES = 64 * 1024;
/**
 * Close code past a websocket limit (the reason says which): a connection past
 * GRAPHQL_WS_MAX_CONNECTIONS_PER_ACCOUNT, or one that keeps subscribing past its refusals.
 * graphql-ws clients may retry it later.
 */
export const TOO_MANY_CONNECTIONS = 4029;
/** Close code of a connection whose credentials were refused (graphql-ws clients do not retry it), after its operations were answered why. */
export const UNAUTHORIZED = 4401;
/** How long a connection with refused credentials stays open for its first operation to be told why. */
const REFUSED_GRACE_MS = 5_000;

type ConnectionExtra = {
  credentials?: Credentials;
  accountId?: string;
  /** Ends this connection's count for its account. */
  release?: () => void;
  /** Credentials refused: every operation is answered with this error (HTTP's code and message), then the connection closes. */
  refusal?: GraphQLError;
  socket: WebSocket;
  /** Ids of the operations this connection runs. */
  live?: Set<string>;
  /** Operations refused past the cap in the current minute. */
  refused?: { since: number; count: number };
};
const REFUSAL_WINDOW_MS = 60_000;

/**
 * graphql-ws on /graphql. The shared gate (src/graphql/live.ts) authenticates in onConnect
 * (credentials in connectionParams, else the upgrade request's headers) and checks, weighs and
 * charges each operation in onSubscribe; this adds the websocket's own caps: connections per
 * account and live operations per connection.
 */
export function attachWebsockets(deps: AppDeps, schema: GraphQLSchema, httpServer: Server, gate: LiveGate, clientIp: (request: IncomingMessage) => string | undefined) {
  const wss = new WebSocketServer({ server: httpServer, path: '/graphql', maxPayload: MAX_PAYLOAD_BYTES });
  const { wsMaxSubscriptions } = deps.config.requestLimits;
  // One immutable answer for every refusal past the cap: a burst of thousands allocates nothing.
  const tooManyOperations = [
    new GraphQLError(`Too many operations on this connection: at most ${wsMaxSubscriptions} at once; complete one first`, { extensions: { code: 'RATE_LIMITED' } }),
  ];

  const disposable = useServer<Record<string, unknown>, ConnectionExtra>(
    {
      schema,
      onConnect: async (ctx) => {
        const credentials = liveCredentials(ctx.connectionParams, ctx.extra.request.headers);
        const admission = await gate.admit('websocket', credentials, clientIp(ctx.extra.request));
        const socket = ctx.extra.socket;
        if ('refusal' in admission) {
          // The database (or key set) is unavailable: not the client's fault, so not a refusal.
          if (admission.unavailable) {
            socket.close(1013, 'Service unavailable: try again later');
            return false;
          }
          // Accepted, so the client's operations are told why with HTTP's code and message (a close
          // code alone reaches a client, or a gateway's, as an error with neither); then closed
          // with 4401, which graphql-ws clients do not retry.
          ctx.extra.refusal = admission.refusal;
          const timer = setTimeout(() => closeRefused(socket, admission.refusal), REFUSED_GRACE_MS);
          socket.once('close', () => clearTimeout(timer));
          return true;
        }
        // Gone while it was authenticated (onClose has run): nothing to count.
        if (socket.readyState !== WebSocket.OPEN) return false;
        const release = gate.open('websocket', admission.accountId);
        if (!release) {
          socket.close(TOO_MANY_CONNECTIONS, gate.tooManyConnectionsMessage());
          return false;
        }
        Object.assign(ctx.extra, { credentials: admission.credentials, accountId: admission.accountId, release });
        return true;
      },
      onClose: (ctx) => {
        ctx.extra.release?.();
        ctx.extra.release = undefined;
      },
      onSubscribe: async (ctx, id, payload) => {
        const refusal = ctx.extra.refusal;
        if (refusal) {
          setImmediate(() => closeRefused(ctx.extra.socket, refusal));
          return [refusal];
        }
        // First and synchronous, so a burst past the cap is refused without parsing, SQL or any await.
        // Operations this connection runs: graphql-ws drops an id from ctx.subscriptions when it ends
        // (however it ends), so stale ids are pruned here; the set never holds more than the cap.
        const live = (ctx.extra.live ??= new Set());
        for (const id of live) if (!(id in ctx.subscriptions)) live.delete(id);
        if (live.size >= wsMaxSubscriptions) {
          const socket = ctx.extra.socket;
          // Already closing: whatever the client queued is dropped unanswered.
          if (socket.readyState !== WebSocket.OPEN) return tooManyOperations;
          gate.limited('ws_subscriptions', 'websocket');
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
        // Parsed and validated by the gate: graphql-ws then runs it as is instead of parsing it again.
        return gate.prepare('websocket', ctx.extra.accountId!, ctx.extra.credentials!, payload);
      },
      // Execution errors of an operation get the same masking and codes as over HTTP.
      // An answer past GRAPHQL_MAX_RESPONSE_BYTES is replaced by the error HTTP gives; a query's answer settles its charge.
      onNext: (_ctx, _id, _payload, args, result) => gate.answer(result, args.contextValue),
      // Also what a failing subscription stream sends: masked, with its code.
      onError: (_ctx, _id, _payload, errors) => gate.errors(errors),
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

/** Closes a connection whose credentials were refused: 4401 with HTTP's message (a close reason holds at most 123 bytes). */
function closeRefused(socket: WebSocket, refusal: GraphQLError): void {
  if (socket.readyState !== WebSocket.OPEN) return;
  socket.close(UNAUTHORIZED, Buffer.from(refusal.message).subarray(0, 123).toString('utf8').replace(/\uFFFD$/, ''));
}
