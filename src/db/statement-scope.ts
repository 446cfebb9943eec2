import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { connect } from 'node:net';
import { AppError } from '../common/errors';
import type { Logger } from '../common/logger';
import type { MikroORM } from '@mikro-orm/core';
import type { PostgreSqlDriver } from '@mikro-orm/postgresql';

/** The statements one HTTP request has running, by the pg client (one PostgreSQL backend) running each. */
interface StatementScope {
  running: Map<PgBackend, number>;
  /** The client went away before its answer: running statements are cancelled, new ones refused. */
  gone: boolean;
  /**
   * The cancels sent when the client went away, by connection: until one has been taken by the
   * server, its connection is not given back (a cancel must reach this request's statement, never
   * the next holder's) and runs nothing more.
   */
  cancels?: Map<PgBackend, Promise<void>>;
}

/** The ORM (src/db/orm.ts's Orm, named here from MikroORM: orm.ts installs this module's tracking). */
type Orm = MikroORM<PostgreSqlDriver>;

const scopes = new AsyncLocalStorage<StatementScope>();

/** A pg client as far as tracking and cancelling go: the PostgreSQL backend running its statements. */
export interface PgBackend {
  processID?: number | null;
  secretKey?: number | null;
  host?: string;
  port?: number;
  end?(): unknown;
  /** knex's mark of a connection its pool must destroy rather than hand out (set on 'error' and 'end'). */
  __knex__disposed?: unknown;
}

/** Runs `statement` on `connection`, known to the current request's scope (if any) while it runs. */
export async function tracked<T>(connection: PgBackend, statement: () => Promise<T>, sql = ''): Promise<T> {
  const scope = scopes.getStore();
  if (!scope) return statement();
  if (scope.gone) {
    // A ROLLBACK still runs: a transaction cut short must not go back to the pool open (nothing
    // half-written stays). It waits for a cancel aimed at its connection, which must not cut it.
    if (!ROLLBACK.test(sql)) throw new AppError('PROVIDER_UNAVAILABLE', 'The client went away before its answer');
    await scope.cancels?.get(connection);
  }
  scope.running.set(connection, (scope.running.get(connection) ?? 0) + 1);
  try {
    return await statement();
  } finally {
    const left = (scope.running.get(connection) ?? 1) - 1;
    if (left > 0) scope.running.set(connection, left);
    else scope.running.delete(connection);
    // The caller gives the connection back when this returns: not before the server has the cancel.
    const cancel = scope.cancels?.get(connection);
    if (cancel) await cancel;
  }
}

const ROLLBACK = /^\s*rollback\b/i;

type Send = (this: unknown, connection: PgBackend, query: { sql?: string } | string) => Promise<unknown>;
const TRACKING = Symbol('statements tracked');

/**
 * Every statement the ORM's knex client sends is tracked (hotQuery tracks its own). Set on the
 * dialect's prototype, once: knex builds a transaction's client from the prototype, not from the
 * ORM's client, and statements outside any request scope pass straight through.
 */
export function trackStatements(orm: Orm): void {
  const proto = Object.getPrototypeOf(orm.em.getConnection().getKnex().client) as { _query: Send; [TRACKING]?: true };
  if (proto[TRACKING]) return;
  const send = proto._query;
  proto._query = function (this: unknown, connection, query) {
    return tracked(connection, () => send.call(this, connection, query), typeof query === 'string' ? query : (query?.sql ?? ''));
  };
  proto[TRACKING] = true;
}

/**
 * How long a cancel may take before its connection is closed instead: well inside the pool's 5 s
 * for a connection (CONNECT_TIMEOUT_MS in src/db/orm.ts), so a request waiting for the connection a
 * hung cancel holds still gets a new one in time. A server takes a cancel in about a round trip.
 */
export const CANCEL_WITHIN_MS = 2000;

/** How a cancel is sent; a test may hold or drop it. */
export interface CancelOptions {
  /** Sends the cancel for `connection`'s backend; resolves once the server has taken it. */
  send?: (connection: PgBackend, withinMs: number) => Promise<void>;
  /** A cancel not taken by then: its connection is closed instead of given back (default CANCEL_WITHIN_MS). */
  withinMs?: number;
}

/**
 * Express middleware: the statements of the rest of the request run in a scope, and when the
 * client goes away before its answer they are cancelled and no new one starts, so no request holds
 * PostgreSQL past its client. Place it after the body is parsed (a body parser's stream events
 * would run outside the scope).
 *
 * A cancel is PostgreSQL's CancelRequest for the statement's own connection (its backend's key, on
 * a socket of its own: no pool connection is needed, and PgBouncer routes it to the server
 * connection its client holds), and that connection stays with the request until the server has
 * taken the cancel. So a cancel lands on this request's statement or on an idle backend, where
 * PostgreSQL drops it, never on a statement of a request that took the connection next (before,
 * `pg_cancel_backend(pid)` one round trip later could). A cancel the server has not taken within
 * `withinMs` closes its connection rather than give it back.
 */
export function cancelOnDisconnect(logger: Logger, options: CancelOptions = {}) {
  const send = options.send ?? sendCancelRequest;
  const withinMs = options.withinMs ?? CANCEL_WITHIN_MS;
  return (_req: IncomingMessage, res: ServerResponse, next: () => void): void => {
    const scope: StatementScope = { running: new Map(), gone: false };
    res.once('close', () => {
      if (res.writableFinished) return;
      scope.gone = true;
      if (!scope.running.size) return;
      const cancels = new Map<PgBackend, Promise<void>>();
      for (const connection of scope.running.keys()) {
        cancels.set(
          connection,
          send(connection, withinMs).catch((err: unknown) => {
            logger.warn({ err }, 'cancelling the statement of a request whose client went away failed: its connection is closed, not reused');
            // Marked before it is given back: its 'end' may come later (its statement may be done,
            // and a server that did not take the cancel may not answer the close either).
            connection.__knex__disposed = 'its cancel was not taken';
            Promise.resolve(connection.end?.()).catch(() => undefined);
          }),
        );
      }
      scope.cancels = cancels;
    });
    scopes.run(scope, next);
  };
}

/** The CancelRequest code (PostgreSQL protocol, "Message Formats": 1234 in the high 16 bits, 5678 in the low). */
const CANCEL_REQUEST_CODE = 80877102;

/**
 * Sends PostgreSQL's CancelRequest for `connection`'s backend on a new connection to the same
 * server (the protocol's out-of-band cancel, as libpq's PQcancel and pg's own Client#cancel do).
 * The server closes that connection once it has signalled the backend; like PQcancel, this waits
 * for that close, which is the only answer there is.
 */
export function sendCancelRequest(connection: PgBackend, withinMs: number): Promise<void> {
  const { processID, secretKey, host, port } = connection;
  if (typeof processID !== 'number' || typeof secretKey !== 'number' || !port) {
    return Promise.reject(new Error('the connection has no backend key to cancel with'));
  }
  return new Promise<void>((resolve, reject) => {
    const socket = host?.startsWith('/') ? connect(`${host}/.s.PGSQL.${port}`) : connect(port, host || 'localhost');
    const timer = setTimeout(() => socket.destroy(new Error(`the server did not take the cancel within ${withinMs} ms`)), withinMs);
    socket.once('connect', () => {
      const packet = Buffer.alloc(16);
      packet.writeInt32BE(16, 0);
      packet.writeInt32BE(CANCEL_REQUEST_CODE, 4);
      packet.writeInt32BE(processID, 8);
      packet.writeInt32BE(secretKey, 12);
      socket.write(packet);
    });
    socket.on('data', () => undefined);
    socket.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    socket.once('close', (hadError) => {
      clearTimeout(timer);
      if (!hadError) resolve();
    });
  });
}
