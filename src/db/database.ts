import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import type { Logger } from '../common/logger';
import type { Config } from '../config/config';
import { migrationsList } from '../../migrations';
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
    // jit=off is sent when connecting (orm.ts), so not through a pooler, which would refuse the connection: the role's there (docs/operations/scale.md).
    const settings = { url, poolMax: config.database.poolMax, entities, preparedStatements: config.database.preparedStatements, jit: listenUrl !== url, logger };
    const wantSeed = seed && (config.database.demoSeed === 'true' || (config.database.demoSeed === 'auto' && Boolean(embedded)));
    const seedVersion = wantSeed ? demoSeedVersion(config) : '';
    // A restart with nothing to do opens no ORM for it: one connection reads what is applied and seeded.
    const todo = migrate || wantSeed ? await startupWork(url, { migrate, seedVersion }) : { migrate: false, seed: false };
    if (todo.migrate || todo.seed) {
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
        if (todo.seed) {
          const created = await seedDemo(ready, config);
          await ready.em.getConnection().execute(
            'insert into settings (name, value) values (?, ?) on conflict (name) do update set value = excluded.value',
            [DEMO_SEED_SETTING, seedVersion],
          );
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

/** The setting holding the version of the demo data set last loaded at start (demoSeedVersion). */
export const DEMO_SEED_SETTING = 'demo_seed_version';

/**
 * The version of the demo data set this build loads: a hash of the seeders' code and the
 * configuration they read. Start-up loads the data set again only when it differs from the one
 * recorded (a new release's rows are added; a plain restart runs no statement of the seed);
 * `npm run db:seed` loads it whenever asked, restoring deleted demo rows.
 */
export function demoSeedVersion(config: Config): string {
  const hash = createHash('sha256').update(JSON.stringify(config));
  const dir = join(__dirname, 'seeders');
  for (const file of readdirSync(dir).sort()) {
    if (/\.(ts|js)$/.test(file) && !file.endsWith('.test.ts')) hash.update(file).update(readFileSync(join(dir, file)));
  }
  return hash.digest('hex');
}

/**
 * What start-up has to do on this database: migrations not yet applied, the demo data set not yet
 * at `seedVersion` (empty: not wanted). One connection and two reads; a table that does not exist
 * yet means a new database, where everything is to be done.
 */
async function startupWork(url: string, { migrate, seedVersion }: { migrate: boolean; seedVersion: string }): Promise<{ migrate: boolean; seed: boolean }> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    let pending = migrate;
    if (migrate) {
      const applied = await client.query<{ name: string }>('select name from mikro_orm_migrations').catch(missingTable);
      const names = new Set(applied?.rows.map((row) => row.name));
      pending = migrationsList.some((migration) => !names.has(migration.name));
    }
    let seed = false;
    if (seedVersion) {
      const stored = await client.query<{ value: string }>('select value from settings where name = $1', [DEMO_SEED_SETTING]).catch(missingTable);
      seed = stored?.rows[0]?.value !== seedVersion;
    }
    return { migrate: pending, seed };
  } finally {
    await client.end();
  }
}

/** undefined for "relation does not exist" (42P01); any other error is thrown on. */
function missingTable(error: unknown): undefined {
  if ((error as { code?: string }).code === '42P01') return undefined;
  throw error;
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
