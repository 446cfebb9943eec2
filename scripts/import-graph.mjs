// The import graph of the service's TypeScript, type imports included, and its circles: read by
// `npm run check:cycles` (scripts/import-cycles.mjs) and by the ESLint rule `layers/no-import-cycle`
// (eslint.config.mjs), so both judge the same graph.
//
// Every import a file makes counts: `import`, `import type`, `export … from`, `import x = require()`,
// `require()`, `import()`, `import('…').T` in a type, and `declare module '…'` (a declaration merging
// augmentation depends on the module it augments). Specifiers are resolved by the TypeScript compiler's
// own module resolution under tsconfig.json, so what counts is what tsc reads; packages do not count.
// A circle is a strongly connected component of two or more files, or a file importing itself.
import { createRequire } from 'node:module';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ts = createRequire(import.meta.url)('typescript');
const TYPESCRIPT = /\.(ts|tsx|mts|cts)$/;
const isSource = (file) => TYPESCRIPT.test(file) && !file.endsWith('.d.ts');

/** Every module specifier `text` names (as written, with its position), in order. */
export function specifiers(file, text) {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found = [];
  const literal = (node) => {
    if (node && ts.isStringLiteralLike(node)) found.push({ specifier: node.text, start: node.getStart(source), end: node.getEnd() });
  };
  const visit = (node) => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) literal(node.moduleSpecifier);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) literal(node.moduleReference.expression);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) literal(node.argument.literal);
    else if (ts.isModuleDeclaration(node) && ts.isStringLiteral(node.name)) literal(node.name);
    else if (ts.isCallExpression(node) && node.arguments.length === 1) {
      const callee = node.expression;
      if (callee.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(callee) && callee.text === 'require')) literal(node.arguments[0]);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Every TypeScript source file under `dir`. */
export function sourceFilesUnder(dir) {
  const found = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...sourceFilesUnder(path));
    else if (isSource(entry.name)) found.push(path);
  }
  return found;
}

/** The graph of the files tsconfig.json includes (or `files`), each file's imports kept until the file changes. */
export class ImportGraph {
  constructor(root, files) {
    this.root = root;
    const configPath = join(root, 'tsconfig.json');
    const { config, error } = ts.readConfigFile(configPath, ts.sys.readFile);
    if (error) throw new Error(ts.flattenDiagnosticMessageText(error.messageText, '\n'));
    const parsed = ts.parseJsonConfigFileContent(config, ts.sys, root, undefined, configPath);
    this.options = parsed.options;
    this.host = ts.createCompilerHost(this.options, true);
    this.cache = ts.createModuleResolutionCache(root, (name) => name, this.options);
    this.files = [...new Set((files ?? parsed.fileNames.filter(isSource)).map((file) => resolve(file)))].sort();
    this.scope = new Set(this.files);
    /** file → { mtimeMs, targets } */
    this.read = new Map();
    this.components = undefined;
    this.refresh();
  }

  /** The file in scope `specifier` names from `from`, or undefined (a package, or a file out of scope). */
  resolve(specifier, from) {
    const resolved = ts.resolveModuleName(specifier, from, this.options, this.host, this.cache).resolvedModule;
    if (!resolved || resolved.isExternalLibraryImport) return undefined;
    const target = resolve(resolved.resolvedFileName);
    return this.scope.has(target) ? target : undefined;
  }

  /** Re-reads the files changed since they were read; true when any was. */
  refresh() {
    let changed = false;
    for (const file of this.files) {
      const mtimeMs = statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? -1;
      if (this.read.get(file)?.mtimeMs === mtimeMs) continue;
      const text = mtimeMs < 0 ? '' : readFileSync(file, 'utf8');
      const targets = new Set(specifiers(file, text).map(({ specifier }) => this.resolve(specifier, file)).filter(Boolean));
      this.read.set(file, { mtimeMs, targets: [...targets].sort() });
      changed = true;
    }
    if (changed) this.components = undefined;
    return changed;
  }

  targets(file) {
    return this.read.get(file)?.targets ?? [];
  }

  get edges() {
    return this.files.reduce((sum, file) => sum + this.targets(file).length, 0);
  }

  /** The circles, largest first, each a sorted list of files (Tarjan's strongly connected components, iterative). */
  circles() {
    if (this.components) return this.components;
    const index = new Map();
    const low = new Map();
    const onStack = new Set();
    const stack = [];
    const components = [];
    let counter = 0;
    const enter = (node) => {
      index.set(node, counter);
      low.set(node, counter++);
      stack.push(node);
      onStack.add(node);
    };
    for (const start of this.files) {
      if (index.has(start)) continue;
      enter(start);
      const work = [[start, 0]];
      while (work.length) {
        const frame = work[work.length - 1];
        const [node, next] = frame;
        const targets = this.targets(node);
        if (next < targets.length) {
          frame[1]++;
          const target = targets[next];
          if (!index.has(target)) {
            enter(target);
            work.push([target, 0]);
          } else if (onStack.has(target)) low.set(node, Math.min(low.get(node), index.get(target)));
          continue;
        }
        work.pop();
        if (work.length) {
          const parent = work[work.length - 1][0];
          low.set(parent, Math.min(low.get(parent), low.get(node)));
        }
        if (low.get(node) !== index.get(node)) continue;
        const component = [];
        let member;
        do {
          member = stack.pop();
          onStack.delete(member);
          component.push(member);
        } while (member !== node);
        if (component.length > 1 || targets.includes(node)) components.push(component.sort());
      }
    }
    this.components = components.sort((a, b) => b.length - a.length);
    this.circleOf = new Map(this.components.flatMap((component) => component.map((file) => [file, new Set(component)])));
    return this.components;
  }

  /** The files of the circle `file` is on (undefined when it is on none). */
  circleOfFile(file) {
    this.circles();
    return this.circleOf.get(file);
  }

  /** The shortest import path from `from` to `to` inside their circle, both ends included. */
  pathWithin(from, to) {
    const members = this.circleOfFile(from) ?? new Set([from]);
    const cameFrom = new Map([[from, null]]);
    const queue = [from];
    while (queue.length) {
      const node = queue.shift();
      for (const target of this.targets(node)) {
        if (target === to) {
          const path = [to];
          for (let at = node; at !== null; at = cameFrom.get(at)) path.unshift(at);
          return path;
        }
        if (members.has(target) && !cameFrom.has(target)) {
          cameFrom.set(target, node);
          queue.push(target);
        }
      }
    }
    return [from, to];
  }
}

const graphs = new Map();
/** One graph per root for a long-lived process (an editor's ESLint), refreshed at most once a second. */
function projectGraph(root) {
  let entry = graphs.get(root);
  if (!entry) graphs.set(root, (entry = { graph: new ImportGraph(root), at: Date.now() }));
  else if (Date.now() - entry.at > 1000) {
    entry.graph.refresh();
    entry.at = Date.now();
  }
  return entry.graph;
}

/**
 * ESLint rule: an import (type imports included) whose file imports this one back, directly or
 * through others, is reported with the way back. The linted text is read as ESLint holds it.
 */
export const noImportCycle = {
  meta: {
    type: 'problem',
    docs: { description: 'Forbid an import, type imports included, that closes a circle of imports (docs/architecture.md, Layers).' },
    schema: [{ type: 'object', properties: { root: { type: 'string' } }, required: ['root'], additionalProperties: false }],
    messages: { circle: 'Import circle (type imports count): {{path}}. Cut an edge: see docs/architecture.md, Layers.' },
  },
  create(context) {
    const { root } = context.options[0];
    const file = resolve(context.physicalFilename);
    if (!isSource(file)) return {};
    const graph = projectGraph(root);
    const circle = graph.circleOfFile(file);
    if (!circle) return {};
    return {
      Program() {
        const { sourceCode } = context;
        for (const { specifier, start, end } of specifiers(file, sourceCode.text)) {
          const target = graph.resolve(specifier, file);
          if (!target || !circle.has(target)) continue;
          const path = [file, ...graph.pathWithin(target, file)].map((f) => f.slice(root.length + 1)).join(' → ');
          context.report({ loc: { start: sourceCode.getLocFromIndex(start), end: sourceCode.getLocFromIndex(end) }, messageId: 'circle', data: { path } });
        }
      },
    };
  },
};
