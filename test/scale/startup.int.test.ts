import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { createLogger } from '../../src/common/logger';
import { loadConfig } from '../../src/config/config';
import { Database, DEMO_SEED_SETTING, demoSeedVersion, openDatabase } from '../../src/db/database';
import { entities } from '../../src/modules';
import { RenderQueue } from '../../src/jobs/queue';
import { migrationsList } from '../../migrations';
import { adminQuery, databaseUrl, ENV_ADMIN_URL } from '../pg';

const logger = createLogger(process.env.TEST_LOG_LEVEL ?? 'silent');

/** Instances that start at the same moment on a new, empty database (a fresh deployment scaled to N at once). */
describe('instances starting together on an empty database', () => {
  const adminUrl = () => process.env[ENV_ADMIN_URL]!;
  const name = `mas_t_empty_${randomBytes(5).toString('hex')}`;
  const url = () => databaseUrl(adminUrl(), name);
  const opened: Database[] = [];
  const queues: RenderQueue[] = [];
  beforeAll(async () => {
    await adminQuery(adminUrl(), `create database "${name}"`);
  });
  afterAll(async () => {
    await Promise.all(queues.map((q) => q.stop()));
    await Promise.all(opened.map((d) => d.close()));
    await adminQuery(adminUrl(), `drop database if exists "${name}" with (force)`);
  });

  const query = async <T,>(sql: string): Promise<T[]> => {
    const client = new Client({ connectionString: url() });
    await client.connect();
    try {
      return (await client.query(sql)).rows as T[];
    } finally {
      await client.end();
    }
  };

  it('three instances migrate and seed one after another: every migration applied once, the demo data set loaded once', async () => {
    const config = loadConfig({ NODE_ENV: 'test', DATABASE_URL: url(), DATABASE_POOL_MAX: '3', DEMO_SEED: 'true' });
    opened.push(...(await Promise.all([1, 2, 3].map(() => openDatabase(config, logger, { entities })))));
    const applied = await query<{ name: string; n: number }>('select name, count(*)::int as n from mikro_orm_migrations group by name');
    expect(applied).toHaveLength(migrationsList.length);
    expect(applied.every((m) => m.n === 1)).toBe(true);
    expect(await query("select count(*)::int as n from accounts where name = 'Nora North'")).toEqual([{ n: 1 }]);
  });

  it('loads the demo data set again at start only when its version changed (a plain restart leaves the data as it is)', async () => {
    const config = loadConfig({ NODE_ENV: 'test', DATABASE_URL: url(), DATABASE_POOL_MAX: '3', DEMO_SEED: 'true' });
    const version = demoSeedVersion(config);
    expect(await query(`select value from settings where name = '${DEMO_SEED_SETTING}'`)).toEqual([{ value: version }]);
    const [first] = await query<{ id: string }>('select id from template_favourites order by id limit 1');
    await query(`delete from template_favourites where id = '${first!.id}'`);
    // Same version: a restart runs no seed, so a demo row deleted by hand stays deleted.
    opened.push(await openDatabase(config, logger, { entities }));
    expect(await query(`select count(*)::int as n from template_favourites where id = '${first!.id}'`)).toEqual([{ n: 0 }]);
    // Another version (a release changed the data set): the next start loads it, and records the version.
    await query(`update settings set value = 'an-older-release' where name = '${DEMO_SEED_SETTING}'`);
    opened.push(await openDatabase(config, logger, { entities }));
    expect(await query(`select count(*)::int as n from template_favourites where id = '${first!.id}'`)).toEqual([{ n: 1 }]);
    expect(await query(`select value from settings where name = '${DEMO_SEED_SETTING}'`)).toEqual([{ value: version }]);
  });

  it('four processes set up the render queue at once (pg-boss\'s create_queue would deadlock without the lock)', async () => {
    const config = loadConfig({ NODE_ENV: 'test', DATABASE_URL: url() });
    queues.push(...[1, 2, 3, 4].map(() => new RenderQueue(url(), config.render, logger, 2)));
    const started = await Promise.allSettled(queues.map((q) => q.start()));
    expect(started.map((s) => (s.status === 'rejected' ? String(s.reason) : s.status))).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'fulfilled']);
    expect(await query<{ name: string }>("select name from pgboss.queue where name like 'render-%' order by name")).toEqual([{ name: 'render-video' }, { name: 'render-video-dead' }]);
  });
});
