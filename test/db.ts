import { randomBytes } from 'node:crypto';
import { adminQuery, databaseUrl, ENV_ADMIN_URL, ENV_TEMPLATE } from './pg';

export interface TestDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

/** A database of this test file's own, cloned from the migrated template (fast: no migrations). */
export async function createTestDatabase(): Promise<TestDatabase> {
  const adminUrl = process.env[ENV_ADMIN_URL];
  const template = process.env[ENV_TEMPLATE];
  if (!adminUrl || !template) throw new Error('Integration tests need the jest global setup (run them through `npm test`).');
  const name = `mas_t_${randomBytes(6).toString('hex')}`;
  await adminQuery(adminUrl, `create database "${name}" template "${template}"`);
  return {
    name,
    url: databaseUrl(adminUrl, name),
    drop: () => adminQuery(adminUrl, `drop database if exists "${name}" with (force)`),
  };
}
