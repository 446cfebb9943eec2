import type { ApolloServerPlugin } from '@apollo/server';
import { LRUCache } from 'lru-cache';
import type { Logger } from '../common/logger';
import type { Config } from '../config/config';
import type { Orm } from '../db/orm';
import { PersistedQueriesRepository } from './persisted-queries.repository';
import { poolDb } from '../db/request-db';

/** Bounds of the persisted-query store (docs/api/caching.md). */
export type PersistedQueryLimits = Config['graphql']['apq'];

/**
 * Apollo's key-value cache interface (`@apollo/utils.keyvaluecache`), the shape its
 * `persistedQueries.cache` option takes: string values, a TTL in seconds.
 */
export interface StringKeyValueCache {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string, options?: { ttl?: number | null }): Promise<void>;
  delete(key: string): Promise<boolean | void>;
}

/** Apollo hands the store keys `apq:<sha256 hex>` (its PrefixingKeyValueCache): anything else names no document. */
const APQ_KEY = /^apq:([0-9a-f]{64})$/;

/**
 * The APQ store shared by every instance: a table in PostgreSQL (`persisted_queries`) with a
 * bounded in-process LRU in front. Apollo registers a document only once it parsed, validated and
 * was charged (src/graphql/rate-limit.plugin.ts runs before registration, and a refusal skips it),
 * with the hash it checked itself, so a client can only store documents it could have run. The
 * table is bounded: documents past `maxDocumentBytes` are not stored, and each registration prunes
 * the expired rows and the oldest registrations past `maxEntries` / `maxBytes`.
 * A failing database never fails a request: a lookup that fails answers "not found" (the client
 * sends its document again), a registration that fails is logged.
 */
export class PersistedQueryStore implements StringKeyValueCache {
  private readonly memory: LRUCache<string, string>;
  /** Registrations being written, by hash: the registering answer waits for its own (see registered). */
  private readonly writing = new Map<string, Promise<void>>();
  private readonly rows: PersistedQueriesRepository;

  constructor(
    orm: Orm,
    private readonly limits: PersistedQueryLimits,
    private readonly logger: Logger,
  ) {
    this.rows = new PersistedQueriesRepository(poolDb(orm));
    this.memory = new LRUCache<string, string>({
      maxSize: Math.max(1, limits.memoryBytes),
      sizeCalculation: (value, key) => Buffer.byteLength(value) + key.length,
      ttl: limits.ttlS * 1000,
      ttlAutopurge: false,
    });
  }

  async get(key: string): Promise<string | undefined> {
    const hash = APQ_KEY.exec(String(key))?.[1];
    if (!hash) return undefined;
    const remembered = this.memory.get(hash);
    if (remembered !== undefined) return remembered;
    try {
      const row = await this.rows.find(hash);
      if (!row) return undefined;
      // Kept here no longer than in the table.
      if (Buffer.byteLength(row.query) <= this.limits.memoryBytes) this.memory.set(hash, row.query, { ttl: Number(row.ttl_ms) });
      return row.query;
    } catch (error) {
      this.logger.warn({ err: error }, 'persisted query lookup failed: answered as not found');
      return undefined;
    }
  }

  async set(key: string, value: string): Promise<void> {
    const hash = APQ_KEY.exec(String(key))?.[1];
    if (!hash || typeof value !== 'string') return;
    const bytes = Buffer.byteLength(value);
    // Too large to keep: it ran, and the client will send it again.
    if (bytes > this.limits.maxDocumentBytes || bytes > this.limits.maxBytes) return;
    if (bytes <= this.limits.memoryBytes) this.memory.set(hash, value);
    let stored = false;
    const write: Promise<void> = this.write(hash, value, bytes)
      .then((ok) => {
        stored = ok;
      })
      .finally(() => {
        if (this.writing.get(hash) === write) this.writing.delete(hash);
      });
    this.writing.set(hash, write);
    await write;
    // The registering answer waits for its row (registered), not for the pruning of others' rows after it.
    if (stored) await this.pruneLogged();
  }

  /**
   * Resolves once the registration of `queryHash` (if one is being written) is in the table: Apollo
   * does not await the store, and the registering answer waits for it (persistedQueriesPlugin), so a
   * client that got it may ask any instance by the hash alone at once.
   */
  async registered(queryHash: string): Promise<void> {
    await this.writing.get(queryHash);
  }

  /** Whether the registration is in the table. */
  private async write(hash: string, value: string, bytes: number): Promise<boolean> {
    try {
      await this.rows.register(hash, value, bytes, this.limits.ttlS);
      return true;
    } catch (error) {
      this.logger.warn({ err: error }, 'persisted query registration failed');
      return false;
    }
  }

  private async pruneLogged(): Promise<void> {
    try {
      await this.prune();
    } catch (error) {
      this.logger.warn({ err: error }, 'pruning persisted queries failed');
    }
  }

  async delete(key: string): Promise<boolean> {
    const hash = APQ_KEY.exec(String(key))?.[1];
    if (!hash) return false;
    this.memory.delete(hash);
    await this.rows.delete(hash);
    return true;
  }

  /**
   * Drops the expired rows and the oldest registrations past either bound. Under a transaction-level
   * advisory lock that only one instance takes at a time (the others skip: the holder prunes for them),
   * so concurrent registrations never delete in crossing orders.
   */
  async prune(): Promise<number> {
    return this.rows.prune(this.limits.maxEntries, this.limits.maxBytes);
  }
}

/** Apollo: an answer that registered a document is sent once the document is in the shared table. */
export function persistedQueriesPlugin<C extends object>(store: PersistedQueryStore): ApolloServerPlugin<C> {
  return {
    async requestDidStart() {
      return {
        async willSendResponse({ metrics, queryHash }) {
          if (metrics.persistedQueryRegister && queryHash) await store.registered(queryHash);
        },
      };
    },
  };
}
