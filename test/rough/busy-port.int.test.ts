import { fork } from 'node:child_process';
import { connect, createServer, Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createTestDatabase, TestDatabase } from '../db';
import { initOrm } from '../../src/db/orm';
import { entities } from '../../src/modules';

const root = join(__dirname, '..', '..');

function holdPort(): Promise<Server> {
  const server = createServer();
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** A TCP relay in front of PostgreSQL that counts the connections made through it. */
function countingRelay(databaseUrl: string): Promise<{ server: Server; url: string; connections: () => number }> {
  const target = new URL(databaseUrl);
  let connections = 0;
  const server = createServer((socket) => {
    connections += 1;
    const upstream = connect(Number(target.port || 5432), target.hostname);
    socket.pipe(upstream).pipe(socket);
    socket.on('error', () => upstream.destroy());
    upstream.on('error', () => socket.destroy());
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const url = new URL(databaseUrl);
      url.hostname = '127.0.0.1';
      url.port = String((server.address() as AddressInfo).port);
      resolve({ server, url: url.toString(), connections: () => connections });
    }),
  );
}

describe('npm start on a busy port (issue 16)', () => {
  let db: TestDatabase;
  let held: Server;
  let relay: Awaited<ReturnType<typeof countingRelay>>;
  beforeAll(async () => {
    db = await createTestDatabase();
    held = await holdPort();
    relay = await countingRelay(db.url);
  });
  afterAll(async () => {
    held.close();
    relay.server.close();
    await db.drop();
  });

  it('exits non-zero at once, naming the port, and starts no worker or queue', async () => {
    const port = (held.address() as AddressInfo).port;
    const child = fork(join(root, 'src', 'main.ts'), [], {
      cwd: root,
      execArgv: ['-r', join(root, 'test', 'support', 'swc-register.js')],
      env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', LOG_LEVEL: 'info', LOG_FORMAT: 'json', DATABASE_URL: relay.url, PORT: String(port), HOST: '127.0.0.1', RENDER_WORKERS: '1' },
      stdio: 'pipe',
    });
    let output = '';
    child.stdout!.on('data', (chunk) => (output += String(chunk)));
    child.stderr!.on('data', (chunk) => (output += String(chunk)));
    // A child that hangs is killed (exit code null). How long a start takes depends on the machine,
    // so "at once" is asserted by what ran, not by the clock: nothing after the port check, not even the database.
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
    clearTimeout(timer);

    expect(code).not.toBeNull();
    expect(code).not.toBe(0);
    expect(output).toContain(`Port ${port} on 127.0.0.1 is already in use`);
    expect(output).not.toMatch(/render worker|listening/i);
    expect(relay.connections()).toBe(0);
    // The child left no database connection behind.
    const orm = await initOrm({ url: db.url, poolMax: 1, entities });
    try {
      const left = await orm.em.getConnection().execute(`select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`);
      expect(left).toHaveLength(0);
    } finally {
      await orm.close(true);
    }
  }, 90_000);
});
