import { hash as cryptoHash } from 'node:crypto';
import type { Config } from '../config/config';
import { AppError } from '../common/errors';
import type { Logger } from '../common/logger';
import type { Db } from '../db/request-db';
import { AccessRepository, ViewerRow } from './access.repository';
import { hashApiKey } from './api-keys';
import { JwtVerifier } from './jwt';
import { LAST_USED_RESOLUTION_MS, type LastUseWriter } from './last-use';
import type { Viewer } from './viewer';
import type { CachedViewer, ViewerCache } from './viewer-cache';

export interface Credentials {
  apiKey?: string;
  authorization?: string;
}

/**
 * Turns request credentials into a Viewer. Rules 1-2 of the contract: both headers, or an invalid,
 * expired or revoked credential is a 401; no credential at all yields null (the route decides).
 * A credential costs one statement, and none while its viewer is cached (see ViewerCache). An API
 * key's last use is recorded once a minute off the request path (see LastUseWriter).
 *
 * Read ahead: a request served from an entry in the second half of its time to live starts one
 * read of the credential's viewer in the background (one at a time per credential), which replaces
 * the entry with a fresh one, as a request that missed the cache would (the same statement, the
 * token verified again). So a client calling at least once every half TTL never waits for its
 * credential's read (issue 31: one request in every 150 at 30 a second did, and one in five at one
 * a second). Nothing is served longer than before: an entry still ends at its TTL, and every
 * change announced on `viewer_changes` drops it at once. A read ahead that finds the credential no
 * longer valid drops the entry (the next request is refused as a cold one would be); one that
 * fails otherwise is logged once and not tried again for that entry, which expires as before; one
 * that began before an eviction caches nothing (the cache's version).
 */
export class Authenticator {
  /** Credentials whose viewer is being read ahead, with that read. */
  private readonly readingAhead = new Map<string, Promise<void>>();
  /** Entries whose read ahead failed (database or key set unavailable): not tried again, they expire as before. */
  private readonly readAheadFailed = new WeakSet<CachedViewer>();

  constructor(
    private readonly config: Config,
    private readonly jwt: JwtVerifier,
    private readonly cache: ViewerCache,
    private readonly lastUse: LastUseWriter,
    /** Reads ahead go to the pool, not to the request that started them (which may end first). */
    private readonly pool: Db,
    private readonly logger: Logger,
  ) {}

  async authenticate(db: Db, credentials: Credentials): Promise<Viewer | null> {
    const apiKey = credentials.apiKey?.trim();
    const authorization = credentials.authorization?.trim();
    if (apiKey && authorization) {
      throw new AppError('UNAUTHENTICATED', 'Send either x-api-key or Authorization, not both');
    }
    if (apiKey) return this.fromApiKey(db, apiKey);
    if (authorization) {
      const match = /^Bearer\s+(\S+)$/i.exec(authorization);
      if (!match) throw new AppError('UNAUTHENTICATED', 'Authorization must be "Bearer <token>"');
      return this.fromToken(db, match[1]);
    }
    return null;
  }

  private async fromApiKey(db: Db, raw: string): Promise<Viewer> {
    const hash = hashApiKey(raw);
    const credential = `key:${hash}`;
    const now = Date.now();
    const cached = this.cache.get(credential, now);
    if (cached) {
      if (now - (cached.lastUsedAt ?? 0) > LAST_USED_RESOLUTION_MS) {
        this.lastUse.note(cached.viewer.apiKeyId!, now);
        cached.lastUsedAt = now;
      }
      this.readAhead(credential, cached, now, (pool) => this.keyViewer(pool, hash));
      return cached.viewer;
    }
    const version = this.cache.version;
    const { viewer, lastUsedAt: stored } = await this.keyViewer(db, hash);
    let lastUsedAt = stored;
    if (now - lastUsedAt > LAST_USED_RESOLUTION_MS) {
      this.lastUse.note(viewer.apiKeyId!, now);
      lastUsedAt = now;
    }
    this.cache.set(credential, viewer, version, { now, lastUsedAt });
    return viewer;
  }

  /** The viewer of the key with this hash, and when the key was last used (ms since the epoch, 0: never); 401 when there is none. */
  private async keyViewer(db: Db, hash: string): Promise<{ viewer: Viewer; lastUsedAt: number }> {
    const row = await new AccessRepository(db).viewerOfKey(hash);
    if (!row) throw new AppError('UNAUTHENTICATED', 'Invalid or revoked API key');
    return { viewer: this.toViewer(row, 'api_key', row.key_id), lastUsedAt: row.last_used_at ? new Date(row.last_used_at).getTime() : 0 };
  }

  private async fromToken(db: Db, token: string): Promise<Viewer> {
    const credential = `jwt:${cryptoHash('sha256', token, 'base64url')}`;
    const now = Date.now();
    const cached = this.cache.get(credential, now);
    if (cached) {
      this.readAhead(credential, cached, now, (pool) => this.tokenViewer(pool, token));
      return cached.viewer;
    }
    const version = this.cache.version;
    const { viewer, notAfter } = await this.tokenViewer(db, token);
    this.cache.set(credential, viewer, version, { notAfter });
    return viewer;
  }

  /** The token verified (signature, issuer, audience, expiry) and its account's viewer, cacheable until the token expires. */
  private async tokenViewer(db: Db, token: string): Promise<{ viewer: Viewer; notAfter: number }> {
    const { accountId, expiresAt } = await this.jwt.accountFor(db, token);
    return { viewer: await this.viewerFor(db, accountId, 'jwt'), notAfter: expiresAt };
  }

  /** Starts reading the credential's viewer ahead of the entry's expiry when it is due (see the class comment); never waits, never throws. */
  private readAhead(credential: string, entry: CachedViewer, now: number, read: (pool: Db) => Promise<{ viewer: Viewer; notAfter?: number }>): void {
    if (this.readingAhead.has(credential) || this.readAheadFailed.has(entry) || !this.cache.dueForRefresh(entry, now)) return;
    const version = this.cache.version;
    const flight = (async () => {
      // After the request that found the entry has gone on with its own statements.
      await new Promise((resolve) => setImmediate(resolve));
      try {
        const { viewer, notAfter } = await read(this.pool);
        // Its last use as this instance knows it by now (requests served meanwhile noted theirs on the entry).
        this.cache.set(credential, viewer, version, { notAfter, lastUsedAt: entry.lastUsedAt });
      } catch (error) {
        if (error instanceof AppError && error.code === 'UNAUTHENTICATED') this.cache.drop(credential, entry);
        else {
          this.readAheadFailed.add(entry);
          this.logger.warn({ err: error }, "could not read a cached credential's viewer ahead of its expiry; the entry expires as before");
        }
      } finally {
        this.readingAhead.delete(credential);
      }
    })();
    this.readingAhead.set(credential, flight);
  }

  async viewerFor(db: Db, accountId: string, via: Viewer['via'], apiKeyId?: string): Promise<Viewer> {
    const row = await new AccessRepository(db).viewerOf(accountId);
    if (!row) throw new AppError('UNAUTHENTICATED', 'The account behind this credential no longer exists');
    return this.toViewer(row, via, apiKeyId);
  }

  /** Resolves once the cache has heard of every change committed so far (see ViewerCache.settle). */
  settle(): Promise<void> {
    return this.cache.settle();
  }

  /** Resolves once every API key use noted so far is in last_used_at (the write is off the request path). */
  lastUseWritten(): Promise<void> {
    return this.lastUse.written();
  }

  /** Resolves once every read ahead started so far has landed (or failed). */
  async readAheadSettled(): Promise<void> {
    while (this.readingAhead.size) await Promise.all(this.readingAhead.values());
  }

  /** Lets the reads ahead land, writes the last uses still noted and stops listening for viewer changes. */
  async close(): Promise<void> {
    await this.readAheadSettled();
    await this.lastUse.written();
    await this.cache.close();
  }

  /** Calls `listener` whenever the account's viewer may have changed, on any instance (see ViewerCache.watch). */
  watch(accountId: string, listener: () => void): () => void {
    return this.cache.watch(accountId, listener);
  }

  /** Starts listening for viewer changes; the cache serves nothing until then. */
  start(): Promise<void> {
    return this.cache.start();
  }

  private toViewer(row: ViewerRow, via: Viewer['via'], apiKeyId?: string): Viewer {
    const organizationIds = row.organization_ids ?? [];
    const adminOrg = this.config.auth.adminOrgId;
    return {
      accountId: row.id,
      kind: row.kind,
      name: row.name,
      email: row.email,
      organizationIds,
      isAdmin: row.id === adminOrg || organizationIds.includes(adminOrg),
      via,
      apiKeyId,
    };
  }
}
