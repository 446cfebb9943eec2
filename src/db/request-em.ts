import type { EntityManager } from '@mikro-orm/postgresql';
import type { Orm } from './orm';

const ROOT = Symbol('the ORM entity manager');
const FORK = Symbol('the fork');

interface LazyFork {
  [ROOT]: EntityManager;
  [FORK]?: EntityManager;
}

/** What a fresh fork answers from what it shares with the ORM's entity manager (driver, configuration), with no transaction of its own. */
const UNFORKED: Partial<Record<string | symbol, (root: EntityManager) => unknown>> = {
  config: (root) => root.config,
  getConnection: (root) => root.getConnection.bind(root),
  getPlatform: (root) => root.getPlatform.bind(root),
  getTransactionContext: () => () => undefined,
};

const fork = (target: LazyFork): EntityManager => (target[FORK] ??= target[ROOT].fork({ disableContextResolution: true }) as EntityManager);

const handler: ProxyHandler<LazyFork> = {
  get(target, key) {
    if (key === FORK) return target[FORK];
    if (key === ROOT) return target[ROOT];
    if (target[FORK] === undefined) {
      const unforked = UNFORKED[key];
      if (unforked) return unforked(target[ROOT]);
    }
    const em = fork(target);
    const value: unknown = Reflect.get(em, key);
    return typeof value === 'function' ? value.bind(em) : value;
  },
  set: (target, key, value) => Reflect.set(fork(target), key, value),
  has: (target, key) => Reflect.has(fork(target), key),
};

/**
 * The request's entity manager: a fork of the ORM's (what `orm.em.fork()` gives), made on first
 * use. A hot read (hotQuery, and a repository's parsing of its timestamps) asks only for the
 * connection, the configuration, the platform and the transaction context; a fork made now would
 * answer those from the driver and configuration it shares with the ORM's entity manager and have
 * no transaction, so they are answered that way without forking. Anything else forks, once, and
 * from then on everything is the fork's (a transaction it starts included).
 */
export function requestEntityManager(orm: Orm): EntityManager {
  const target = Object.create(Object.getPrototypeOf(orm.em) as object) as LazyFork;
  target[ROOT] = orm.em as EntityManager;
  return new Proxy(target, handler) as unknown as EntityManager;
}

/** Whether the request's entity manager has been forked (tests: a hot read must not fork). */
export function isForked(em: EntityManager): boolean {
  return (em as unknown as LazyFork)[FORK] !== undefined;
}
