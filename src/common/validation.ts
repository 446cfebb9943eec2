import { z } from 'zod';
import { FieldProblem, invalidInput } from './errors';

/** Formats zod issues as the `details` of a 400: one entry per invalid or missing field. */
export function zodProblems(error: z.ZodError, prefix = ''): FieldProblem[] {
  return error.issues.flatMap((issue) => {
    // Same notation as the REST input check: songs[0].isrc
    const field = fieldPath(issue.path, prefix);
    // A strict object's unknown keys: each named as its own field, as the REST input check names them.
    if (issue.code === 'unrecognized_keys') return issue.keys.map((key) => ({ field: fieldPath([...issue.path, key], prefix), message: 'is not a known field' }));
    return [{ field, message: issue.message }];
  });
}

function fieldPath(path: readonly PropertyKey[], prefix: string): string {
  return path.reduce<string>((acc, part) => (typeof part === 'number' ? `${acc}[${part}]` : acc ? `${acc}.${String(part)}` : String(part)), prefix) || 'body';
}

/** Parses input with a zod schema; a failure is a BAD_USER_INPUT naming every bad field. */
export function validate<S extends z.ZodType>(schema: S, input: unknown, prefix = ''): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw invalidInput(zodProblems(result.error, prefix));
}

export const uuid = () => z.string().uuid({ message: 'must be a UUID' });
export const pageArg = () => z.number().int().min(1, { message: 'must be at least 1' }).default(1);
export const limitArg = (max = 100, def = 20) =>
  z.number().int().min(1, { message: 'must be at least 1' }).max(max, { message: `must be at most ${max}` }).default(def);

/** A page of a list nested in the graph (page from 1, limit 1 to 100). */
export const graphPageInput = z.object({ page: pageArg(), limit: limitArg() });

/** GraphQL nullable arguments arrive as null; the schemas treat absent and null alike. */
export function withoutNulls<T extends Record<string, unknown>>(args: T): { [K in keyof T]: Exclude<T[K], null> } {
  return Object.fromEntries(Object.entries(args).filter(([, v]) => v !== null && v !== undefined)) as never;
}

export const isUuid = (value: unknown): value is string => uuid().safeParse(value).success;

/**
 * The description an operation's zod schema gives one of its fields: the text the GraphQL input
 * field carries too, so the bounds are written once (`describe(catalogSongsInput, 'limit')`).
 */
export function describe<S extends z.ZodObject>(schema: S, field: keyof S['shape'] & string): string | undefined {
  return (schema.shape[field] as z.ZodType | undefined)?.description;
}
