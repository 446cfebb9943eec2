import type { Logger } from '../../common/logger';
import { PgListener } from '../../db/listener';

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
 * per process. The connection opens on the first subscriber and reconnects with backoff while
 * anyone listens.
 */
export class RunEventBus {
  private readonly listeners = new Map<string, Set<Listener>>();
  /** Listeners of every run's changes (the account-wide streams), each filtering what it may see. */
  private readonly everyRun = new Set<Listener>();
  private readonly listener: PgListener;
  private closed = false;

  constructor(url: string, private readonly logger: Logger) {
    this.listener = new PgListener(url, RUN_CHANNEL, logger, {
      applicationName: 'render-run-events',
      onNotification: (payload) => {
        let change: RunChange;
        try {
          change = JSON.parse(payload) as RunChange;
        } catch {
          return;
        }
        this.dispatch(change.id, change);
        this.dispatchEvery(change);
      },
      onReconnected: () => {
        for (const runId of this.listeners.keys()) this.dispatch(runId, 'resync');
        this.dispatchEvery('resync');
      },
      reconnectWhile: () => this.listeners.size > 0 || this.everyRun.size > 0,
    });
  }

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
      await this.listener.ensure();
    } catch (error) {
      off();
      throw error;
    }
    return off;
  }

  /**
   * Every run's changes, whoever owns the run: the listener decides what its viewer may see.
   * Resolves once LISTEN is active, so no change committed after it is missed.
   */
  async subscribeAll(listener: Listener): Promise<() => void> {
    if (this.closed) throw new Error('run event bus is closed');
    this.everyRun.add(listener);
    const off = () => {
      this.everyRun.delete(listener);
    };
    try {
      await this.listener.ensure();
    } catch (error) {
      off();
      throw error;
    }
    return off;
  }

  private dispatchEvery(event: RunEvent): void {
    for (const listener of this.everyRun) {
      try {
        listener(event);
      } catch (error) {
        this.logger.error({ err: error }, 'run event listener failed');
      }
    }
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

  async close(): Promise<void> {
    this.closed = true;
    this.listeners.clear();
    this.everyRun.clear();
    await this.listener.close();
  }
}
