import { randomUUID } from 'node:crypto';
import type { Logger } from '../common/logger';
import { PgListener } from '../db/listener';
import type { Viewer } from './viewer';

/** The channel the `announce_viewer_change` triggers notify with an account id. */
export const VIEWER_CHANNEL = 'viewer_changes';

/** Payloads of settle()'s own notifications (never an account id: those are UUIDs). */
const SETTLE = 'settle:';
const SETTLE_TIMEOUT_MS = 2_000;

/** A credential's viewer as the cache holds it. */
export interface CachedViewer {
  viewer: Viewer;
  expiresAt: number;
  /** Never cached past it (a token's expiry). */
  notAfter?: number;
  /** API keys: when this instance last recorded the key's use (last_used_at is written once a minute). */
  lastUsedAt?: number;
}

/**
 * Credential (key hash or token hash) → viewer, for a few seconds, bounded (least recently used go
 * first). Every change to who a credential acts as is announced by a trigger on the
 * `viewer_changes` channel and drops that account's entries on every instance; while that
 * channel is not being listened to, nothing is served from the cache.
 */
export class ViewerCache {
  private readonly entries = new Map<string, CachedViewer>();
  private readonly byAccount = new Map<string, Set<string>>();
  private readonly listener?: PgListener;
  /** Moves on every eviction: a viewer read before an eviction must not be cached after it. */
  private generation = 0;
  private readonly settling = new Map<string, () => void>();
  /** Standing requests (subscriptions) to tell when an account's viewer may have changed. */
  private readonly watchers = new Map<string, Set<() => void>>();

  constructor(
    private readonly ttlMs: number,
    private readonly max: number,
    listenUrl: string | undefined,
    logger: Logger,
  ) {
    // Listened to even with the cache off (AUTH_CACHE_TTL_MS=0): standing requests (subscriptions) hear changes through it.
    if (!listenUrl) return;
    this.listener = new PgListener(listenUrl, VIEWER_CHANNEL, logger, {
      applicationName: 'viewer-changes',
      onNotification: (payload) => {
        if (payload.startsWith(SETTLE)) this.settling.get(payload)?.();
        else this.evictAccount(payload);
      },
      // Changes made while the connection was down were not heard: start over.
      onLost: () => this.clear(),
      onReconnected: () => this.clear(),
    });
  }

  /** Starts listening for changes; until LISTEN is active the cache serves nothing. */
  async start(): Promise<void> {
    await this.listener?.keepListening();
  }

  get enabled(): boolean {
    return Boolean(this.listener?.listening);
  }

  get(credential: string, now = Date.now()): CachedViewer | undefined {
    if (!this.enabled) return undefined;
    const entry = this.entries.get(credential);
    if (!entry) return undefined;
    if (entry.expiresAt <= now) {
      this.delete(credential, entry);
      return undefined;
    }
    // Most recently used last: Map keeps insertion order, so re-insert.
    this.entries.delete(credential);
    this.entries.set(credential, entry);
    return entry;
  }

  /** Take it before reading a viewer from the database, and hand it to set(). */
  get version(): number {
    return this.generation;
  }

  /**
   * Whether an entry is in the second half of its time to live, and a read made now could keep it
   * longer (not when a token's expiry ends it): the authenticator then reads the credential's
   * viewer again in the background, so steady traffic never waits for that read.
   */
  dueForRefresh(entry: CachedViewer, now = Date.now()): boolean {
    return entry.expiresAt - now <= this.ttlMs / 2 && (entry.notAfter === undefined || entry.notAfter > entry.expiresAt);
  }

  /** Drops the credential's entry, if it is still `entry` (a read ahead found the credential no longer valid). */
  drop(credential: string, entry: CachedViewer): void {
    if (this.entries.get(credential) === entry) this.delete(credential, entry);
  }

  /**
   * Caches a viewer read while the cache was at `version`; skipped when an eviction came in
   * since (the read may predate the change it announced).
   */
  set(credential: string, viewer: Viewer, version: number, options: { now?: number; notAfter?: number; lastUsedAt?: number } = {}): void {
    if (!this.enabled || version !== this.generation) return;
    const now = options.now ?? Date.now();
    const expiresAt = Math.min(now + this.ttlMs, options.notAfter ?? Infinity);
    if (expiresAt <= now) return;
    const previous = this.entries.get(credential);
    if (previous) this.delete(credential, previous);
    // Shared by every request of the credential: frozen so no request can change another's viewer.
    this.entries.set(credential, {
      viewer: Object.freeze({ ...viewer, organizationIds: Object.freeze([...viewer.organizationIds]) as string[] }),
      expiresAt,
      notAfter: options.notAfter,
      lastUsedAt: options.lastUsedAt,
    });
    let keys = this.byAccount.get(viewer.accountId);
    if (!keys) this.byAccount.set(viewer.accountId, (keys = new Set()));
    keys.add(credential);
    while (this.entries.size > this.max) {
      const [oldest, entry] = this.entries.entries().next().value as [string, CachedViewer];
      this.delete(oldest, entry);
    }
  }

  /**
   * Resolves once every change committed before the call has been heard: notifications arrive in
   * commit order, so hearing one sent now means the earlier ones were handled. Mutations await it,
   * so a client that revokes a key or leaves an organization is refused on its very next request.
   * Never throws: when the channel cannot confirm, the cache is emptied instead.
   */
  async settle(): Promise<void> {
    if (!this.listener?.listening) return;
    const token = `${SETTLE}${randomUUID()}`;
    let timer: NodeJS.Timeout | undefined;
    const heard = new Promise<boolean>((resolve) => {
      this.settling.set(token, () => resolve(true));
      timer = setTimeout(() => resolve(false), SETTLE_TIMEOUT_MS);
    });
    try {
      await this.listener.notify(token);
      if (!(await heard)) this.clear();
    } catch {
      this.clear();
    } finally {
      clearTimeout(timer);
      this.settling.delete(token);
    }
  }

  /** Drops every cached credential of the account (its keys, memberships or profile changed). */
  evictAccount(accountId: string): void {
    this.generation += 1;
    for (const credential of this.byAccount.get(accountId) ?? []) this.entries.delete(credential);
    this.byAccount.delete(accountId);
    for (const listener of [...(this.watchers.get(accountId) ?? [])]) listener();
  }

  clear(): void {
    this.generation += 1;
    this.entries.clear();
    this.byAccount.clear();
    // Changes may have been missed (the channel was lost): every standing request checks again.
    for (const listeners of [...this.watchers.values()]) for (const listener of [...listeners]) listener();
  }

  /** Calls `listener` on every change announced for the account (and when changes may have been missed); returns the unsubscribe. */
  watch(accountId: string, listener: () => void): () => void {
    let listeners = this.watchers.get(accountId);
    if (!listeners) this.watchers.set(accountId, (listeners = new Set()));
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0 && this.watchers.get(accountId) === listeners) this.watchers.delete(accountId);
    };
  }

  get size(): number {
    return this.entries.size;
  }

  async close(): Promise<void> {
    this.clear();
    await this.listener?.close();
  }

  private delete(credential: string, entry: CachedViewer): void {
    this.entries.delete(credential);
    const keys = this.byAccount.get(entry.viewer.accountId);
    keys?.delete(credential);
    if (keys && keys.size === 0) this.byAccount.delete(entry.viewer.accountId);
  }
}
