import { Client, createClient, FormattedExecutionResult } from 'graphql-ws';
import type { AddressInfo } from 'node:net';
import WebSocket from 'ws';
import { createTestApp, TestApp } from './app';
import { as } from './demo';
import { doublingFragments } from './support/documents';

/**
 * Issue 30 finding 1 and issue 24 findings 4–5: documents whose cost is exponential in their size
 * (doubling fragments, aliased introspection) are answered or refused cheaply, over HTTP and
 * graphql-ws, and every client mistake is a 4xx with its own code whatever executor runs it.
 */
describe('GraphQL documents that used to blow up', () => {
  let t: TestApp;
  let port: number;
  let client: Client;

  beforeAll(async () => {
    t = await createTestApp();
    await new Promise<void>((resolve) => t.app.server.listen(0, '127.0.0.1', resolve));
    port = (t.app.server.address() as AddressInfo).port;
    client = createClient({ url: `ws://127.0.0.1:${port}/graphql`, webSocketImpl: WebSocket, connectionParams: as.nora, retryAttempts: 0, lazy: true });
  });
  afterAll(async () => {
    await client?.dispose();
    await t?.close();
  });

  /** Every message an operation gets over graphql-ws: its results, and its errors when it is refused. */
  const overWebsocket = (query: string, variables?: Record<string, unknown>, operationName?: string) =>
    new Promise<{ results: FormattedExecutionResult<Record<string, unknown>, unknown>[]; errors: unknown[] }>((resolve) => {
      const results: FormattedExecutionResult<Record<string, unknown>, unknown>[] = [];
      client.subscribe({ query, variables, operationName }, {
        next: (result) => void results.push(result),
        error: (error) => resolve({ results, errors: Array.isArray(error) ? error : [error] }),
        complete: () => resolve({ results, errors: [] }),
      });
    });

  describe('fragments each spreading the next twice (2^30 paths)', () => {
    it('a cheap one is answered over HTTP and graphql-ws', async () => {
      const query = doublingFragments(30);
      const http = await t.graphql(query, undefined, as.nora);
      expect(http.status).toBe(200);
      expect(http.body).toEqual({ data: { __typename: 'Query' } });
      // Again: the second run is the compiled one by default.
      expect((await t.graphql(query, undefined, as.nora)).body).toEqual({ data: { __typename: 'Query' } });
      const ws = await overWebsocket(query);
      expect(ws).toEqual({ results: [{ data: { __typename: 'Query' } }], errors: [] });
    });

    it('one selecting a field 2^30 times is refused with BAD_USER_INPUT naming its cost, over HTTP and graphql-ws', async () => {
      const query = doublingFragments(30, 'me { id }');
      const http = await t.graphql(query, undefined, as.nora);
      expect(http.status).toBe(400);
      expect(http.body.errors).toEqual([expect.objectContaining({ message: expect.stringMatching(/^Operation cost 1073741824 exceeds the maximum/), extensions: expect.objectContaining({ code: 'BAD_USER_INPUT' }) })]);
      const ws = await overWebsocket(query);
      expect(ws.results).toEqual([]);
      expect(ws.errors).toEqual([expect.objectContaining({ message: expect.stringMatching(/^Operation cost 1073741824 exceeds the maximum/), extensions: expect.objectContaining({ code: 'BAD_USER_INPUT' }) })]);
    });

    it('below a field too: 2^30 selections of a list inside `me` are refused by cost', async () => {
      const fragments = Array.from({ length: 30 }, (_, i) => `fragment F${i} on AccountProfile { ...F${i + 1} ...F${i + 1} }`);
      const query = `{ me { ...F0 } } ${fragments.join(' ')} fragment F30 on AccountProfile { organizations { id } }`;
      const http = await t.graphql(query, undefined, as.nora);
      expect(http.status).toBe(400);
      expect(http.body.errors).toEqual([expect.objectContaining({ message: expect.stringMatching(/^Operation cost \d+ exceeds the maximum/), extensions: expect.objectContaining({ code: 'BAD_USER_INPUT' }) })]);
    });
  });
});
