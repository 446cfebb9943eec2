import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';

/**
 * Memory per idle websocket connection and per subscription (issue 31), on the service only (the
 * peers serve no websockets here): the contender process's heap (after a full GC) and RSS with no
 * connection, with `connections` idle graphql-ws connections (authenticated, connection_ack
 * received), and with one live `renderRuns` subscription on each (its first message received).
 */
export interface MemoryUsage {
  rss: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
}

export interface WsMemorySummary {
  connections: number;
  /** Bytes per idle connection: heap used after a full GC, and RSS. */
  heapPerConnection: number;
  rssPerConnection: number;
  /** Bytes per subscription (one per connection), on top of its connection. */
  heapPerSubscription: number;
  rssPerSubscription: number;
  samples: { none: MemoryUsage; connected: MemoryUsage; subscribed: MemoryUsage };
}

/** The newest run in reach first (so the subscription is known to be live), then changes. */
const RUNS = 'subscription { renderRuns(initial: 1) { id status } }';

function connect(port: number, apiKey: string): Promise<Client> {
  return new Promise((resolve, reject) => {
    const client = createClient({
      url: `ws://127.0.0.1:${port}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { 'x-api-key': apiKey },
      retryAttempts: 0,
      lazy: false,
      onNonLazyError: reject,
      on: { connected: () => resolve(client) },
    });
  });
}

function subscribe(client: Client): Promise<void> {
  return new Promise((resolve, reject) => {
    client.subscribe(
      { query: RUNS },
      {
        next: (message) => (message.errors?.length ? reject(new Error(JSON.stringify(message.errors))) : resolve()),
        error: (error) => reject(error instanceof Error ? error : new Error(JSON.stringify(error))),
        complete: () => reject(new Error('renderRuns completed before its first message')),
      },
    );
  });
}

async function openAll(port: number, apiKey: string, n: number): Promise<Client[]> {
  const clients: Client[] = [];
  // In batches: a connection storm would measure the accept queue, not the connections.
  for (let i = 0; i < n; i += 25) clients.push(...(await Promise.all(Array.from({ length: Math.min(25, n - i) }, () => connect(port, apiKey)))));
  return clients;
}

export async function wsMemory(port: number, apiKey: string, connections: number, memory: () => Promise<MemoryUsage>): Promise<WsMemorySummary> {
  // Unmeasured: the first connections and subscriptions load what every later one shares.
  const warm = await openAll(port, apiKey, 5);
  await Promise.all(warm.map(subscribe));
  await Promise.all(warm.map((c) => c.dispose()));
  await new Promise((done) => setTimeout(done, 500));
  const none = await memory();
  const clients = await openAll(port, apiKey, connections);
  try {
    const connected = await memory();
    for (let i = 0; i < clients.length; i += 25) await Promise.all(clients.slice(i, i + 25).map(subscribe));
    const subscribed = await memory();
    return {
      connections,
      heapPerConnection: (connected.heapUsed + connected.external - none.heapUsed - none.external) / connections,
      rssPerConnection: (connected.rss - none.rss) / connections,
      heapPerSubscription: (subscribed.heapUsed + subscribed.external - connected.heapUsed - connected.external) / connections,
      rssPerSubscription: (subscribed.rss - connected.rss) / connections,
      samples: { none, connected, subscribed },
    };
  } finally {
    await Promise.all(clients.map((c) => c.dispose()));
  }
}
