import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RenderWorker } from '../../src/modules/render/render.worker';
import { createTestApp, TestApp } from '../app';
import { as } from '../demo';
import { renderEnv, RunJson, startWorker, waitForRun } from '../support/render';
import { listening, mcpClient } from './mcp-client';

const SMALL = { compositionId: 'title-card', inputProps: { title: 'MCP' }, width: 16, height: 16, durationInFrames: 5 };

describe('render_video over MCP with wait', () => {
  let t: TestApp;
  let client: Client;
  beforeAll(async () => {
    t = await createTestApp({ env: renderEnv() });
    client = await mcpClient(await listening(t.app.server), as.nora);
  });
  afterAll(async () => {
    await client?.close();
    await t?.close();
  });

  it('without wait answers as POST /api/video/render does (the run id)', async () => {
    const started = await client.callTool({ name: 'render_video', arguments: SMALL });
    expect(started.structuredContent).toEqual({ status: 'processing', runId: expect.any(String) });
  });

  it('with wait sends progress notifications from the run events and answers the finished run with a link that downloads', async () => {
    const worker: RenderWorker = await startWorker(t);
    try {
      const progress: Progress[] = [];
      const result = await client.callTool({ name: 'render_video', arguments: { ...SMALL, wait: true } }, undefined, { onprogress: (p) => progress.push(p), timeout: 60_000 });
      expect(result.isError ?? false).toBe(false);
      const answer = result.structuredContent as { runId: string; run: RunJson };
      expect(answer.run).toMatchObject({ id: answer.runId, status: 'COMPLETED' });
      expect((await t.http().get('/metrics')).text).toMatch(/mcp_tool_calls_total\{tool="render_video",outcome="ok"\} 2/);
      expect((await t.http().get('/metrics')).text).toMatch(/mcp_tool_call_duration_seconds_count\{tool="render_video"\} 2/);
      expect(progress.length).toBeGreaterThan(0);
      expect(progress.at(-1)).toMatchObject({ progress: 100, total: 100 });
      // Increasing, as MCP requires.
      expect(progress.map((p) => p.progress)).toEqual([...progress.map((p) => p.progress)].sort((a, b) => a - b));
      const url = new URL(answer.run.output!.url);
      const file = await t.http().get(`${url.pathname}${url.search}`).buffer(true);
      expect(file.status).toBe(200);
      expect(Number(file.headers['content-length'])).toBe(answer.run.output!.bytes);
    } finally {
      await worker.stop(1000);
    }
  });

  it("a client's cancellation stops the waiting, not the run", async () => {
    // No worker: the run stays queued while the client waits, then gives up.
    const before = new Set(((await t.http().get('/api/tasks/runs').query({ limit: 100 }).set(as.nora)).body as { runs: RunJson[] }).runs.map((r) => r.id));
    const abort = new AbortController();
    const waiting = client.callTool({ name: 'render_video', arguments: { ...SMALL, wait: true } }, undefined, { signal: abort.signal, timeout: 60_000 });
    const queued = await (async () => {
      for (;;) {
        const res = await t.http().get('/api/tasks/runs').query({ limit: 100 }).set(as.nora);
        const run = (res.body as { runs: RunJson[] }).runs.find((r) => !before.has(r.id));
        if (run) return run;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    expect(queued.status).toBe('QUEUED');
    abort.abort();
    await expect(waiting).rejects.toThrow();
    // The SDK client keeps the call's HTTP stream open and sends notifications/cancelled in a POST of its own:
    // the server stops waiting (the call ends as canceled in the metrics) while the run is still queued.
    const metric = /mcp_tool_calls_total\{tool="render_video",outcome="canceled"\} 1/;
    for (let tries = 0; tries < 200 && !metric.test((await t.http().get('/metrics')).text); tries += 1) await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await t.http().get('/metrics')).text).toMatch(metric);
    expect((await waitForRun(t, as.nora, queued.id, ['QUEUED'])).status).toBe('QUEUED');
    const worker = await startWorker(t);
    try {
      // The run was not cancelled with the waiting: a worker renders it.
      expect((await waitForRun(t, as.nora, queued.id, ['COMPLETED', 'FAILED', 'CANCELED'])).status).toBe('COMPLETED');
    } finally {
      await worker.stop(1000);
    }
  });
});
