import { createTestApp, TestApp } from '../app';
import { createAccount } from '../factories';
import { listening, mcpClient } from './mcp-client';

/** The research budget is small: its tools charge it exactly as their REST routes do. */
const LIMITS = { RATE_LIMIT_PER_MINUTE: '1000', RESEARCH_RATE_LIMIT_PER_MINUTE: '3' };

describe('MCP budgets (the same charges as REST)', () => {
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    t = await createTestApp({ env: LIMITS });
    base = await listening(t.app.server);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('charges a research tool to the research budget shared with REST, then answers a tool error with the retry time', async () => {
    const owner = await createAccount(t.orm);
    const client = await mcpClient(base, owner.headers);
    try {
      // One point over REST, two over MCP: the budget of 3 is spent.
      expect((await t.http().get('/api/research/genres').set(owner.headers)).status).toBe(200);
      for (let i = 0; i < 2; i += 1) {
        const result = await client.callTool({ name: 'research_genres', arguments: {} });
        expect(result.isError ?? false).toBe(false);
      }
      const limited = await client.callTool({ name: 'research_genres', arguments: {} });
      expect(limited.isError).toBe(true);
      const body = JSON.parse((limited.content as { text: string }[])[0]!.text) as { code: string; error: string; retry_after: number; http_status: number };
      expect(body).toMatchObject({ code: 'RATE_LIMITED', http_status: 429 });
      expect(body.retry_after).toBeGreaterThanOrEqual(1);
      expect(body.retry_after).toBeLessThanOrEqual(60);
      expect(limited.structuredContent).toBeUndefined();
      // REST sees the same spent budget.
      expect((await t.http().get('/api/research/genres').set(owner.headers)).status).toBe(429);
      // graphql_query weighs and charges as /graphql: a research field is refused with the same retry information.
      const composed = await client.callTool({ name: 'graphql_query', arguments: { query: '{ me { id } researchGenres { id name } }' } });
      expect(composed.isError).toBe(true);
      const refusal = JSON.parse((composed.content as { text: string }[])[0]!.text) as { code: string; retry_after: number };
      expect(refusal.code).toBe('RATE_LIMITED');
      expect(refusal.retry_after).toBeGreaterThanOrEqual(1);
      expect(refusal.retry_after).toBeLessThanOrEqual(60);
      // The general budget is another one: a non-research tool still answers.
      const me = await client.callTool({ name: 'me', arguments: {} });
      expect(me.isError ?? false).toBe(false);
    } finally {
      await client.close();
    }
  });
});

describe('MCP_ENABLED=false', () => {
  it('serves neither /mcp nor its metadata', async () => {
    const t = await createTestApp({ env: { MCP_ENABLED: 'false' }, seed: false });
    try {
      expect((await t.http().post('/mcp').set('content-type', 'application/json').send({ jsonrpc: '2.0', id: 1, method: 'tools/list' })).status).toBe(404);
      expect((await t.http().get('/.well-known/oauth-protected-resource')).status).toBe(404);
    } finally {
      await t.close();
    }
  });
});
