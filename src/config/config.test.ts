import { ConfigError, loadConfig } from './config';

describe('loadConfig', () => {
  it('applies documented defaults', () => {
    const config = loadConfig({});
    expect(config.port).toBe(4000);
    expect(config.database.url).toBeUndefined();
    expect(config.sessions.defaultModelId).toBe('gpt-4o-mini');
    expect(config.publicUrl).toBe('http://localhost:4000');
  });

  it('stops with a message naming the variable when a value is wrong', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ DATABASE_URL: 'not a url' })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ GRAPHQL_INTROSPECTION: 'maybe' })).toThrow(/GRAPHQL_INTROSPECTION/);
  });

  it('treats empty optional values as unset', () => {
    expect(loadConfig({ DATABASE_URL: '' }).database.url).toBeUndefined();
  });

  it('accepts bearer tokens only with issuer and audience, and asymmetric algorithms only', () => {
    const jwks = { AUTH_JWKS_URL: 'https://idp.example.test/.well-known/jwks.json' };
    expect(() => loadConfig(jwks)).toThrow(/AUTH_JWT_ISSUER/);
    expect(() => loadConfig({ ...jwks, AUTH_JWT_ISSUER: 'https://idp.example.test/' })).toThrow(/AUTH_JWT_AUDIENCE/);
    const ok = loadConfig({ ...jwks, AUTH_JWT_ISSUER: 'https://idp.example.test/', AUTH_JWT_AUDIENCE: 'svc' });
    expect(ok.auth).toMatchObject({ jwtIssuer: 'https://idp.example.test/', jwtAudience: 'svc', jwtAlgorithms: ['RS256', 'ES256', 'PS256', 'EdDSA'], clockToleranceS: 30 });
    expect(() => loadConfig({ AUTH_JWT_ALGORITHMS: 'RS256,HS256' })).toThrow(/AUTH_JWT_ALGORITHMS/);
    expect(() => loadConfig({ AUTH_JWT_ALGORITHMS: 'none' })).toThrow(/AUTH_JWT_ALGORITHMS/);
    expect(() => loadConfig({ AUTH_CLOCK_TOLERANCE_S: '3600' })).toThrow(/AUTH_CLOCK_TOLERANCE_S/);
  });

  it('reads the signup limits', () => {
    expect(loadConfig({}).auth).toMatchObject({ signupLimitPerIpPerHour: 30, signupLimitPerAddressPerHour: 5 });
    expect(() => loadConfig({ SIGNUP_LIMIT_PER_ADDRESS_PER_HOUR: '0' })).toThrow(/SIGNUP_LIMIT_PER_ADDRESS_PER_HOUR/);
  });
});
