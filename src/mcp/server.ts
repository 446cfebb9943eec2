import express, { NextFunction, Request, Response } from 'express';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CancelledNotificationSchema, CallToolRequestSchema, CallToolResult, ErrorCode, GetPromptRequestSchema, GetPromptResult, ListPromptsRequestSchema, ListPromptsResult, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { AppDeps } from '../deps';
import { AppError } from '../common/errors';
import { Context, createContext, headerValue } from '../request/context';
import { rateSubject, decisive, rateLimitedError } from '../auth/rate-limit';
import { chargeRequest } from '../http/rate-limit';
import { toAppError, toHttpError } from '../common/error-status';
import { hasBody, isJsonMediaType } from '../http/request-errors';
import { sendError } from '../http/rest/rest.router';
import { cancelOnDisconnect } from '../db/statement-scope';
import { McpTool, routeInput } from './tools';
import type { McpCancellations } from './cancellations';

export const MCP_PATH = '/mcp';
export const RESOURCE_METADATA_PATH = '/.well-known/oauth-protected-resource';

/**
 * A JSON-RPC error the SDK's server answers as it is (code, message, data): McpError would prefix
 * its message with "MCP error <code>:", which the client's McpError then prefixes again.
 */
class JsonRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

/** What a finished tool call was, for the metrics: ok, a tool error (its code), invalid params, or unknown. */
export type ToolOutcome = 'ok' | 'error' | 'invalid_params' | 'rate_limited' | 'canceled' | 'internal';

/** The MCP request a tool runs in: its progress token and the client's cancellation. */
export interface ToolCallExtra {
  signal: AbortSignal;
  progressToken?: string | number;
  sendNotification: (notification: { method: 'notifications/progress'; params: { progressToken: string | number; progress: number; total?: number; message?: string } }) => Promise<void>;
}

/** A tool that is no REST route (composed research, waiting renders): its own description and run. */
export interface CustomTool {
  definition: { name: string; title: string; description: string; inputSchema: Record<string, unknown> & { type: 'object' }; outputSchema?: Record<string, unknown> & { type: 'object' }; annotations: McpTool['annotations'] };
  run(ctx: Context, args: Record<string, unknown>, extra: ToolCallExtra, clientIp: string | undefined): Promise<CallToolResult>;
  /** A call that may last (a render's wait): the client's cancellation reaches it from any instance (McpCancellations). */
  waits?: boolean;
}

/** MCP prompts (agent templates, ./prompts.ts). */
export interface PromptSource {
  list(ctx: Context, cursor: string | undefined): Promise<ListPromptsResult>;
  get(ctx: Context, name: string): Promise<GetPromptResult>;
}

export interface McpOptions {
  tools: McpTool[];
  cancellations?: McpCancellations;
  prompts?: PromptSource;
  custom?: CustomTool[];
  /** Told of every tools/call with the tool's name, its outcome and its duration in seconds. */
  onToolCall?: (tool: string, outcome: ToolOutcome, seconds: number) => void;
}

/** Tool errors counted apart (mcp_tool_calls_total's outcome). */
const OUTCOMES: Record<string, ToolOutcome> = { RATE_LIMITED: 'rate_limited', CANCELED: 'canceled', INTERNAL_SERVER_ERROR: 'internal' };

/** The OAuth 2.0 Protected Resource Metadata (RFC 9728) of /mcp: which identity provider's tokens it accepts. */
export function resourceMetadata(deps: AppDeps): Record<string, unknown> {
  const issuer = deps.config.auth.jwtIssuer;
  return {
    resource: `${deps.config.publicUrl}${MCP_PATH}`,
    ...(issuer ? { authorization_servers: [issuer] } : {}),
    bearer_methods_supported: ['header'],
    resource_name: 'Music Agent Service (MCP)',
    resource_documentation: `${deps.config.publicUrl}/api/docs`,
  };
}

/**
 * MCP over Streamable HTTP at /mcp, stateless: every POST carries its own credentials and is
 * answered by a server made for it, so any instance behind a round-robin balancer answers any
 * request (there is no session to continue). Credentials are REST's (x-api-key, or Authorization:
 * Bearer with an API key or the identity provider's JWT); without them a 401 points the client at
 * the protected-resource metadata (RFC 9728). Each tool runs its REST route's execution (the
 * same document, input parsing, access and charge), see ./tools.ts.
 */
export function mcpRouter(deps: AppDeps, options: McpOptions): express.Router {
  const router = express.Router();
  const custom = new Map((options.custom ?? []).map((tool) => [tool.definition.name, tool]));
  const routeTools = new Map(options.tools.filter((tool) => !custom.has(tool.name)).map((tool) => [tool.name, tool]));
  const listed = [
    ...[...routeTools.values()].map((tool) => ({
      name: tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema: tool.inputSchema,
      outputSchema: tool.outputSchema,
      annotations: tool.annotations,
    })),
    ...[...custom.values()].map((tool) => tool.definition),
  ];
  const metadata = resourceMetadata(deps);
  const serveMetadata = (_req: Request, res: Response) => {
    res.locals.route = RESOURCE_METADATA_PATH;
    res.set('cache-control', 'public, max-age=3600').json(metadata);
  };
  router.get(RESOURCE_METADATA_PATH, serveMetadata);
  router.get(`${RESOURCE_METADATA_PATH}${MCP_PATH}`, serveMetadata);

  const challenge = `Bearer resource_metadata="${deps.config.publicUrl}${RESOURCE_METADATA_PATH}"`;
  const json = express.json({ limit: deps.config.http.bodyLimit, strict: false, type: () => true });

  router.all(MCP_PATH, (req: Request, res: Response, next: NextFunction) => {
    res.locals.route = MCP_PATH;
    // Stateless: no stream outside a request (GET) and no session to end (DELETE).
    if (req.method !== 'POST') {
      res.set('allow', 'POST');
      sendError(res, toHttpError(new AppError('METHOD_NOT_ALLOWED', `${req.method} ${MCP_PATH} is not served: send JSON-RPC messages with POST (stateless Streamable HTTP)`)));
      return;
    }
    if (hasBody(req.headers) && !isJsonMediaType(req.headers['content-type'])) {
      sendError(res, toHttpError(new AppError('UNSUPPORTED_MEDIA_TYPE', 'The request body must be sent as Content-Type: application/json', { details: [{ field: 'content-type', message: 'must be application/json' }] })));
      return;
    }
    next();
  });

  router.post(MCP_PATH, async (req: Request, res: Response, next: NextFunction) => {
    try {
      let ctx: Context | undefined;
      let refused: unknown;
      try {
        ctx = await createContext(deps, {
          credentials: { apiKey: headerValue(req.headers['x-api-key']), authorization: req.headers.authorization },
          requestId: String(req.id ?? ''),
          clientIp: req.ip,
          log: req.log,
        });
      } catch (error) {
        refused = error;
      }
      const viewer = ctx?.viewer ?? null;
      if (refused || !viewer) {
        // As on REST: a request without an account spends its client address's budget.
        await chargeRequest(deps.rateLimiter, res, { budget: 'api', subject: rateSubject(null, req.ip), points: 1 });
        const error = toAppError(refused) ?? (refused ? undefined : new AppError('UNAUTHENTICATED', 'Missing credentials: send x-api-key or Authorization: Bearer'));
        if (!error) throw refused;
        if (error.code === 'UNAUTHENTICATED') res.set('www-authenticate', refused ? `${challenge}, error="invalid_token"` : challenge);
        sendError(res, toHttpError(error));
        return;
      }
      req.ctx = ctx;
      next();
    } catch (error) {
      next(error);
    }
  });

  // The request's statements are cancelled if its client goes away before the answer (as on REST and /graphql).
  router.post(MCP_PATH, json, cancelOnDisconnect(deps.logger) as express.RequestHandler, async (req: Request, res: Response, next: NextFunction) => {
    try {
      const ctx = req.ctx!;
      const viewer = ctx.viewer!;
      // A tools/call is charged by its route, as the same REST request; any other message one point of the general budget.
      const message = req.body as { method?: unknown } | undefined;
      if (!(message && !Array.isArray(message) && message.method === 'tools/call')) {
        await chargeRequest(deps.rateLimiter, res, { budget: 'api', subject: rateSubject(viewer, req.ip), points: 1 });
      }
      const gone = new AbortController();
      const server = new Server(
        { name: 'music-agent-service', version: '0.1.0' },
        { capabilities: { tools: { listChanged: false }, ...(options.prompts ? { prompts: { listChanged: false } } : {}) }, instructions: 'Music-industry research, catalogs, agent templates, sessions and video renders: every tool is a REST route of this service, with its access rules and budgets.' },
      );
      server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listed }));
      server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
        const started = process.hrtime.bigint();
        const tool = routeTools.get(request.params.name) ?? custom.get(request.params.name);
        if (!tool) throw new JsonRpcError(ErrorCode.InvalidParams, `Unknown tool: ${JSON.stringify(request.params.name.slice(0, 100))}`, { details: [{ field: 'name', message: 'is not a tool of this server (tools/list)' }] });
        let outcome: ToolOutcome = 'internal';
        try {
          const args = request.params.arguments ?? {};
          let result: CallToolResult;
          if ('run' in tool) {
            // The client's notifications/cancelled may reach another instance: it is announced to all (McpCancellations).
            const cancelled = tool.waits && options.cancellations ? await options.cancellations.watch(viewer.accountId, extra.requestId) : undefined;
            try {
              const signal = AbortSignal.any([extra.signal, gone.signal, ...(cancelled ? [cancelled.signal] : [])]);
              const toolExtra: ToolCallExtra = { signal, progressToken: request.params._meta?.progressToken, sendNotification: (n) => extra.sendNotification(n) };
              result = await tool.run(ctx, args, toolExtra, req.ip).catch((error: unknown) => toolError(deps, error));
            } finally {
              cancelled?.done();
            }
          } else result = await callTool(deps, ctx, tool, args, req.ip);
          outcome = result.isError ? (OUTCOMES[String(result._meta?.code)] ?? 'error') : 'ok';
          return result;
        } catch (error) {
          if (error instanceof JsonRpcError) outcome = 'invalid_params';
          throw error;
        } finally {
          options.onToolCall?.(request.params.name, outcome, Number(process.hrtime.bigint() - started) / 1e9);
        }
      });
      const cancellations = options.cancellations;
      if (cancellations) {
        // Replaces the SDK's own handler, which knows only this instance's requests of this HTTP request (none: stateless).
        server.setNotificationHandler(CancelledNotificationSchema, async (notification) => {
          const requestId = notification.params.requestId;
          if (requestId === undefined) return;
          await cancellations.cancel(viewer.accountId, requestId).catch((error: unknown) => deps.logger.warn({ err: error }, 'MCP cancellation not announced'));
        });
      }
      const prompts = options.prompts;
      if (prompts) {
        server.setRequestHandler(ListPromptsRequestSchema, (request) => prompts.list(ctx, request.params?.cursor).catch((error: unknown) => Promise.reject(rpcError(deps, error))));
        server.setRequestHandler(GetPromptRequestSchema, (request) => prompts.get(ctx, request.params.name).catch((error: unknown) => Promise.reject(rpcError(deps, error))));
      }
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      res.on('close', () => {
        // The client went away: a tool waiting on something (a render) stops waiting.
        gone.abort();
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(req, res, req.body);
    } catch (error) {
      next(error);
    }
  });
  return router;
}

/**
 * Runs a tool: its route's charge (budget and subject as REST), then its route's execution. An
 * operation's error is a tool error (isError) carrying the REST error body (code, message,
 * details, retry_after); malformed arguments are a JSON-RPC invalid-params error naming each field.
 */
export async function callTool(deps: AppDeps, ctx: Context, tool: McpTool, args: Record<string, unknown>, clientIp: string | undefined): Promise<CallToolResult> {
  const decision = decisive(await deps.rateLimiter.consume([{ budget: tool.call.budget, subject: rateSubject(ctx.viewer, clientIp), points: 1 }]));
  if (decision && !decision.allowed) return toolError(deps, rateLimitedError(decision));
  let outcome;
  try {
    outcome = await tool.call.execute(ctx, routeInput(tool.route, args));
  } catch (error) {
    return toolError(deps, error);
  }
  if (!outcome.ok) return toolError(deps, outcome.error);
  const answer = outcome.answer as Record<string, unknown>;
  return { content: [{ type: 'text', text: JSON.stringify(answer) }], structuredContent: answer };
}

/**
 * A failure of a request that is no tool call (prompts) as a JSON-RPC error: invalid params for
 * malformed input and for a name that finds nothing (MCP's "invalid prompt name"), an internal
 * error otherwise; data carries the code of the table, the HTTP status and the retry time.
 */
function rpcError(deps: AppDeps, error: unknown): JsonRpcError {
  const http = toHttpError(error);
  if (http.unexpected) deps.logger.error({ err: error }, 'unexpected error in MCP request');
  const retryAfter = http.headers['Retry-After'];
  const data = { code: http.body.code, http_status: http.status, ...(http.body.details ? { details: http.body.details } : {}), ...(retryAfter ? { retry_after: Number(retryAfter) } : {}) };
  const invalid = http.body.code === 'BAD_USER_INPUT' || http.body.code === 'NOT_FOUND';
  return new JsonRpcError(invalid ? ErrorCode.InvalidParams : ErrorCode.InternalError, http.body.error, data);
}

export function toolError(deps: AppDeps, error: unknown): CallToolResult {
  // Already a JSON-RPC answer (malformed arguments found by a nested call): passed on as it is.
  if (error instanceof JsonRpcError) throw error;
  const http = toHttpError(error);
  if (http.unexpected) deps.logger.error({ err: error }, 'unexpected error in MCP tool');
  const { status: _status, ...body } = http.body as unknown as Record<string, unknown>;
  const retryAfter = http.headers['Retry-After'];
  if (body.code === 'BAD_USER_INPUT') {
    // The message names each bad field (invalidInput), as REST's 400 does; details list them.
    throw new JsonRpcError(ErrorCode.InvalidParams, String(body.error), { code: body.code, details: body.details });
  }
  const payload = { ...body, http_status: http.status, ...(retryAfter ? { retry_after: Number(retryAfter) } : {}) };
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(payload) }], _meta: { code: String(body.code) } };
}
