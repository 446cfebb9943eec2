import express, { NextFunction, Request, Response as ExpressResponse } from 'express';
import { execute, ExecutionArgs, GraphQLSchema } from 'graphql';
import { useSofa } from 'sofa-api';
import type { AppDeps } from '../../deps';
import { AppError, FieldProblem, invalidInput } from '../../common/errors';
import { inputProblems } from '../../common/input-guard';
import { Context, createContext, headerValue } from '../../graphql/context';
import { checkRestInput, operationField } from './inputs';
import { HttpError, toHttpError } from './error-status';
import { hasBody, isJsonMediaType, requestError, undecodableParam } from '../request-errors';
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
 * /api is a 404. Each route authenticates (401), then checks the media type of a body (415) and its
 * raw input (400), then runs.
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
  // Only after mediaType below has let the request through: anything it parses is meant as JSON.
  const json = express.json({ limit: deps.config.http.bodyLimit, strict: false, type: () => true });
  const maxDepth = deps.config.http.maxDepth;
  // A body must say it is JSON: a text/plain or form post (which any web page can make from a
  // visitor's browser without a CORS preflight) is refused, not parsed and acted on.
  const mediaType = (req: Request, _res: ExpressResponse, next: NextFunction) => {
    if (!hasBody(req.headers) || isJsonMediaType(req.headers['content-type'])) {
      next();
      return;
    }
    next(
      new AppError('UNSUPPORTED_MEDIA_TYPE', 'The request body must be sent as Content-Type: application/json', {
        details: [{ field: 'content-type', message: 'must be application/json' }],
      }),
    );
  };

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
        const body: unknown = readsBody ? (req.body ?? {}) : undefined;
        // Before anything recursive (the input check, sofa's re-serialisation) walks the input.
        const problems: FieldProblem[] = [
          ...inputProblems(req.params, ''),
          ...inputProblems(req.query, '', { maxDepth, depthField: 'query' }),
          ...inputProblems(body, '', { maxDepth, depthField: 'body' }),
          // sofa routes again by the URL, which resolves `.` and `..` away: it would run another path than the one checked.
          ...Object.entries(req.params)
            .filter(([, value]) => value === '.' || value === '..')
            .map(([name]) => ({ field: name, message: 'must not be "." or ".."' })),
        ];
        if (problems.length) throw invalidInput(problems);
        checkRestInput(field.args, route, {
          params: req.params as Record<string, unknown>,
          query: req.query as Record<string, unknown>,
          body,
        });
        // sofa re-reads the body from the request: hand it the checked JSON as text.
        if (readsBody) req.body = JSON.stringify(req.body ?? {});
        await sofa(req, res);
      } catch (error) {
        next(error);
      }
    };
    if (readsBody) router[method](route.path, authenticate, mediaType, json, run);
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

  const routePaths = routes.map((r) => r.path);
  router.use((error: unknown, req: Request, res: ExpressResponse, _next: NextFunction) => {
    const known = requestError(error, deps.config.http.bodyLimit, error instanceof URIError ? undecodableParam(routePaths, req.path) : undefined);
    if (known) {
      sendError(res, toHttpError(known));
      return;
    }
    const httpError = toHttpError(error);
    if (httpError.unexpected) deps.logger.error({ err: error, requestId: req.id }, 'unexpected error in REST route');
    sendError(res, httpError);
  });
  return router;
}
