import type { ExecutionArgs, GraphQLSchema } from 'graphql';
import { getOperationAST, GraphQLError } from 'graphql';
import { createHandler } from 'graphql-sse/lib/use/express';
import type { NextFunction, Request, Response } from 'express';
import type { Credentials } from '../auth/authenticate';
import { AppError } from '../common/errors';
import { asClientError, LiveGate, liveCredentials } from './live';
import type { AppDeps } from '../deps';

/** Answers a slow client has not read yet: past them, the operation's stream waits (a subscription coalesces meanwhile). */
const MAX_UNSENT = 16;

interface StreamState {
  /** The connection's account and credentials, or why its credentials were refused. */
  admitted?: { accountId: string; credentials: Credentials };
  refusal?: GraphQLError;
  emitted: number;
  written: number;
  closed: boolean;
  wake?: () => void;
}

/**
 * GraphQL over SSE (the graphql-sse protocol, "distinct connections mode": one HTTP request per
 * operation, GET with the operation in the query string as EventSource sends it, or POST with a
 * JSON body, `Accept: text/event-stream`) on /graphql, for the same schema. Credentials come from
 * the request's headers (`x-api-key`, `Authorization: Bearer`); the shared gate applies the same
 * refusals, per-account connection cap (each stream counts as one connection), checks, weight and
 * charges, and error codes as graphql-ws. "Single connection mode" (a PUT reserving a stream
 * token) is not offered: its reservation lives in one process, so behind a balancer a client's
 * next request would meet another instance that does not know it.
 */
export function sseHandler(deps: AppDeps, schema: GraphQLSchema, gate: LiveGate) {
  const states = new WeakMap<Request, StreamState>();
  const open = new Set<Response>();
  const stateOf = (req: { raw: Request }) => states.get(req.raw)!;
  const handler = createHandler<Record<PropertyKey, unknown>>({
    schema,
    // No stream tokens: every request is its own stream (distinct connections mode).
    authenticate: () => null,
    // The gate parsed and validated the document with Apollo's rules and codes.
    validate: () => [],
    onSubscribe: async (req, params) => {
      const state = stateOf(req);
      // An answer with `data` (null) is what graphql-sse sends as it is: one `next` event, then `complete`.
      if (state.refusal || !state.admitted) return { data: null, errors: [state.refusal ?? new GraphQLError('Not authenticated', { extensions: { code: 'UNAUTHENTICATED' } })] };
      const prepared = await gate.prepare('sse', state.admitted.accountId, state.admitted.credentials, {
        query: params.query as string,
        operationName: params.operationName,
        variables: params.variables,
      });
      if (Array.isArray(prepared)) return { data: null, errors: [...(prepared as readonly GraphQLError[])] };
      const args = prepared as ExecutionArgs;
      // GET is for reading (GraphQL over HTTP): a mutation must be POSTed.
      if (req.method === 'GET' && getOperationAST(args.document, args.operationName)?.operation === 'mutation') {
        return { data: null, errors: [asClientError(new AppError('METHOD_NOT_ALLOWED', 'Mutations cannot be sent with GET: POST them'), deps, 'sse')] };
      }
      return args as ExecutionArgs & { contextValue: Record<PropertyKey, unknown> };
    },
    onNext: async (ctx, req, result) => {
      const state = stateOf(req);
      // A client that does not read: wait until it has read most of what was sent.
      while (!state.closed && state.emitted - state.written >= MAX_UNSENT) await new Promise<void>((resolve) => (state.wake = resolve));
      state.emitted += 1;
      return (await gate.answer(result, ctx)) ?? undefined;
    },
  });

  const middleware = async (req: Request, res: Response, next: NextFunction) => {
    // graphql-sse serves what asks for an event stream; everything else is Apollo's.
    if (req.headers.accept !== 'text/event-stream') return next();
    // A request that is no GraphQL operation gets Apollo's code and a message naming what is wrong.
    const malformed = requestProblem(req);
    if (malformed) {
      if (malformed.status === 405) res.setHeader('allow', 'GET, POST');
      res.status(malformed.status).json({ errors: [{ message: malformed.message, extensions: { code: malformed.code } }] });
      return;
    }
    const state: StreamState = { emitted: 0, written: 0, closed: false };
    states.set(req, state);
    // Each message's write completes when it is handed to the socket: counted, to pace onNext.
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    res.write = ((...args: unknown[]) => {
      const callback = typeof args[args.length - 1] === 'function' ? (args.pop() as (error?: Error | null) => void) : undefined;
      return write(...args, (error?: Error | null) => {
        state.written += 1;
        state.wake?.();
        callback?.(error);
      });
    }) as Response['write'];
    let release: (() => void) | null = null;
    res.once('close', () => {
      state.closed = true;
      state.wake?.();
      release?.();
      open.delete(res);
    });
    open.add(res);
    try {
      const admission = await gate.admit('sse', liveCredentials(undefined, req.headers), req.ip);
      // Gone while it was authenticated: nothing to count or answer.
      if (state.closed) return;
      if ('refusal' in admission) state.refusal = admission.refusal;
      else {
        release = gate.open('sse', admission.accountId);
        if (release) state.admitted = admission;
        else state.refusal = new GraphQLError(gate.tooManyConnectionsMessage(), { extensions: { code: 'RATE_LIMITED' } });
      }
      // The stream is this request's answer from here on: the request log and metrics see it end.
      res.locals.route = '/graphql (sse)';
      await handler(req, res);
    } catch (error) {
      deps.logger.error({ err: error }, 'GraphQL over SSE failed');
      if (!res.headersSent) res.status(500).json({ error: 'Internal server error', code: 'INTERNAL_SERVER_ERROR' });
      else res.end();
    }
  };
  return {
    middleware,
    /** Ends every open stream (shutdown): their subscriptions complete. */
    close() {
      for (const res of open) res.end();
      open.clear();
    },
  };
}

/** What makes an SSE request no GraphQL operation (graphql-sse would answer it without a code); null when it is one. */
function requestProblem(req: Request): { status: number; code: string; message: string } | null {
  if (req.method !== 'GET' && req.method !== 'POST') return { status: 405, code: 'METHOD_NOT_ALLOWED', message: 'GraphQL over SSE takes GET or POST' };
  const params = (req.method === 'GET' ? req.query : req.body) as Record<string, unknown> | undefined;
  if (!params || typeof params !== 'object' || typeof params.query !== 'string' || !params.query.trim()) {
    return { status: 400, code: 'BAD_REQUEST', message: 'GraphQL operations must contain a non-empty `query`' };
  }
  for (const name of ['variables', 'extensions']) {
    const value = params[name];
    if (value === undefined || value === null) continue;
    if (req.method === 'GET') {
      if (typeof value !== 'string') return { status: 400, code: 'BAD_REQUEST', message: `\`${name}\` must be JSON` };
      try {
        const parsed: unknown = JSON.parse(value);
        if (parsed !== null && (typeof parsed !== 'object' || Array.isArray(parsed))) return { status: 400, code: 'BAD_REQUEST', message: `\`${name}\` must be a JSON object` };
      } catch {
        return { status: 400, code: 'BAD_REQUEST', message: `\`${name}\` must be JSON` };
      }
    } else if (typeof value !== 'object' || Array.isArray(value)) {
      return { status: 400, code: 'BAD_REQUEST', message: `\`${name}\` must be an object` };
    }
  }
  return null;
}
