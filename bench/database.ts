import type { Logger } from '../src/common/logger';
import { startEmbeddedPostgres } from '../src/db/embedded';
import { adminQuery, canConnect } from '../test/pg';

const LOCAL_ADMIN_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

export interface BenchDatabase {
  /** Connection string of the bench database (no application_name: each process sets PGAPPNAME). */
  url: string;
  /** Where it came from, for the report. */
  source: string;
  close(): Promise<void>;
}

/**
 * The PostgreSQL the benchmark runs on, chosen like the integration tests (test/global-setup.ts):
 * DATABASE_URL when set (used as is), else a fresh database on the PostgreSQL at 127.0.0.1:5432
 * when it answers (created now, dropped by close()), else the embedded PostgreSQL under /tmp.
 */
export async function openBenchDatabase(logger: Logger): Promise<BenchDatabase> {
  if (process.env.DATABASE_URL) return { url: process.env.DATABASE_URL, source: 'DATABASE_URL', close: async () => undefined };
  if (await canConnect(LOCAL_ADMIN_URL)) {
    const name = `mas_bench_${process.pid}_${Date.now().toString(36)}`;
    await adminQuery(LOCAL_ADMIN_URL, `create database "${name}"`);
    const url = new URL(LOCAL_ADMIN_URL);
    url.pathname = `/${name}`;
    return {
      url: url.toString(),
      source: `PostgreSQL at 127.0.0.1:5432, database ${name} (dropped afterwards)`,
      close: () => adminQuery(LOCAL_ADMIN_URL, `drop database if exists "${name}" with (force)`),
    };
  }
  const embedded = await startEmbeddedPostgres('/tmp/mas-bench-pg', Number(process.env.BENCH_EMBEDDED_PG_PORT ?? 54339), logger);
  return { url: embedded.url, source: 'embedded PostgreSQL (/tmp/mas-bench-pg)', close: () => embedded.stop() };
}

/** The same connection string pointing at another host:port (the statement-counting proxy). */
export function viaPort(url: string, host: string, port: number): string {
  const u = new URL(url);
  u.hostname = host;
  u.port = String(port);
  return u.toString();
}
