import { DataloaderType, MikroORM, Options } from '@mikro-orm/core';
import { Migrator } from '@mikro-orm/migrations';
import { PostgreSqlDriver } from '@mikro-orm/postgresql';
import { SeedManager } from '@mikro-orm/seeder';
import { migrationsList } from '../../migrations';
import { withoutPreparedStatements } from './sql';
import { trackStatements } from './statement-scope';
import type { Logger } from '../common/logger';

export type Orm = MikroORM<PostgreSqlDriver>;

/** Longest wait for a pooled or new PostgreSQL connection. */
const CONNECT_TIMEOUT_MS = 5000;

export interface OrmSettings {
  url: string;
  poolMax?: number;
  /**
   * Connections kept open however long the pool idles, and opened by initOrm (DATABASE_POOL_MIN;
   * default 0 here: short-lived ORMs such as the migrator's keep none).
   */
  poolMin?: number;
  /** How long a connection past poolMin may idle before it is closed, ms (DATABASE_POOL_IDLE_TIMEOUT_MS). */
  poolIdleTimeoutMs?: number;
  debug?: boolean;
  /** Where the driver's own warnings go (a pooled connection found broken, a deprecation); without one, knex prints them on the console. */
  logger?: Logger;
  /** Hot statements (hotQuery) as named prepared statements; off behind a pooler that cannot keep them (default on). */
  preparedStatements?: boolean;
  /** statement_timeout of every pooled connection, in ms (DATABASE_STATEMENT_TIMEOUT_MS); 0 or unset: none. */
  statementTimeoutMs?: number;
  /**
   * Whether the pooled connections leave PostgreSQL's JIT compilation as the server and role set it
   * (default false: `jit=off` is sent when connecting). It fires on a statement whose estimated cost passes `jit_above_cost` and compiles
   * again on every execution: tens of milliseconds for a request's statement that runs in one or two
   * (issue 31: a composed roster read, 7 ms, took 61–66 ms once table statistics put its estimate past
   * the threshold). Behind a pooler nothing can be sent: openDatabase (src/db/database.ts) passes `true`.
   */
  jit?: boolean;
  /** Every entity class (the modules' list, handed in by the composition root). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  entities: any[];
}

export function ormOptions({ url, poolMax = 10, poolMin = 0, poolIdleTimeoutMs = 30_000, debug = false, entities, statementTimeoutMs = 0, jit = false, logger }: OrmSettings): Options<PostgreSqlDriver> {
  return {
    driver: PostgreSqlDriver,
    clientUrl: url,
    entities,
    extensions: [Migrator, SeedManager],
    migrations: { migrationsList, transactional: true, allOrNothing: true, snapshot: false, silent: true, tableName: 'mikro_orm_migrations' },
    // Past `min`, a connection idle for idleTimeoutMillis is closed (tarn reaps once a second); the
    // `min` most recently used stay open, with the statements prepared on them (issue 31: traffic
    // after a pause must not wait for new connections and re-preparation).
    pool: { min: Math.min(poolMin, poolMax), max: poolMax, idleTimeoutMillis: poolIdleTimeoutMs },
    // An unreachable database must fail fast (a 503 the client can retry), not hold requests for
    // knex's default 60 s; knex marks a pooled connection that errors as disposed, so the pool heals.
    // statement_timeout: PostgreSQL ends a statement that runs longer (57014, answered as a 504).
    driverOptions: {
      acquireConnectionTimeout: CONNECT_TIMEOUT_MS,
      connection: {
        connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
        ...(statementTimeoutMs > 0 ? { statement_timeout: statementTimeoutMs } : {}),
        ...(jit ? {} : { options: '-c jit=off' }),
      },
      ...(logger ? { log: driverLog(logger) } : {}),
    },
    forceUtcTimezone: true,
    // References and collections load through MikroORM's own dataloader: one query per batch.
    dataloader: DataloaderType.ALL,
    allowGlobalContext: false,
    debug,
    discovery: { warnWhenNoEntities: true },
  };
}

/**
 * knex's log hooks as the service's log lines. knex writes its warnings itself (`console.log`, in
 * colour) unless given these: a pooled connection found broken when it is next handed out
 * ("Connection Error: …", e.g. its backend was terminated, or its client's cancel was not taken),
 * a connection it could not close, a deprecated call. Each hook gets knex's one message.
 */
function driverLog(logger: Logger): Record<'warn' | 'error' | 'deprecate' | 'debug', (message: string) => void> {
  return {
    warn: (message) => logger.warn({ driver: 'knex', detail: message }, 'database driver warning'),
    error: (message) => logger.error({ driver: 'knex', detail: message }, 'database driver error'),
    deprecate: (message) => logger.warn({ driver: 'knex', detail: message }, 'database driver deprecation'),
    debug: (message) => logger.debug({ driver: 'knex', detail: message }, 'database driver debug'),
  };
}

export async function initOrm(settings: OrmSettings): Promise<Orm> {
  const orm = await MikroORM.init<PostgreSqlDriver>(ormOptions(settings));
  if (settings.preparedStatements === false) withoutPreparedStatements(orm.config);
  trackStatements(orm);
  await openPoolMinimum(orm, settings.poolMin ?? 0);
  return orm;
}

interface KnexPoolClient {
  acquireConnection(): Promise<unknown>;
  releaseConnection(connection: unknown): Promise<unknown>;
}

/**
 * Opens the pool's minimum at start (the pool itself only opens connections on demand): the first
 * requests after a start find their connections open, as the first ones after a pause do. Holds
 * `count` connections at once so the pool cannot hand the same one back; a connection that fails
 * fails start-up, as the first request would.
 */
export async function openPoolMinimum(orm: Orm, count: number): Promise<void> {
  if (count <= 0) return;
  const client = orm.em.getConnection().getKnex().client as KnexPoolClient;
  const settled = await Promise.allSettled(Array.from({ length: count }, () => client.acquireConnection()));
  await Promise.all(settled.map((s) => (s.status === 'fulfilled' ? client.releaseConnection(s.value) : undefined)));
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) throw failed.reason;
}

/** Names of migrations not yet applied; empty means the schema is current. */
export async function pendingMigrations(orm: Orm): Promise<string[]> {
  const pending = await orm.getMigrator().getPendingMigrations();
  return pending.map((m) => m.name);
}
