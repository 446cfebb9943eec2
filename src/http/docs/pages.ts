/**
 * HTML of the two in-browser pages. Scripts are files served by this service (no inline script),
 * so the pages run under a strict Content-Security-Policy (inline styles only: both UIs set them).
 */
export const DOCS_CSP =
  "default-src 'self'; img-src 'self' data:; font-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; connect-src 'self'; worker-src 'self' blob:; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'";

export function swaggerPage(): string {
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Music Agent Service: REST API reference</title>
  <link rel="icon" type="image/png" href="/api/docs/assets/favicon-32x32.png">
  <link rel="stylesheet" href="/api/docs/assets/swagger-ui.css">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/api/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/api/docs/assets/swagger-ui-standalone-preset.js"></script>
  <script src="/api/docs/init.js"></script>
</body>
</html>
`;
}

export const SWAGGER_INIT = `window.ui = SwaggerUIBundle({
  url: '/api/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  persistAuthorization: true,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
  plugins: [SwaggerUIBundle.plugins.DownloadUrl],
  layout: 'StandaloneLayout',
  validatorUrl: null,
});
`;

export function graphiqlPage(): string {
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Music Agent Service: GraphiQL</title>
  <link rel="stylesheet" href="/graphql/assets/graphiql.min.css">
  <style>html, body, #graphiql { height: 100%; margin: 0; }</style>
</head>
<body>
  <div id="graphiql">Loading GraphiQL…</div>
  <script src="/graphql/assets/react.production.min.js"></script>
  <script src="/graphql/assets/react-dom.production.min.js"></script>
  <script src="/graphql/assets/graphiql.min.js"></script>
  <script src="/graphql/assets/graphql-ws.min.js"></script>
  <script src="/graphql/assets/init.js"></script>
</body>
</html>
`;
}

/** Credentials go in the Headers tab, e.g. {"x-api-key": "mas_..."}; GraphiQL keeps them locally. */
export const GRAPHIQL_INIT = `(function () {
  var url = window.location.origin + '/graphql';
  var http = GraphiQL.createFetcher({ url: url });
  // Subscriptions go over graphql-ws; the Headers tab becomes the socket's connection params,
  // so a new socket is opened when the headers change.
  var socket = null;
  var socketHeaders = null;
  function wsFetcher(headers) {
    var key = JSON.stringify(headers || {});
    if (!socket || socketHeaders !== key) {
      if (socket) socket.dispose();
      socket = graphqlWs.createClient({ url: url.replace(/^http/, 'ws'), connectionParams: headers || {}, lazy: true, retryAttempts: 0 });
      socketHeaders = key;
    }
    return GraphiQL.createFetcher({ url: url, wsClient: socket });
  }
  var fetcher = function (params, options) {
    var subscription = options && options.documentAST && options.documentAST.definitions.some(function (d) {
      return d.kind === 'OperationDefinition' && d.operation === 'subscription' && (!params.operationName || (d.name && d.name.value === params.operationName));
    });
    return subscription ? wsFetcher(options.headers)(params, options) : http(params, options);
  };
  var defaultQuery = '# Put your credentials in the Headers tab below, e.g.\\n#   {"x-api-key": "mas_..."}\\n# Subscriptions (renderRun) stream over a websocket with the same headers.\\n\\nquery Me {\\n  me { id name kind organizations { id name } }\\n}\\n';
  var root = ReactDOM.createRoot(document.getElementById('graphiql'));
  root.render(React.createElement(GraphiQL, {
    fetcher: fetcher,
    defaultQuery: defaultQuery,
    defaultHeaders: '{\\n  "x-api-key": ""\\n}',
    headerEditorEnabled: true,
    shouldPersistHeaders: true,
  }));
})();
`;
