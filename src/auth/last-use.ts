import type { Logger } from '../common/logger';
import type { Db } from '../db/request-db';
import { AccessRepository } from './access.repository';

/** last_used_at is written at most once a minute per key (the column's resolution). */
export const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * Writes API keys' last_used_at off the request path (issue 31: the request that happened to fall
 * on a key's minute used to wait for the UPDATE and its commit, one request a minute per key, most
 * often the first one after a quiet spell). A request only notes the key here and goes on; one
 * writer at a time sends the noted keys, a key noted again before its write leaves counts once.
 * The write stays conditional (no earlier than a minute after the last one), so instances and
 * concurrent requests do not pile up. A failed write is logged and not retried: the key's next use
 * after a minute writes again. What a client sees in `last_used_at` may lag its request by the
 * time one statement takes; `written()` waits for it (tests, and shutdown).
 */
export class LastUseWriter {
  /** Key id → the newest use noted and not yet sent. */
  private readonly pending = new Map<string, number>();
  private flight?: Promise<void>;

  constructor(
    private readonly db: Db,
    private readonly logger: Logger,
  ) {}

  /** Notes a use of the key at `now`; never waits and never throws. */
  note(keyId: string, now: number): void {
    this.pending.set(keyId, Math.max(now, this.pending.get(keyId) ?? 0));
    this.flight ??= this.drain();
  }

  /** Resolves once every use noted so far has been written (or its write has failed and been logged). */
  async written(): Promise<void> {
    while (this.flight) await this.flight;
  }

  private async drain(): Promise<void> {
    // Runs after the request that noted the key has gone on (a microtask is not enough: the write would start ahead of its statement).
    await new Promise((resolve) => setImmediate(resolve));
    const repository = new AccessRepository(this.db);
    try {
      while (this.pending.size) {
        const [keyId, at] = this.pending.entries().next().value as [string, number];
        this.pending.delete(keyId);
        try {
          await repository.touchKey(keyId, new Date(at), new Date(at - LAST_USED_RESOLUTION_MS));
        } catch (error) {
          this.logger.warn({ err: error, keyId }, 'could not record the API key\'s last use');
        }
      }
    } finally {
      // In the same turn as the last look at `pending`: a key noted from now on starts a writer of its own.
      this.flight = undefined;
    }
  }
}
