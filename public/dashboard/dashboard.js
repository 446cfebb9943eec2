// Live render runs dashboard: plain browser script. The runs come from one account-wide subscription
// (renderRuns over graphql-ws: the newest runs first, then every change, new runs included), so nothing
// polls; REST starts and cancels renders. The API key stays in the page (sessionStorage) and travels in
// the websocket's connection_init message, never in a URL.
(function () {
  'use strict';
  var KEY = 'mas.apiKey';
  var ACTIVE = { QUEUED: true, EXECUTING: true };
  /** Rows kept: the newest runs (the subscription sends these first, then every change). */
  var MAX_ROWS = 50;
  var RUN_FIELDS = 'id status progress payload createdAt finishedAt error outputExpiredAt output { url bytes codec width height fps durationInFrames }';
  var SUBSCRIPTION = 'subscription Runs($initial: Int) { renderRuns(initial: $initial) { ' + RUN_FIELDS + ' } }';

  var $ = function (id) { return document.getElementById(id); };
  var state = { key: null, runs: [], compositions: [], client: null, stop: null, ages: null };

  function showError(message) {
    var el = $('error');
    el.textContent = message || '';
    el.hidden = !message;
  }

  /** The service's error body in words: message plus each field's problem. */
  function describeError(status, body) {
    if (!body || typeof body !== 'object') return 'The service answered ' + status + '.';
    var text = body.error || body.message || ('The service answered ' + status + '.');
    if (Array.isArray(body.details) && body.details.length) {
      text += ': ' + body.details.map(function (d) { return d.field + ' ' + d.message; }).join('; ');
    }
    if (status === 401) text += ' (check the API key, or sign out and in again)';
    return text;
  }

  function api(method, path, body) {
    var init = { method: method, headers: { 'x-api-key': state.key, accept: 'application/json' } };
    if (body !== undefined) {
      init.headers['content-type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    return fetch(path, init).then(function (res) {
      return res.text().then(function (text) {
        var parsed = null;
        try { parsed = text ? JSON.parse(text) : null; } catch { parsed = null; }
        if (!res.ok) {
          var error = new Error(describeError(res.status, parsed));
          error.status = res.status;
          throw error;
        }
        return parsed;
      });
    }, function () {
      throw new Error('The service cannot be reached: check the network and try again.');
    });
  }

  function formatBytes(n) {
    if (typeof n !== 'number') return '';
    if (n < 1024) return n + ' B';
    if (n < 1024 * 1024) return (n / 1024).toFixed(1) + ' KB';
    return (n / 1024 / 1024).toFixed(1) + ' MB';
  }

  function formatAge(iso) {
    var s = Math.max(0, Math.round((Date.now() - new Date(iso).getTime()) / 1000));
    if (s < 60) return s + ' s';
    if (s < 3600) return Math.floor(s / 60) + ' min';
    if (s < 86400) return Math.floor(s / 3600) + ' h';
    return Math.floor(s / 86400) + ' d';
  }

  function cell(row, text, className) {
    var td = document.createElement('td');
    td.textContent = text;
    if (className) td.className = className;
    row.appendChild(td);
    return td;
  }

  function render() {
    var tbody = $('runs').querySelector('tbody');
    tbody.textContent = '';
    $('empty').hidden = state.runs.length > 0;
    state.runs.forEach(function (run) {
      var p = run.payload || {};
      var tr = document.createElement('tr');
      tr.dataset.runId = run.id;
      tr.dataset.status = run.status;
      cell(tr, run.id.slice(0, 8), 'mono').title = run.id;
      cell(tr, p.compositionId || '');
      var status = cell(tr, run.status, 'status status-' + run.status.toLowerCase());
      if (run.error) status.title = run.error;
      var progressCell = cell(tr, '');
      var bar = document.createElement('progress');
      bar.max = 1;
      bar.value = run.progress;
      progressCell.appendChild(bar);
      progressCell.appendChild(document.createTextNode(' ' + Math.round(run.progress * 100) + '%'));
      cell(tr, run.output ? formatBytes(run.output.bytes) : '');
      cell(tr, (run.output && run.output.codec) || p.codec || '');
      cell(tr, p.fps && p.durationInFrames ? (p.durationInFrames / p.fps).toFixed(1) + ' s' : '');
      cell(tr, formatAge(run.createdAt)).title = run.createdAt;
      var actions = cell(tr, '');
      if (run.output) actions.appendChild(button('Play', 'play', function () { play(run); }));
      if (ACTIVE[run.status]) actions.appendChild(button('Cancel', 'cancel', function () { cancel(run); }));
      if (run.status === 'FAILED' && run.error) actions.appendChild(document.createTextNode(run.error));
      if (run.status === 'COMPLETED' && !run.output && run.outputExpiredAt) actions.appendChild(document.createTextNode('video deleted (retention)'));
      tbody.appendChild(tr);
    });
  }

  function button(label, className, onClick) {
    var b = document.createElement('button');
    b.type = 'button';
    b.className = 'small ' + className;
    b.textContent = label;
    b.addEventListener('click', onClick);
    return b;
  }

  function play(run) {
    // The signed link names this service (PUBLIC_URL); play it from the origin that served the page.
    var url = new URL(run.output.url, window.location.href);
    var video = $('player');
    video.src = url.pathname + url.search;
    $('player-run').textContent = run.id.slice(0, 8);
    $('player-card').hidden = false;
    video.play().catch(function () { /* autoplay may be refused; the controls remain */ });
  }

  function cancel(run) {
    api('POST', '/api/tasks/runs/' + encodeURIComponent(run.id) + '/cancel').then(function (body) {
      upsert(body.run);
    }, function (error) { showError('Cancel failed: ' + error.message); });
  }

  function upsert(run) {
    var i = state.runs.findIndex(function (r) { return r.id === run.id; });
    if (i >= 0) state.runs[i] = run; else state.runs.unshift(run);
    state.runs.sort(function (a, b) { return b.createdAt < a.createdAt ? -1 : b.createdAt > a.createdAt ? 1 : 0; });
    if (state.runs.length > MAX_ROWS) state.runs.length = MAX_ROWS;
    render();
  }

  function wsClient() {
    if (state.client) return state.client;
    var url = (window.location.protocol === 'https:' ? 'wss://' : 'ws://') + window.location.host + '/graphql';
    state.client = graphqlWs.createClient({
      url: url,
      connectionParams: { 'x-api-key': state.key },
      lazy: true,
      // A lost connection is tried again (the subscription resumes with the newest runs); a refusal is not.
      retryAttempts: 20,
      on: {
        connected: function () { $('live').hidden = false; },
        closed: function () { $('live').hidden = true; },
      },
    });
    return state.client;
  }

  /**
   * The one subscription: every run the key may see, the newest first, then each change as it
   * happens (started here or anywhere else). Resolves once its first message arrives (or it fails).
   */
  function live() {
    if (state.stop) state.stop();
    return new Promise(function (resolve, reject) {
      var first = true;
      var settle = function (error) {
        if (!first) return;
        first = false;
        if (error) reject(error); else resolve();
      };
      state.stop = wsClient().subscribe({ query: SUBSCRIPTION, variables: { initial: 20 } }, {
        next: function (message) {
          if (message.data && message.data.renderRuns) upsert(message.data.renderRuns);
          if (message.errors && message.errors.length) showError('Live updates: ' + message.errors[0].message);
          settle();
        },
        error: function (error) {
          state.stop = null;
          var errors = Array.isArray(error) ? error : [];
          var text = errors.length ? errors[0].message : error && error.message ? error.message : (error && error.reason) || 'connection closed';
          var refused = errors.some(function (e) { return e.extensions && e.extensions.code === 'UNAUTHENTICATED'; });
          var failure = new Error(text);
          if (refused) failure.status = 401;
          if (first) { settle(failure); return; }
          if (refused) { signOut(); showError('Signed out: ' + text); return; }
          showError('Live updates stopped: ' + text + '. Use Reconnect.');
        },
        complete: function () { state.stop = null; settle(); },
      });
    });
  }

  function loadCompositions() {
    return api('GET', '/api/video/compositions').then(function (body) {
      state.compositions = body.compositions;
      var select = $('composition');
      select.textContent = '';
      body.compositions.forEach(function (c) {
        var option = document.createElement('option');
        option.value = c.id;
        option.textContent = c.title + ' (' + c.id + ')';
        select.appendChild(option);
      });
      prefill();
    });
  }

  function prefill() {
    var id = $('composition').value;
    var c = state.compositions.find(function (x) { return x.id === id; });
    if (!c) return;
    $('composition-description').textContent = c.description;
    $('input-props').value = JSON.stringify(c.example, null, 2);
  }

  function startRender(event) {
    event.preventDefault();
    showError('');
    var props;
    try {
      props = JSON.parse($('input-props').value || '{}');
    } catch (e) {
      showError('inputProps is not valid JSON: ' + e.message);
      return;
    }
    var number = function (id) { return Number($(id).value); };
    var body = {
      compositionId: $('composition').value,
      inputProps: props,
      width: number('width'),
      height: number('height'),
      fps: number('fps'),
      durationInFrames: number('frames'),
      codec: $('codec').value,
    };
    $('start').disabled = true;
    // The new run arrives through the subscription, like a run started anywhere else.
    api('POST', '/api/video/render', body).catch(function (error) { showError('Render not started: ' + error.message); }).then(function () { $('start').disabled = false; });
  }

  function signIn(key) {
    state.key = key;
    showError('');
    // The compositions (REST) check the key; the runs then live on the subscription.
    return loadCompositions().then(function () {
      sessionStorage.setItem(KEY, key);
      $('sign-in').hidden = true;
      $('main').hidden = false;
      $('sign-out').hidden = false;
      render();
      // Ages are redrawn in the page (no request): the runs themselves change only by the subscription.
      state.ages = setInterval(render, 30000);
      return live();
    }).catch(function (error) {
      if (error.status === 401) signOut();
      showError('Sign-in failed: ' + error.message);
    });
  }

  function signOut() {
    sessionStorage.removeItem(KEY);
    if (state.stop) state.stop();
    if (state.client) state.client.dispose();
    clearInterval(state.ages);
    state = { key: null, runs: [], compositions: [], client: null, stop: null, ages: null };
    $('main').hidden = true;
    $('sign-out').hidden = true;
    $('live').hidden = true;
    $('sign-in').hidden = false;
    $('player').removeAttribute('src');
    $('player-card').hidden = true;
  }

  $('sign-in').addEventListener('submit', function (event) {
    event.preventDefault();
    var key = $('api-key').value.trim();
    if (!key) { showError('Enter an API key.'); return; }
    signIn(key);
  });
  $('sign-out').addEventListener('click', function () { signOut(); showError(''); });
  $('composition').addEventListener('change', prefill);
  $('render').addEventListener('submit', startRender);
  $('refresh').addEventListener('click', function () { showError(''); live().catch(function (e) { showError(e.message); }); });

  var saved = sessionStorage.getItem(KEY);
  if (saved) signIn(saved);
})();
