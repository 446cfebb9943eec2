import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { PGBOSS_SCHEMA, RENDER_QUEUE } from './queue';

type Query = <T>(sql: string) => Promise<T[]>;

/**
 * Render metrics for operators. Events (finished renders, admissions refused, leases taken over,
 * outputs expired) are counted where they happen; queue depth and active runs are read from
 * PostgreSQL on scrape, so any API instance reports the whole cluster.
 */
export class RenderMetrics {
  readonly registry = new Registry();
  private readonly refused = new Counter({
    name: 'render_admission_refused_total',
    help: 'Render requests refused with 429, by the limit they hit (active, daily_budget)',
    labelNames: ['limit'] as const,
    registers: [this.registry],
  });
  private readonly finishedRuns = new Counter({
    name: 'render_runs_finished_total',
    help: 'Render attempts ended by this process, by outcome (COMPLETED, FAILED, RETRY, CANCELED, RELEASED, LOST)',
    labelNames: ['status'] as const,
    registers: [this.registry],
  });
  private readonly duration = new Histogram({
    name: 'render_duration_seconds',
    help: 'Wall time of render attempts in this process, by codec and outcome',
    labelNames: ['codec', 'status'] as const,
    buckets: [0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1200, 1800],
    registers: [this.registry],
  });
  private readonly takeovers = new Counter({
    name: 'render_lease_takeovers_total',
    help: 'EXECUTING runs whose worker stopped heart-beating, re-queued (or failed) by this process',
    registers: [this.registry],
  });
  private readonly expired = new Counter({
    name: 'render_outputs_expired_total',
    help: 'Rendered videos deleted by this process under RENDER_RETENTION_HOURS',
    registers: [this.registry],
  });

  admissionRefused(limit: 'active' | 'daily_budget'): void {
    this.refused.inc({ limit });
  }

  attemptEnded(status: string, codec: string, seconds: number): void {
    this.finishedRuns.inc({ status });
    this.duration.observe({ codec, status }, seconds);
  }

  leaseTakenOver(): void {
    this.takeovers.inc();
  }

  outputsExpired(count: number): void {
    if (count > 0) this.expired.inc(count);
  }

  /** Registers the gauges read on scrape; `query` runs one cheap statement each (partial indexes). */
  collectStateWith(query: Query): void {
    if (this.registry.getSingleMetric('render_queue_depth')) return;
    new Gauge({
      name: 'render_queue_depth',
      help: 'Render jobs waiting in the queue (created or waiting to retry)',
      registers: [this.registry],
      async collect() {
        const rows = await query<{ n: number }>(
          `select count(*)::int as n from ${PGBOSS_SCHEMA}.job where name = '${RENDER_QUEUE}' and state in ('created', 'retry')`,
        ).catch(() => [{ n: 0 }]); // the queue's tables appear when it first starts
        this.set(rows[0].n);
      },
    });
    new Gauge({
      name: 'render_runs_active',
      help: 'Render runs QUEUED or EXECUTING (active renders), by status',
      labelNames: ['status'] as const,
      registers: [this.registry],
      async collect() {
        const rows = await query<{ status: string; n: number }>(
          `select status, count(*)::int as n from render_runs where status in ('QUEUED', 'EXECUTING') group by status`,
        );
        this.set({ status: 'QUEUED' }, rows.find((r) => r.status === 'QUEUED')?.n ?? 0);
        this.set({ status: 'EXECUTING' }, rows.find((r) => r.status === 'EXECUTING')?.n ?? 0);
      },
    });
  }
}
