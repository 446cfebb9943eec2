import express, { NextFunction, Request, RequestHandler, Response as ExpressResponse } from 'express';
import { ExecutionResult, GraphQLSchema, validate } from 'graphql';
import type { AppDeps } from '../../deps';
import { AppError, FieldProblem, invalidInput } from '../../common/errors';
import { inputProblems } from '../../common/input-guard';
import { Context, createContext, headerValue } from '../../request/context';
import { INPUT_GUARDED } from '../../graphql/input-guard';
import { CompiledOperation, compileOperation, isCompiled } from '../../graphql/compile';
import { restFields, routeDocument } from './documents';
import { operationField, restFieldName, restInputParser, type RouteInput } from './inputs';
import { HttpError, toAppError, toHttpError } from '../../common/error-status';
import { renameFieldPath, renameFieldWords, renameProblemFields, restName } from '../../common/names';
import { hasBody, isJsonMediaType, requestError, undecodableParam } from '../request-errors';
import { afterBody, limitBytes, payloadTooLarge } from '../body';
import { RestRoute, wrapAnswer } from './route';
import { rateSubject } from '../../auth/rate-limit';
import { chargeRequest } from '../rate-limit';
import { cancelOnDisconnect } from '../../db/statement-scope';
import { cacheControl, NO_STORE, queryFieldPolicy } from '../caching';
import { idempotencyKeyOf, idempotent } from '../idempotency';
import { stringifyJson } from '../../graphql/pass-through';

declare module 'express-serve-static-core' {
  interface Request {
    ctx?: Context;
  }
}

/** Sends the error answer once the client is done sending its body (see afterBody). */
export function sendError(res: ExpressResponse, error: HttpError): void {
  const limit = typeof res.locals.bodyLimit === 'string' ? res.locals.bodyLimit : undefined;
  afterBody(res.req, res, limit ? limitBytes(limit) : Infinity, (tooLarge) => {
    if (res.headersSent) return;
    const answer = tooLarge && limit ? toHttpError(payloadTooLarge(limit)) : error;
    // An error is about this request only: never kept by any cache (docs/api/caching.md).
    res.status(answer.status).set(answer.headers).set('cache-control', 'no-store').json(answer.body);
  });
}

interface RestOperation {
  fieldName: string;
  /** Runs the document compiled to a function (compileOperation, as GraphQL's executor) on the route's first request, then reused. */
  run(context: Context, variables: Record<string, unknown>, passThrough: boolean): Promise<ExecutionResult> | ExecutionResult;
}

/** The operation a route runs (with its `select`), built and validated at start-up, compiled on first use. */
function restOperation(schema: GraphQLSchema, route: RestRoute): RestOperation {
  const where = `REST route ${route.method} ${route.path}`;
  const document = routeDocument(schema, route);
  const errors = validate(schema, document);
  if (errors.length) throw new Error(`${where}: ${errors[0].message}`);
  let compiled: CompiledOperation | undefined;
  return {
    fieldName: route.operation.split('.')[1],
    run(context, variables, passThrough) {
      if (!compiled) {
        const result = compileOperation(schema, document);
        if (!isCompiled(result)) throw new Error(`${where}: ${result.refused}`);
        compiled = result;
      }
      // Its variables come from input the route guarded whole (execute, below): the root field does not walk them again.
      return compiled.run(context, variables, INPUT_GUARDED, { passThrough });
    },
  };
}

/**
 * The REST face: an explicit route table over the plain schema, each route running its operation
 * document (the route's `select`) straight from Express and wrapping the result in the route's
 * envelope. Only the documented routes are served: anything else under /api is a 404. Each route
 * authenticates (401), then checks the media type of a body (415) and its raw input (400), then runs.
 */
export function createRestRouter(deps: AppDeps, schema: GraphQLSchema, routes: RestRoute[], calls = restRouteCalls(deps, schema, routes)): express.Router {

  const router = express.Router();
  // Only after mediaType below has let the request through: anything it parses is meant as JSON.
  const json = express.json({ limit: deps.config.http.bodyLimit, strict: false, type: () => true });
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

  const scoped = cancelOnDisconnect(deps.logger) as RequestHandler;
  const notFound = async (req: Request, res: ExpressResponse, next: NextFunction) => {
    res.locals.route = 'unmatched';
    try {
      // Probing for routes spends the client address's budget like any unauthenticated request.
      await chargeRequest(deps.rateLimiter, res, { budget: 'api', subject: rateSubject(null, req.ip), points: 1 });
      sendError(res, toHttpError(new AppError('NOT_FOUND', `No route ${req.method} ${req.baseUrl}${req.path}`)));
    } catch (error) {
      next(error);
    }
  };
  // The routes split by method and first path segment (see routeIndex): a request of an indexed
  // method tries its group's routes, then is a 404; any other (OPTIONS) goes on to every route in
  // table order, registered below, as before.
  const index = routeIndex(routes);
  router.use((req: Request, res: ExpressResponse, next: NextFunction) => {
    const group = index.lookup(req.method, req.path);
    if (!group) next();
    else group(req, res, (error?: unknown) => (error ? next(error) : void notFound(req, res, next)));
  });
  for (const route of routes) {
    const method = route.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
    const readsBody = route.method !== 'GET';
    const budget = calls.get(route)!.budget;
    const authenticate = async (req: Request, res: ExpressResponse, next: NextFunction) => {
      res.locals.route = `/api${route.path}`;
      try {
        let refused: unknown;
        try {
          req.ctx = await createContext(deps, {
            credentials: route.public ? {} : { apiKey: headerValue(req.headers['x-api-key']), authorization: req.headers.authorization },
            requestId: String(req.id ?? ''),
            clientIp: req.ip,
            log: req.log,
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
    const call = calls.get(route)!;
    const run = async (req: Request, res: ExpressResponse, next: NextFunction) => {
      try {
        const body: unknown = readsBody ? (req.body ?? {}) : undefined;
        // Lists may be passed through as the database wrote them: the answer is serialized by stringifyJson below.
        const outcome = await call.execute(req.ctx!, { params: req.params as Record<string, unknown>, query: req.query as Record<string, unknown>, body }, { passThrough: true });
        if (!outcome.ok) {
          const httpError = toHttpError(outcome.error);
          if (httpError.unexpected) deps.logger.error({ err: outcome.error }, 'unexpected error in REST operation');
          sendError(res, httpError);
          return;
        }
        if (readsBody) res.setHeader('cache-control', cacheControl(NO_STORE));
        else res.setHeader('cache-control', cacheControl(queryFieldPolicy(call.fieldName)));
        // As res.json sends it (the app sets no JSON replacer, spaces or escaping), passed-through lists written in place.
        if (!res.get('content-type')) res.set('content-type', 'application/json');
        res.status(outcome.status).send(stringifyJson(outcome.answer));
      } catch (error) {
        next(error);
      }
    };
    // Idempotency-Key on a POST of an account: a repeat answers the first answer again (src/http/idempotency.ts).
    const idempotency = async (req: Request, res: ExpressResponse, next: NextFunction) => {
      try {
        const key = idempotencyKeyOf(req, deps.config.idempotency.maxKeyLength);
        const viewer = req.ctx?.viewer;
        if (key === undefined || !viewer) next();
        else await idempotent(deps.idempotency, req, res, next, viewer.accountId, key);
      } catch (error) {
        next(error);
      }
    };
    // The operation's statements are cancelled if the client goes away before its answer.
    const handlers: RequestHandler[] =
      route.method === 'POST' ? [authenticate, mediaType, json, idempotency, scoped, run] : readsBody ? [authenticate, mediaType, json, scoped, run] : [authenticate, scoped, run];
    router[method](route.path, ...handlers);
    index.groupOf(route)?.[method](route.path, ...handlers);
  }

  router.use(notFound);

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

/**
 * The REST routes split by method and first path segment, so a request is matched against the few
 * routes that could answer it rather than tried against every route in turn (issue 31: the runs
 * status read was the 40th of 58). Each group is an express router holding its routes in table
 * order, so matching itself (case-insensitive paths, a trailing slash, decoding path parameters and
 * its 400) is express's as before. The index only leaves out routes that cannot match: a route's
 * first segment is plain text, matched case-insensitively by express, so a request whose first
 * segment differs in more than case matches none of that group's routes. `lookup` answers
 * undefined (try every route, in order) for OPTIONS and for a method that has a route whose first
 * segment is not plain text (a parameter or pattern); a method and segment no route has get an
 * empty router: straight on to the 404.
 */
const ROUTE_METHODS: ReadonlySet<string> = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);

function routeIndex(routes: readonly RestRoute[]) {
  const firstSegment = (path: string): string => {
    const end = path.indexOf('/', 1);
    return (end === -1 ? path.slice(1) : path.slice(1, end)).toLowerCase();
  };
  const plain = /^[a-z0-9_.~-]+$/;
  // A method some route of which starts with a parameter or pattern: its requests go through every route.
  const unindexed = new Set(routes.filter((r) => !plain.test(firstSegment(r.path))).map((r) => r.method));
  const groups = new Map<string, express.Router>();
  const none = express.Router();
  const key = (method: string, segment: string) => `${method} ${segment}`;
  return {
    /** The router a route is added to, besides the one of every route (undefined: its method is not indexed). */
    groupOf(route: RestRoute): express.Router | undefined {
      if (unindexed.has(route.method)) return undefined;
      const k = key(route.method, firstSegment(route.path));
      let group = groups.get(k);
      if (!group) groups.set(k, (group = express.Router()));
      return group;
    },
    /** The router for a request (HEAD is answered by GET routes, as express does); undefined: every route. */
    lookup(method: string, path: string): express.Router | undefined {
      const routeMethod = method === 'HEAD' ? 'GET' : method;
      if (!ROUTE_METHODS.has(routeMethod) || unindexed.has(routeMethod as RestRoute['method'])) return undefined;
      return groups.get(key(routeMethod, firstSegment(path))) ?? none;
    },
  };
}

export type { RouteInput } from './inputs';

/** What running a route gave: its status and answer in the route's envelope, or the error (named as the route names its fields). */
export type RouteOutcome = { ok: true; status: number; answer: unknown } | { ok: false; error: unknown };

/** One route's execution, after authentication and the charge: what the REST face and the MCP tools (src/mcp) both run. */
export interface RouteCall {
  route: RestRoute;
  /** Routes that spend provider quota charge the research budget instead of the general one. */
  budget: 'api' | 'research';
  /** The operation's root field. */
  fieldName: string;
  /**
   * Checks the raw input (NUL, depth, "."/".." path parameters), parses it into the operation's
   * variables (a 400 naming each bad field, thrown) and runs the route's document; the
   * operation's own error is returned, renamed to the route's field names.
   */
  execute(ctx: Context, input: RouteInput, options?: { passThrough?: boolean }): Promise<RouteOutcome>;
}

/** Every route's execution, built (and its document validated) once. */
export function restRouteCalls(deps: AppDeps, schema: GraphQLSchema, routes: RestRoute[]): Map<RestRoute, RouteCall> {
  const maxDepth = deps.config.http.maxDepth;
  const calls = new Map<RestRoute, RouteCall>();
  for (const route of routes) {
    const field = operationField(schema, route.operation);
    const { fields, inputArg } = restFields(field);
    const operation = restOperation(schema, route);
    const parseInput = restInputParser(fields, route);
    /** The operation's input problems name its GraphQL fields: the REST answer names them as this route does. */
    const restNamed = (error: unknown): unknown => {
      const appError = toAppError(error);
      if (!appError) return error;
      const named = (f: { name: string }, depth: number) => (depth === 0 ? restFieldName(route, f.name) : restName(f.name));
      return renameProblemFields(
        appError,
        (path) => renameFieldPath(path, fields, named),
        (message) => renameFieldWords(message, fields, named),
      );
    };
    calls.set(route, {
      route,
      budget: field.extensions?.providerCall === true ? 'research' : 'api',
      fieldName: operation.fieldName,
      async execute(ctx, input, options) {
        // Before anything recursive (the input check) walks the input.
        const problems: FieldProblem[] = [
          ...inputProblems(input.params, ''),
          ...inputProblems(input.query, '', { maxDepth, depthField: 'query' }),
          ...inputProblems(input.body, '', { maxDepth, depthField: 'body' }),
          // A client or proxy resolves `.` and `..` away: such a path parameter names no row, it only rewrites the URL.
          ...Object.entries(input.params)
            .filter(([, value]) => value === '.' || value === '..')
            .map(([name]) => ({ field: name, message: 'must not be "." or ".."' })),
        ];
        if (problems.length) throw invalidInput(problems);
        const parsed = parseInput(input);
        const variableValues = inputArg ? { [inputArg]: parsed } : parsed;
        const result = await operation.run(ctx, variableValues, options?.passThrough === true);
        if (result.errors?.length) return { ok: false, error: restNamed(result.errors[0]) };
        const answer = wrapAnswer(route.answer, result.data?.[operation.fieldName]);
        if (route.omitNullFields && answer && typeof answer === 'object') {
          for (const [key, member] of Object.entries(answer)) if (member === null) delete (answer as Record<string, unknown>)[key];
        }
        return { ok: true, status: route.responseStatus ?? 200, answer };
      },
    });
  }
  return calls;
}
