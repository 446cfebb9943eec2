import leven from 'leven';
import { UsageError } from './cli.output';

/** Keys that would reach Object.prototype instead of the props. */
const FORBIDDEN_KEYS = new Set(['__proto__', 'prototype', 'constructor']);

/**
 * A `--prop`/`--var` value as a user means it: JSON when it reads as JSON (numbers, true, false,
 * null, "quoted", {objects}, [arrays]), otherwise the text as it is (`--prop title=Hi` is "Hi").
 */
export function parseValue(raw: string): unknown {
  const text = raw.trim();
  if (/^(-?\d|true$|false$|null$|["{[])/.test(text)) {
    try {
      return JSON.parse(text);
    } catch {
      // Not JSON after all (007, 12px, {unbalanced): the text.
    }
  }
  return raw;
}

/**
 * `key=value` pairs (dotted keys nest: `colors.bg=#000` is { colors: { bg: "#000" } }) merged over
 * `base`, each later pair winning; `flag` names the option in errors.
 */
export function mergePairs(base: Record<string, unknown>, pairs: readonly string[], flag: string): Record<string, unknown> {
  const result = structuredClone(base);
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new UsageError(`${flag} takes key=value, got ${JSON.stringify(pair)}`);
    const path = pair.slice(0, eq).split('.');
    if (path.some((part) => part === '' || FORBIDDEN_KEYS.has(part))) throw new UsageError(`${flag}: ${JSON.stringify(pair.slice(0, eq))} is not a usable key`);
    let target = result;
    for (const part of path.slice(0, -1)) {
      const next = target[part];
      if (next === undefined) target[part] = {};
      else if (!next || typeof next !== 'object' || Array.isArray(next)) throw new UsageError(`${flag}: ${path.join('.')} nests under ${part}, which is already ${JSON.stringify(next)}`);
      target = target[part] as Record<string, unknown>;
    }
    target[path[path.length - 1]] = parseValue(pair.slice(eq + 1));
  }
  return result;
}

/**
 * The candidate closest to `word` by edit distance, if close enough to be a typo: 1 edit for a
 * word of up to 3 letters, else 2, or a third of its letters (at most 3) for a long one.
 */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  const limit = word.length <= 3 ? 1 : Math.min(3, Math.max(2, Math.floor(word.length / 3)));
  let best: { name: string; distance: number } | undefined;
  for (const name of candidates) {
    const distance = leven(word.toLowerCase(), name.toLowerCase());
    if (distance <= limit && (!best || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}

/** " (did you mean X?)" when one candidate is close to `word`, else "". */
export function suggestion(word: string, candidates: readonly string[], format: (name: string) => string = (n) => n): string {
  const near = closest(word, candidates);
  return near ? ` (did you mean ${format(near)}?)` : '';
}
