import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { AppDeps } from '../deps';
import type { Context } from '../request/context';
import { AppError, badInput } from '../common/errors';
import { AccessPolicy } from '../auth/access';
import { requestDb } from '../db/request-db';
import type { RunEvent } from '../modules/render';
import type { CustomTool, ToolCallExtra } from './server';
import { callTool, toolError } from './server';
import { McpTool, routeInput } from './tools';

/** A run's statuses after which it changes no more. */
const FINISHED = new Set(['COMPLETED', 'FAILED', 'CANCELED']);

type JsonObject = Record<string, unknown>;

/**
 * `render_video` with `wait` (default false): without it, the tool is its route's (the run is
 * queued, its id answered). With it, the tool then follows the run through the run events that
 * feed subscriptions (PostgreSQL LISTEN/NOTIFY: a worker on any instance), sends each progress as
 * an MCP progress notification (when the client gave a progress token), and answers the finished
 * run as GET /api/tasks/runs?runId= answers it (the same reach, the signed output link) under
 * `run`. The client's cancellation, or its going away, stops the waiting, never the run.
 */
export function renderWaitTool(deps: AppDeps, render: McpTool, runs: McpTool): CustomTool {
  const inputSchema = {
    ...render.inputSchema,
    properties: {
      ...(render.inputSchema.properties as JsonObject),
      wait: { type: 'boolean', default: false, description: 'Wait for the run to finish (progress notifications while it renders) and answer it under `run`; cancelling the request stops the waiting, not the run' },
    },
  };
  const runsDefs = (runs.outputSchema.$defs ?? {}) as JsonObject;
  const runsItems = ((runs.outputSchema.properties as JsonObject).runs as JsonObject).items as JsonObject;
  const outputSchema = {
    ...render.outputSchema,
    properties: { ...(render.outputSchema.properties as JsonObject), run: { ...runsItems, description: 'The finished run (with wait): as GET /api/tasks/runs?runId= answers it' } },
    $defs: { ...((render.outputSchema.$defs ?? {}) as JsonObject), ...runsDefs },
  };
  return {
    definition: {
      name: render.name,
      title: render.title,
      description: `${render.description}\n\nWith wait: true, the call lasts until the run has finished and answers it under \`run\`.`,
      inputSchema: inputSchema as CustomTool['definition']['inputSchema'],
      outputSchema: outputSchema as CustomTool['definition']['outputSchema'],
      annotations: render.annotations,
    },
    waits: true,
    async run(ctx, args, extra, clientIp) {
      const { wait, ...rest } = args;
      if (wait !== undefined && typeof wait !== 'boolean') throw badInput('wait', 'must be true or false');
      const started = await callTool(deps, ctx, render, rest, clientIp);
      if (!wait || started.isError) return started;
      const answer = started.structuredContent as { runId: string } & JsonObject;
      const run = await finished(deps, ctx, runs, answer.runId, extra);
      // Cancelled: the client is not waiting for this answer any more (MCP sends none); the run goes on.
      if (!run) return { isError: true, content: [{ type: 'text', text: JSON.stringify({ code: 'CANCELED', error: 'The waiting was cancelled; the run goes on', runId: answer.runId }) }], _meta: { code: 'CANCELED' } };
      if ('failed' in run) return run.failed;
      const whole = { ...answer, run: run.run };
      return { content: [{ type: 'text', text: JSON.stringify(whole) }], structuredContent: whole };
    },
  };
}

/** The request's context on a new entity manager (and loaders): what a later read of the same request sees anew. */
function fresh(deps: AppDeps, ctx: Context): Context {
  const db = requestDb(deps.orm);
  return { ...ctx, db, loaders: deps.createLoaders(db), access: new AccessPolicy(db) };
}

/** Waits for the run's end (undefined when the waiting is cancelled), sending progress notifications on the way; the run as its route answers it. */
async function finished(deps: AppDeps, ctx: Context, runs: McpTool, runId: string, extra: ToolCallExtra): Promise<{ run: JsonObject } | { failed: CallToolResult } | undefined> {
  let progressSent = -1;
  let notify: () => void = () => undefined;
  let changed = true;
  const off = await deps.render.events.subscribe(runId, (event: RunEvent) => {
    changed = true;
    if (event !== 'resync') sendProgress(event.progress, event.status);
    notify();
  });
  const sendProgress = (progress: number, status: string) => {
    const percent = Math.floor(Math.max(0, Math.min(1, progress)) * 100);
    // Progress only ever increases (MCP): a repeated or lower figure is not sent.
    if (extra.progressToken === undefined || percent <= progressSent) return;
    progressSent = percent;
    void extra.sendNotification({ method: 'notifications/progress', params: { progressToken: extra.progressToken, progress: percent, total: 100, message: status } }).catch(() => undefined);
  };
  try {
    while (!extra.signal.aborted) {
      if (changed) {
        changed = false;
        // Read through the runs route: the caller's reach, the REST shape, the signed link. Not charged: the wait is one call.
        // A fresh unit of work each time: the run is read as it is now, not as this request first saw it.
        const outcome = await runs.call.execute(fresh(deps, ctx), routeInput(runs.route, { runId }));
        if (!outcome.ok) return { failed: toolError(deps, outcome.error) };
        const run = ((outcome.answer as { runs: JsonObject[] }).runs ?? [])[0];
        if (!run) return { failed: toolError(deps, new AppError('NOT_FOUND', 'Run not found')) };
        sendProgress(Number(run.progress ?? 0), String(run.status));
        if (FINISHED.has(String(run.status))) return { run };
        continue;
      }
      await new Promise<void>((resolve) => {
        notify = resolve;
        extra.signal.addEventListener('abort', () => resolve(), { once: true });
      });
    }
    return undefined;
  } finally {
    off();
  }
}
