import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * Knex raw bindings expand a JS array into a comma list (`?` → `'a', 'b'`), which suits `in (?)`
 * but not `= any(?::uuid[])`. pgArray turns values into one PostgreSQL array literal instead.
 */
export function pgArray(values: readonly unknown[]): string {
  return `{${values.map((v) => `"${String(v).replace(/["\\]/g, '\\$&')}"`).join(',')}}`;
}

const DATE_COLUMNS = ['created_at', 'updated_at'] as const;

/** Raw rows carry timestamps as text; the API's Date fields want Date objects. */
export function withDates<T>(rows: T[]): T[] {
  for (const row of rows as Record<string, unknown>[]) {
    for (const column of DATE_COLUMNS) {
      const value = row[column];
      if (typeof value === 'string') row[column] = new Date(value);
    }
  }
  return rows;
}

/** Runs a statement on the entity manager (inside its transaction, if any) and returns its rows, dates parsed. */
export async function query<T>(em: EntityManager, sql: string, bindings: unknown[] = []): Promise<T[]> {
  return withDates(await em.execute<T[]>(sql, bindings));
}
