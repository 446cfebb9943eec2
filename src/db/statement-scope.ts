import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { AppError } from '../common/errors';
import type { Logger } from '../common/logger';
import type { MikroORM } from '@mikro-orm/core';
import type { PostgreSqlDriver } from '@mikro-orm/postgresql';

/** The statements one HTTP request has running, by the PostgreSQL backend (pid) running each. */
interface StatementScope {
  running: Map<number, number>;
  /** The client went away before its answer: running statements are cancelled, new ones refused. */
  gone: boolean;
}

/** The ORM (src/db/orm.ts's Orm, named here from MikroORM: orm.ts installs this module's tracking). */
type Orm = MikroORM<PostgreSqlDriver>;

const scopes = new AsyncLocalStorage<StatementScope>();

/** A pg client as far as tracking goes: the PostgreSQL backend running its statements. */
export interface PgBackend {
  processID?: number | null;
}

/** Runs `statement` on `connection`, known to the current request's scope (if any) while it runs. */
export async function tracked<T>(connection: PgBackend, statement: () => Promise<T>, sql = ''): Promise<T> {
  const scope = scopes.getStore();
  const pid = connection.processID;
  if (!scope || typeof pid !== 'number') return statement();
  // A ROLLBACK still runs: a transaction cut short must not go back to the pool open (nothing half-written stays).
  if (scope.gone && !ROLLBACK.test(sql)) throw new AppError('PROVIDER_UNAVAILABLE', 'The client went away before its answer');
  scope.running.set(pid, (scope.running.get(pid) ?? 0) + 1);
  try {
    return await statement();
  } finally {
    const left = (scope.running.get(pid) ?? 1) - 1;
    if (left > 0) scope.running.set(pid, left);
    else scope.running.delete(pid);
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
 * Express middleware: the statements of the rest of the request run in a scope, and when the
 * client goes away before its answer they are cancelled (pg_cancel_backend) and no new one starts,
 * so no request holds PostgreSQL past its client. Place it after the body is parsed (a body
 * parser's stream events would run outside the scope).
 */
export function cancelOnDisconnect(orm: Orm, logger: Logger) {
  return (_req: IncomingMessage, res: ServerResponse, next: () => void): void => {
    const scope: StatementScope = { running: new Map(), gone: false };
    res.once('close', () => {
      if (res.writableFinished) return;
      scope.gone = true;
      const pids = [...scope.running.keys()];
      if (!pids.length) return;
      // Outside the scope: this statement is the service's own.
      scopes.exit(() =>
        orm.em
          .getConnection()
          .execute(`select pg_cancel_backend(pid) from pg_stat_activity where pid = any(?::int[]) and state = 'active'`, [`{${pids.join(',')}}`])
          .catch((err: unknown) => logger.warn({ err }, 'cancelling the statements of a request whose client went away failed')),
      );
    });
    scopes.run(scope, next);
  };
}
