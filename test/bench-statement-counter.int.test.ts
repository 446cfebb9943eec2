import { Client } from 'pg';
import { startCountingProxy, type CountingProxy } from '../bench/statement-counter';
import { ENV_ADMIN_URL } from './pg';

/** The benchmark's statement counter (bench/statement-counter.ts) against a real PostgreSQL connection through `pg`. */
describe('bench statement counter', () => {
  let proxy: CountingProxy;
  let client: Client;

  beforeAll(async () => {
    const admin = new URL(process.env[ENV_ADMIN_URL]!);
    proxy = await startCountingProxy({ host: admin.hostname, port: Number(admin.port || 5432) });
    admin.hostname = '127.0.0.1';
    admin.port = String(proxy.port);
    client = new Client({ connectionString: admin.toString() });
    await client.connect();
  });

  afterAll(async () => {
    await client?.end();
    await proxy?.close();
  });

  const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

  it('counts nothing for the connection start-up and authentication', async () => {
    await settle();
    expect(proxy.count).toBe(0);
  });

  it('counts a simple-protocol query once', async () => {
    proxy.reset();
    await client.query('select 1');
    await settle();
    expect(proxy.count).toBe(1);
    expect(proxy.queries).toEqual(['select 1']);
  });

  it('counts an extended-protocol query (Parse, Bind, Describe, Execute, Sync) once', async () => {
    proxy.reset();
    await client.query('select $1::int + 1 as n', [41]);
    await settle();
    expect(proxy.count).toBe(1);
    expect(proxy.queries).toEqual(['select $1::int + 1 as n']);
  });

  it('counts each execution of a named prepared statement, with its text', async () => {
    proxy.reset();
    for (const n of [1, 2, 3]) await client.query({ name: 'counter-test', text: 'select $1::int as n', values: [n] });
    await settle();
    expect(proxy.count).toBe(3);
    expect(proxy.queries).toEqual(['select $1::int as n', 'select $1::int as n', 'select $1::int as n']);
  });
});
