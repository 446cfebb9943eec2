import { Client } from 'pg';

/**
 * Runs `fn` while holding the session advisory lock `key`, taken on a connection of its own to
 * `sessionUrl` (DATABASE_LISTEN_URL: a transaction pooler would lose a session lock between
 * statements). Processes starting together thereby take turns; the lock goes with the session.
 */
export async function withSessionLock<T>(sessionUrl: string, key: string, fn: () => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: sessionUrl, application_name: 'startup-lock', connectionTimeoutMillis: 5000 });
  client.on('error', () => undefined);
  await client.connect();
  try {
    await client.query('select pg_advisory_lock(hashtextextended($1, 0))', [key]);
    return await fn();
  } finally {
    // Ending the session releases the lock, also when fn failed.
    await client.end().catch(() => undefined);
  }
}
