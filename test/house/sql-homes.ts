import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

/** A SQL statement's opening words (or a statement's core clause), as a repository writes them (lower case, or all upper case). */
const SQL = new RegExp(
  [
    String.raw`\bselect\s[\s\S]*?\bfrom\s+[a-z_"(]`,
    String.raw`\binsert\s+into\s`,
    String.raw`\bupdate\s+[a-z_".]+(\s+(as\s+)?[a-z_]+)?\s+set\s`,
    String.raw`\bdelete\s+from\s`,
    String.raw`\b(create|alter|drop)\s+(table|index|trigger|function|schema)\s`,
    String.raw`^\s*select\s+\S`,
    String.raw`^\s*with\s+[a-z_]+\s+as\s*\(`,
    String.raw`\bpg_[a-z_]+\(`,
    // The same in upper case (the house writes SQL in lower case; prose writes "Select … from" and is not SQL).
    String.raw`\bSELECT\s[\s\S]*?\bFROM\s`,
    String.raw`\b(INSERT\s+INTO|DELETE\s+FROM)\s`,
    String.raw`\bUPDATE\s+\S+\s+SET\s`,
  ].join('|'),
);

export interface SqlText {
  /** path relative to the repository's root, and 1-based line */
  file: string;
  line: number;
  text: string;
}

/** The text of every string and template literal in a TypeScript file (a template's parts joined by `${}`). */
function literals(file: string, source: string): { text: string; pos: number }[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const found: { text: string; pos: number }[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
      found.push({ text: node.text, pos: node.getStart(sf) });
    } else if (ts.isTemplateExpression(node)) {
      found.push({ text: [node.head.text, ...node.templateSpans.map((s) => s.literal.text)].join('${}'), pos: node.getStart(sf) });
    } else if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) {
      return; // module specifiers are not SQL
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found.map((f) => ({ text: f.text, pos: sf.getLineAndCharacterOfPosition(f.pos).line + 1 }));
}

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return tsFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** The SQL texts of one source file, with their lines. */
export function sqlTextsOf(file: string, source: string): SqlText[] {
  return literals(file, source)
    .filter((l) => SQL.test(l.text))
    .map((l) => ({ file, line: l.pos, text: l.text.replace(/\s+/g, ' ').trim().slice(0, 100) }));
}

/** SQL texts in the production sources under `dir` outside `*.repository.ts` (tests are not production code). */
export function sqlOutsideRepositories(root: string, dir = 'src'): SqlText[] {
  return tsFiles(join(root, dir))
    .filter((path) => !path.endsWith('.repository.ts') && !path.endsWith('.test.ts'))
    .flatMap((path) => sqlTextsOf(relative(root, path), readFileSync(path, 'utf8')));
}
