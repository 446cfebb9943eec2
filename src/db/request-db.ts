import type { Transaction } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Orm } from './orm';
import { hotStatement } from './sql';

/**
 * What a repository (and the request's other readers: authentication, access) is given to reach
 * the database: statements on the pool's connection, and MikroORM's entity manager for what the
 * ORM does (entities, flushes, locks). A request's `Db` makes its entity manager (a fork of the
 * ORM's) only when something asks for `em`: a request served by `execute` and `hot` alone makes
 * none. Inside `transactional`, everything runs in the transaction.
 */
export interface Db {
  /** One statement on the pool's connection (in this Db's transaction, if it is one); rows as the driver gives them (timestamps as text). */
  execute<T>(sql: string, bindings?: unknown[]): Promise<T[]>;
  /** The same for a statement every request runs: a named prepared statement (hotQuery in src/db/sql.ts), unless in a transaction. */
  hot<T>(sql: string, bindings?: unknown[]): Promise<T[]>;
  /** The ORM's platform, for parsing a raw row's timestamps as the ORM parses an entity's. */
  readonly platform: ReturnType<EntityManager['getPlatform']>;
  /** MikroORM's entity manager: the request's fork, made on first use; inside `transactional`, the transaction's. */
  readonly em: EntityManager;
  /** Runs `work` in a transaction (of this Db's entity manager); the Db it hands over is the transaction's. */
  transactional<T>(work: (tx: Db) => Promise<T>): Promise<T>;
}

class OrmDb implements Db {
  #em: EntityManager | undefined;

  /**
   * @param root the ORM's entity manager: its connection, configuration and platform are shared by every fork
   * @param em the entity manager to use (a worker's fork, a transaction's); none: a fork of `root`, made on first use
   */
  constructor(
    private readonly root: EntityManager,
    em?: EntityManager,
  ) {
    this.#em = em;
  }

  get em(): EntityManager {
    return (this.#em ??= this.root.fork({ disableContextResolution: true }) as EntityManager);
  }

  /** Whether the entity manager was made (or given). */
  get forked(): boolean {
    return this.#em !== undefined;
  }

  get platform(): ReturnType<EntityManager['getPlatform']> {
    return this.root.getPlatform();
  }

  /** The transaction statements join: the entity manager's, when it has one; a fork not yet made has none. */
  private get transaction(): Transaction | undefined {
    return this.#em?.getTransactionContext();
  }

  execute<T>(sql: string, bindings: unknown[] = []): Promise<T[]> {
    return this.root.getConnection().execute<T[]>(sql, bindings, 'all', this.transaction);
  }

  hot<T>(sql: string, bindings: unknown[] = []): Promise<T[]> {
    return hotStatement<T>(this.root, this.transaction, sql, bindings);
  }

  transactional<T>(work: (tx: Db) => Promise<T>): Promise<T> {
    return this.em.transactional((tx) => work(new OrmDb(this.root, tx as EntityManager)));
  }
}

/** A request's database: its entity manager is forked from the ORM's on first use of `em`, never for `execute` or `hot`. */
export function requestDb(orm: Orm): Db {
  return new OrmDb(orm.em as EntityManager);
}

/** The database over an entity manager that exists (a worker's fork, a test's, a transaction's). */
export function dbOf(em: EntityManager): Db {
  return new OrmDb(em, em);
}

/** Whether a request's database has made its entity manager (tests: a hot read must not fork). */
export function hasForked(db: Db): boolean {
  return db instanceof OrmDb && db.forked;
}

/**
 * The process's database, for the stores every request shares (rate limiter, limit overrides, usage,
 * persisted queries, Idempotency-Key): statements on the pool; `em` and each `transactional` use a
 * fresh fork, so a long-lived store keeps no entity manager (nor its identity map) between calls.
 */
export function poolDb(orm: Orm): Db {
  const root = orm.em as EntityManager;
  return {
    execute<T>(sql: string, bindings: unknown[] = []): Promise<T[]> {
      return root.getConnection().execute<T[]>(sql, bindings, 'all');
    },
    hot<T>(sql: string, bindings: unknown[] = []): Promise<T[]> {
      return hotStatement<T>(root, undefined, sql, bindings);
    },
    get platform() {
      return root.getPlatform();
    },
    get em() {
      return root.fork({ disableContextResolution: true }) as EntityManager;
    },
    transactional<T>(work: (tx: Db) => Promise<T>): Promise<T> {
      return new OrmDb(root).transactional(work);
    },
  };
}
