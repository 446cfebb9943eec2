import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '../bench/load';

/**
 * The benchmark's closed-loop warm-up (bench/load.ts, `Client.closedLoop`): exactly the requests
 * asked for, never more in flight than the connections given, and every answer that is not the
 * expected status counted as a failure by kind (the harness stops on any).
 */
describe('bench closed-loop warm-up', () => {
  let server: Server;
  let client: Client;
  let inFlight = 0;
  let mostInFlight = 0;
  let served = 0;

  beforeAll(async () => {
    server = createServer((req, res) => {
      inFlight += 1;
      mostInFlight = Math.max(mostInFlight, inFlight);
      served += 1;
      const failing = req.url === '/fail' && served % 5 === 0;
      // Answered a little later, so the connections overlap if the client lets them.
      setTimeout(() => {
        inFlight -= 1;
        res.writeHead(failing ? 503 : 200, { 'content-type': 'text/plain' });
        res.end(failing ? 'unavailable' : 'ok');
      }, 2);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    client = new Client((server.address() as AddressInfo).port);
  });

  beforeEach(() => {
    served = 0;
    mostInFlight = 0;
  });

  afterAll(async () => {
    client.close();
    await new Promise((resolve) => server.close(resolve));
  });

  it('sends exactly the requests asked for, with at most `connections` in flight', async () => {
    const result = await client.closedLoop({ method: 'GET', path: '/ok' }, 50, 3);
    expect(result).toMatchObject({ sent: 50, ok: 50, errors: 0, failures: {} });
    expect(served).toBe(50);
    expect(mostInFlight).toBe(3);
  });

  it('counts every other status as a failure, by status and body', async () => {
    const result = await client.closedLoop({ method: 'GET', path: '/fail' }, 20, 2);
    expect(result).toMatchObject({ sent: 20, ok: 16, errors: 4, failures: { 'status 503: unavailable': 4 } });
  });
});
