import { FieldProblem, invalidInput, MAX_DETAILS } from './errors';

/**
 * The one guard every face runs over untrusted input before anything else walks it: REST bodies,
 * query and path parameters, GraphQL variables and arguments (HTTP, websockets, sofa).
 *
 * - PostgreSQL cannot store NUL in text or jsonb, and jsonb refuses unpaired UTF-16 surrogates
 *   (text columns would silently turn them into U+FFFD): both are a 400 naming the field.
 * - Nesting deeper than the limit is a 400 on the whole input, found without recursion, so a body
 *   nested thousands of levels deep never reaches a recursive walk (JSON.stringify, zod, jsonb).
 */

// NUL, a high surrogate not followed by a low one, or a low surrogate not preceded by a high one.
// eslint-disable-next-line no-control-regex -- NUL is exactly what it looks for
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export function unstorableCharacter(value: string): string | undefined {
  const match = UNSTORABLE.exec(value);
  if (!match) return undefined;
  return match[0] === '\u0000' ? 'must not contain a NUL character (\\u0000)' : 'must not contain an unpaired UTF-16 surrogate';
}

export interface GuardOptions {
  /** Deepest nesting of objects and arrays allowed (the root object or array is level 1). */
  maxDepth?: number;
  /** The field a depth violation is reported on (e.g. `body`, `variables`). */
  depthField?: string;
  /** Check strings and keys (default true); false checks the depth alone. */
  strings?: boolean;
}

/**
 * Finds unstorable characters (in strings and object keys) and excessive nesting in a parsed
 * value, iteratively. `prefix` names the value itself: '' for a REST body, whose members are
 * fields of their own.
 */
export function inputProblems(value: unknown, prefix: string, options: GuardOptions = {}): FieldProblem[] {
  const maxDepth = options.maxDepth ?? Infinity;
  const problems: FieldProblem[] = [];
  const stack: [unknown, string, number][] = [[value, prefix, 0]];
  while (stack.length && problems.length < MAX_DETAILS) {
    const [current, path, depth] = stack.pop()!;
    if (typeof current === 'string') {
      if (options.strings === false) continue;
      const message = unstorableCharacter(current);
      if (message) problems.push({ field: path || options.depthField || 'body', message });
      continue;
    }
    if (current === null || typeof current !== 'object') continue;
    if (depth + 1 > maxDepth) {
      return [{ field: options.depthField ?? (prefix || 'body'), message: `is nested deeper than ${maxDepth} levels` }];
    }
    if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i -= 1) stack.push([current[i], `${path}[${i}]`, depth + 1]);
      continue;
    }
    const keys = Object.keys(current);
    for (let i = keys.length - 1; i >= 0; i -= 1) {
      const key = keys[i];
      const field = path ? `${path}.${key}` : key;
      const message = options.strings === false ? undefined : unstorableCharacter(key);
      // The key itself is named JSON-escaped: the raw one holds the very character refused.
      if (message) problems.push({ field: `${path ? `${path}.` : ''}${JSON.stringify(key).slice(1, -1)}`, message: `key ${message}` });
      else stack.push([(current as Record<string, unknown>)[key], field, depth + 1]);
    }
  }
  return problems.slice(0, MAX_DETAILS);
}

/** Throws the BAD_USER_INPUT of `inputProblems`, if any. */
export function guardInput(value: unknown, prefix: string, options: GuardOptions = {}): void {
  const problems = inputProblems(value, prefix, options);
  if (problems.length) throw invalidInput(problems);
}
