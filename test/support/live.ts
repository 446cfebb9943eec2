import { Client, createClient } from 'graphql-ws';
import WebSocket from 'ws';

export const RENDER_RUN_SUBSCRIPTION = 'subscription($runId: String!) { renderRun(runId: $runId) { id status progress attempts output { url bytes codec } } }';

export type PushedRun = { id: string; status: string; progress: number; attempts: number; output: { url: string; bytes: number; codec: string } | null };

/** A graphql-ws client of one API instance, connected at once (so a subscription starts without a handshake). */
export function wsClient(port: number, connectionParams: Record<string, string>): Client {
  return createClient({
    url: `ws://127.0.0.1:${port}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams,
    retryAttempts: 0,
    lazy: false,
    onNonLazyError: () => undefined,
  });
}

export interface Watch {
  states: PushedRun[];
  errors: unknown[];
  /** Resolves with the first pushed state (or error). */
  first: Promise<void>;
  /** Resolves when the subscription ends (after a final state, an error or a closed socket). */
  done: Promise<void>;
}

/** Subscribes to renderRun(runId) and collects every pushed state in order. */
export function watchRun(client: Client, runId: string): Watch {
  const states: PushedRun[] = [];
  const errors: unknown[] = [];
  let resolveFirst!: () => void;
  const first = new Promise<void>((r) => (resolveFirst = r));
  const done = new Promise<void>((resolve) => {
    client.subscribe<{ renderRun: PushedRun }>({ query: RENDER_RUN_SUBSCRIPTION, variables: { runId } }, {
      next: (msg) => {
        if (msg.errors) errors.push(...msg.errors);
        if (msg.data) states.push(msg.data.renderRun);
        resolveFirst();
      },
      error: (error) => {
        errors.push(error);
        resolveFirst();
        resolve();
      },
      complete: () => {
        resolveFirst();
        resolve();
      },
    });
  });
  return { states, errors, first, done };
}

/** Rejects after `ms` with `what`: bounds every wait of a test that drives other processes. */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<T>((_resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms);
    }),
  ]);
}
