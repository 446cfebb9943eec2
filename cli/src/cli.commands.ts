import { readFile, writeFile } from 'node:fs/promises';
import { parseArgs, ParseArgsConfig } from 'node:util';
import { MasClient, MasError, RenderRun } from '@mas/sdk';
import { mergePairs, parseValue, suggestion } from './cli.args';
import { CliConfig, configPath, readConfig, writeConfig } from './cli.config';
import { serveMcpOverStdio } from './cli.mcp';
import { Progress, RenderFailedError, UsageError } from './cli.output';

type Options = NonNullable<ParseArgsConfig['options']>;
type Values = Record<string, string | boolean | string[] | undefined>;

/** What every command reads: parsed flags, the config, a client, and where to print. */
export interface CommandContext {
  values: Values;
  positionals: string[];
  json: boolean;
  env: NodeJS.ProcessEnv;
  configFile: string;
  config: CliConfig;
  url: string;
  /** MAS_API_KEY, else the config file's key. */
  apiKey?: string;
  client(needsKey?: boolean): MasClient;
  /** Closes the clients' websockets so the process can end. */
  close(): Promise<void>;
  print(human: string, data: unknown): void;
}

interface Command {
  usage: string;
  summary: string;
  options: Options;
  run(ctx: CommandContext): Promise<void>;
}

const GLOBAL_OPTIONS: Options = {
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  url: { type: 'string' },
};

const GLOBAL_HELP = `Global options:
  --json         print one JSON document on stdout (errors too: {"error":{code,message}})
  --url <url>    service base URL (else MAS_URL, the config file, http://localhost:4000)
  -h, --help     this help (mas --version: the version)
Credentials: MAS_API_KEY, else the key \`mas signup\`/\`mas verify\` saved in $XDG_CONFIG_HOME/mas/config.json.
Exit codes: 0 ok, 2 usage, 3 auth (401/403), 4 bad input or not found (4xx), 5 server or network, 6 render failed.`;

function intOption(ctx: CommandContext, name: string): number | undefined {
  const raw = ctx.values[name];
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string' || !/^\d+$/.test(raw)) throw new UsageError(`--${name} must be a whole number, got ${JSON.stringify(raw)}`);
  return Number(raw);
}

function stringOption(ctx: CommandContext, name: string): string | undefined {
  const raw = ctx.values[name];
  return typeof raw === 'string' ? raw : undefined;
}

/** Every value of a repeatable option, in the order given. */
function listOption(ctx: CommandContext, name: string): string[] {
  const raw = ctx.values[name];
  return Array.isArray(raw) ? raw : typeof raw === 'string' ? [raw] : [];
}

/** A JSON object given inline (text starting with `{`) or as a file. */
async function jsonObjectArgument(text: string, what: string): Promise<Record<string, unknown>> {
  if (!text.trimStart().startsWith('{')) return readJsonObject(text, what);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${what}: not JSON (${(error as Error).message})`);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new UsageError(`${what} must be a JSON object`);
  return parsed as Record<string, unknown>;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** A query given inline (it holds a `{`), as a file, or on stdin (`-`, or no argument with stdin not a terminal). */
async function queryText(source: string | undefined): Promise<string> {
  if (source === undefined || source === '-') {
    if (source === undefined && process.stdin.isTTY) throw new UsageError(`no query: give it as an argument, a file, or on stdin\nusage: ${COMMANDS.query.usage}`);
    const text = await readStdin();
    if (!text.trim()) throw new UsageError('no query on stdin');
    return text;
  }
  if (source.includes('{')) return source;
  try {
    return await readFile(source, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${source} (${(error as NodeJS.ErrnoException).code ?? 'error'}); an inline query holds a {`);
  }
}

async function readJsonObject(file: string, what: string): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(`${what}: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new UsageError(`${what}: ${file} is not JSON`);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new UsageError(`${what}: ${file} must hold a JSON object`);
  return parsed as Record<string, unknown>;
}

/** One line of a props JSON Schema: each property with its type, optional ones marked with ?. */
function describeProps(schema: Record<string, unknown>): string {
  const properties = (schema.properties ?? {}) as Record<string, { type?: unknown }>;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const parts = Object.entries(properties).map(([name, p]) => `${name}${required.has(name) ? '' : '?'}: ${Array.isArray(p.type) ? p.type.join('|') : String(p.type ?? 'any')}`);
  return parts.join(', ') || 'none';
}

/** An example's props as the --prop flags that send them (text as it is unless it would read as JSON). */
function exampleFlags(example: Record<string, unknown>): string {
  return Object.entries(example).map(([key, value]) => {
    const text = typeof value === 'string' && parseValue(value) === value ? value : JSON.stringify(value);
    return `--prop ${shellQuote(`${key}=${text}`)}`;
  }).join(' ');
}

function shellQuote(text: string): string {
  return /^[\w.,:=@%+/-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

function describeRun(run: RenderRun): string {
  const output = run.output ? ` ${run.output.url}` : '';
  return `${run.id} ${run.status} ${Math.round(run.progress * 100)}% ${run.createdAt}${run.error ? ` error: ${run.error}` : ''}${output}`;
}

/** Follows a run over graphql-ws to its end, drawing progress; a FAILED or CANCELED end throws. */
async function follow(ctx: CommandContext, client: MasClient, runId: string): Promise<RenderRun> {
  const progress = new Progress(process.stderr, !ctx.json);
  let last: RenderRun | undefined;
  try {
    for await (const run of client.watchRun(runId)) {
      last = run;
      progress.update(run.status, run.progress);
    }
  } finally {
    progress.end();
  }
  // The stream ends only after a terminal state; a silent close reads the run once more.
  if (!last || !['COMPLETED', 'FAILED', 'CANCELED'].includes(last.status)) last = await client.run(runId);
  return last;
}

async function saveKey(ctx: CommandContext, email: string, apiKey: string): Promise<void> {
  await writeConfig(ctx.configFile, { ...ctx.config, url: ctx.url, email, apiKey, pendingEmail: undefined });
}

export const COMMANDS: Record<string, Command> = {
  signup: {
    usage: 'mas signup <email>',
    summary: 'create an account: an agent+… address gets its API key at once (saved to the config file); any other gets a code by e-mail for `mas verify`',
    options: {},
    async run(ctx) {
      const [email] = ctx.positionals;
      if (!email || ctx.positionals.length > 1) throw new UsageError('signup takes exactly one e-mail address');
      const result = await ctx.client(false).signup(email);
      if (result.apiKey) {
        await saveKey(ctx, email, result.apiKey);
        ctx.print(`Signed up ${email} (account ${result.accountId}); API key saved to ${ctx.configFile}`, { ...result, apiKey: result.apiKey, config: ctx.configFile });
      } else {
        await writeConfig(ctx.configFile, { ...ctx.config, url: ctx.url, pendingEmail: email });
        ctx.print(`${result.message}\nThen run: mas verify <code>`, { ...result, config: ctx.configFile });
      }
    },
  },
  verify: {
    usage: 'mas verify <code> [--email <address>]',
    summary: 'prove the e-mail address with the code signup sent; saves the API key to the config file',
    options: { email: { type: 'string' } },
    async run(ctx) {
      const [code] = ctx.positionals;
      if (!code || ctx.positionals.length > 1) throw new UsageError('verify takes exactly one code');
      const email = stringOption(ctx, 'email') ?? ctx.config.pendingEmail;
      if (!email) throw new UsageError('no pending signup: pass --email <address>');
      const result = await ctx.client(false).verify(email, code);
      if (!result.apiKey) throw new MasError('INTERNAL_SERVER_ERROR', 'the service verified the address but returned no key');
      await saveKey(ctx, email, result.apiKey);
      ctx.print(`Verified ${email}; API key saved to ${ctx.configFile}`, { ...result, config: ctx.configFile });
    },
  },
  keys: {
    usage: 'mas keys list | mas keys create <name> | mas keys revoke <id>',
    summary: 'list, create or revoke the API keys of your account',
    options: {},
    async run(ctx) {
      const [action, arg, ...rest] = ctx.positionals;
      const client = ctx.client();
      if (action === 'list' && arg === undefined) {
        const keys = await client.listKeys();
        ctx.print(keys.map((k) => `${k.id} ${k.name} …${k.hint} ${k.revoked ? 'revoked' : 'active'} created ${k.createdAt}`).join('\n') || 'No keys.', { keys });
      } else if (action === 'create' && arg && rest.length === 0) {
        const created = await client.createKey(arg);
        ctx.print(`${created.key.id} ${created.key.name}\n${created.apiKey}\n(the key is shown once: store it now)`, created);
      } else if (action === 'revoke' && arg && rest.length === 0) {
        const key = await client.revokeKey(arg);
        ctx.print(`Revoked ${key.id} ${key.name}`, { key });
      } else {
        throw new UsageError(`usage: ${COMMANDS.keys.usage}`);
      }
    },
  },
  render: {
    usage: 'mas render <compositionId> [--props file.json] [--prop key=value]… [--width n] [--height n] [--fps n] [--frames n] [--codec c] [--watch] [--download] [--output file]',
    summary: 'start a video render (props from --props and repeated --prop key=value: JSON values typed, dotted keys nest, --prop wins); --watch follows it with a progress bar and prints the video URL; --download saves the video (to --output, or <runId>.<ext>)',
    options: {
      props: { type: 'string' }, prop: { type: 'string', multiple: true }, width: { type: 'string' }, height: { type: 'string' }, fps: { type: 'string' }, frames: { type: 'string' },
      codec: { type: 'string' }, watch: { type: 'boolean' }, download: { type: 'boolean' }, output: { type: 'string' },
    },
    async run(ctx) {
      const [compositionId] = ctx.positionals;
      if (!compositionId || ctx.positionals.length > 1) throw new UsageError(`usage: ${COMMANDS.render.usage}`);
      if ((ctx.values.download || ctx.values.output) && !ctx.values.watch) throw new UsageError('--download and --output need --watch');
      const propsFile = stringOption(ctx, 'props');
      const pairs = listOption(ctx, 'prop');
      const fromFile = propsFile ? await readJsonObject(propsFile, '--props') : undefined;
      const request = {
        compositionId,
        inputProps: pairs.length ? mergePairs(fromFile ?? {}, pairs, '--prop') : fromFile,
        width: intOption(ctx, 'width'), height: intOption(ctx, 'height'), fps: intOption(ctx, 'fps'),
        durationInFrames: intOption(ctx, 'frames'), codec: stringOption(ctx, 'codec'),
      };
      const client = ctx.client();
      const started = await client.render(request);
      if (!ctx.values.watch) {
        ctx.print(`Run ${started.id} queued; follow it with: mas runs --run-id ${started.id} --watch`, { run: started });
        return;
      }
      if (!ctx.json) process.stderr.write(`Run ${started.id}\n`);
      const run = await follow(ctx, client, started.id);
      if (run.status !== 'COMPLETED' || !run.output) {
        if (ctx.json) ctx.print('', { run });
        throw new RenderFailedError(`run ${run.id} ended ${run.status}${run.error ? `: ${run.error}` : ''}`);
      }
      let file: string | undefined;
      if (ctx.values.download) {
        const video = await client.download(run.output.url);
        const ext = run.output.mimeType.includes('webm') ? 'webm' : 'mp4';
        file = stringOption(ctx, 'output') ?? `${run.id}.${ext}`;
        await writeFile(file, video.bytes);
      }
      ctx.print(file ? `${run.output.url}\nSaved ${file}` : run.output.url, { run, ...(file ? { file } : {}) });
    },
  },
  runs: {
    usage: 'mas runs [--run-id id] [--limit n] [--watch]',
    summary: 'your render runs, newest first; --watch follows one run (--run-id) live, or refreshes the list until none is QUEUED or EXECUTING',
    options: { 'run-id': { type: 'string' }, limit: { type: 'string' }, watch: { type: 'boolean' } },
    async run(ctx) {
      if (ctx.positionals.length > 0) throw new UsageError(`usage: ${COMMANDS.runs.usage}`);
      const client = ctx.client();
      const runId = stringOption(ctx, 'run-id');
      const limit = intOption(ctx, 'limit');
      if (ctx.values.watch && runId) {
        const run = await follow(ctx, client, runId);
        ctx.print(describeRun(run), { runs: [run] });
        if (run.status !== 'COMPLETED') throw new RenderFailedError(`run ${run.id} ended ${run.status}${run.error ? `: ${run.error}` : ''}`);
        return;
      }
      let runs = await client.runs({ runId, limit });
      while (ctx.values.watch && runs.some((r) => r.status === 'QUEUED' || r.status === 'EXECUTING')) {
        if (!ctx.json) process.stderr.write(`${runs.filter((r) => r.status === 'QUEUED' || r.status === 'EXECUTING').map((r) => `${r.id} ${r.status} ${Math.round(r.progress * 100)}%`).join('\n')}\n`);
        await new Promise((r) => setTimeout(r, 2000));
        runs = await client.runs({ runId, limit });
      }
      ctx.print(runs.map(describeRun).join('\n') || 'No runs.', { runs });
    },
  },
  research: {
    usage: 'mas research track-stats --isrc <isrc> [--source s] [--limit n] [--offset n]',
    summary: 'statistics of one track across sources (default source: all)',
    options: { isrc: { type: 'string' }, source: { type: 'string' }, limit: { type: 'string' }, offset: { type: 'string' } },
    async run(ctx) {
      const [what, ...rest] = ctx.positionals;
      const isrc = stringOption(ctx, 'isrc');
      if (what !== 'track-stats' || rest.length > 0 || !isrc) throw new UsageError(`usage: ${COMMANDS.research.usage}`);
      const stats = await ctx.client().trackStats({ isrc, source: stringOption(ctx, 'source') ?? 'all', limit: intOption(ctx, 'limit'), offset: intOption(ctx, 'offset') });
      const title = stats.trackInfo?.title ? `${stats.trackInfo.title} — ${stats.trackInfo.artists.map((a) => a.name).join(', ')}\n` : '';
      ctx.print(`${title}${stats.stats.map((s) => `${s.source} (${s.dataSource}, ${s.capturedAt}): ${JSON.stringify(s.data)}`).join('\n') || stats.message || 'No statistics.'}`, stats);
    },
  },
  mcp: {
    usage: 'mas mcp',
    summary: "serve MCP over stdio for a desktop agent, forwarding to the service's /mcp with this URL and key (stdout is the protocol)",
    options: {},
    async run(ctx) {
      if (ctx.positionals.length > 0) throw new UsageError(`usage: ${COMMANDS.mcp.usage}`);
      if (!ctx.apiKey) throw new MasError('UNAUTHENTICATED', 'no API key: set MAS_API_KEY or run `mas signup <email>`', { status: 401 });
      await serveMcpOverStdio(ctx.url, ctx.apiKey);
    },
  },
  query: {
    usage: "mas query ['{ … }' | file.graphql | -] [--variables file.json|'{…}'] [--var key=value]…",
    summary: 'run any GraphQL operation of the schema, given inline, as a file, or on stdin; prints its data as JSON',
    options: { variables: { type: 'string' }, var: { type: 'string', multiple: true } },
    async run(ctx) {
      if (ctx.positionals.length > 1) throw new UsageError(`usage: ${COMMANDS.query.usage} (quote an inline query)`);
      const query = await queryText(ctx.positionals[0]);
      const variablesArg = stringOption(ctx, 'variables');
      const variables = mergePairs(variablesArg ? await jsonObjectArgument(variablesArg, '--variables') : {}, listOption(ctx, 'var'), '--var');
      // An anonymous query (introspection, signupAgent) runs without a key when none is set.
      const data = await ctx.client(false).request<unknown, Record<string, unknown>>(query, variables);
      ctx.print(JSON.stringify(data, null, 2), data);
    },
  },
  compositions: {
    usage: 'mas compositions [id]',
    summary: 'the compositions a render can name: id, title, what it renders, its props (JSON Schema) and an example; with an id, that one in full',
    options: {},
    async run(ctx) {
      const [id, ...rest] = ctx.positionals;
      if (rest.length > 0) throw new UsageError(`usage: ${COMMANDS.compositions.usage}`);
      const all = await ctx.client(false).compositions();
      if (id === undefined) {
        const lines = all.map((c) => `${c.id}  ${c.title}: ${c.description}\n  props: ${describeProps(c.props)}\n  example: mas render ${c.id} ${exampleFlags(c.example)}`);
        ctx.print(lines.join('\n') || 'No compositions.', { compositions: all });
        return;
      }
      const one = all.find((c) => c.id === id);
      if (!one) throw new MasError('NOT_FOUND', `no composition ${JSON.stringify(id)}${suggestion(id, all.map((c) => c.id))}; run mas compositions`, { status: 404 });
      ctx.print(`${one.id}  ${one.title}\n${one.description}\nprops (JSON Schema):\n${JSON.stringify(one.props, null, 2)}\nexample: mas render ${one.id} ${exampleFlags(one.example)}`, { composition: one });
    },
  },
};

export function mainHelp(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((n) => n.length));
  return `mas: the music agent service from the command line (built on @mas/sdk)

Commands:
${Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`).join('\n')}

Run \`mas <command> --help\` for a command's options.
${GLOBAL_HELP}
`;
}

export function commandHelp(name: string): string {
  const c = COMMANDS[name];
  return `Usage: ${c.usage}\n\n${c.summary}\n\n${GLOBAL_HELP}\n`;
}

/** Parses argv for one command; an unknown flag or a missing value is a UsageError. */
export function parseCommand(name: string, args: string[]): { values: Values; positionals: string[] } {
  const options = { ...GLOBAL_OPTIONS, ...COMMANDS[name].options };
  try {
    const parsed = parseArgs({ args, options, allowPositionals: true, strict: true });
    return { values: parsed.values as Values, positionals: parsed.positionals };
  } catch (error) {
    const unknown = (error as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ? /'(--?[^'=\s]+)/.exec((error as Error).message)?.[1] : undefined;
    const hint = unknown ? suggestion(unknown.replace(/^-+/, ''), Object.keys(options), (n) => `--${n}`) : '';
    const message = unknown ? `unknown option ${unknown}${hint}` : (error as Error).message;
    throw new UsageError(`${message}\nusage: ${COMMANDS[name].usage}`);
  }
}

export async function loadContext(values: CommandContext['values'], positionals: string[], env: NodeJS.ProcessEnv): Promise<CommandContext> {
  const json = values.json === true;
  const configFile = configPath(env);
  const config = await readConfig(configFile);
  const url = (typeof values.url === 'string' ? values.url : undefined) ?? env.MAS_URL ?? config.url ?? 'http://localhost:4000';
  if (!/^https?:\/\/[^/]/.test(url)) throw new UsageError(`--url/MAS_URL must be an http(s) URL, got ${JSON.stringify(url)}`);
  const apiKey = env.MAS_API_KEY || config.apiKey;
  const clients: MasClient[] = [];
  return {
    values, positionals, json, env, configFile, config, url, apiKey,
    client(needsKey = true) {
      if (needsKey && !apiKey) throw new MasError('UNAUTHENTICATED', 'no API key: set MAS_API_KEY or run `mas signup <email>`', { status: 401 });
      const client = new MasClient({ url, apiKey, onRetry: ({ reason, delayMs }) => process.stderr.write(`mas: ${reason}, retrying in ${Math.ceil(delayMs / 1000)} s\n`) });
      clients.push(client);
      return client;
    },
    async close() {
      await Promise.all(clients.map((c) => c.close()));
    },
    print(human, data) {
      process.stdout.write(json ? `${JSON.stringify(data)}\n` : human ? `${human}\n` : '');
    },
  };
}
