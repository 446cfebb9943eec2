import type { ApolloServerPlugin } from '@apollo/server';
import { cacheControl, NO_STORE, operationPolicy } from '../http/caching';

/**
 * Apollo: the Cache-Control of a GraphQL answer (docs/api/caching.md). A GET query's answer takes
 * the strictest policy of its root fields (src/http/caching.ts, the same table as the REST routes);
 * an answer with errors, or to anything else, is `no-store` (Apollo's own "private, no-cache" on
 * PERSISTED_QUERY_NOT_FOUND included). Vary is set before Apollo (src/app.ts).
 */
export function httpCachingPlugin<C extends object>(): ApolloServerPlugin<C> {
  return {
    async requestDidStart({ request }) {
      const isGet = request.http?.method === 'GET';
      return {
        async willSendResponse({ response, document, operation }) {
          const single = response.body.kind === 'single' ? response.body.singleResult : undefined;
          const failed = !single || (single.errors?.length ?? 0) > 0 || (response.http.status ?? 200) >= 400;
          const policy = isGet && !failed && document ? operationPolicy(document, operation) : NO_STORE;
          response.http.headers.set('cache-control', cacheControl(policy));
        },
      };
    },
  };
}
