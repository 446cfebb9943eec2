import { createHash } from 'node:crypto';
import type { Config } from '../config/config';
import { AppError } from '../common/errors';
import type { Db } from '../db/request-db';
import { AccessRepository, ViewerRow } from './access.repository';
import { hashApiKey } from './api-keys';
import { JwtVerifier } from './jwt';
import { LAST_USED_RESOLUTION_MS, type LastUseWriter } from './last-use';
import type { Viewer } from './viewer';
import type { ViewerCache } from './viewer-cache';

export interface Credentials {
  apiKey?: string;
  authorization?: string;
}

/**
 * Turns request credentials into a Viewer. Rules 1-2 of the contract: both headers, or an invalid,
 * expired or revoked credential is a 401; no credential at all yields null (the route decides).
 * A credential costs one statement, and none while its viewer is cached (see ViewerCache). An API
 * key's last use is recorded once a minute off the request path (see LastUseWriter).
 */
export class Authenticator {
  constructor(
    private readonly config: Config,
    private readonly jwt: JwtVerifier,
    private readonly cache: ViewerCache,
    private readonly lastUse: LastUseWriter,
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
      return cached.viewer;
    }
    const version = this.cache.version;
    const row = await new AccessRepository(db).viewerOfKey(hash);
    if (!row) throw new AppError('UNAUTHENTICATED', 'Invalid or revoked API key');
    const viewer = this.toViewer(row, 'api_key', row.key_id);
    let lastUsedAt = row.last_used_at ? new Date(row.last_used_at).getTime() : 0;
    if (now - lastUsedAt > LAST_USED_RESOLUTION_MS) {
      this.lastUse.note(row.key_id, now);
      lastUsedAt = now;
    }
    this.cache.set(credential, viewer, version, { now, lastUsedAt });
    return viewer;
  }

  private async fromToken(db: Db, token: string): Promise<Viewer> {
    const credential = `jwt:${createHash('sha256').update(token).digest('base64url')}`;
    const cached = this.cache.get(credential);
    if (cached) return cached.viewer;
    const version = this.cache.version;
    const { accountId, expiresAt } = await this.jwt.accountFor(db, token);
    const viewer = await this.viewerFor(db, accountId, 'jwt');
    this.cache.set(credential, viewer, version, { notAfter: expiresAt });
    return viewer;
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

  /** Writes the last uses still noted and stops listening for viewer changes. */
  async close(): Promise<void> {
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
