import { ApolloServer, ApolloServerPlugin } from '@apollo/server';
import { ApolloServerPluginCacheControlDisabled, ApolloServerPluginInlineTraceDisabled } from '@apollo/server/plugin/disabled';
import { ApolloServerPluginDrainHttpServer } from '@apollo/server/plugin/drainHttpServer';
import { unwrapResolverError } from '@apollo/server/errors';
import { GraphQLError, GraphQLFormattedError, GraphQLSchema } from 'graphql';
import type { Server } from 'node:http';
import type { AppDeps } from '../deps';
import { graphqlAnswerStatus, graphqlMediaType, retryAfterSeconds, toAppError, toHttpError } from '../common/error-status';
import type { Context } from '../request/context';
import { CompiledExecutionOptions, compiledExecution, stringifyAnswer } from './executor';
import { depthLimit } from './limits';
import { variablesDepthPlugin } from './input-guard';
import { stripSuggestions } from './introspection';
import { graphiqlPage } from '../http/docs/pages';
import { PersistedQueryStore, persistedQueriesPlugin } from './persisted-queries';
import { httpCachingPlugin } from './http-caching';

/** Apollo's landing page hook, answering browsers with the offline GraphiQL page. */
export function graphiqlLandingPage(): ApolloServerPlugin<Context> {
  const html = graphiqlPage();
  return {
    async serverWillStart() {
      return {
        async renderLandingPage() {
          return { html };
        },
      };
    },
  };
}

/**
 * Subscriptions live on graphql-ws: over HTTP, Apollo would run a subscription field's resolver
 * with no event and fail with a 500. Refuse them with a 400 that says where to go.
 */
export function subscriptionsOverWebsocketsOnly(): ApolloServerPlugin<Context> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ operation }) {
          if (operation?.operation !== 'subscription') return;
          throw new GraphQLError('Subscriptions are served over websockets (graphql-ws) on /graphql, not over HTTP', {
            extensions: { code: 'BAD_USER_INPUT', http: { status: 400 } },
          });
        },
      };
    },
  };
}

/**
 * The HTTP status of every GraphQL answer Apollo sends over HTTP, by GraphQL over HTTP
 * (graphqlAnswerStatus): 200 for application/json, the code's status for an answer without data as
 * application/graphql-response+json. `Retry-After` stays only on a refusal (429, 503, 504).
 */
export function graphqlHttpStatus(): ApolloServerPlugin<Context> {
  return {
    async requestDidStart() {
      return {
        async willSendResponse({ request, response }) {
          if (!request.http || response.body.kind !== 'single') return;
          const mediaType = graphqlMediaType(request.http.headers.get('accept'));
          if (!mediaType) return;
          const status = graphqlAnswerStatus(mediaType, response.body.singleResult, response.http.status);
          response.http.status = status;
          // A 200 is no refusal: the wait is in extensions.retryAfter. A refusal says it as REST does.
          const retryAfter = response.body.singleResult.errors?.[0]?.extensions?.retryAfter;
          if (status < 400) response.http.headers.delete('retry-after');
          else if (typeof retryAfter === 'number') response.http.headers.set('retry-after', String(retryAfter));
        },
      };
    },
  };
}

/** Apollo Server over the subgraph schema, with masked internal errors and operation limits. */
export function createApollo(
  deps: AppDeps,
  schema: GraphQLSchema,
  httpServer: Server,
  extraPlugins: ApolloServerPlugin<Context>[] = [],
  observe: Pick<CompiledExecutionOptions, 'onRun' | 'onCompile'> = {},
) {
  const persistedQueries = new PersistedQueryStore(deps.orm, deps.config.graphql.apq, deps.logger);
  return new ApolloServer<Context>({
    // Apollo's pipeline (parse, validate, plugins, error formatting) over an executor that runs compiled operations.
    gateway: compiledExecution(schema, {
      compileAfter: deps.config.graphql.compileAfter,
      compiledMax: deps.config.graphql.compiledMax,
      maxResponseBytes: deps.config.graphql.maxResponseBytes,
      ...observe,
    }),
    introspection: deps.config.graphql.introspection,
    includeStacktraceInErrorResponses: false,
    // main.ts owns shutdown: drain, then close the pool, then stop PostgreSQL.
    stopOnTerminationSignals: false,
    validationRules: [depthLimit(deps.config.graphql.maxDepth)],
    // CSRF prevention lets a GET through when it carries a header no page can send without a CORS
    // preflight: Apollo's own two, or either credential (neither is CORS-safelisted, and credentials are never cookies).
    csrfPrevention: { requestHeaders: ['x-apollo-operation-name', 'apollo-require-preflight', 'x-api-key', 'authorization'] },
    // APQ: one store for every instance (PostgreSQL, an LRU in front), so a hash registered on one is found on all.
    persistedQueries: { cache: persistedQueries },
    parseOptions: { maxTokens: deps.config.graphql.maxTokens },
    formatError: (formatted, error) => formatGraphQLError(deps, formatted, error),
    // Apollo's own serialization (JSON and a newline), reusing the data's JSON the executor measured (src/graphql/executor.ts).
    stringifyResult: stringifyAnswer,
    plugins: [
      ApolloServerPluginDrainHttpServer({ httpServer }),
      // Unused, and it hooks every field: a third of the CPU on large pages.
      ApolloServerPluginCacheControlDisabled(),
      // GET /graphql from a browser (Accept: text/html): GraphiQL from npm-bundled assets, no CDN.
      graphiqlLandingPage(),
      // Usage reporting goes through the router, not from this subgraph.
      ApolloServerPluginInlineTraceDisabled(),
      variablesDepthPlugin<Context>(deps.config.http.maxDepth),
      subscriptionsOverWebsocketsOnly(),
      persistedQueriesPlugin<Context>(persistedQueries),
      httpCachingPlugin<Context>(),
      ...extraPlugins,
      graphqlHttpStatus(),
    ],
  });
}

export function formatGraphQLError(deps: AppDeps, formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const result = formatKnownError(deps, formatted, error);
  return deps.config.graphql.introspection ? result : { ...result, message: stripSuggestions(result.message) };
}

function formatKnownError(deps: AppDeps, formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const appError = toAppError(unwrapResolverError(error));
  const base = { locations: formatted.locations, path: formatted.path };
  if (appError) {
    const http = toHttpError(appError);
    if (http.unexpected) deps.logger.error({ err: appError }, 'unexpected error in GraphQL operation');
    return {
      ...base,
      message: http.body.error,
      extensions: {
        code: appError.code,
        ...(appError.details ? { details: appError.details } : {}),
        ...(appError.retryAfter !== undefined ? { retryAfter: retryAfterSeconds(appError) } : {}),
      },
    };
  }
  const code = formatted.extensions?.code;
  const clientCode = apolloRequestErrorCode(error);
  if (clientCode) return { ...base, message: formatted.message, extensions: { code: clientCode } };
  if (typeof code === 'string' && code !== 'INTERNAL_SERVER_ERROR') {
    const { http: _http, stacktrace: _stack, ...extensions } = formatted.extensions ?? {};
    return { ...base, message: formatted.message, extensions };
  }
  deps.logger.error({ err: unwrapResolverError(error) }, 'unexpected error in GraphQL operation');
  return { ...base, message: 'Internal server error', extensions: { code: 'INTERNAL_SERVER_ERROR' } };
}

/**
 * Apollo refuses some requests before anything runs with a 4xx and no code (an APQ hash that does
 * not match its query, an unsupported persisted-query version): it would format them as
 * INTERNAL_SERVER_ERROR. They are the client's mistakes: their own code (Apollo Router's
 * PERSISTED_QUERY_HASH_MISMATCH for the hash, else BAD_REQUEST), and nothing logged.
 */
function apolloRequestErrorCode(error: unknown): string | undefined {
  if (!(error instanceof GraphQLError) || error.extensions?.code !== undefined) return undefined;
  const status = (error.extensions?.http as { status?: unknown } | undefined)?.status;
  if (typeof status !== 'number' || status < 400 || status >= 500) return undefined;
  return error.message === 'provided sha does not match query' ? 'PERSISTED_QUERY_HASH_MISMATCH' : 'BAD_REQUEST';
}

/**
 * An error raised while building the context (bad credentials, a spent budget) with the HTTP status
 * GraphQL over HTTP gives it for the request's Accept header (graphqlAnswerStatus: nothing ran, so
 * the answer has no data). Apollo answers it without its plugins, so the status is decided here.
 */
export function contextError(error: unknown, accept: string | undefined): GraphQLError {
  const http = toHttpError(error);
  const appError = toAppError(error);
  const mediaType = graphqlMediaType(accept) ?? 'application/json';
  const status = graphqlAnswerStatus(mediaType, { errors: [{ extensions: { code: http.body.code } }] }, http.status);
  const headers = status >= 400 ? http.headers : {};
  // Apollo reads extensions.http (status, and headers as a Map) to answer with that HTTP status;
  // formatGraphQLError finds the AppError (its code, details and retryAfter) through originalError.
  const extensions: Record<string, unknown> = {
    code: http.body.code,
    http: { status, headers: new Map(Object.entries(headers)) },
  };
  return new GraphQLError(http.body.error, { extensions, ...(appError ? { originalError: appError } : {}) });
}
