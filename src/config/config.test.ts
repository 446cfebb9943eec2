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

  it('trusts identity-provider e-mails only when AUTH_TRUST_EMAIL says so', () => {
    expect(loadConfig({}).auth.trustEmail).toBe(false);
    expect(loadConfig({ AUTH_TRUST_EMAIL: 'true' }).auth.trustEmail).toBe(true);
    expect(() => loadConfig({ AUTH_TRUST_EMAIL: 'verified' })).toThrow(/AUTH_TRUST_EMAIL/);
  });

  it('reads CORS_ORIGINS as exact origins, closed when empty', () => {
    expect(loadConfig({}).http.corsOrigins).toEqual([]);
    expect(loadConfig({ CORS_ORIGINS: ' ' }).http.corsOrigins).toEqual([]);
    expect(loadConfig({ CORS_ORIGINS: 'https://app.example.com, http://localhost:3000,https://app.example.com' }).http.corsOrigins).toEqual([
      'https://app.example.com',
      'http://localhost:3000',
    ]);
    for (const bad of ['*', 'https://app.example.com/', 'https://app.example.com/path', 'app.example.com', 'ftp://files.example.com', 'https://*.example.com']) {
      expect(() => loadConfig({ CORS_ORIGINS: bad })).toThrow(/CORS_ORIGINS/);
    }
  });

  it('reads METRICS_TOKEN (16+ characters) or leaves /metrics open', () => {
    expect(loadConfig({}).http.metricsToken).toBeUndefined();
    expect(loadConfig({ METRICS_TOKEN: 'a-long-enough-metrics-token' }).http.metricsToken).toBe('a-long-enough-metrics-token');
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN/);
  });

  it('reads the signup limits', () => {
    expect(loadConfig({}).auth).toMatchObject({ signupLimitPerIpPerHour: 30, signupLimitPerAddressPerHour: 5 });
    expect(() => loadConfig({ SIGNUP_LIMIT_PER_ADDRESS_PER_HOUR: '0' })).toThrow(/SIGNUP_LIMIT_PER_ADDRESS_PER_HOUR/);
  });
});

describe('TRUST_PROXY', () => {
  it('defaults to trusting only loopback proxies and parses hop counts and booleans', () => {
    expect(loadConfig({}).http.trustProxy).toBe('loopback');
    expect(loadConfig({ TRUST_PROXY: '2' }).http.trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: 'false' }).http.trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' }).http.trustProxy).toBe('10.0.0.0/8, 127.0.0.1');
    expect(() => loadConfig({ TRUST_PROXY: 'everyone!' })).toThrow(/TRUST_PROXY/);
  });
});
