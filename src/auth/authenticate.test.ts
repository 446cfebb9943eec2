import type { Config } from '../config/config';
import { createLogger } from '../common/logger';
import type { Db } from '../db/request-db';
import { hashApiKey } from './api-keys';
import { Authenticator } from './authenticate';
import type { JwtVerifier } from './jwt';
import type { LastUseWriter } from './last-use';
import { AccountKind, type Viewer } from './viewer';
import { ViewerCache } from './viewer-cache';

const TTL_MS = 8_000;
const RAW_KEY = 'mas_test_read_ahead_0000000000000000000000000001';
const viewer: Viewer = { accountId: 'a', kind: AccountKind.person, name: 'A', email: null, organizationIds: [], isAdmin: false, via: 'api_key', apiKeyId: 'k' };

/** An authenticator whose key reads go to `pool`, with the key's viewer cached and in the second half of its TTL. */
function setUp(pool: Pick<Db, 'hot'>) {
  const logger = createLogger('silent');
  const warn = jest.spyOn(logger, 'warn');
  const cache = new ViewerCache(TTL_MS, 10, undefined, logger);
  // Listening is what lets the cache serve; here there is no channel to listen to.
  Object.defineProperty(cache, 'enabled', { get: () => true });
  const credential = `key:${hashApiKey(RAW_KEY)}`;
  cache.set(credential, viewer, cache.version, { now: Date.now() - TTL_MS * 0.75, lastUsedAt: Date.now() });
  const lastUse = { note: jest.fn() } as unknown as LastUseWriter;
  const authenticator = new Authenticator({} as Config, {} as JwtVerifier, cache, lastUse, pool as Db, logger);
  return { authenticator, cache, credential, warn };
}

describe('Authenticator: reading a cached key ahead of its expiry', () => {
  it('a read ahead that fails (database unavailable) is logged once and not tried again for that entry', async () => {
    const pool = { hot: jest.fn().mockRejectedValue(new Error('connection refused')) };
    const { authenticator, warn } = setUp(pool);
    for (let i = 0; i < 3; i++) {
      await expect(authenticator.authenticate({} as Db, { apiKey: RAW_KEY })).resolves.toMatchObject({ accountId: 'a' });
      await authenticator.readAheadSettled();
    }
    expect(pool.hot).toHaveBeenCalledTimes(1);
    expect(warn).toHaveBeenCalledTimes(1);
  });

  it('a read ahead that finds the key gone drops the entry: the next request reads it and is refused', async () => {
    const pool = { hot: jest.fn().mockResolvedValue([]) };
    const { authenticator, cache, credential } = setUp(pool);
    await expect(authenticator.authenticate({} as Db, { apiKey: RAW_KEY })).resolves.toMatchObject({ accountId: 'a' });
    await authenticator.readAheadSettled();
    expect(cache.get(credential)).toBeUndefined();
    const request = { hot: jest.fn().mockResolvedValue([]) } as unknown as Db;
    await expect(authenticator.authenticate(request, { apiKey: RAW_KEY })).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
  });
});
