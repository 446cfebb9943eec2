import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** The repository's root. */
export const ROOT = join(__dirname, '..', '..');

/** The documentation a user reads: README.md, every page under docs/, the benchmark's README and results, the SDK's and the CLI's READMEs. */
export function docFiles(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? walk(path) : name.endsWith('.md') ? [path] : [];
    });
  return [join(ROOT, 'README.md'), ...walk(join(ROOT, 'docs')), ...walk(join(ROOT, 'bench')), join(ROOT, 'sdk', 'README.md'), join(ROOT, 'cli', 'README.md')].map((p) => relative(ROOT, p)).sort((a, b) => (a === 'README.md' ? -1 : b === 'README.md' ? 1 : a.localeCompare(b)));
}

/** One directive of a `<!-- snippet: … -->` comment right before a fenced block. */
export interface Directives {
  /** `not run — <reason>`: the block cannot run in a test (the reason says why). */
  notRun?: string;
  /** `variables {…}`: the variables of a GraphQL block. */
  variables?: Record<string, unknown>;
  /** `expect errors`: the GraphQL answers of the block carry errors, as the text around it says. */
  expectErrors?: boolean;
  /** `expect 409,422`: HTTP statuses the block's requests may answer besides 2xx/3xx. */
  expectStatuses?: number[];
  /** `env PROVIDERS=sandbox`: the block runs against a service started with these settings. */
  env?: Record<string, string>;
}

export interface Block {
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  lang: string;
  code: string;
  directives: Directives;
}

const DIRECTIVE = /^\s*<!--\s*snippet:\s*(.*?)\s*-->\s*$/;

function parseDirective(text: string, into: Directives, where: string): void {
  const notRun = /^not run\s*[—–-]+\s*(.+)$/.exec(text);
  if (notRun) {
    into.notRun = notRun[1].trim();
    return;
  }
  if (text.startsWith('variables ')) {
    into.variables = JSON.parse(text.slice('variables '.length)) as Record<string, unknown>;
    return;
  }
  if (text === 'expect errors') {
    into.expectErrors = true;
    return;
  }
  const statuses = /^expect ((?:\d{3},?)+)$/.exec(text);
  if (statuses) {
    into.expectStatuses = statuses[1].split(',').filter(Boolean).map(Number);
    return;
  }
  const env = /^env ((?:[A-Z_]+=\S+\s*)+)$/.exec(text);
  if (env) {
    into.env = Object.fromEntries(env[1].trim().split(/\s+/).map((pair) => pair.split('=', 2) as [string, string]));
    return;
  }
  throw new Error(`${where}: unknown snippet directive "${text}" (known: "not run — <reason>", "variables {…}", "expect errors", "expect <status,…>", "env NAME=value")`);
}

/** Every fenced block of a Markdown file, with the snippet directives in the comments right above it. */
export function blocks(file: string): Block[] {
  const lines = readFileSync(join(ROOT, file), 'utf8').split('\n');
  const found: Block[] = [];
  for (let i = 0; i < lines.length; i += 1) {
    const open = /^(\s*)(`{3,})([\w-]*)\s*$/.exec(lines[i]);
    if (!open) continue;
    const [, indent, fence, lang] = open;
    const body: string[] = [];
    let j = i + 1;
    while (j < lines.length && !new RegExp(`^\\s*${fence}\\s*$`).test(lines[j])) {
      body.push(lines[j].startsWith(indent) ? lines[j].slice(indent.length) : lines[j].trimStart());
      j += 1;
    }
    if (j >= lines.length) throw new Error(`${file}:${i + 1}: a fenced block that never closes`);
    const directives: Directives = {};
    for (let k = i - 1; k >= 0; k -= 1) {
      const comment = DIRECTIVE.exec(lines[k]);
      if (comment) parseDirective(comment[1], directives, `${file}:${k + 1}`);
      else if (lines[k].trim() !== '') break;
    }
    found.push({ file, line: i + 1, lang: lang.toLowerCase(), code: body.join('\n'), directives });
    i = j;
  }
  return found;
}

/** GitHub's anchor of a heading: lower-cased, punctuation dropped, spaces as hyphens. */
export function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/<[^>]+>/g, '')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors a Markdown file's headings give (a repeated heading gets -1, -2, … as on GitHub). */
export function anchors(file: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  let fence = false;
  for (const line of readFileSync(join(ROOT, file), 'utf8').split('\n')) {
    if (/^\s*```/.test(line)) fence = !fence;
    const heading = !fence && /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const base = slug(heading[1].replace(/`/g, ''));
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    result.add(n ? `${base}-${n}` : base);
  }
  return result;
}

/** Relative links of a Markdown file (outside code), with their line: `[text](target)` and `![alt](target)`. */
export function relativeLinks(file: string): { line: number; target: string }[] {
  const links: { line: number; target: string }[] = [];
  let fence = false;
  readFileSync(join(ROOT, file), 'utf8')
    .split('\n')
    .forEach((line, index) => {
      if (/^\s*```/.test(line)) {
        fence = !fence;
        return;
      }
      if (fence) return;
      const prose = line.replace(/`[^`]*`/g, '``');
      for (const m of prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
        const target = m[1];
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:, …
        links.push({ line: index + 1, target });
      }
    });
  return links;
}
