import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/** What the gauges read on scrape (RenderRunsRepository: one cheap statement each). */
export interface RenderState {
  waitingJobs(): Promise<number>;
  activeRuns(): Promise<{ QUEUED: number; EXECUTING: number }>;
}

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

  /** Registers the gauges read on scrape from `state`. */
  collectStateWith(state: RenderState): void {
    if (this.registry.getSingleMetric('render_queue_depth')) return;
    new Gauge({
      name: 'render_queue_depth',
      help: 'Render jobs waiting in the queue (created or waiting to retry)',
      registers: [this.registry],
      async collect() {
        this.set(await state.waitingJobs());
      },
    });
    new Gauge({
      name: 'render_runs_active',
      help: 'Render runs QUEUED or EXECUTING (active renders), by status',
      labelNames: ['status'] as const,
      registers: [this.registry],
      async collect() {
        const active = await state.activeRuns();
        this.set({ status: 'QUEUED' }, active.QUEUED);
        this.set({ status: 'EXECUTING' }, active.EXECUTING);
      },
    });
  }
}
