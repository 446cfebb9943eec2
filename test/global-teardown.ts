import { adminQuery, ENV_ADMIN_URL } from './pg';

export default async function globalTeardown(): Promise<void> {
  const adminUrl = process.env[ENV_ADMIN_URL];
  const template = (globalThis as { __template?: string }).__template;
  if (adminUrl && template) await adminQuery(adminUrl, `drop database if exists "${template}" with (force)`).catch(() => undefined);
  const pg = (globalThis as { __embeddedPg?: { stop(): Promise<void> } }).__embeddedPg;
  if (pg) await pg.stop();
}
