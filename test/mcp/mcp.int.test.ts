import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { App, createApp } from '../../src/app';
import { createLogger } from '../../src/common/logger';
import { initOrm, Orm } from '../../src/db/orm';
import { createDeps } from '../../src/deps';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { createTestApp, TestApp } from '../app';
import { as, DEMO } from '../demo';
import { addSong, createAccount, createCatalog, createTemplate } from '../factories';
import { routeTable } from '../../src/http/rest/routes';
import { entities, operations } from '../../src/modules';
import { toolName } from '../../src/mcp/tools';
import { listening, mcpClient } from './mcp-client';

const GRAPH_TOOLS = ['graphql_query', 'describe_graph'];

type Tool = Awaited<ReturnType<Client['listTools']>>['tools'][number];

describe('MCP over Streamable HTTP (/mcp, the SDK client)', () => {
  let t: TestApp;
  let base: string;
  let nora: Client;
  let tools: Tool[];
  beforeAll(async () => {
    t = await createTestApp({ env: { PUBLIC_URL: 'https://api.example.test', AUTH_JWT_ISSUER: 'https://id.example.test/' } });
    base = await listening(t.app.server);
    nora = await mcpClient(base, as.nora);
    tools = (await nora.listTools()).tools;
  });
  afterAll(async () => {
    await nora?.close();
    await t?.close();
  });

  it('lists one tool per REST route needing credentials, each with valid input and output JSON Schemas and truthful annotations', async () => {
    const routes = routeTable(operations).filter((route) => !route.public);
    // Every route is a tool; the others are the composed-research tools.
    expect(tools.map((tool) => tool.name).sort()).toEqual([...routes.map(toolName), ...GRAPH_TOOLS].sort());
    const openapi = (await t.http().get('/api/openapi.json')).body as { paths: Record<string, Record<string, { parameters?: { name: string }[]; requestBody?: { content: Record<string, { schema: { properties: Record<string, unknown> } }> } }>> };
    // JSON Schema 2020-12 (the OpenAPI 3.1 dialect), its formats and OpenAPI's numeric ones.
    const ajv = new Ajv2020({ strict: false });
    addFormats(ajv);
    for (const format of ['int32', 'int64', 'float', 'double']) ajv.addFormat(format, true);
    for (const route of routes) {
      const tool = tools.find((candidate) => candidate.name === toolName(route))!;
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
      expect(() => ajv.compile(tool.inputSchema)).not.toThrow();
      expect(() => ajv.compile(tool.outputSchema!)).not.toThrow();
      // The tool's arguments are exactly the route's documented fields, under the same names and schemas.
      const operation = openapi.paths[`/api${route.path.replace(/:(\w+)/g, '{$1}')}`]![route.method.toLowerCase()]!;
      const documented = [...(operation.parameters ?? []).map((p) => p.name), ...Object.keys(operation.requestBody?.content['application/json']?.schema.properties ?? {})];
      // render_video also takes `wait` (MCP only: progress notifications, then the finished run).
      const extra = route.operation === 'Mutation.renderVideo' ? ['wait'] : [];
      expect(Object.keys(tool.inputSchema.properties ?? {}).sort()).toEqual([...documented, ...extra].sort());
      // And the same schema for each of them as the OpenAPI document (refs aside).
      for (const name of documented) {
        const given = (operation.parameters ?? []).find((p) => p.name === name) as { schema?: Record<string, unknown> } | undefined;
        const bodySchema = operation.requestBody?.content['application/json']?.schema.properties[name] as Record<string, unknown> | undefined;
        const expected = given?.schema ?? bodySchema!;
        const actual = (tool.inputSchema.properties as Record<string, Record<string, unknown>>)[name]!;
        expect({ name, type: actual.type, enum: actual.enum, maximum: actual.maximum, minimum: actual.minimum, default: actual.default }).toEqual({
          name,
          type: expected.type,
          enum: expected.enum,
          maximum: expected.maximum,
          minimum: expected.minimum,
          default: expected.default,
        });
      }
      expect(tool.annotations?.readOnlyHint).toBe(route.method === 'GET');
      if (route.method === 'DELETE') expect(tool.annotations?.destructiveHint).toBe(true);
      if (route.method === 'POST') expect(tool.annotations?.idempotentHint).toBe(false);
    }
    expect(tools.find((tool) => tool.name === 'track_stats')?.annotations?.openWorldHint).toBe(true);
    expect(tools.find((tool) => tool.name === 'catalogs')?.annotations?.openWorldHint).toBe(false);
    // docs/api/mcp.md lists the tools that write: exactly those not read-only.
    const readme = readFileSync(join(__dirname, '..', '..', 'docs', 'api', 'mcp.md'), 'utf8');
    const writes = /Tools that write: ([^]*?)\. Every other tool reads\./.exec(readme)?.[1] ?? '';
    expect([...writes.matchAll(/`(\w+)`/g)].map((m) => m[1]).sort()).toEqual(tools.filter((tool) => !tool.annotations?.readOnlyHint).map((tool) => tool.name).sort());
    // Onboarding stays on REST.
    expect(tools.map((tool) => tool.name)).not.toContain('signup_agent');
  });

  it('answers a tool with structuredContent shaped like the REST answer, one tool per domain', async () => {
    const calls: [string, Record<string, unknown>, string][] = [
      ['me', {}, '/api/accounts/me'],
      ['catalogs', {}, '/api/catalogs'],
      ['artists', {}, '/api/artists'],
      ['agent_templates', {}, '/api/agents/templates'],
      ['sessions', {}, '/api/sessions'],
      ['runs', { limit: 5 }, '/api/tasks/runs?limit=5'],
      ['compositions', {}, '/api/video/compositions'],
      ['api_keys', {}, '/api/keys'],
      ['research_genres', {}, '/api/research/genres'],
    ];
    for (const [name, args, path] of calls) {
      const result = await nora.callTool({ name, arguments: args });
      const rest = await t.http().get(path).set(as.nora);
      expect({ name, status: rest.status }).toEqual({ name, status: 200 });
      expect({ name, isError: result.isError ?? false }).toEqual({ name, isError: false });
      expect(result.structuredContent).toEqual(rest.body);
      expect(JSON.parse((result.content as { text: string }[])[0]!.text)).toEqual(rest.body);
    }
  });

  it('writes through the same route: a catalog made by a tool is listed by REST', async () => {
    const made = await nora.callTool({ name: 'add_catalog', arguments: { name: 'Made over MCP' } });
    expect(made.isError ?? false).toBe(false);
    const catalog = (made.structuredContent as { catalog: { id: string; name: string } }).catalog;
    expect(catalog.name).toBe('Made over MCP');
    const listed = await t.http().get('/api/catalogs').set(as.nora);
    expect((listed.body as { catalogs: { id: string }[] }).catalogs.map((c) => c.id)).toContain(catalog.id);
  });

  it("never answers another tenant's catalog, song, run or template", async () => {
    const stranger = await createAccount(t.orm);
    const catalog = await createCatalog(t.orm, { linkedTo: [stranger.account.id] });
    const song = await addSong(t.orm, catalog.id, { name: 'Secret song' });
    const template = await createTemplate(t.orm, stranger.account.id, { isPrivate: true, title: 'Secret template' });
    const songs = await nora.callTool({ name: 'catalog_songs', arguments: { catalog_id: catalog.id } });
    expect(songs.isError).toBe(true);
    expect(JSON.stringify(songs)).not.toContain('Secret song');
    const added = await nora.callTool({ name: 'add_catalog_songs', arguments: { songs: [{ catalog_id: catalog.id, isrc: song.isrc, name: 'x' }] } });
    expect(added.isError).toBe(true);
    const updated = await nora.callTool({ name: 'update_agent_template', arguments: { id: template.id, title: 'Taken' } });
    expect(updated.isError).toBe(true);
    expect(JSON.stringify(updated)).not.toContain('Secret template');
    // The song by its ISRC (GraphQL only: through graphql_query), and the stranger's run: never the data.
    const bySong = await nora.callTool({ name: 'graphql_query', arguments: { query: `{ song(isrc: "${song.isrc}") { name isrc } }` } });
    expect(JSON.stringify(bySong)).not.toContain('Secret song');
    const theirRun = await t.http().post('/api/video/render').set(stranger.headers).send({ compositionId: 'title-card', inputProps: { title: 'Secret run' }, width: 16, height: 16, durationInFrames: 5 });
    expect(theirRun.status).toBe(200);
    const runId = (theirRun.body as { runId: string }).runId;
    const runs = await nora.callTool({ name: 'runs', arguments: { runId } });
    expect(JSON.stringify(runs)).not.toContain('Secret run');
    expect(((runs.structuredContent as { runs?: unknown[] } | undefined)?.runs ?? []).length).toBe(0);
    const cancelTheirs = await nora.callTool({ name: 'cancel_run', arguments: { runId } });
    expect(cancelTheirs.isError).toBe(true);
    expect((await t.http().get('/api/tasks/runs').query({ runId }).set(stranger.headers)).body.runs[0].status).not.toBe('CANCELED');
    const listed = await nora.callTool({ name: 'agent_templates', arguments: {} });
    expect(JSON.stringify(listed.structuredContent)).not.toContain('Secret template');
    const cancel = await nora.callTool({ name: 'cancel_run', arguments: { runId: '00000000-0000-4000-8000-000000000000' } });
    expect(cancel.isError).toBe(true);
    expect(JSON.parse((cancel.content as { text: string }[])[0]!.text)).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('answers an operation error as a tool error with its code, and malformed arguments as invalid params naming the field', async () => {
    const missing = await nora.callTool({ name: 'catalog_songs', arguments: { catalog_id: '00000000-0000-4000-8000-000000000000' } });
    expect(missing.isError).toBe(true);
    const body = JSON.parse((missing.content as { text: string }[])[0]!.text) as Record<string, unknown>;
    expect(body).toMatchObject({ code: 'NOT_FOUND', http_status: 404 });
    expect(typeof body.error).toBe('string');

    const bad = await nora.callTool({ name: 'catalog_songs', arguments: { catalog_id: DEMO.catalogNorthwind, limit: 'many', widht: 3 } }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(bad).toBeInstanceOf(McpError);
    expect((bad as McpError).code).toBe(-32602);
    expect((bad as McpError).message).toMatch(/limit/);
    expect((bad as McpError).message).toMatch(/widht/);

    const unknown = await nora.callTool({ name: 'no_such_tool', arguments: {} }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect((unknown as McpError).code).toBe(-32602);
  });

  it('refuses a request without credentials with 401 and the resource-metadata challenge; serves RFC 9728 metadata naming the issuer', async () => {
    const res = await t
      .http()
      .post('/mcp')
      .set('content-type', 'application/json')
      .set('accept', 'application/json, text/event-stream')
      .send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Bearer resource_metadata="https://api.example.test/.well-known/oauth-protected-resource"');
    expect(JSON.stringify(res.body)).not.toMatch(/tools/);
    const bad = await t.http().post('/mcp').set('x-api-key', 'mas_not-a-key').set('content-type', 'application/json').send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(bad.status).toBe(401);
    expect(bad.headers['www-authenticate']).toMatch(/^Bearer resource_metadata=".*", error="invalid_token"$/);
    const metadata = await t.http().get('/.well-known/oauth-protected-resource');
    expect(metadata.status).toBe(200);
    expect(metadata.body).toMatchObject({ resource: 'https://api.example.test/mcp', authorization_servers: ['https://id.example.test/'], bearer_methods_supported: ['header'] });
    await expect(mcpClient(base)).rejects.toThrow();
  });

  it('runs a composed GraphQL query read-only, with its cost, and describes the graph', async () => {
    const composed = await nora.callTool({
      name: 'graphql_query',
      arguments: { query: 'query Roster($limit: Int) { me { id } catalogs(limit: $limit) { items { id name songs(limit: 2) { items { isrc } } } } }', variables: { limit: 5 }, operation_name: 'Roster' },
    });
    expect(composed.isError ?? false).toBe(false);
    const answer = composed.structuredContent as { data: { me: { id: string }; catalogs: { items: { id: string }[] } }; extensions: { cost: { requestedQueryCost: number } } };
    expect(answer.data.me.id).toBe(DEMO.nora);
    expect(answer.data.catalogs.items.map((c) => c.id)).toContain(DEMO.catalogNorthwind);
    expect(answer.extensions.cost.requestedQueryCost).toBeGreaterThan(0);
    // The same answer as /graphql.
    const direct = await t.graphql('{ me { id } }', undefined, as.nora);
    const same = await nora.callTool({ name: 'graphql_query', arguments: { query: '{ me { id } }' } });
    expect((same.structuredContent as { data: unknown }).data).toEqual((direct.body as { data: unknown }).data);

    for (const query of ['mutation { createSession(input: { title: "made by graphql_query" }) { id } }', 'subscription { renderRuns { id } }']) {
      const refused = await nora.callTool({ name: 'graphql_query', arguments: { query } }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect((refused as McpError).code).toBe(-32602);
      expect((refused as McpError).message).toMatch(/query: must be a query/);
    }
    const sessions = await t.http().get('/api/sessions').set(as.nora);
    expect(JSON.stringify(sessions.body)).not.toContain('made by graphql_query');

    // A document that does not validate, or variables that do not coerce: invalid params naming the argument.
    for (const [args, field] of [
      [{ query: '{ nope }' }, /-32602: query: .*nope/],
      [{ query: '{ me { id' }, /-32602: query: /],
      [{ query: 'query($n: Int!) { catalogs(limit: $n) { items { id } } }', variables: { n: 'many' } }, /-32602: variables: /],
    ] as const) {
      const invalid = await nora.callTool({ name: 'graphql_query', arguments: args }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect((invalid as McpError).code).toBe(-32602);
      expect((invalid as McpError).message).toMatch(field);
    }
    // Another tenant's catalog is no more reachable through a query than through its tool.
    const stranger = await createAccount(t.orm);
    const hidden = await createCatalog(t.orm, { linkedTo: [stranger.account.id], name: 'Hidden catalog' });
    await addSong(t.orm, hidden.id, { name: 'Hidden song' });
    const probe = await nora.callTool({ name: 'graphql_query', arguments: { query: `{ catalogSongs(input: { catalogId: "${hidden.id}" }) { items { name } } }` } });
    expect(JSON.stringify(probe)).not.toContain('Hidden song');

    const described = await nora.callTool({ name: 'describe_graph', arguments: {} });
    const sdl = (described.structuredContent as { sdl: string }).sdl;
    expect(sdl).toMatch(/type Query \{/);
    expect(sdl).not.toMatch(/type Mutation|type Subscription|_entities/);
    const genre = await nora.callTool({ name: 'describe_graph', arguments: { type_name: 'ResearchGenre' } });
    expect((genre.structuredContent as { sdl: string }).sdl).toMatch(/type ResearchGenre \{/);
    const none = await nora.callTool({ name: 'describe_graph', arguments: { type_name: 'Mutation' } });
    expect(none.isError).toBe(true);
  });

  it('serves agent templates as prompts with the same visibility as REST: own, public, shared, nothing of another tenant', async () => {
    const stranger = await createAccount(t.orm);
    const me = (await t.http().get('/api/accounts/me').set(as.nora)).body as { account: { email: string } };
    const hidden = await createTemplate(t.orm, stranger.account.id, { isPrivate: true, title: 'Hidden prompt' });
    const shared = await createTemplate(t.orm, stranger.account.id, { isPrivate: true, title: 'Shared prompt', sharedWith: [me.account.email] });
    const rest = (await t.http().get('/api/agents/templates').set(as.nora)).body as { templates: { id: string; title: string; prompt: string }[] };
    const listed = await nora.listPrompts();
    expect(listed.prompts.map((p) => p.name).sort()).toEqual(rest.templates.map((template) => template.id).sort());
    expect(listed.prompts.map((p) => p.name)).toContain(shared.id);
    expect(listed.prompts.map((p) => p.name)).not.toContain(hidden.id);
    expect(listed.prompts.find((p) => p.name === shared.id)?.title).toBe('Shared prompt');

    const got = await nora.getPrompt({ name: shared.id });
    expect(got.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'You are a helpful music-industry assistant.' } }]);
    const publicOne = rest.templates.find((template) => template.id === DEMO.templatePublic)!;
    expect((await nora.getPrompt({ name: DEMO.templatePublic })).messages[0]!.content).toEqual({ type: 'text', text: publicOne.prompt });

    for (const name of [hidden.id, '00000000-0000-4000-8000-000000000000', 'not-a-template', DEMO.templatePrivate]) {
      if (rest.templates.some((template) => template.id === name)) continue;
      const refused = await nora.getPrompt({ name }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect((refused as McpError).code).toBe(-32602);
      expect(JSON.stringify(refused)).not.toContain('Hidden prompt');
    }
    const badCursor = await nora.listPrompts({ cursor: 'nonsense' }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect((badCursor as McpError).code).toBe(-32602);
  });

  it('is stateless: a second instance on the same database answers the same client, request by request', async () => {
    const orm: Orm = await initOrm({ url: t.db.url, poolMax: 3, entities });
    const other: App = await createApp(createDeps(t.config, orm, createLogger('silent')));
    try {
      const otherBase = await listening(other.server);
      const served: string[] = [];
      let turn = 0;
      // A round-robin balancer: each HTTP request of the one client goes to the next instance.
      const balanced: typeof fetch = (input, init) => {
        const target = (turn++ % 2 ? otherBase : base) + new URL(String(input instanceof Request ? input.url : input)).pathname;
        served.push(target.startsWith(otherBase) ? 'second' : 'first');
        return fetch(target, init);
      };
      const client = new Client({ name: 'balanced', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: as.nora }, fetch: balanced }));
      try {
        const listed = await client.listTools();
        expect(listed.tools.length).toBe(tools.length);
        const me = await client.callTool({ name: 'me', arguments: {} });
        const again = await client.callTool({ name: 'me', arguments: {} });
        expect((me.structuredContent as { account: { id: string } }).account.id).toBe(DEMO.nora);
        expect(again.structuredContent).toEqual(me.structuredContent);
        expect(served).toEqual(expect.arrayContaining(['first', 'second']));
      } finally {
        await client.close();
      }
    } finally {
      await other.stop();
      await orm.close(true);
    }
  });
});
