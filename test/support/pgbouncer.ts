import { ChildProcess, spawn } from 'node:child_process';
import { accessSync, chmodSync, constants, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { Client } from 'pg';
import { freePort } from './processes';

/** PGBOUNCER_PATH, else `pgbouncer` on PATH or in /usr/sbin (Debian's package puts it there). */
export function findPgBouncer(): string | undefined {
  const executable = (path: string) => {
    try {
      accessSync(path, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  };
  if (process.env.PGBOUNCER_PATH) return executable(process.env.PGBOUNCER_PATH) ? process.env.PGBOUNCER_PATH : undefined;
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/sbin', '/usr/local/sbin'];
  return dirs.filter(Boolean).map((dir) => join(dir, 'pgbouncer')).find(executable);
}

export interface TestPgBouncer {
  port: number;
  /** A URL of `database` through the pooler, with the admin URL's user (the pooler trusts it; it logs in to PostgreSQL with the password it was given). */
  url(database: string): string;
  /** A statement on the admin console (SHOW POOLS, SHOW STATS, ...); simple protocol only. */
  admin<T = Record<string, unknown>>(statement: string): Promise<T[]>;
  close(): Promise<void>;
}

/**
 * PgBouncer in transaction pooling mode on a free loopback port, in front of the PostgreSQL of
 * `adminUrl` (any database, by name). Clients are trusted; PgBouncer logs in with the admin URL's
 * user and password. As root it drops to `nobody` (PgBouncer refuses to run as root).
 */
export async function startPgBouncer(binary: string, adminUrl: string, { poolSize = 3 } = {}): Promise<TestPgBouncer> {
  const target = new URL(adminUrl);
  const user = decodeURIComponent(target.username || 'postgres');
  const password = decodeURIComponent(target.password);
  const dir = mkdtempSync(join(tmpdir(), 'mas-pgbouncer-'));
  const port = await freePort();
  const server = [`host=${target.hostname}`, `port=${target.port || 5432}`, `user=${user}`, ...(password ? [`password=${password}`] : [])].join(' ');
  writeFileSync(join(dir, 'userlist.txt'), `"${user}" ""\n`);
  writeFileSync(
    join(dir, 'pgbouncer.ini'),
    [
      '[databases]',
      `* = ${server}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${join(dir, 'userlist.txt')}`,
      `admin_users = ${user}`,
      'pool_mode = transaction',
      `default_pool_size = ${poolSize}`,
      'max_client_conn = 200',
      'server_login_retry = 1',
      'logfile =',
      'pidfile =',
      '',
    ].join('\n'),
  );
  // The unprivileged user must read its files.
  chmodSync(dir, 0o755);
  const asRoot = process.getuid?.() === 0;
  const child: ChildProcess = spawn(binary, [...(asRoot ? ['-u', 'nobody'] : []), join(dir, 'pgbouncer.ini')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let alive = true;
  void exited.then(() => {
    alive = false;
  });

  const connect = async (database: string) => {
    const client = new Client({ host: '127.0.0.1', port, user, database, connectionTimeoutMillis: 2000 });
    client.on('error', () => undefined);
    await client.connect();
    return client;
  };
  const admin = async <T,>(statement: string): Promise<T[]> => {
    const client = await connect('pgbouncer');
    try {
      return (await client.query(statement)).rows as T[];
    } finally {
      await client.end().catch(() => undefined);
    }
  };
  const close = async () => {
    if (alive) {
      // SIGTERM: immediate shutdown in PgBouncer 1.x before 1.23 (later: after clients leave, so SIGKILL after a moment).
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(dir, { recursive: true, force: true });
  };

  for (let i = 0; ; i += 1) {
    if (!alive) {
      await close();
      throw new Error(`pgbouncer exited at start: ${stderr.trim()}`);
    }
    const ok = await admin('show version').then(() => true, () => false);
    if (ok) break;
    if (i > 50) {
      await close();
      throw new Error(`pgbouncer did not answer on port ${port}: ${stderr.trim()}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    port,
    url(database) {
      return `postgres://${encodeURIComponent(user)}@127.0.0.1:${port}/${database}`;
    },
    admin,
    close,
  };
}
