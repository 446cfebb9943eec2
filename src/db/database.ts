import type { Logger } from '../common/logger';
import type { Config } from '../config/config';
import { startEmbeddedPostgres } from './embedded';
import { initOrm, Orm } from './orm';
import { seedDemo } from './seeders/demo.seeder';
import { withSessionLock } from './session-lock';

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
export interface OpenDatabaseOptions {
  /** Every entity class (the modules' list, from the composition root). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  entities: any[];
  migrate?: boolean;
  seed?: boolean;
}

export async function openDatabase(config: Config, logger: Logger, { entities, migrate = true, seed = true }: OpenDatabaseOptions): Promise<Database> {
  const embedded = config.database.url
    ? undefined
    : await startEmbeddedPostgres(config.database.embeddedDir, config.database.embeddedPort, logger);
  const url = config.database.url ?? embedded!.url;
  const listenUrl = config.database.listenUrl ?? url;
  let orm: Orm | undefined;
  try {
    const settings = { url, poolMax: config.database.poolMax, entities, preparedStatements: config.database.preparedStatements };
    const wantSeed = seed && (config.database.demoSeed === 'true' || (config.database.demoSeed === 'auto' && Boolean(embedded)));
    if (migrate || wantSeed) {
      // Migrations and the seed run without DATABASE_STATEMENT_TIMEOUT_MS (a migration may rewrite a big
      // table), on an ORM of their own that is closed before the service's opens.
      orm = await initOrm(settings);
      const ready = orm;
      // Instances starting together migrate and seed one after another; the later ones find nothing to do.
      await withSessionLock(listenUrl, STARTUP_LOCK, async () => {
        if (migrate) {
          const applied = await ready.getMigrator().up();
          if (applied.length) logger.info({ migrations: applied.map((m) => m.name) }, 'migrations applied');
        }
        if (wantSeed) {
          const created = await seedDemo(ready, config);
          if (created) logger.info('demo data set loaded');
        }
      });
      await ready.close(true);
      orm = undefined;
    }
    orm = await initOrm({
      ...settings,
      poolMin: config.database.poolMin,
      poolIdleTimeoutMs: config.database.poolIdleTimeoutMs,
      statementTimeoutMs: startupStatementTimeout(config, url, listenUrl, logger),
    });
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
 * The statement_timeout the ORM pool sends when it connects (a startup parameter). A DATABASE_URL
 * that is not DATABASE_LISTEN_URL goes through a transaction pooler (docs/operations/scale.md), and
 * PgBouncer refuses a connection that sends statement_timeout (before 1.20; later ones only with
 * `track_extra_parameters`): there the timeout is the database role's (`ALTER ROLE … SET
 * statement_timeout`), which every server connection PgBouncer opens takes, and none is sent.
 */
function startupStatementTimeout(config: Config, url: string, listenUrl: string, logger: Logger): number {
  const timeout = config.database.statementTimeoutMs;
  if (timeout <= 0 || listenUrl === url) return timeout;
  logger.warn(
    { statementTimeoutMs: timeout },
    'DATABASE_URL goes through a pooler (DATABASE_LISTEN_URL differs): DATABASE_STATEMENT_TIMEOUT_MS is not sent when connecting; set it on the role PgBouncer connects as (ALTER ROLE … SET statement_timeout)',
  );
  return 0;
}
