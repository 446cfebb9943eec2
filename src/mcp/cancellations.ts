import type { Logger } from '../common/logger';
import { PgListener } from '../db/listener';

export const MCP_CANCEL_CHANNEL = 'mcp_cancellations';

/** Longest key announced (NOTIFY payloads are bounded; a request id longer than this is not cancellable across instances). */
const MAX_KEY = 1000;

/**
 * Cancellation of long tool calls across instances. Stateless Streamable HTTP sends a client's
 * `notifications/cancelled` in a POST of its own, which the balancer may hand to another
 * instance than the one running the call: the receiving instance announces (account, request id)
 * on PostgreSQL NOTIFY and every instance aborts its calls of that account with that id (a
 * waiting render stops waiting; nothing else is undone). The LISTEN session opens on first use.
 */
export class McpCancellations {
  private readonly waiting = new Map<string, Set<AbortController>>();
  private readonly listener: PgListener;

  constructor(url: string, logger: Logger) {
    this.listener = new PgListener(url, MCP_CANCEL_CHANNEL, logger, {
      applicationName: 'mcp-cancellations',
      onNotification: (key) => {
        for (const controller of this.waiting.get(key) ?? []) controller.abort();
      },
      reconnectWhile: () => this.waiting.size > 0,
    });
  }

  /** A signal aborted when the account's client cancels request `requestId` (on any instance); `done` forgets it. */
  async watch(accountId: string, requestId: string | number): Promise<{ signal: AbortSignal; done(): void }> {
    const key = keyOf(accountId, requestId);
    const controller = new AbortController();
    if (key.length > MAX_KEY) return { signal: controller.signal, done: () => undefined };
    let set = this.waiting.get(key);
    if (!set) this.waiting.set(key, (set = new Set()));
    set.add(controller);
    const done = () => {
      const current = this.waiting.get(key);
      current?.delete(controller);
      if (current && current.size === 0) this.waiting.delete(key);
    };
    try {
      await this.listener.ensure();
    } catch (error) {
      done();
      throw error;
    }
    return { signal: controller.signal, done };
  }

  /** Announces the cancellation to every instance (this one included). */
  async cancel(accountId: string, requestId: string | number): Promise<void> {
    const key = keyOf(accountId, requestId);
    if (key.length > MAX_KEY) return;
    await this.listener.ensure();
    await this.listener.notify(key);
  }

  close(): Promise<void> {
    return this.listener.close();
  }
}

function keyOf(accountId: string, requestId: string | number): string {
  return `${accountId}:${JSON.stringify(requestId)}`;
}
