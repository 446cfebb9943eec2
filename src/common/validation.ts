import { z } from 'zod';
import { FieldProblem, invalidInput } from './errors';
import { restName } from './names';

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

/** The schema inside optional, nullable, default, pipe (transform) and the like. */
function core(schema: z.core.$ZodType): z.core.$ZodType {
  let current = schema;
  for (let i = 0; i < 20; i++) {
    const def = current._zod.def as { type: string; innerType?: z.core.$ZodType; in?: z.core.$ZodType; getter?: () => z.core.$ZodType };
    if (def.innerType) current = def.innerType;
    else if (def.type === 'pipe' && def.in) current = def.in;
    else if (def.type === 'lazy' && def.getter) current = def.getter();
    else break;
  }
  return current;
}

/**
 * A GraphQL input read into a zod schema's keys: a member named `accountId` fills the schema's
 * `account_id` (its REST name, src/common/names.ts) when the schema has no `accountId`. Only the
 * schema's own objects are renamed: the keys of a JSON value (a record) stay as they are.
 */
export function byZodKeys(schema: z.core.$ZodType, value: unknown): unknown {
  const inner = core(schema);
  const def = inner._zod.def as { type: string; shape?: Record<string, z.core.$ZodType>; element?: z.core.$ZodType };
  if (def.type === 'array' && def.element && Array.isArray(value)) return value.map((item) => byZodKeys(def.element!, item));
  if (def.type !== 'object' || !def.shape || !value || typeof value !== 'object' || Array.isArray(value)) return value;
  const shape = def.shape;
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value as Record<string, unknown>)) {
    const zodKey = key in shape ? key : restName(key) in shape ? restName(key) : key;
    out[zodKey] = shape[zodKey] ? byZodKeys(shape[zodKey], member) : member;
  }
  return out;
}

/**
 * Parses input with a zod schema; a failure is a BAD_USER_INPUT naming every bad field. The input
 * may name its members by their GraphQL names (see byZodKeys); the problems name the schema's keys,
 * which the GraphQL face renames to its own (src/graphql/input-guard.ts).
 */
export function validate<S extends z.ZodType>(schema: S, input: unknown, prefix = ''): z.output<S> {
  const result = schema.safeParse(byZodKeys(schema, input));
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

const uuidSchema = uuid();
export const isUuid = (value: unknown): value is string => uuidSchema.safeParse(value).success;

/**
 * The description an operation's zod schema gives one of its fields: the text the GraphQL input
 * field carries too, so the bounds are written once (`describe(catalogSongsInput, 'limit')`).
 */
export function describe<S extends z.ZodObject>(schema: S, field: keyof S['shape'] & string): string | undefined {
  return (schema.shape[field] as z.ZodType | undefined)?.description;
}
