/**
 * Knex raw bindings expand a JS array into a comma list (`?` → `'a', 'b'`), which suits `in (?)`
 * but not `= any(?::uuid[])`. pgArray turns values into one PostgreSQL array literal instead.
 */
export function pgArray(values: readonly unknown[]): string {
  return `{${values.map((v) => `"${String(v).replace(/["\\]/g, '\\$&')}"`).join(',')}}`;
}
