/**
 * The live runs dashboard and the landing page. Scripts and styles are files served by this
 * service (no inline code), so the CSP allows only 'self', plus websockets for graphql-ws.
 */
export const DASHBOARD_CSP =
  "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self' ws: wss:; media-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'";

export function dashboardPage(): string {
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Music Agent Service: render runs</title>
  <link rel="stylesheet" href="/dashboard/assets/dashboard.css">
</head>
<body>
  <header>
    <h1>Render runs</h1>
    <span id="live" class="live" hidden>live</span>
    <button id="sign-out" type="button" hidden>Sign out</button>
  </header>
  <p id="error" class="error" role="alert" hidden></p>
  <form id="sign-in" class="card">
    <label for="api-key">API key</label>
    <input id="api-key" name="apiKey" type="password" autocomplete="off" placeholder="mas_…" required>
    <button type="submit">Sign in</button>
    <p class="hint">The key stays in this browser tab's session storage and is sent only to this service.</p>
  </form>
  <main id="main" hidden>
    <form id="render" class="card">
      <h2>Start a render</h2>
      <label for="composition">Composition</label>
      <select id="composition" name="compositionId"></select>
      <p id="composition-description" class="hint"></p>
      <label for="input-props">inputProps (JSON)</label>
      <textarea id="input-props" name="inputProps" rows="8" spellcheck="false"></textarea>
      <div class="row">
        <label>Width <input id="width" name="width" type="number" min="1" max="3840" value="1280"></label>
        <label>Height <input id="height" name="height" type="number" min="1" max="3840" value="720"></label>
        <label>FPS <input id="fps" name="fps" type="number" min="1" max="60" value="30"></label>
        <label>Frames <input id="frames" name="durationInFrames" type="number" min="1" max="1800" value="90"></label>
        <label>Codec <select id="codec" name="codec"><option>h264</option><option>h265</option><option>vp8</option><option>vp9</option></select></label>
      </div>
      <button id="start" type="submit">Start render</button>
    </form>
    <section class="card">
      <h2>Runs you can see <button id="refresh" type="button" class="small" title="Subscribe again (after a lost connection)">Reconnect</button></h2>
      <table id="runs">
        <thead><tr><th>Run</th><th>Composition</th><th>Status</th><th>Progress</th><th>Size</th><th>Codec</th><th>Duration</th><th>Age</th><th></th></tr></thead>
        <tbody></tbody>
      </table>
      <p id="empty" class="hint" hidden>No runs yet: start one above.</p>
    </section>
    <section id="player-card" class="card" hidden>
      <h2>Playing <span id="player-run"></span></h2>
      <video id="player" controls playsinline></video>
    </section>
  </main>
  <script src="/dashboard/assets/graphql-ws.min.js"></script>
  <script src="/dashboard/assets/dashboard.js"></script>
</body>
</html>
`;
}

/** What the landing page shows: where the service answers, and the demo keys when the demo data set is loaded. */
export interface LandingOptions {
  /** The service's public base URL (PUBLIC_URL), for the copy-paste commands. */
  baseUrl: string;
  /** The demo data set's API keys, shown only when the service runs with it (as the start banner does). */
  demoKeys: ReadonlyArray<{ label: string; raw: string }>;
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** GET /welcome: how to get an API key (demo keys, signup, the CLI) and where each face of the service is. */
export function landingPage({ baseUrl, demoKeys }: LandingOptions): string {
  const base = escapeHtml(baseUrl);
  const demo = demoKeys.length
    ? `<p>This service runs with the demo data set: each of these keys signs in as one of its accounts (the start banner lists them too).</p>
      <table class="keys">
        <thead><tr><th>Account</th><th>API key (<code>x-api-key</code> header)</th></tr></thead>
        <tbody>
${demoKeys.map((key) => `          <tr><td>${escapeHtml(key.label)}</td><td><code>${escapeHtml(key.raw)}</code></td></tr>`).join('\n')}
        </tbody>
      </table>`
    : '<p>In development, <code>npm start</code> (the embedded PostgreSQL with the demo data set) prints demo API keys in its start banner. This instance has no demo data: sign up below.</p>';
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Music Agent Service</title>
  <link rel="stylesheet" href="/dashboard/assets/dashboard.css">
</head>
<body>
  <header><h1>Music Agent Service</h1></header>
  <main>
    <section class="card" id="get-a-key">
      <h2>Get an API key</h2>
      <h3>Demo keys</h3>
      ${demo}
      <h3>Sign up</h3>
      <p>An <code>agent+…@</code> address gets an account and its first key at once; any other address gets a 6-digit code by e-mail, traded for the key at <code>POST /api/agents/verify</code>.</p>
      <pre><code>curl -X POST ${base}/api/agents/signup -H 'content-type: application/json' -d '{"email": "agent+me@example.com"}'
curl -X POST ${base}/api/agents/verify -H 'content-type: application/json' -d '{"email": "me@example.com", "code": "123456"}'</code></pre>
      <h3 id="cli">With the CLI</h3>
      <p>The <code>mas</code> command line signs up and keeps the key in its config file (<code>~/.config/mas/config.json</code>), then starts renders, watches runs and runs queries:</p>
      <pre><code>npx mas signup agent+me@example.com --url ${base}
npx mas runs --watch</code></pre>
      <p>Send the key as the <code>x-api-key</code> header (or <code>Authorization: Bearer</code>); create more with <code>POST /api/keys</code>.</p>
    </section>
    <section class="card">
      <h2>Use it</h2>
      <ul class="links">
        <li><a href="/api/docs">REST API reference</a> (OpenAPI: <a href="/api/openapi.json">/api/openapi.json</a>)</li>
        <li><a href="/graphql">GraphiQL</a>: the GraphQL API, subscriptions included</li>
        <li><a href="/dashboard">Render dashboard</a>: sign in with an API key, start renders and watch them live</li>
        <li><a href="#sdk">TypeScript SDK</a> and <a href="#cli">CLI</a> for agents; AI agents over MCP at <code>${base}/mcp</code> (or <code>mas mcp</code> over stdio)</li>
      </ul>
      <h3 id="sdk">TypeScript SDK</h3>
      <p>The typed client (<code>@mas/sdk</code>, in the service's repository under <code>sdk/</code>): GraphQL over HTTP, render progress over graphql-ws.</p>
      <pre><code>import { MasClient } from '@mas/sdk';
const mas = new MasClient({ url: '${base}', apiKey: process.env.MAS_API_KEY });</code></pre>
    </section>
  </main>
</body>
</html>
`;
}
