import { createHash, timingSafeEqual } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { AppError } from '../common/errors';
import { toHttpError } from '../common/error-status';
import { sendError } from './rest/rest.router';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Orm } from '../db/orm';

export interface Metrics {
  registry: Registry;
  middleware: (req: Request, res: Response, next: NextFunction) => void;
  /** Counts one refusal by a rate limit or cap (GraphQL and websockets; REST sets res.locals.rateLimited). */
  rateLimited(route: string, budget: string): void;
  /** Counts one GraphQL operation Apollo ran, compiled (graphql-jit) or interpreted (graphql-js). */
  graphqlExecuted(execution: 'compiled' | 'interpreted'): void;
  /** Counts one GraphQL operation compiled by graphql-jit. */
  graphqlCompiled(): void;
  /** Counts one MCP tool call by tool (names of this server's tools only) and outcome, with its duration. */
  mcpToolCall(tool: string, outcome: string, seconds: number): void;
}

/** Prometheus metrics: request counts and latency by route, PostgreSQL pool state, process stats. */
export function createMetrics(orm: Orm, options: { eventLoopResolutionMs: number }): Metrics {
  const registry = new Registry();
  // The event-loop delay histogram is sampled by a timer of this period (prom-client's default is
  // 10 ms: 100 wake-ups a second of an otherwise idle process, about 5 ms of CPU a second here).
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: options.eventLoopResolutionMs });
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests by method, route and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency by method and route',
    labelNames: ['method', 'route'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const pool = () => (orm.em.getConnection().getKnex().client as { pool?: TarnPool }).pool;
  new Gauge({
    name: 'db_pool_connections',
    help: 'PostgreSQL pool connections by state',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const p = pool();
      this.set({ state: 'used' }, p?.numUsed() ?? 0);
      this.set({ state: 'free' }, p?.numFree() ?? 0);
      this.set({ state: 'pending_acquires' }, p?.numPendingAcquires() ?? 0);
      this.set({ state: 'pending_creates' }, p?.numPendingCreates() ?? 0);
    },
  });

  // Rate limits (issue 12): refusals by route and budget (api, research, ws_subscriptions, ws_connections).
  const rateLimitRejections = new Counter({
    name: 'rate_limit_rejections_total',
    help: 'Requests and operations refused by a rate limit or cap, by route and budget',
    labelNames: ['route', 'budget'] as const,
    registers: [registry],
  });
  const rateLimited = (route: string, budget: string) => rateLimitRejections.inc({ route, budget });

  // Operations over HTTP by how they ran: compiled once their document came back (GRAPHQL_COMPILE_AFTER), or on graphql-js.
  const graphqlOperations = new Counter({
    name: 'graphql_operations_total',
    help: 'GraphQL operations over HTTP that reached execution, by how they ran: compiled (graphql-jit) or interpreted (graphql-js)',
    labelNames: ['execution'] as const,
    registers: [registry],
  });
  const graphqlExecuted = (execution: 'compiled' | 'interpreted') => graphqlOperations.inc({ execution });
  const graphqlCompilations = new Counter({
    name: 'graphql_compilations_total',
    help: 'GraphQL operations compiled by graphql-jit; rising in a steady state, GRAPHQL_COMPILED_MAX is smaller than the set of operations clients repeat',
    registers: [registry],
  });
  const graphqlCompiled = () => graphqlCompilations.inc();

  // MCP (issue 25): tool calls by tool and outcome (ok, error, rate_limited, invalid_params, canceled, internal), and how long they took.
  const mcpToolCalls = new Counter({
    name: 'mcp_tool_calls_total',
    help: 'MCP tool calls by tool and outcome: ok, error (a tool error), rate_limited, invalid_params, canceled (a wait the client cancelled), internal',
    labelNames: ['tool', 'outcome'] as const,
    registers: [registry],
  });
  const mcpToolDuration = new Histogram({
    name: 'mcp_tool_call_duration_seconds',
    help: 'MCP tool call durations by tool (render_video with wait lasts until its run has finished)',
    labelNames: ['tool'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 120, 600],
    registers: [registry],
  });
  const mcpToolCall = (tool: string, outcome: string, seconds: number) => {
    mcpToolCalls.inc({ tool, outcome });
    mcpToolDuration.observe({ tool }, seconds);
  };

  const middleware = (req: Request, res: Response, next: NextFunction) => {
    const stop = latency.startTimer();
    res.on('finish', () => {
      // Only the routes' own names: a request no route named is "unmatched", whatever its path, so
      // made-up paths (anyone can send them) cannot add series without bound.
      const route = (res.locals.route as string | undefined) ?? 'unmatched';
      requests.inc({ method: req.method, route, status: String(res.statusCode) });
      stop({ method: req.method, route });
      if (res.locals.rateLimited) rateLimited(route, String(res.locals.rateLimited));
    });
    next();
  };
  return { registry, middleware, rateLimited, graphqlExecuted, graphqlCompiled, mcpToolCall };
}

interface TarnPool {
  numUsed(): number;
  numFree(): number;
  numPendingAcquires(): number;
  numPendingCreates(): number;
}

/**
 * METRICS_TOKEN, when set, is required as `Authorization: Bearer <token>` on /metrics (401
 * otherwise). Compared as SHA-256 digests in constant time, so neither content nor length leaks.
 */
export function metricsAuth(token: string | undefined) {
  const expected = token ? createHash('sha256').update(token).digest() : undefined;
  return (req: Request, res: Response, next: NextFunction) => {
    if (!expected) return next();
    const match = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
    const given = createHash('sha256').update(match?.[1] ?? '').digest();
    if (match && timingSafeEqual(given, expected)) return next();
    res.set('www-authenticate', 'Bearer realm="metrics"');
    sendError(res, toHttpError(new AppError('UNAUTHENTICATED', 'GET /metrics needs Authorization: Bearer <METRICS_TOKEN>')));
  };
}
