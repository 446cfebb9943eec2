import { Client } from 'pg';
import type { Logger } from '../common/logger';
import { send } from './sql';

export interface PgListenerOptions {
  /** Shown in pg_stat_activity. */
  applicationName: string;
  /** A notification's payload (empty string when none). */
  onNotification(payload: string): void;
  /** LISTEN is active again after the connection was lost: notifications in between were missed. */
  onReconnected?(): void;
  /** The connection was lost (LISTEN is not active until onReconnected). */
  onLost?(): void;
  /** Whether to reconnect after a loss (default: always, until closed). */
  reconnectWhile?(): boolean;
}

/**
 * One dedicated PostgreSQL session LISTENing on one channel, reconnecting with backoff. Session
 * state: it needs a direct connection, not a transaction pooler.
 */
export class PgListener {
  private client?: Client;
  private connecting?: Promise<void>;
  private closed = false;
  private retryMs = 250;
  private reconnectTimer?: NodeJS.Timeout;
  /** notify() calls run one at a time on the session (pg queues but deprecates overlapping queries). */
  private notifying: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly url: string,
    private readonly channel: string,
    private readonly logger: Logger,
    private readonly options: PgListenerOptions,
  ) {}

  /** Whether LISTEN is active now. */
  get listening(): boolean {
    return Boolean(this.client);
  }

  /** Resolves once LISTEN is active, so no notification committed after it is missed. */
  ensure(): Promise<void> {
    if (this.closed) return Promise.reject(new Error(`listener on ${this.channel} is closed`));
    if (this.client) return Promise.resolve();
    this.connecting ??= this.open().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  /** Sends a notification on the channel from this session (it hears it too, after what committed before). */
  async notify(payload: string): Promise<void> {
    const client = this.client;
    if (!client) throw new Error(`not listening on ${this.channel}`);
    const sent = this.notifying.then(() => send(client, { text: 'select pg_notify($1, $2)', values: [this.channel, payload] }));
    this.notifying = sent.catch(() => undefined);
    await sent;
  }

  /** Like ensure(), but a failed first attempt is retried with backoff instead of thrown. */
  async keepListening(): Promise<void> {
    try {
      await this.ensure();
    } catch (error) {
      this.logger.warn({ err: error, channel: this.channel }, 'LISTEN failed; retrying');
      this.scheduleReconnect();
    }
  }

  private async open(): Promise<void> {
    const client = new Client({ connectionString: this.url, application_name: this.options.applicationName });
    client.on('error', (error) => {
      this.logger.warn({ err: error, channel: this.channel }, 'LISTEN connection failed; reconnecting');
      this.drop(client);
    });
    client.on('end', () => this.drop(client));
    client.on('notification', (message) => {
      if (message.channel === this.channel) this.options.onNotification(message.payload ?? '');
    });
    await client.connect();
    await client.query(`listen ${this.channel}`);
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.retryMs = 250;
  }

  private drop(client: Client): void {
    if (this.client !== client) return;
    this.client = undefined;
    client.end().catch(() => undefined);
    this.options.onLost?.();
    if (this.closed || !(this.options.reconnectWhile?.() ?? true)) return;
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.reconnectTimer || this.closed) return;
    const wait = this.retryMs;
    this.retryMs = Math.min(this.retryMs * 2, 10_000);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      this.ensure()
        .then(() => this.options.onReconnected?.())
        .catch((error) => {
          this.logger.warn({ err: error, channel: this.channel }, 'LISTEN reconnect failed');
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
    await client?.end().catch(() => undefined);
  }
}
