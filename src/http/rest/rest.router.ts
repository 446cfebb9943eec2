import express, { NextFunction, Request, Response as ExpressResponse } from 'express';
import { execute, ExecutionArgs, GraphQLSchema } from 'graphql';
import { useSofa } from 'sofa-api';
import type { AppDeps } from '../../deps';
import { AppError } from '../../common/errors';
import { Context, createContext, headerValue } from '../../graphql/context';
import { checkRestInput, operationField } from './inputs';
import { HttpError, toHttpError } from './error-status';
import type { RestRoute } from './route';
import { rateSubject } from '../../auth/rate-limit';
import { chargeRequest } from '../rate-limit';

declare module 'express-serve-static-core' {
  interface Request {
    ctx?: Context;
  }
}

export function sendError(res: ExpressResponse, error: HttpError): void {
  res.status(error.status).set(error.headers).json(error.body);
}

/**
 * The REST face: an explicit route table mapped onto sofa-api over the plain schema. Only the
 * documented routes are served (sofa's own defaults and /api/webhook* are not): anything else under
 * /api is a 404. Each route authenticates (401), then checks its raw input (400), then runs.
 */
export function createRestRouter(deps: AppDeps, schema: GraphQLSchema, routes: RestRoute[]): express.Router {
  const omitNull = new Set(routes.filter((r) => r.omitNullFields).map((r) => r.operation.split('.')[1]));
  const sofa = useSofa({
    basePath: '/api',
    schema,
    execute: (async (args: ExecutionArgs) => {
      const result = await execute(args);
      for (const [field, value] of Object.entries(result.data ?? {})) {
        if (!omitNull.has(field) || !value || typeof value !== 'object') continue;
        for (const [key, member] of Object.entries(value)) if (member === null) delete (value as Record<string, unknown>)[key];
      }
      return result;
    }) as typeof execute,
    routes: Object.fromEntries(
      routes.map((r) => [
        r.operation,
        { method: r.method, path: r.path, responseStatus: r.responseStatus ?? 200, tags: r.tags, description: r.description },
      ]),
    ),
    context: ({ req }: { req: Request }) => req.ctx!,
    errorHandler: (errors: readonly unknown[]) => {
      const httpError = toHttpError(errors[0]);
      if (httpError.unexpected) deps.logger.error({ err: errors[0] }, 'unexpected error in REST operation');
      // A standard fetch Response; sofa's type names its own (fets) but takes any.
      return new Response(JSON.stringify(httpError.body), {
        status: httpError.status,
        headers: { 'content-type': 'application/json; charset=utf-8', ...httpError.headers },
      }) as never;
    },
  });

  const router = express.Router();
  const json = express.json({ limit: deps.config.http.bodyLimit, strict: false, type: () => true });

  for (const route of routes) {
    const field = operationField(schema, route.operation);
    const method = route.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
    const readsBody = route.method !== 'GET';
    // Routes that spend provider quota charge the research budget instead of the general one.
    const budget = field.extensions?.providerCall === true ? 'research' : 'api';
    const authenticate = async (req: Request, res: ExpressResponse, next: NextFunction) => {
      res.locals.route = `/api${route.path}`;
      try {
        let refused: unknown;
        try {
          req.ctx = await createContext(deps, {
            credentials: route.public ? {} : { apiKey: headerValue(req.headers['x-api-key']), authorization: req.headers.authorization },
            requestId: String(req.id ?? ''),
            clientIp: req.ip,
            log: (req as unknown as { log?: AppDeps['logger'] }).log,
          });
        } catch (error) {
          refused = error;
        }
        // An account spends its own budget; without one (public route, failed credentials) the client address does.
        const viewer = refused ? null : req.ctx!.viewer;
        await chargeRequest(deps.rateLimiter, res, { budget: viewer ? budget : 'api', subject: rateSubject(viewer, req.ip), points: 1 });
        if (refused) throw refused;
        if (!route.public && !req.ctx!.viewer) {
          throw new AppError('UNAUTHENTICATED', 'Missing credentials: send x-api-key or Authorization: Bearer');
        }
        next();
      } catch (error) {
        next(error);
      }
    };
    const run = async (req: Request, res: ExpressResponse, next: NextFunction) => {
      try {
        checkRestInput(field.args, route, {
          params: req.params as Record<string, unknown>,
          query: req.query as Record<string, unknown>,
          body: readsBody ? (req.body ?? {}) : undefined,
        });
        // sofa re-reads the body from the request: hand it the checked JSON as text.
        if (readsBody) req.body = JSON.stringify(req.body ?? {});
        await sofa(req, res);
      } catch (error) {
        next(error);
      }
    };
    if (readsBody) router[method](route.path, authenticate, json, run);
    else router[method](route.path, authenticate, run);
  }

  router.use(async (req: Request, res: ExpressResponse, next: NextFunction) => {
    res.locals.route = 'unmatched';
    try {
      // Probing for routes spends the client address's budget like any unauthenticated request.
      await chargeRequest(deps.rateLimiter, res, { budget: 'api', subject: rateSubject(null, req.ip), points: 1 });
      sendError(res, toHttpError(new AppError('NOT_FOUND', `No route ${req.method} ${req.baseUrl}${req.path}`)));
    } catch (error) {
      next(error);
    }
  });

  router.use((error: unknown, req: Request, res: ExpressResponse, _next: NextFunction) => {
    const bodyError = error as { type?: string; status?: number };
    if (bodyError?.type === 'entity.parse.failed') {
      sendError(res, toHttpError(new AppError('BAD_USER_INPUT', 'Malformed JSON in request body', { details: [{ field: 'body', message: 'is not valid JSON' }] })));
      return;
    }
    if (bodyError?.type === 'entity.too.large') {
      sendError(res, toHttpError(new AppError('BAD_USER_INPUT', `Request body is larger than ${deps.config.http.bodyLimit}`, { details: [{ field: 'body', message: 'is too large' }] })));
      return;
    }
    if (bodyError?.type && bodyError.status && bodyError.status < 500) {
      sendError(res, toHttpError(new AppError('BAD_USER_INPUT', 'Unreadable request body', { details: [{ field: 'body', message: 'could not be read' }] })));
      return;
    }
    const httpError = toHttpError(error);
    if (httpError.unexpected) deps.logger.error({ err: error, requestId: req.id }, 'unexpected error in REST route');
    sendError(res, httpError);
  });
  return router;
}
