import { expressMiddleware } from '@as-integrations/express5';
import express, { NextFunction, Request, Response } from 'express';
import { createServer, IncomingMessage, Server } from 'node:http';
import { randomUUID } from 'node:crypto';
import { Registry } from 'prom-client';
import type { AppDeps } from './deps';
import { AppError } from './common/errors';
import { contextError, createApollo } from './graphql/apollo';
import { createContext, headerValue } from './request/context';
import { buildFederatedSchema, buildPlainSchema } from './graphql/schema';
import { attachWebsockets } from './graphql/websocket';
import { LiveGate } from './graphql/live';
import { sseHandler } from './graphql/sse';
import { providerFieldsOf } from './graphql/cost';
import { chargeRefusedCredentials, rateLimitPlugin } from './graphql/rate-limit.plugin';
import { credentialsRequired } from './graphql/credentials.plugin';
import { dashboardRouter } from './http/dashboard/dashboard.router';
import { apiDocsRouter, docsRouter } from './http/docs/docs.router';
import { healthRouter } from './http/health';
import { createMetrics, metricsAuth } from './http/metrics';
import { DOCS_CSP } from './http/docs/pages';
import { corsPolicy, embeddableMedia, securityHeaders } from './http/security';
import { toHttpError } from './common/error-status';
import { hasBody, isJsonMediaType, requestError } from './http/request-errors';
import { buildOpenApiDocument } from './http/rest/openapi';
import { createRestRouter, restRouteCalls, sendError } from './http/rest/rest.router';
import { mcpRouter } from './mcp/server';
import { mcpTools } from './mcp/tools';
import { graphTools } from './mcp/graph-tools';
import { templatePrompts } from './mcp/prompts';
import { renderWaitTool } from './mcp/render-wait';
import { McpCancellations } from './mcp/cancellations';
import { operations, references, resolvers } from './modules';
import { renderFiles, RenderRunsRepository } from './modules/render';
import { routeTable } from './http/rest/routes';
import { sharedSetting } from './db/settings';
import { ffmpegStatus } from './jobs/encoder';
import { cancelOnDisconnect } from './db/statement-scope';
import { weakEtag } from './http/etag';
import { newUrlSecret, URL_SECRET_SETTING } from './jobs/signed-url';
import { renderFilesRouter } from './http/media';
import { requestLogging } from './http/request-log';
import { answerClientErrors, answerConnect, requestEdge } from './http/body';
import { httpCaching } from './http/caching';
import { graphqlIdempotency } from './http/idempotency';
import { DEMO_KEYS } from './db/seeders/demo.data';
import { poolDb } from './db/request-db';

export interface App {
  express: express.Express;
  server: Server;
  /** Stops websockets and Apollo (the HTTP server is drained by Apollo's plugin), then the render queue and run events. */
  stop(): Promise<void>;
}

/** Builds the whole service on an unopened HTTP server: main.ts listens, tests use it directly. */
export async function createApp(deps: AppDeps): Promise<App> {
  if (deps.render.signer.needsKey) {
    // Links must outlive a restart and work on every instance: the generated key lives in the database.
    deps.render.signer.useKey(await sharedSetting(deps.orm, URL_SECRET_SETTING, newUrlSecret));
    deps.logger.info('RENDER_URL_SECRET is not set: video links are signed with the key kept in the database (settings table)');
  }
  // Credentials' viewers are cached once every instance hears about changes to them.
  await deps.authenticator.start();
  // Per-account limit overrides: read once, then kept current by account_limits_changes.
  await deps.limits.start();
  const plain = await buildPlainSchema({ resolvers });
  const routes = routeTable(operations);
  const federated = buildFederatedSchema(plain, references);
  const app = express();
  const server = createServer(app);
  // Idle keep-alive connections stay open past the proxy's own idle timeout (HTTP_KEEP_ALIVE_TIMEOUT_MS).
  server.keepAliveTimeout = deps.config.http.keepAliveTimeoutMs;
  // CONNECT never reaches express on its own (node hands it to 'connect' or drops the socket): answer it there, a 405.
  answerConnect(server, app);
  // What node's parser refuses (headers past 16 KB, malformed requests) gets the JSON error and a lingering close, not a reset.
  answerClientErrors(server);
  app.disable('x-powered-by');
  // Express's weak ETag (a GET answered again unchanged is a 304), made by a one-shot hash.
  app.set('etag', weakEtag);
  app.use(securityHeaders());
  // GET answers vary with the credentials and are no-store unless their route says otherwise (src/http/caching.ts).
  app.use(httpCaching());
  // Which proxies may set X-Forwarded-For: client IPs feed the per-IP signup limit.
  app.set('trust proxy', deps.config.http.trustProxy);

  app.use(
    requestLogging(deps.logger, {
      genReqId: (req, res) => {
        const given = headerValue(req.headers['x-request-id']);
        const id = given && /^[\w.-]{1,128}$/.test(given) ? given : randomUUID();
        res.setHeader('x-request-id', id);
        return id;
      },
      // A readiness probe that answers ready writes nothing (a load balancer asks every few seconds); one that does not, an error line.
      customLogLevel: (req, res, err) => (err || res.statusCode >= 500 ? 'error' : req.url === '/readyz' && res.statusCode === 200 ? 'silent' : 'info'),
      ignore: (req) => req.url === '/healthz' || req.url === '/metrics',
    }),
  );
  const metrics = createMetrics(deps.orm, { eventLoopResolutionMs: deps.config.http.eventLoopResolutionMs });
  // Render metrics (queue depth, active runs, durations, limits) live in the render runtime's registry.
  deps.render.metrics.collectStateWith(new RenderRunsRepository(poolDb(deps.orm)));
  const scraped = Registry.merge([metrics.registry, deps.render.metrics.registry]);
  app.use(metrics.middleware);
  // Unknown methods (405) and bodies declared past REQUEST_BODY_LIMIT (413), before any route.
  app.use(requestEdge(deps.config.http.bodyLimit));
  // Browsers on CORS_ORIGINS only; others get no CORS headers (preflights included).
  app.use(corsPolicy(deps.config.http.corsOrigins));
  // /api, mounted once: the API reference (/api/docs, /api/openapi.json, public), then the REST routes,
  // whose router answers 404 for any other /api path.
  const calls = restRouteCalls(deps, plain, routes);
  const openapi = buildOpenApiDocument(plain, routes);
  const api = express.Router();
  api.use(apiDocsRouter(openapi), createRestRouter(deps, plain, routes, calls));
  app.use('/api', api);
  app.use(healthRouter(deps.orm, deps.render.storage, () => ffmpegStatus(deps.render.ffmpeg)));
  app.get('/metrics', metricsAuth(deps.config.http.metricsToken), async (_req, res) => {
    res.locals.route = '/metrics';
    res.type(scraped.contentType).send(await scraped.metrics());
  });

  // Public pages outside /api (the favicon, /docs, GraphiQL's assets) before /graphql.
  app.use(docsRouter());
  // The live runs dashboard (/dashboard) and the landing page a browser gets at /.
  // The demo keys are shown where the start banner shows them: with the demo data set (the embedded database, or DEMO_SEED=true).
  const demoData = !deps.config.database.url || deps.config.database.demoSeed === 'true';
  app.use(dashboardRouter({ baseUrl: deps.config.publicUrl, demoKeys: demoData ? DEMO_KEYS : [] }));

  // Request limits: every operation is weighed and charged (REST routes charge in the router).
  const providerFields = providerFieldsOf(plain);
  const onGraphqlLimited = (budget: string) => metrics.rateLimited('/graphql', budget);
  const apollo = createApollo(deps, federated, server, [rateLimitPlugin(deps, providerFields, onGraphqlLimited), credentialsRequired()], {
    onRun: metrics.graphqlExecuted,
    onCompile: metrics.graphqlCompiled,
  });
  await apollo.start();
  // Websockets and GraphQL over SSE (both on /graphql) pass the same gate: credentials, caps, checks, charges.
  const live = new LiveGate(deps, federated, { providerFields, onLimited: (budget, transport) => metrics.rateLimited(`/graphql (${transport})`, budget) });
  const sse = sseHandler(deps, federated, live);
  // /graphql is an app of its own for one setting: no ETag. Every GraphQL answer carries
  // extensions.cost with the budget left, so no two answers are the same bytes and a validator
  // could never match; Express would hash each answer for nothing (a SHA-1 of a songs page of 50,
  // 20-28 µs). Its other settings are the parent's (trust proxy, through the mount).
  const graphql = express();
  graphql.disable('x-powered-by');
  graphql.set('etag', false);
  app.use('/graphql', graphql);
  graphql.use(
    (req: Request, res: Response, next: NextFunction) => {
      res.locals.route = '/graphql';
      // GET from a browser is the GraphiQL page: its CSP, not the data one; which one it gets depends on Accept.
      if (req.method === 'GET') {
        res.setHeader('content-security-policy', DOCS_CSP);
        res.vary('Accept');
      }
      next();
    },
    // A POST body must say it is JSON (GraphQL over HTTP: application/json): anything else is a 415, as on REST.
    (req: Request, _res: Response, next: NextFunction) => {
      if (req.method !== 'POST' || !hasBody(req.headers) || isJsonMediaType(req.headers['content-type'])) {
        next();
        return;
      }
      next(new AppError('UNSUPPORTED_MEDIA_TYPE', 'The request body must be sent as Content-Type: application/json', { details: [{ field: 'content-type', message: 'must be application/json' }] }));
    },
    express.json({ limit: deps.config.http.bodyLimit }),
    // Accept: text/event-stream: GraphQL over SSE (graphql-sse); anything else goes on to Apollo.
    sse.middleware,
    // Idempotency-Key on a mutation: a repeat answers the first answer again (src/http/idempotency.ts).
    graphqlIdempotency(deps),
    // From here on the request's statements are cancelled if its client goes away before the answer.
    cancelOnDisconnect(deps.logger),
    expressMiddleware(apollo, {
      context: async ({ req }) => {
        try {
          return await createContext(deps, {
            credentials: { apiKey: headerValue(req.headers['x-api-key']), authorization: req.headers.authorization },
            requestId: String(req.id ?? ''),
            clientIp: req.ip,
            routerSecret: headerValue(req.headers['x-router-secret']),
          });
        } catch (error) {
          throw contextError(await chargeRefusedCredentials(deps, req.ip, error, onGraphqlLimited), req.headers.accept);
        }
      },
    }),
  );

  let cancellations: McpCancellations | undefined;
  // MCP over Streamable HTTP (/mcp): one tool per REST route, running that route's execution, and GraphQL queries through Apollo (src/mcp).
  if (deps.config.http.mcpEnabled) {
    // A session connection for LISTEN, as the run events use (DATABASE_LISTEN_URL, else the ORM's).
    cancellations = new McpCancellations(deps.config.database.listenUrl ?? (deps.orm.config.get('clientUrl') as string), deps.logger);
    const tools = mcpTools(plain, calls, openapi);
    const tool = (name: string) => tools.find((candidate) => candidate.name === name)!;
    const custom = [...graphTools(deps, apollo, plain), renderWaitTool(deps, tool('render_video'), tool('runs'))];
    app.use(mcpRouter(deps, { tools, custom, prompts: templatePrompts(deps, apollo), cancellations, onToolCall: metrics.mcpToolCall }));
  }

  app.use('/media', embeddableMedia);
  app.use(renderFilesRouter(deps, renderFiles(deps.orm)));

  app.use((req: Request, res: Response) => {
    sendError(res, toHttpError(new AppError('NOT_FOUND', `No route ${req.method} ${req.path}`)));
  });
  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    const known = requestError(error, deps.config.http.bodyLimit);
    if (known) {
      sendError(res, toHttpError(known));
      return;
    }
    const httpError = toHttpError(error);
    if (httpError.unexpected) deps.logger.error({ err: error, requestId: req.id }, 'unexpected error');
    sendError(res, httpError);
  });

  // The upgrade request's client address as express reads it (TRUST_PROXY: X-Forwarded-For from trusted proxies).
  const clientIp = (upgrade: IncomingMessage) => (Object.create(app.request, { headers: { value: upgrade.headers }, socket: { value: upgrade.socket } }) as Request).ip;
  const websockets = attachWebsockets(deps, federated, server, live, clientIp);
  return {
    express: app,
    server,
    async stop() {
      deps.logger.debug('closing websockets');
      await websockets.close();
      sse.close();
      deps.logger.debug('stopping apollo (drains HTTP)');
      await apollo.stop();
      deps.logger.debug('closing the render queue and run events');
      await deps.render.close();
      await deps.rateLimiter.close();
      await cancellations?.close();
      deps.idempotency.close();
      await deps.usage.close();
      await deps.limits.close();
      await deps.authenticator.close();
    },
  };
}
