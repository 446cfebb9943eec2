import { PageRequest, sortKeys } from '../../common/paging';
import { byCodePoint, compareKeys, PageOf, pageOfList } from '../../graphql/common.types';
import type { ApiKey } from '../../auth/api-key.entity';
import { apiKeyHint, generateApiKey, hashApiKey } from '../../auth/api-keys';
import type { Viewer } from '../../auth/viewer';
import { AppError, notFound } from '../../common/errors';
import type { CreateApiKeyInput, RevokeApiKeyInput } from './auth.inputs';
import type { AuthRepository } from './auth.repository';
import type { ApiKeyInfo, IssuedApiKey } from './auth.types';

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
export function issueApiKey(repo: Pick<AuthRepository, 'addApiKey'>, prefix: string, accountId: string, name: string): { key: ApiKey; raw: string } {
  const raw = generateApiKey(prefix);
  return { key: repo.addApiKey(accountId, name, apiKeyHint(raw), hashApiKey(raw)), raw };
}

/** The repository's public shape: what ApiKeyService works with, and what a test fake implements. */
export type ApiKeyStore = Pick<AuthRepository, 'keysOf' | 'ownedKey' | 'flush'> & {
  transaction<T>(work: (repo: Pick<AuthRepository, 'lockKeyCreation' | 'countActiveKeys' | 'addApiKey' | 'flush'>) => Promise<T>): Promise<T>;
};

/** Personal API keys: always the caller's own (rule 4); another account's key answers 404. */
export class ApiKeyService {
  constructor(
    private readonly repo: ApiKeyStore,
    private readonly settings: { apiKeyPrefix: string },
    /** Active keys the caller may hold: MAX_ACTIVE_KEYS unless an admin set the account its own (apiKeysMax). */
    private readonly maxActiveKeysOf: (accountId: string) => number = () => MAX_ACTIVE_KEYS,
  ) {}

  /** The newest LIST_BOUNDS.apiKeysListed keys (read whole), a page at a time: newest first, then by id. */
  async list(viewer: Viewer, request: PageRequest): Promise<PageOf<ApiKeyInfo>> {
    const keys = (await this.repo.keysOf(viewer.accountId)).map(toInfo);
    return pageOfList(keys, request, {
      list: 'Query.apiKeys',
      scope: viewer.accountId,
      key: sortKeys.isoTimeThenUuid,
      keyOf: (key) => [key.created_at.toISOString(), key.id] as const,
      compare: compareKeys((a, b) => byCodePoint(b, a), byCodePoint),
    });
  }

  /** Creates a key for the caller; its secret (`api_key`) leaves only in this answer. */
  create(viewer: Viewer, input: CreateApiKeyInput): Promise<IssuedApiKey> {
    return this.repo.transaction(async (repo) => {
      await repo.lockKeyCreation(viewer.accountId);
      const max = this.maxActiveKeysOf(viewer.accountId);
      if ((await repo.countActiveKeys(viewer.accountId)) >= max) {
        throw new AppError('CONFLICT', `An account may hold at most ${max} active API keys; revoke one (DELETE /api/keys/{id}) first`);
      }
      const { key, raw } = issueApiKey(repo, this.settings.apiKeyPrefix, viewer.accountId, input.name);
      await repo.flush();
      return { key: toInfo(key), api_key: raw };
    });
  }

  /** Revokes one of the caller's keys; effective on the next request. Revoking twice changes nothing. */
  async revoke(viewer: Viewer, input: RevokeApiKeyInput): Promise<ApiKeyInfo> {
    const key = await this.repo.ownedKey(viewer.accountId, input.id);
    if (!key) throw notFound('API key');
    key.revokedAt ??= new Date();
    await this.repo.flush();
    return toInfo(key);
  }
}
