import type { HttpCall, Client } from './load';
import { quantile } from './load';

/**
 * The tail after a pause (issue 31): real traffic comes in bursts after quiet spells. Each round
 * sends every contender traffic, leaves them all idle longer than the service's pool idle timeout
 * (DATABASE_POOL_IDLE_TIMEOUT_MS, 30 s by default), then sends each the same fixed-rate traffic
 * again and keeps the latencies of the first `requests` answers after the pause. Contenders take
 * turns (another first each round), so none always waits longer than the others.
 */
export interface TailSettings {
  rounds: number;
  /** Seconds of fixed-rate traffic before the pause, per contender. */
  warmSeconds: number;
  /** Seconds without traffic. */
  pauseSeconds: number;
  /** Requests measured after the pause, per contender and round. */
  requests: number;
  rate: number;
}

export interface TailTarget {
  id: string;
  name: string;
  client: Client;
  call: HttpCall;
  /** PostgreSQL connections the contender holds open (read at the end of the pause). */
  backends?: () => Promise<number>;
}

export interface TailSummary {
  id: string;
  name: string;
  requests: number;
  errors: number;
  /** The errors by kind (status and the start of the body, or the socket error). */
  failures: Record<string, number>;
  p50Ms?: number;
  p99Ms?: number;
  maxMs?: number;
  /** Per round: p99 and max of its first requests after the pause. */
  rounds: { p50Ms: number; p99Ms: number; maxMs: number; errors: number; backendsAfterPause?: number }[];
}

export async function tailRounds(targets: TailTarget[], settings: TailSettings, progress: (text: string) => void): Promise<TailSummary[]> {
  const latencies = new Map<string, number[]>(targets.map((t) => [t.id, []]));
  const rounds = new Map<string, TailSummary['rounds']>(targets.map((t) => [t.id, []]));
  const errors = new Map<string, number>(targets.map((t) => [t.id, 0]));
  const failures = new Map<string, Record<string, number>>(targets.map((t) => [t.id, {}]));
  const seconds = settings.requests / settings.rate;
  for (let round = 0; round < settings.rounds; round += 1) {
    const shift = round % targets.length;
    const order = [...targets.slice(shift), ...targets.slice(0, shift)];
    progress(`  tail round ${round + 1}/${settings.rounds}: traffic`);
    for (const t of order) await t.client.fixedRate(t.call, settings.rate, settings.warmSeconds);
    progress(`, pause ${settings.pauseSeconds} s`);
    await new Promise((done) => setTimeout(done, settings.pauseSeconds * 1000));
    progress(', after the pause');
    const open = new Map<string, number | undefined>();
    for (const t of order) open.set(t.id, await t.backends?.());
    for (const t of order) {
      const burst = await t.client.fixedRate(t.call, settings.rate, seconds);
      latencies.get(t.id)!.push(...burst.latencies);
      errors.set(t.id, errors.get(t.id)! + burst.errors);
      const kinds = failures.get(t.id)!;
      for (const [kind, n] of Object.entries(burst.failures)) kinds[kind] = (kinds[kind] ?? 0) + n;
      rounds.get(t.id)!.push({ p50Ms: quantile(burst.latencies, 0.5), p99Ms: quantile(burst.latencies, 0.99), maxMs: Math.max(...burst.latencies), errors: burst.errors, backendsAfterPause: open.get(t.id) });
      progress('.');
    }
    progress('\n');
  }
  return targets.map((t) => {
    const all = latencies.get(t.id)!;
    return {
      id: t.id,
      name: t.name,
      requests: all.length,
      errors: errors.get(t.id)!,
      failures: failures.get(t.id)!,
      p50Ms: all.length ? quantile(all, 0.5) : undefined,
      p99Ms: all.length ? quantile(all, 0.99) : undefined,
      maxMs: all.length ? Math.max(...all) : undefined,
      rounds: rounds.get(t.id)!,
    };
  });
}
