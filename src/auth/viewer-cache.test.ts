import { createLogger } from '../common/logger';
import { AccountKind, type Viewer } from './viewer';
import { ViewerCache } from './viewer-cache';

const viewer: Viewer = { accountId: 'a', kind: AccountKind.person, name: 'A', email: null, organizationIds: [], isAdmin: false, via: 'api_key', apiKeyId: 'k' };

describe('ViewerCache.dueForRefresh: when a request starts a read ahead of an entry', () => {
  // Pure: no listener is needed to ask it.
  const cache = new ViewerCache(8_000, 10, undefined, createLogger('silent'));
  const now = 1_000_000;

  it('not in the first half of the entry’s time to live, from the second half on', () => {
    expect(cache.dueForRefresh({ viewer, expiresAt: now + 8_000 }, now)).toBe(false);
    expect(cache.dueForRefresh({ viewer, expiresAt: now + 4_001 }, now)).toBe(false);
    expect(cache.dueForRefresh({ viewer, expiresAt: now + 4_000 }, now)).toBe(true);
    expect(cache.dueForRefresh({ viewer, expiresAt: now + 1 }, now)).toBe(true);
  });

  it('never for an entry its token’s expiry ends: a read could not keep it longer', () => {
    expect(cache.dueForRefresh({ viewer, expiresAt: now + 1_000, notAfter: now + 1_000 }, now)).toBe(false);
    // A token good for longer than the entry: read ahead like a key.
    expect(cache.dueForRefresh({ viewer, expiresAt: now + 1_000, notAfter: now + 3_600_000 }, now)).toBe(true);
  });
});
