import fc from 'fast-check';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ERROR_CODES } from '../../src/common/errors';
import { DEMO_KEYS } from '../../src/db/seeders/demo.data';
import { Sandbox, SANDBOX_CLIENT_SECRET, SANDBOX_REFRESH_TOKEN, SANDBOX_TRACK_STATS_KEY, startSandbox } from '../../src/providers/sandbox';
import { createTestApp, TestApp } from '../app';
import { DEMO, TEST_ROUTER_SECRET } from '../demo';
import { createAccount } from '../factories';
import { listening, mcpClient } from '../mcp/mcp-client';
import { hostileJson, hostileString, leaks } from './hostile-values';

/**
 * Issue 25: seeded random arguments for every MCP tool, from a real client. Every call ends as an
 * answer, a tool error with a code of the table (never INTERNAL_SERVER_ERROR) or a JSON-RPC
 * invalid-params error; nothing carries a stack, SQL, a path or a secret. MCP_HOSTILE_RUNS per tool.
 */
const RUNS = Number(process.env.MCP_HOSTILE_RUNS ?? 12);
const SEED = 20261125;
const RENDER_URL_SECRET = 'mcp-hostile-render-secret-0123456789';

/** Every string a value holds (an answer echoing one is not a leak). */
function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) value.forEach((item) => strings(item, out));
  else if (value && typeof value === 'object') {
    for (const [key, member] of Object.entries(value)) {
      out.push(key);
      strings(member, out);
    }
  }
  return out;
}

describe('hostile MCP tool arguments (fast-check, a real MCP client)', () => {
  let t: TestApp;
  let sandbox: Sandbox;
  let client: Client;
  let secrets: string[];
  beforeAll(async () => {
    sandbox = await startSandbox();
    t = await createTestApp({ env: { RENDER_URL_SECRET, ...sandbox.env, PROVIDER_TIMEOUT_MS: '1000', PROVIDER_RETRIES: '0', PROVIDER_BREAKER_FAILURES: '1000' } });
    const caller = await createAccount(t.orm);
    client = await mcpClient(await listening(t.app.server), caller.headers);
    secrets = [TEST_ROUTER_SECRET, RENDER_URL_SECRET, t.db.url, t.db.name, 'postgres://', SANDBOX_CLIENT_SECRET, SANDBOX_TRACK_STATS_KEY, SANDBOX_REFRESH_TOKEN, ...DEMO_KEYS.map((k) => k.raw), caller.headers['x-api-key']];
  });
  afterAll(async () => {
    await client?.close();
    await t?.close();
    await sandbox?.close();
  });

  it(`${RUNS} calls of every tool with hostile arguments: no internal error, no leak`, async () => {
    const { tools } = await client.listTools();
    // The graph's own SDL (its descriptions read "at most 100 (…)") is what describe_graph answers, no leak.
    const sdl = (((await client.callTool({ name: 'describe_graph', arguments: {} })).structuredContent ?? {}) as { sdl: string }).sdl;
    const ids = fc.constantFrom(...Object.values(DEMO), '00000000-0000-4000-8000-000000000000');
    const problems: string[] = [];
    /** Calls that got past argument parsing to their operation (an answer or a tool error). */
    let reached = 0;
    for (const tool of tools) {
      const names = Object.keys(tool.inputSchema.properties ?? {});
      const value = fc.oneof({ arbitrary: hostileJson, weight: 4 }, { arbitrary: ids, weight: 2 }, { arbitrary: fc.constant(undefined), weight: 2 });
      const args = fc
        .tuple(
          names.length ? fc.record(Object.fromEntries(names.map((name) => [name, value])), { requiredKeys: [] }) : fc.constant({}),
          fc.dictionary(hostileString, hostileJson, { maxKeys: 2 }),
          fc.boolean(),
        )
        .map(([known, extra, withExtra]) => Object.fromEntries(Object.entries(withExtra ? { ...known, ...extra } : known).filter(([, v]) => v !== undefined)));
      for (const sample of fc.sample(args, { seed: SEED + tool.name.length, numRuns: RUNS })) {
        let answer: unknown;
        try {
          const result = await client.callTool({ name: tool.name, arguments: sample });
          answer = result;
          reached += 1;
          if (result.isError) {
            const body = JSON.parse((result.content as { text: string }[])[0]!.text) as { code?: string };
            if (!(ERROR_CODES as readonly unknown[]).includes(body.code) || body.code === 'INTERNAL_SERVER_ERROR') problems.push(`${tool.name}: tool error ${String(body.code)}`);
          }
        } catch (error) {
          answer = { message: (error as Error).message, data: (error as { data?: unknown }).data };
          if ((error as { code?: number }).code !== -32602) problems.push(`${tool.name}: ${(error as Error).message.slice(0, 200)}`);
        }
        for (const leak of leaks(JSON.stringify(answer), [...strings(sample), sdl], secrets)) problems.push(`${tool.name}: ${leak} with ${JSON.stringify(sample).slice(0, 200)}`);
      }
    }
    expect(problems).toEqual([]);
    // Not every call stopped at the arguments: operations ran on hostile values too.
    expect(reached).toBeGreaterThan(tools.length);
    console.info(`hostile MCP: ${reached} of ${tools.length * RUNS} calls reached their operation`);
  });
});
