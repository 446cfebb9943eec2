import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BrowserContext, chromium, Page } from 'playwright-core';
import { as } from './demo';
import { createTestApp, TestApp } from './app';
import { renderEnv, startWorker } from './support/render';
import type { RenderWorker } from '../src/modules/render/render.worker';

/** Debian's `chromium` package; CHROMIUM_PATH overrides it. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const present = existsSync(CHROMIUM);
if (!present) {
  console.warn(`SKIPPED test/dashboard.browser.int.test.ts: no Chromium at ${CHROMIUM} (install it with: apt-get install -y chromium, or set CHROMIUM_PATH)`);
}

/** No network here: Chromium must not phone home, update itself or sync. */
const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

type Seen = { id: string; status: string; progress: number };

/** Records every state of every row the dashboard draws (it redraws the table on each event). */
async function recordRows(page: Page): Promise<void> {
  await page.evaluate(() => {
    const seen: Seen[] = [];
    (window as unknown as { seen: Seen[] }).seen = seen;
    const tbody = document.querySelector('#runs tbody')!;
    new MutationObserver(() => {
      tbody.querySelectorAll('tr').forEach((tr) => {
        const row = tr as HTMLTableRowElement;
        seen.push({ id: row.dataset.runId!, status: row.dataset.status!, progress: Number(row.querySelector('progress')!.value) });
      });
    }).observe(tbody, { childList: true });
  });
}

/** Polls `read` until `ok` holds for its value; returns that value, or throws with the last one seen. */
async function until<T>(read: () => Promise<T>, ok: (value: T) => boolean, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  while (Date.now() < deadline) {
    last = await read();
    if (ok(last)) return last;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what}: not reached in ${timeoutMs} ms; last value ${JSON.stringify(last)}`);
}

async function startRender(page: Page, composition: string, size: { width: number; height: number; frames: number }): Promise<string> {
  const before = await page.locator('#runs tbody tr').evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.runId));
  await page.selectOption('#composition', composition);
  // The form is prefilled from the composition's example.
  expect(JSON.parse(await page.inputValue('#input-props'))).toEqual(expect.objectContaining({}));
  await page.fill('#width', String(size.width));
  await page.fill('#height', String(size.height));
  await page.fill('#fps', '30');
  await page.fill('#frames', String(size.frames));
  await page.selectOption('#codec', 'vp8');
  await page.click('#start');
  const row = page.locator('#runs tbody tr').first();
  const id = (await until(() => row.getAttribute('data-run-id'), (v) => v !== null && !before.includes(v), 'new run row'))!;
  return id;
}

(present ? describe : describe.skip)('dashboard in headless Chromium (real PostgreSQL, real renders)', () => {
  let t: TestApp;
  let worker: RenderWorker;
  let context: BrowserContext;
  let base: string;
  let profile: string;
  beforeAll(async () => {
    t = await createTestApp({ env: renderEnv({ RENDER_MAX_ACTIVE_PER_ACCOUNT: '3' }) });
    worker = await startWorker(t, 1);
    await new Promise<void>((resolve) => t.app.server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    profile = mkdtempSync(join(tmpdir(), 'mas-chromium-'));
    context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  });
  afterAll(async () => {
    await context?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
    await worker?.stop(1000);
    await t?.close();
  });

  it('signs in, starts a render, shows progress live to COMPLETED, plays the video, cancels another', async () => {
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') pageErrors.push(message.text());
    });
    await page.goto(`${base}/dashboard`);

    // A wrong key is refused in words, and the sign-in form stays.
    await page.fill('#api-key', 'mas_not_a_key');
    await page.click('#sign-in button[type=submit]');
    await until(() => page.textContent('#error'), (v) => /Sign-in failed: .+/.test(v ?? ''), 'sign-in error');
    expect(await page.isVisible('#main')).toBe(false);
    pageErrors.length = 0; // the browser logs the 401 itself

    await page.fill('#api-key', as.nora['x-api-key']);
    await page.click('#sign-in button[type=submit]');
    await page.waitForSelector('#main', { state: 'visible' });
    await until(() => page.locator('#composition option').count(), (n) => n > 0, 'compositions');
    await recordRows(page);

    // A render of a few seconds: ffmpeg reports progress every half second.
    const done = await startRender(page, 'title-card', { width: 640, height: 360, frames: 150 });
    const row = page.locator(`#runs tr[data-run-id="${done}"]`);
    await until(() => row.getAttribute('data-status'), (v) => v === 'COMPLETED' || v === 'FAILED', 'render finished', 90_000);
    expect(await row.getAttribute('data-status')).toBe('COMPLETED');
    const seen = (await page.evaluate(() => (window as unknown as { seen: Seen[] }).seen)).filter((s) => s.id === done);
    const statuses = seen.map((s) => s.status).filter((s, i, all) => all[i - 1] !== s);
    expect(statuses).toEqual(['QUEUED', 'EXECUTING', 'COMPLETED']);
    expect(seen.some((s) => s.status === 'EXECUTING' && s.progress > 0 && s.progress < 1)).toBe(true);
    expect(seen.at(-1)!.progress).toBe(1);
    expect(await row.locator('td').nth(4).textContent()).toMatch(/\d+(\.\d)? (B|KB|MB)/);
    expect(await row.locator('td').nth(5).textContent()).toBe('vp8');
    expect(await row.locator('td').nth(6).textContent()).toBe('5.0 s');

    // Plays inline: the browser decodes the first frames of the video.
    await row.locator('button.play').click();
    await page.waitForSelector('#player-card', { state: 'visible' });
    await page.waitForFunction(() => (document.getElementById('player') as HTMLVideoElement).readyState >= 2, undefined, { timeout: 15_000 });
    const video = await page.evaluate(() => {
      const v = document.getElementById('player') as HTMLVideoElement;
      return { error: v.error?.message ?? null, width: v.videoWidth, height: v.videoHeight, duration: v.duration };
    });
    expect(video).toEqual({ error: null, width: 640, height: 360, duration: expect.closeTo(5, 0) });
    // The picture in docs/api/renders.md (docs/dashboard.png): a frame past the fade-in.
    if (process.env.DASHBOARD_SCREENSHOT) {
      await page.evaluate(() => new Promise((resolve) => {
        const v = document.getElementById('player') as HTMLVideoElement;
        v.pause();
        v.addEventListener('seeked', resolve, { once: true });
        v.currentTime = 3;
      }));
      await page.screenshot({ path: process.env.DASHBOARD_SCREENSHOT, fullPage: true });
    }

    // Cancels another run while it is QUEUED or EXECUTING.
    const long = await startRender(page, 'lyric-video', { width: 640, height: 360, frames: 1800 });
    const longRow = page.locator(`#runs tr[data-run-id="${long}"]`);
    await longRow.locator('button.cancel').click();
    await until(() => longRow.getAttribute('data-status'), (v) => v === 'CANCELED', 'canceled', 20_000);
    expect(await longRow.locator('button.cancel').count()).toBe(0);
    const api = await t.http().get('/api/tasks/runs').query({ runId: long }).set(as.nora);
    expect(api.body.runs[0].status).toBe('CANCELED');

    // A bad value is named in words, not a stack.
    await page.selectOption('#composition', 'title-card');
    await page.fill('#input-props', '{"title": 5}');
    await page.click('#start');
    await until(() => page.textContent('#error'), (v) => /Render not started: .*title/.test(v ?? ''), 'props error');
    await page.fill('#input-props', '{"title": ');
    await page.click('#start');
    await until(() => page.textContent('#error'), (v) => /inputProps is not valid JSON/.test(v ?? ''), 'JSON error');
    expect(pageErrors.filter((e) => !/status of 400/.test(e))).toEqual([]);
  });

  it('lives on the account-wide subscription: a run started elsewhere appears and completes without a reload, and nothing polls', async () => {
    const page = await context.newPage();
    const requests: string[] = [];
    const sockets: string[] = [];
    let loads = 0;
    page.on('request', (request) => requests.push(`${request.method()} ${new URL(request.url()).pathname}`));
    page.on('websocket', (socket) => sockets.push(new URL(socket.url()).pathname));
    page.on('load', () => (loads += 1));
    await page.goto(`${base}/dashboard`);
    await page.fill('#api-key', as.nora['x-api-key']);
    await page.click('#sign-in button[type=submit]');
    await page.waitForSelector('#main', { state: 'visible' });
    await until(() => page.isVisible('#live'), (v) => v, 'live indicator');
    await recordRows(page);

    // Started through the API, not the page (as another client or a teammate would).
    const started = await t.http().post('/api/video/render').set(as.nora).send({ compositionId: 'title-card', inputProps: { title: 'Elsewhere' }, width: 64, height: 64, durationInFrames: 30, codec: 'vp8' });
    expect(started.status).toBe(200);
    const runId = started.body.runId as string;
    const row = page.locator(`#runs tr[data-run-id="${runId}"]`);
    await until(() => row.count(), (n) => n === 1, 'the run appears', 30_000);
    await until(() => row.getAttribute('data-status'), (v) => v === 'COMPLETED', 'the run completes', 60_000);
    expect(await row.locator('button.play').count()).toBe(1);
    const seen = (await page.evaluate(() => (window as unknown as { seen: Seen[] }).seen)).filter((s) => s.id === runId);
    expect(seen[0].status).toBe('QUEUED');

    // One page load, one websocket, and no request for runs at all: the page only fetched its files and the compositions.
    expect(loads).toBe(1);
    expect(sockets).toEqual(['/graphql']);
    const api = requests.filter((r) => !r.startsWith('GET /dashboard') && !r.startsWith('GET /favicon'));
    expect(api).toEqual(['GET /api/video/compositions']);
  });

  it('runs a renderRun subscription in GraphiQL over graphql-ws, with the Headers tab as connection params', async () => {
    const runId = (await t.http().post('/api/video/render').set(as.nora).send({ compositionId: 'title-card', inputProps: { title: 'IDE' }, width: 64, height: 64, durationInFrames: 30, codec: 'vp8' })).body.runId as string;
    const page = await context.newPage();
    // GraphiQL keeps the editors in localStorage: set them before it loads.
    await page.goto(`${base}/graphql/assets/init.js`);
    await page.evaluate(({ query, headers }) => {
      localStorage.setItem('graphiql:query', query);
      localStorage.setItem('graphiql:headers', headers);
    }, {
      query: `subscription Watch { renderRun(runId: "${runId}") { id status progress } }`,
      headers: JSON.stringify({ 'x-api-key': as.nora['x-api-key'] }),
    });
    await page.goto(`${base}/graphql`, { waitUntil: 'load' });
    await page.waitForSelector('.graphiql-execute-button');
    await page.click('.graphiql-execute-button');
    const result = await until(() => page.locator('.result-window').innerText(), (text) => /"status": "COMPLETED"/.test(text) || /error|closed/i.test(text), 'subscription result', 60_000);
    expect(result).toContain(`"id": "${runId}"`);
    expect(result).toContain('"status": "COMPLETED"');
    expect(result).toContain('"progress": 1');
  });
});
