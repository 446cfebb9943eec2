import { execFile, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createTestApp, TestApp } from '../app';
import { as } from '../demo';
import { probe, renderEnv, startWorker } from '../support/render';
import type { RenderWorker } from '../../src/modules/render/render.worker';
import type { MailMessage } from '../../src/auth/mailer';
import { freePort, listen } from '../sdk/listen';
import { MasClient } from '../../sdk/src';

const root = join(__dirname, '..', '..');
const bin = join(root, 'cli', 'dist', 'main.js');

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built binary as a user would, in `home` with its own config directory; `input` is written to its stdin (else stdin is closed). */
function runMas(home: string, url: string, args: string[], env: Record<string, string> = {}, input = ''): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], {
      cwd: home,
      env: { PATH: process.env.PATH ?? '', HOME: home, XDG_CONFIG_HOME: join(home, 'config'), MAS_URL: url, ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}

describe('mas, the built CLI binary, against the running service (real PostgreSQL)', () => {
  let t: TestApp;
  let url: string;
  let worker: RenderWorker;
  let home: string;
  const sent: MailMessage[] = [];

  const mas = (args: string[], env: Record<string, string> = {}, input = ''): Promise<Ran> => runMas(home, url, args, env, input);

  beforeAll(async () => {
    // The issue asks for the built binary: build it once, as `npm run build` does.
    await promisify(execFile)('npm', ['run', '--silent', 'build'], { cwd: root, timeout: 280_000 });
    const port = await freePort();
    t = await createTestApp({ env: renderEnv({ PUBLIC_URL: `http://127.0.0.1:${port}` }) });
    url = await listen(t, port);
    t.deps.mailer = { send: async (m) => void sent.push(m) }; // the code a person would read in the mail
    worker = await startWorker(t);
    home = mkdtempSync(join(tmpdir(), 'mas-cli-'));
  }, 300_000);
  afterAll(async () => {
    await worker?.stop(1000);
    await t?.close();
  });

  it('signup → key in a 0600 config file → keys → render --watch --download → a video ffprobe reads', async () => {
    const email = `agent+${randomUUID().slice(0, 8)}@bots.example.test`;
    const signup = await mas(['signup', email, '--json']);
    expect(signup).toMatchObject({ code: 0, stderr: '' });
    const key = JSON.parse(signup.stdout).apiKey as string;
    expect(key).toMatch(/^mas_/);
    const configFile = join(home, 'config', 'mas', 'config.json');
    expect(statSync(configFile).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(configFile, 'utf8'))).toMatchObject({ email, apiKey: key, url });

    const created = await mas(['keys', 'create', 'second', '--json']);
    expect(created.code).toBe(0);
    const second = JSON.parse(created.stdout) as { apiKey: string; key: { id: string } };
    const listed = JSON.parse((await mas(['keys', 'list', '--json'])).stdout) as { keys: { name: string }[] };
    expect(listed.keys).toHaveLength(2);
    expect((await mas(['keys', 'revoke', second.key.id])).code).toBe(0);
    expect((await mas(['keys', 'list'], { MAS_API_KEY: second.apiKey })).code).toBe(3);

    writeFileSync(join(home, 'props.json'), JSON.stringify({ title: 'From the CLI' }));
    const rendered = await mas(['render', 'title-card', '--props', 'props.json', '--width', '64', '--height', '48', '--frames', '12', '--codec', 'vp8', '--watch', '--download', '--output', 'video.webm']);
    expect(rendered.code).toBe(0);
    expect(rendered.stderr).toMatch(/COMPLETED 100%/); // not a TTY: plain progress lines
    expect(rendered.stdout).toMatch(/\/media\/renders\/.+\.webm\?expires=/);
    expect(rendered.stdout).toContain('Saved video.webm');
    const video = await probe(join(home, 'video.webm'));
    expect(video).toMatchObject({ codec_name: 'vp8', width: 64, height: 48, nb_read_frames: '12' });

    const runs = JSON.parse((await mas(['runs', '--json'])).stdout) as { runs: { status: string }[] };
    expect(runs.runs.map((r) => r.status)).toEqual(['COMPLETED']);
  });

  it('signup of a person\'s address waits for the mailed code; verify <code> saves the key', async () => {
    const person = { XDG_CONFIG_HOME: join(home, 'person') };
    const email = `ivy.${randomUUID().slice(0, 8)}@example.test`;
    const signup = await mas(['signup', email], person);
    expect(signup.code).toBe(0);
    expect(signup.stdout).toContain('mas verify <code>');
    expect((await mas(['keys', 'list'], person)).code).toBe(3);
    expect((await mas(['verify', '000000'], person)).code).toBe(4);
    const code = /\b(\d{6})\b/.exec(sent.find((m) => m.to === email)?.text ?? '')?.[1];
    expect(code).toBeDefined();
    const verified = await mas(['verify', code!, '--json'], person);
    expect(verified.code).toBe(0);
    expect(JSON.parse(verified.stdout).apiKey).toMatch(/^mas_/);
    const listed = await mas(['keys', 'list', '--json'], person);
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout).keys).toHaveLength(1);
  });

  it('answers --help on every command and tells usage, auth, input and server errors apart by exit code', async () => {
    for (const command of ['signup', 'verify', 'keys', 'render', 'runs', 'research', 'query', 'compositions']) {
      const help = await mas([command, '--help']);
      expect(help.code).toBe(0);
      expect(help.stdout).toContain(`Usage: mas ${command}`);
    }
    const nora = { MAS_API_KEY: as.nora['x-api-key'] };
    expect((await mas(['render', 'title-card', '--bogus'], nora)).code).toBe(2);
    expect((await mas(['nope'])).code).toBe(2);
    expect((await mas(['keys', 'list'], { MAS_API_KEY: 'mas_not_a_key', XDG_CONFIG_HOME: join(home, 'empty') })).code).toBe(3);
    expect((await mas(['keys', 'list'], { XDG_CONFIG_HOME: join(home, 'empty') })).code).toBe(3);
    const tooWide = await mas(['render', 'title-card', '--width', '99999', '--json'], nora);
    expect(tooWide.code).toBe(4);
    expect(JSON.parse(tooWide.stdout).error).toMatchObject({ code: 'BAD_USER_INPUT', message: expect.stringContaining('width') });
    expect((await mas(['runs', '--run-id', 'run_of_nobody', '--watch'], nora)).code).toBe(4);
    expect((await mas(['keys', 'list'], { ...nora, MAS_URL: 'http://127.0.0.1:1' })).code).toBe(5);
  });

  it('suggests the command or flag a typo meant, and prints its version', async () => {
    const typo = await mas(['rendr', 'title-card']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('did you mean mas render?');
    const flag = await mas(['render', 'title-card', '--prpos', 'p.json']);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain('unknown option --prpos (did you mean --props?)');
    const far = await mas(['xyzzy']);
    expect(far.code).toBe(2);
    expect(far.stderr).not.toContain('did you mean');
    const json = await mas(['compostions', '--json']);
    expect(JSON.parse(json.stdout).error).toMatchObject({ code: 'USAGE', message: expect.stringContaining('did you mean mas compositions?') });
    const version = await mas(['--version']);
    expect(version).toMatchObject({ code: 0, stdout: `${JSON.parse(readFileSync(join(root, 'cli', 'package.json'), 'utf8')).version}\n` });
  });

  it('lists the compositions with their props, and renders with inline --prop values over a --props file', async () => {
    const nora = { MAS_API_KEY: as.nora['x-api-key'] };
    const listed = await mas(['compositions', '--json']);
    expect(listed.code).toBe(0);
    const compositions = JSON.parse(listed.stdout).compositions as { id: string; props: { properties: Record<string, unknown> }; example: Record<string, unknown> }[];
    const titleCard = compositions.find((c) => c.id === 'title-card');
    expect(titleCard?.props.properties).toHaveProperty('title');
    const human = await mas(['compositions']);
    expect(human.stdout).toMatch(/^title-card {2}.+\n {2}props: .*title/m);
    expect(human.stdout).toContain('example: mas render title-card --prop');
    const one = await mas(['compositions', 'title-card', '--json']);
    expect(JSON.parse(one.stdout).composition.id).toBe('title-card');
    const missing = await mas(['compositions', 'title-crad']);
    expect(missing.code).toBe(4);
    expect(missing.stderr).toContain('did you mean title-card?');

    // The file's title loses to --prop; its other props stay; a JSON value arrives typed.
    writeFileSync(join(home, 'base.json'), JSON.stringify({ title: 'from the file', subtitle: 'kept' }));
    const started = await mas(['render', 'title-card', '--props', 'base.json', '--prop', 'title=Inline title', '--prop', 'accentColor=#00FF00', '--width', '16', '--height', '16', '--frames', '1', '--json'], nora);
    expect(started.code).toBe(0);
    const runId = JSON.parse(started.stdout).run.id as string;
    const [stored] = await t.orm.em.getConnection().execute<{ payload: string }[]>('select payload::text as payload from render_runs where id = ?', [runId]);
    expect(stored.payload).toContain('"title": "Inline title"');
    expect(stored.payload).toContain('"subtitle": "kept"');
    expect(stored.payload).toContain('"accentColor": "#00FF00"');
    // 42 is sent as a number, which the composition refuses for a text field, naming it.
    const typed = await mas(['render', 'title-card', '--prop', 'title=x', '--prop', 'subtitle=42', '--json'], nora);
    expect(typed.code).toBe(4);
    expect(JSON.stringify(JSON.parse(typed.stdout).error)).toContain('subtitle');
    const bad = await mas(['render', 'title-card', '--prop', 'no-equals-sign'], nora);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--prop takes key=value');
  });

  it('runs a query given inline or on stdin, with --var values', async () => {
    const nora = { MAS_API_KEY: as.nora['x-api-key'] };
    const inline = await mas(['query', 'query Mine($limit: Int) { runs(input: { limit: $limit }) { items { id } } }', '--var', 'limit=1', '--json'], nora);
    expect(inline.code).toBe(0);
    expect(JSON.parse(inline.stdout).runs.items.length).toBeLessThanOrEqual(1);
    const piped = await mas(['query', '--variables', '{"limit": 1}', '--json'], nora, 'query Mine($limit: Int) { runs(input: { limit: $limit }) { items { id } } }');
    expect(piped.code).toBe(0);
    expect(JSON.parse(piped.stdout)).toEqual(JSON.parse(inline.stdout));
    const dash = await mas(['query', '-'], nora, '{ compositions { id } }');
    expect(dash.code).toBe(0);
    expect(JSON.parse(dash.stdout).compositions).toEqual(expect.arrayContaining([{ id: 'title-card' }]));
    expect((await mas(['query'], nora, '')).code).toBe(2);
    const invalid = await mas(['query', '{ nope }', '--json'], nora);
    expect(invalid.code).toBe(4);
    expect(JSON.parse(invalid.stdout).error.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });

  it('runs a GraphQL file with variables, and research track-stats', async () => {
    const nora = { MAS_API_KEY: as.nora['x-api-key'] };
    writeFileSync(join(home, 'runs.graphql'), 'query Mine($limit: Int) { runs(input: { limit: $limit }) { items { id status } } }');
    writeFileSync(join(home, 'vars.json'), JSON.stringify({ limit: 1 }));
    const queried = await mas(['query', 'runs.graphql', '--variables', 'vars.json', '--json'], nora);
    expect(queried.code).toBe(0);
    expect(JSON.parse(queried.stdout).runs.items.length).toBeLessThanOrEqual(1);
    expect((await mas(['query', 'missing.graphql'], nora)).code).toBe(2);
    const stats = await mas(['research', 'track-stats', '--isrc', 'GBNWR2400001', '--source', 'platform_a', '--json'], nora);
    expect(stats.code).toBe(0);
    expect(JSON.parse(stats.stdout)).toMatchObject({ result: expect.any(String), stats: expect.any(Array) });
  });
});

describe('mas runs --watch over the per-account websocket cap (real PostgreSQL)', () => {
  let t: TestApp;
  let url: string;
  let home: string;
  const sam = as.sam['x-api-key'];
  beforeAll(async () => {
    t = await createTestApp({ env: renderEnv({ GRAPHQL_WS_MAX_CONNECTIONS_PER_ACCOUNT: '2' }) });
    url = await listen(t);
    home = mkdtempSync(join(tmpdir(), 'mas-cli-cap-'));
  });
  afterAll(async () => {
    await t?.close();
  });

  it('exits 4 with RATE_LIMITED (the service closes with 4029) instead of retrying into a network error', async () => {
    // No worker: the run stays QUEUED and every watcher keeps its connection open.
    const owner = new MasClient({ url, apiKey: sam });
    const started = await owner.render({ compositionId: 'title-card', inputProps: { title: 'cap' }, width: 8, height: 8, durationInFrames: 1 });
    const clients = Array.from({ length: t.config.requestLimits.wsMaxConnectionsPerAccount }, () => new MasClient({ url, apiKey: sam }));
    const watchers = clients.map((c) => c.watchRun(started.id));
    try {
      for (const watcher of watchers) expect((await watcher.next()).value).toMatchObject({ id: started.id, status: 'QUEUED' });
      const capped = await runMas(home, url, ['runs', '--run-id', started.id, '--watch'], { MAS_API_KEY: sam });
      expect(capped.code).toBe(4);
      expect(capped.stderr).toMatch(/RATE_LIMITED: websocket closed \(4029/);
      const json = await runMas(home, url, ['runs', '--run-id', started.id, '--watch', '--json'], { MAS_API_KEY: sam });
      expect(json.code).toBe(4);
      expect(JSON.parse(json.stdout).error.code).toBe('RATE_LIMITED');
    } finally {
      for (const watcher of watchers) await watcher.return(undefined);
      for (const c of [owner, ...clients]) await c.close();
    }
  });
});
