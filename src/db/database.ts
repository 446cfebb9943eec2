import { Client } from 'pg';
import type { Logger } from '../common/logger';
import type { Config } from '../config/config';
import { startEmbeddedPostgres } from './embedded';
import { initOrm, Orm } from './orm';
import { seedDemo } from './seeders/demo.seeder';

export interface Database {
  orm: Orm;
  url: string;
  /** Session connections (LISTEN/NOTIFY, pg-boss): DATABASE_LISTEN_URL, else `url`. */
  listenUrl: string;
  embedded: boolean;
  close(): Promise<void>;
}

/**
 * DATABASE_URL when set; otherwise the embedded PostgreSQL under EMBEDDED_PG_DIR. Applies pending
 * migrations, then loads the demo data set when DEMO_SEED says so (auto: on the embedded default).
 */
export async function openDatabase(config: Config, logger: Logger, { migrate = true, seed = true } = {}): Promise<Database> {
  const embedded = config.database.url
    ? undefined
    : await startEmbeddedPostgres(config.database.embeddedDir, config.database.embeddedPort, logger);
  const url = config.database.url ?? embedded!.url;
  const listenUrl = config.database.listenUrl ?? url;
  let orm: Orm | undefined;
  try {
    orm = await initOrm({ url, poolMax: config.database.poolMax });
    const ready = orm;
    const wantSeed = seed && (config.database.demoSeed === 'true' || (config.database.demoSeed === 'auto' && Boolean(embedded)));
    if (migrate || wantSeed) {
      await underStartupLock(listenUrl, async () => {
        if (migrate) {
          const applied = await ready.getMigrator().up();
          if (applied.length) logger.info({ migrations: applied.map((m) => m.name) }, 'migrations applied');
        }
        if (wantSeed) {
          const created = await seedDemo(ready, config);
          if (created) logger.info('demo data set loaded');
        }
      });
    }
  } catch (error) {
    await orm?.close();
    await embedded?.stop();
    throw error;
  }
  const ormRef = orm;
  return {
    orm: ormRef,
    url,
    listenUrl,
    embedded: Boolean(embedded),
    async close() {
      await ormRef.close(true);
      await embedded?.stop();
    },
  };
}

/** Key of the session advisory lock that start-up holds while it migrates and seeds. */
export const STARTUP_LOCK = 'mas:startup-migrations';

/**
 * Runs `fn` while holding a session advisory lock on a connection of its own (the listen URL: a
 * transaction pooler would drop a session lock), so instances starting together migrate and
 * seed one after another; the others then find nothing left to do.
 */
export async function underStartupLock<T>(sessionUrl: string, fn: () => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: sessionUrl, application_name: 'startup-migrations', connectionTimeoutMillis: 5000 });
  client.on('error', () => undefined);
  await client.connect();
  try {
    await client.query('select pg_advisory_lock(hashtextextended($1, 0))', [STARTUP_LOCK]);
    return await fn();
  } finally {
    // Ending the session releases the lock, also when fn failed.
    await client.end().catch(() => undefined);
  }
}
