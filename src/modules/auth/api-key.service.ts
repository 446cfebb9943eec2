import type { EntityManager } from '@mikro-orm/postgresql';
import { ApiKey } from '../../auth/api-key.entity';
import { apiKeyHint, generateApiKey, hashApiKey } from '../../auth/api-keys';
import { requireViewer } from '../../auth/access';
import { AppError, notFound } from '../../common/errors';
import { validate } from '../../common/validation';
import type { Context } from '../../graphql/context';
import { Account } from '../account';
import { createApiKeyInput, revokeApiKeyInput } from './auth.inputs';
import { ApiKeyInfo, NewApiKey } from './auth.types';

/** Active (unrevoked) keys one account may hold at once. */
export const MAX_ACTIVE_KEYS = 25;

const toInfo = (key: ApiKey): ApiKeyInfo => ({
  id: key.id,
  name: key.name,
  hint: key.hint,
  created_at: key.createdAt,
  last_used_at: key.lastUsedAt,
  revoked: key.revokedAt !== null,
  revoked_at: key.revokedAt,
});

/** Creates a key for an account inside the caller's unit of work; the raw key leaves only here. */
export function issueApiKey(em: EntityManager, prefix: string, accountId: string, name: string): { key: ApiKey; raw: string } {
  const raw = generateApiKey(prefix);
  const key = em.create(ApiKey, { account: em.getReference(Account, accountId), name, hint: apiKeyHint(raw), hash: hashApiKey(raw) });
  return { key, raw };
}

/** Personal API keys: always the caller's own (rule 4); another account's key answers 404. */
export class ApiKeyService {
  constructor(private readonly ctx: Context) {}

  async list(): Promise<ApiKeyInfo[]> {
    const viewer = requireViewer(this.ctx.viewer);
    const keys = await this.ctx.em.find(ApiKey, { account: viewer.accountId }, { orderBy: { createdAt: 'desc', id: 'asc' } });
    return keys.map(toInfo);
  }

  async create(name: string): Promise<{ key: NewApiKey; raw: string }> {
    const viewer = requireViewer(this.ctx.viewer);
    const input = validate(createApiKeyInput, { name });
    return this.ctx.em.transactional(async (em) => {
      // Serializes key creation per account, so a burst cannot slip past the count.
      await em.execute(`select pg_advisory_xact_lock(hashtextextended(?, 0))`, [`api-keys:${viewer.accountId}`]);
      const active = await em.count(ApiKey, { account: viewer.accountId, revokedAt: null });
      if (active >= MAX_ACTIVE_KEYS) {
        throw new AppError('CONFLICT', `An account may hold at most ${MAX_ACTIVE_KEYS} active API keys; revoke one (DELETE /api/keys/{id}) first`);
      }
      const { key, raw } = issueApiKey(em, this.ctx.deps.config.auth.apiKeyPrefix, viewer.accountId, input.name);
      await em.flush();
      return { key: { id: key.id, name: key.name, created_at: key.createdAt }, raw };
    });
  }

  /** Revokes one of the caller's keys; effective on the next request. Revoking twice changes nothing. */
  async revoke(id: string): Promise<ApiKeyInfo> {
    const viewer = requireViewer(this.ctx.viewer);
    validate(revokeApiKeyInput, { id });
    const key = await this.ctx.em.findOne(ApiKey, { id, account: viewer.accountId });
    if (!key) throw notFound('API key');
    key.revokedAt ??= new Date();
    await this.ctx.em.flush();
    return toInfo(key);
  }
}
