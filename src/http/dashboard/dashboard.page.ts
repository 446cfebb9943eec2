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

export function landingPage(): string {
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
  <main class="card">
    <ul class="links">
      <li><a href="/dashboard">Render dashboard</a>: sign in with an API key, start renders and watch them live</li>
      <li><a href="/api/docs">REST API reference</a> (OpenAPI: <a href="/api/openapi.json">/api/openapi.json</a>)</li>
      <li><a href="/graphql">GraphiQL</a>: the GraphQL API, subscriptions included</li>
    </ul>
  </main>
</body>
</html>
`;
}
