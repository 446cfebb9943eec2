import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestApp, TestApp } from '../app';
import { as, DEMO } from '../demo';
import { listening } from '../mcp/mcp-client';

const root = join(__dirname, '..', '..');

describe('mas mcp: MCP over stdio forwarding to the service (the SDK stdio client, a spawned CLI)', () => {
  let t: TestApp;
  let url: string;
  let home: string;
  beforeAll(async () => {
    t = await createTestApp();
    url = await listening(t.app.server);
    home = mkdtempSync(join(tmpdir(), 'mas-mcp-'));
  });
  afterAll(async () => {
    await t?.close();
  });

  /** `mas mcp` as an agent host launches it (the sources, compiled on load as jest does), with its own config directory. */
  const spawnMcp = (env: Record<string, string>) =>
    new StdioClientTransport({
      command: process.execPath,
      args: ['-r', join(root, 'test', 'support', 'swc-register.js'), join(root, 'cli', 'src', 'main.ts'), 'mcp'],
      env: { PATH: process.env.PATH ?? '', HOME: home, XDG_CONFIG_HOME: join(home, 'config'), MAS_URL: url, ...env },
      cwd: root,
      stderr: 'pipe',
    });

  it('lists and calls the service tools and prompts with the key of MAS_API_KEY', async () => {
    const client = new Client({ name: 'stdio-test', version: '1.0.0' });
    await client.connect(spawnMcp({ MAS_API_KEY: as.nora['x-api-key'] }));
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['me', 'catalog_songs', 'graphql_query', 'render_video']));
      const me = await client.callTool({ name: 'me', arguments: {} });
      expect((me.structuredContent as { account: { id: string } }).account.id).toBe(DEMO.nora);
      const denied = await client.callTool({ name: 'catalog_songs', arguments: { catalog_id: '00000000-0000-4000-8000-000000000000' } });
      expect(denied.isError).toBe(true);
      expect((await client.listPrompts()).prompts.map((p) => p.name)).toContain(DEMO.templatePublic);
    } finally {
      await client.close();
    }
  }, 60_000);

  it('answers every request with an error when the service refuses the key', async () => {
    const client = new Client({ name: 'stdio-test', version: '1.0.0' });
    await expect(client.connect(spawnMcp({ MAS_API_KEY: 'mas_not-a-key' }))).rejects.toThrow(/did not answer/);
    await client.close();
  }, 60_000);
});
