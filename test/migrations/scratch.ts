import { MikroORM } from '@mikro-orm/core';
import { Migrator } from '@mikro-orm/migrations';
import { PostgreSqlDriver } from '@mikro-orm/postgresql';
import { randomBytes } from 'node:crypto';
import { migrationsList } from '../../migrations';
import { adminQuery, databaseUrl, ENV_ADMIN_URL } from '../pg';

/** An empty database of a migration test's own, migrated step by step (not the template: it is fully migrated). */
export interface ScratchDatabase {
  orm: MikroORM<PostgreSqlDriver>;
  exec<T = Record<string, unknown>>(sql: string, bindings?: unknown[]): Promise<T[]>;
  /** Applies the migrations up to this one (all of them without a name). */
  up(to?: string): Promise<void>;
  drop(): Promise<void>;
}

export async function scratchDatabase(): Promise<ScratchDatabase> {
  const adminUrl = process.env[ENV_ADMIN_URL]!;
  const name = `mas_mig_${randomBytes(6).toString('hex')}`;
  await adminQuery(adminUrl, `create database "${name}"`);
  const orm = await MikroORM.init<PostgreSqlDriver>({
    driver: PostgreSqlDriver,
    clientUrl: databaseUrl(adminUrl, name),
    entities: [],
    discovery: { warnWhenNoEntities: false },
    extensions: [Migrator],
    migrations: { migrationsList, transactional: true, allOrNothing: true, snapshot: false, silent: true },
    pool: { min: 0, max: 2 },
  });
  return {
    orm,
    exec: <T>(sql: string, bindings: unknown[] = []) => orm.em.getConnection().execute<T[]>(sql, bindings),
    up: async (to?: string) => {
      await orm.getMigrator().up(to ? { to } : undefined);
    },
    drop: async () => {
      await orm.close(true);
      await adminQuery(adminUrl, `drop database if exists "${name}" with (force)`);
    },
  };
}
