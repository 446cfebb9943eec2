import { createServer, Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { assertPortFree, listen, PortInUseError } from './listen';

describe('listen on a busy port', () => {
  let held: Server;
  let port: number;
  beforeAll(async () => {
    held = createServer();
    await new Promise<void>((resolve) => held.listen(0, '127.0.0.1', resolve));
    port = (held.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => held.close(() => resolve())));

  it('rejects with the port named instead of leaving an error event unanswered', async () => {
    const server = createServer();
    const failure = listen(server, port, '127.0.0.1').catch((e: unknown) => e);
    const error = await failure;
    expect(error).toBeInstanceOf(PortInUseError);
    expect((error as Error).message).toBe(`Port ${port} on 127.0.0.1 is already in use: stop the other process or set PORT to a free port`);
    expect(server.listening).toBe(false);
    expect(server.listenerCount('error')).toBe(0);
  });

  it('assertPortFree refuses a taken port and leaves a free one free', async () => {
    await expect(assertPortFree(port, '127.0.0.1')).rejects.toThrow(`Port ${port} on 127.0.0.1 is already in use`);
    const free = createServer();
    await listen(free, 0, '127.0.0.1');
    const freePort = (free.address() as AddressInfo).port;
    await new Promise<void>((resolve) => free.close(() => resolve()));
    await assertPortFree(freePort, '127.0.0.1');
    const again = createServer();
    await listen(again, freePort, '127.0.0.1');
    await new Promise<void>((resolve) => again.close(() => resolve()));
  });
});
