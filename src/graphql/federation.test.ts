import { loadConfig } from '../config/config';
import { routerSecretMatches } from './federation';

describe('router secret', () => {
  it('matches only the configured secret, and nothing when none is configured', () => {
    const secret = 'a-router-secret-of-some-length';
    expect(routerSecretMatches(secret, secret)).toBe(true);
    expect(routerSecretMatches(secret, `${secret} `)).toBe(false);
    expect(routerSecretMatches(secret, secret.slice(0, -1))).toBe(false);
    expect(routerSecretMatches(secret, undefined)).toBe(false);
    expect(routerSecretMatches(secret, '')).toBe(false);
    expect(routerSecretMatches(undefined, 'anything')).toBe(false);
    expect(routerSecretMatches('', '')).toBe(false);
  });

  it('is read from ROUTER_SECRET, which must be long enough', () => {
    expect(loadConfig({}).federation.routerSecret).toBeUndefined();
    expect(loadConfig({ ROUTER_SECRET: '' }).federation.routerSecret).toBeUndefined();
    expect(loadConfig({ ROUTER_SECRET: 'x'.repeat(16) }).federation.routerSecret).toBe('x'.repeat(16));
    expect(() => loadConfig({ ROUTER_SECRET: 'short' })).toThrow(/ROUTER_SECRET/);
  });
});
