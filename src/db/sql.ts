import type { Transaction } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { createHash } from 'node:crypto';
import { Query } from 'pg';
import { tracked, type PgBackend } from './statement-scope';

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

/** ORM configurations (shared by every fork of one ORM) whose hot statements go through the ORM instead. */
const unprepared = new WeakSet<object>();

export function withoutPreparedStatements(config: object): void {
  unprepared.add(config);
}

/**
 * Named statements by SQL text: the text with its `?` bindings numbered for pg ($1, $2, ...), and a
 * name from its hash. Found by the text's length, then compared: each request builds its text anew
 * and V8 keeps a string's hash on that string only, so a Map keyed by the text would hash all of it
 * (2-3 KB for a songs page, about 20 000 instructions) on every lookup; comparing it with the one or
 * two texts of the same length is a memory compare.
 */
interface PreparedStatement {
  sql: string;
  name: string;
  text: string;
}
const prepared = new Map<number, PreparedStatement[]>();
let preparedCount = 0;
const PREPARED_MAX = 500;

/** The statement prepared for `sql`, made now if there is room (undefined past PREPARED_MAX texts). */
export function preparedFor(sql: string): { name: string; text: string } | undefined {
  const sameLength = prepared.get(sql.length);
  if (sameLength) {
    for (const statement of sameLength) if (statement.sql === sql) return statement;
  }
  if (preparedCount >= PREPARED_MAX) return undefined;
  let n = 0;
  // Outside string literals, `?` is a binding (the SQL here uses no `?` operators).
  const text = sql.replace(/'(?:[^']|'')*'|\?/g, (match) => (match === '?' ? `$${++n}` : match));
  const statement = { sql, name: `hot_${createHash('sha1').update(sql).digest('hex').slice(0, 20)}`, text };
  if (sameLength) sameLength.push(statement);
  else prepared.set(sql.length, [statement]);
  preparedCount += 1;
  return statement;
}

/**
 * A hot statement (one every request or every hot read runs) sent straight to pg as a named
 * prepared statement: PostgreSQL parses and plans it once per connection, and no query builder
 * runs per request. Inside a transaction, with DATABASE_PREPARED_STATEMENTS=false, or for a text
 * past the cache's bound it runs through the ORM. Rows come as pg parses them (timestamps as
 * text, like the ORM's raw results: `withDates` as `query` does). Emitted to knex's `query`
 * listeners like any statement, so statement counts see it.
 */
export async function hotQuery<T>(em: EntityManager, sql: string, bindings: unknown[] = []): Promise<T[]> {
  return hotStatement<T>(em, em.getTransactionContext(), sql, bindings);
}

/** One statement as pg takes it: a name makes it a prepared statement on the connection. */
export interface StatementConfig {
  name?: string;
  text: string;
  values?: unknown[];
}

/** A pg client as the ORM's pool hands it out: the callback form of `query`, given a Query, is the one used here. */
export interface PgConnection extends PgBackend {
  query(query: Query, callback: (error: Error | null, result: unknown) => void): void;
}

/**
 * Sends one statement on a pooled pg client: its callback form, wrapped in a promise (as knex and
 * pg-pool call it), never the promise form (`client.query(config)` with no callback).
 *
 * With pg 8.23 the promise form kept every answer alive through the next young-generation
 * collection, so V8 moved each request's rows and the objects around them to the old generation
 * (about 26 KB a songs page of 50: 5-6 MB at every scavenge), filling it with garbage and setting off
 * a mark-compact every few seconds (10-30 ms pauses) even at 30 requests a second. Through the
 * service's songs route: 4.8-6.5 MB promoted a scavenge with the promise form, 0.02-0.04 MB with this
 * one (issue 31, bench/results/2026-11-27-promotion.md); src/db/sql.int.test.ts holds it.
 */
export function send<T>(connection: PgConnection, config: StatementConfig): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    connection.query(statementQuery(config), (error, result) => (error ? reject(error) : resolve(result as T)));
  });
}

/**
 * The statement as pg's `Query` (the Submittable pg's client runs as given), made from its text
 * and values, its name set after: given a config *object*, pg copies it property by property
 * (`cloneQueryConfig`: `getOwnPropertyDescriptors`, then `defineProperties` on a fresh object),
 * about 3 µs a statement and 1-1.5 % of a saturated process's samples on the songs page and the
 * runs status read; given a text, it wraps it. The name alone makes pg prepare it once per
 * connection (src/db/sql.int.test.ts holds that a hot statement is prepared, and reused).
 */
function statementQuery(config: StatementConfig): Query {
  const query = new Query(config.text, config.values);
  if (config.name !== undefined) (query as Query & { name?: string }).name = config.name;
  return query;
}

/** What a statement is sent with: the ORM's connection and configuration (shared by every fork of one ORM). */
export type StatementTarget = Pick<EntityManager, 'getConnection' | 'config'>;

/** hotQuery on a connection with the transaction given (undefined: none, on the pool). */
export async function hotStatement<T>(target: StatementTarget, transaction: Transaction | undefined, sql: string, bindings: unknown[] = []): Promise<T[]> {
  const statement = transaction || unprepared.has(target.config) ? undefined : preparedFor(sql);
  if (!statement) return target.getConnection().execute<T[]>(sql, bindings, 'all', transaction);
  const client = target.getConnection().getKnex().client;
  const connection = (await client.acquireConnection()) as PgConnection;
  try {
    client.emit('query', { sql, bindings, method: 'raw', prepared: statement.name });
    const result = await tracked(connection, () => send<{ rows: T[] }>(connection, { name: statement.name, text: statement.text, values: bindings }));
    return result.rows;
  } finally {
    client.releaseConnection(connection);
  }
}
