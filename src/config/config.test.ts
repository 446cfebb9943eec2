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

describe('request limits', () => {
  it('defaults to 600 points a minute, 60 for research, a cost ceiling of 600, 20 subscriptions and 10 connections', () => {
    expect(loadConfig({}).requestLimits).toEqual({ perMinute: 600, researchPerMinute: 60, graphqlMaxCost: 600, wsMaxSubscriptions: 20, wsMaxConnectionsPerAccount: 10 });
  });

  it('reads each variable and refuses zero, negatives and words naming the variable', () => {
    const config = loadConfig({
      RATE_LIMIT_PER_MINUTE: '1200',
      RESEARCH_RATE_LIMIT_PER_MINUTE: '30',
      GRAPHQL_MAX_COST: '900',
      GRAPHQL_WS_MAX_SUBSCRIPTIONS: '5',
      GRAPHQL_WS_MAX_CONNECTIONS_PER_ACCOUNT: '3',
    });
    expect(config.requestLimits).toEqual({ perMinute: 1200, researchPerMinute: 30, graphqlMaxCost: 900, wsMaxSubscriptions: 5, wsMaxConnectionsPerAccount: 3 });
    for (const name of ['RATE_LIMIT_PER_MINUTE', 'RESEARCH_RATE_LIMIT_PER_MINUTE', 'GRAPHQL_MAX_COST', 'GRAPHQL_WS_MAX_SUBSCRIPTIONS', 'GRAPHQL_WS_MAX_CONNECTIONS_PER_ACCOUNT']) {
      for (const bad of ['0', '-5', 'lots', '1.5']) expect(() => loadConfig({ [name]: bad })).toThrow(new RegExp(name));
    }
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
