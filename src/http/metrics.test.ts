import type { Orm } from '../db/orm';
import { createMetrics } from './metrics';

/** Only the pool gauge reads the ORM, and these tests read single metrics: it is never called. */
const noOrm = {} as Orm;

/** One gauge as a scrape reads it (nodejs_eventloop_lag_seconds' collect sets the lag_* gauges from the histogram, then resets it). */
async function metric(metrics: ReturnType<typeof createMetrics>, name: string): Promise<number> {
  await metrics.registry.getSingleMetricAsString('nodejs_eventloop_lag_seconds');
  const text = await metrics.registry.getSingleMetricAsString(name);
  return Number(text.trim().split('\n').at(-1)!.split(' ')[1]);
}

function block(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until);
}

describe('event-loop delay metrics', () => {
  it('still see a stall longer than the sampling period (METRICS_EVENT_LOOP_RESOLUTION_MS)', async () => {
    const metrics = createMetrics(noOrm, { eventLoopResolutionMs: 100 });
    await new Promise((resolve) => setTimeout(resolve, 250));
    block(600);
    await new Promise((resolve) => setTimeout(resolve, 150));
    // The tick due during the stall fired late by most of it.
    expect(await metric(metrics, 'nodejs_eventloop_lag_max_seconds')).toBeGreaterThan(0.4);
    // Reading resets the histogram. Node records the whole interval between ticks, so a quiet loop
    // reads about the period itself (docs/operations/configuration.md: METRICS_EVENT_LOOP_RESOLUTION_MS).
    await new Promise((resolve) => setTimeout(resolve, 350));
    const quiet = await metric(metrics, 'nodejs_eventloop_lag_max_seconds');
    expect(quiet).toBeGreaterThanOrEqual(0.099);
    expect(quiet).toBeLessThan(0.3);
  });
});
