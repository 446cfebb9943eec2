import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from '../config/config';
import { AppError } from '../common/errors';
import { ApiKey } from './api-key.entity';
import { hashApiKey } from './api-keys';
import { JwtVerifier } from './jwt';
import { AccountKind, Viewer } from './viewer';

export interface Credentials {
  apiKey?: string;
  authorization?: string;
}

const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * Turns request credentials into a Viewer. Rules 1-2 of the contract: both headers, or an invalid,
 * expired or revoked credential is a 401; no credential at all yields null (the route decides).
 */
export class Authenticator {
  constructor(
    private readonly config: Config,
    private readonly jwt: JwtVerifier,
  ) {}

  async authenticate(em: EntityManager, credentials: Credentials): Promise<Viewer | null> {
    const apiKey = credentials.apiKey?.trim();
    const authorization = credentials.authorization?.trim();
    if (apiKey && authorization) {
      throw new AppError('UNAUTHENTICATED', 'Send either x-api-key or Authorization, not both');
    }
    if (apiKey) return this.fromApiKey(em, apiKey);
    if (authorization) {
      const match = /^Bearer\s+(\S+)$/i.exec(authorization);
      if (!match) throw new AppError('UNAUTHENTICATED', 'Authorization must be "Bearer <token>"');
      const accountId = await this.jwt.accountFor(em, match[1]);
      return this.viewerFor(em, accountId, 'jwt');
    }
    return null;
  }

  private async fromApiKey(em: EntityManager, raw: string): Promise<Viewer> {
    const key = await em.findOne(ApiKey, { hash: hashApiKey(raw), revokedAt: null }, { fields: ['id', 'account', 'lastUsedAt'] });
    if (!key) throw new AppError('UNAUTHENTICATED', 'Invalid or revoked API key');
    const now = Date.now();
    if (!key.lastUsedAt || now - key.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
      // At most one write a minute per key; conditional so concurrent requests do not pile up.
      await em
        .createQueryBuilder(ApiKey)
        .update({ lastUsedAt: new Date(now) })
        .where({ id: key.id, $or: [{ lastUsedAt: null }, { lastUsedAt: { $lt: new Date(now - LAST_USED_RESOLUTION_MS) } }] })
        .execute();
    }
    return this.viewerFor(em, key.account.id, 'api_key', key.id);
  }

  async viewerFor(em: EntityManager, accountId: string, via: Viewer['via'], apiKeyId?: string): Promise<Viewer> {
    const rows = await em.getConnection().execute<
      { id: string; kind: AccountKind; name: string; email: string | null; organization_ids: string[] | null }[]
    >(
      `select a.id, a.kind, a.name, a.email,
              array_remove(array_agg(m.organization_id), null) as organization_ids
         from accounts a left join memberships m on m.member_id = a.id
        where a.id = ? group by a.id`,
      [accountId],
    );
    const row = rows[0];
    if (!row) throw new AppError('UNAUTHENTICATED', 'The account behind this credential no longer exists');
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

