import { Client } from 'pg';
import type { Logger } from '../common/logger';

export const RUN_CHANNEL = 'render_runs';

/** A run as announced by the render_runs trigger: every column but the (immutable) payload. */
export interface RunChange {
  id: string;
  account_id: string;
  status: string;
  progress: number;
  attempts: number;
  version: number;
  created_at: string;
  updated_at: string;
  started_at: string | null;
  finished_at: string | null;
  output: Record<string, unknown> | null;
  output_expired_at?: string | null;
  error: string | null;
}

/** A change, or 'resync' after a reconnect (changes may have been missed: read the run again). */
export type RunEvent = RunChange | 'resync';
type Listener = (event: RunEvent) => void;

/**
 * Run changes from every process, through PostgreSQL LISTEN/NOTIFY on one dedicated connection
 * per process. The connection opens on the first subscriber and reconnects with backoff.
 */
export class RunEventBus {
  private client?: Client;
  private connecting?: Promise<void>;
  private readonly listeners = new Map<string, Set<Listener>>();
  private closed = false;
  private retryMs = 250;
  private reconnectTimer?: NodeJS.Timeout;

  constructor(
    private readonly url: string,
    private readonly logger: Logger,
  ) {}

  /** Resolves once LISTEN is active, so no change committed after it is missed. */
  async subscribe(runId: string, listener: Listener): Promise<() => void> {
    if (this.closed) throw new Error('run event bus is closed');
    let set = this.listeners.get(runId);
    if (!set) this.listeners.set(runId, (set = new Set()));
    set.add(listener);
    const off = () => {
      const current = this.listeners.get(runId);
      current?.delete(listener);
      if (current && current.size === 0) this.listeners.delete(runId);
    };
    try {
      await this.connect();
    } catch (error) {
      off();
      throw error;
    }
    return off;
  }

  private connect(): Promise<void> {
    if (this.client) return Promise.resolve();
    this.connecting ??= this.open().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  private async open(): Promise<void> {
    const client = new Client({ connectionString: this.url, application_name: 'render-run-events' });
    client.on('error', (error) => {
      this.logger.warn({ err: error }, 'run events connection failed; reconnecting');
      this.drop(client);
    });
    client.on('end', () => this.drop(client));
    client.on('notification', (message) => {
      if (message.channel !== RUN_CHANNEL || !message.payload) return;
      let change: RunChange;
      try {
        change = JSON.parse(message.payload) as RunChange;
      } catch {
        return;
      }
      this.dispatch(change.id, change);
    });
    await client.connect();
    await client.query(`listen ${RUN_CHANNEL}`);
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.retryMs = 250;
  }

  private dispatch(runId: string, event: RunEvent): void {
    for (const listener of this.listeners.get(runId) ?? []) {
      try {
        listener(event);
      } catch (error) {
        this.logger.error({ err: error }, 'run event listener failed');
      }
    }
  }

  private drop(client: Client): void {
    if (this.client !== client) return;
    this.client = undefined;
    client.end().catch(() => undefined);
    if (this.closed || this.listeners.size === 0) return;
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.reconnectTimer || this.closed) return;
    const wait = this.retryMs;
    this.retryMs = Math.min(this.retryMs * 2, 10_000);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      this.connect()
        .then(() => {
          for (const runId of this.listeners.keys()) this.dispatch(runId, 'resync');
        })
        .catch((error) => {
          this.logger.warn({ err: error }, 'run events reconnect failed');
          this.scheduleReconnect();
        });
    }, wait);
    this.reconnectTimer.unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    await this.connecting?.catch(() => undefined);
    const client = this.client;
    this.client = undefined;
    this.listeners.clear();
    await client?.end().catch(() => undefined);
  }
}
