import autocannon from 'autocannon';
import { execFileSync } from 'node:child_process';
import { cpuNs } from './cpu';
import type { HttpCall } from './load';
import { median } from './load';

/**
 * Throughput at saturation (issue 31): closed-loop load (autocannon, `connections` requests always
 * in flight) on one contender at a time, its process pinned to one core (taskset, when there is
 * one and more than one core), in interleaved rounds. Reports answered requests a second, and the
 * contender process's CPU per request over the same window (the noise of a shared machine moves
 * requests a second more than CPU per request).
 */
export interface SaturationSettings {
  rounds: number;
  seconds: number;
  connections: number;
  /** Core the contender runs on; undefined: not pinned. */
  core?: number;
}

export interface SaturationTarget {
  id: string;
  name: string;
  port: number;
  pid: number;
  call: HttpCall;
}

export interface SaturationSummary {
  id: string;
  name: string;
  /** Median over rounds. */
  requestsPerSecond?: number;
  /** Median over rounds: CPU of the contender process (not PostgreSQL) per answered request, ms. */
  serverCpuMsPerRequest?: number;
  p99Ms?: number;
  errors: number;
  rounds: { requestsPerSecond: number; serverCpuMsPerRequest: number; p99Ms: number; errors: number }[];
}

/** The core to pin contenders to: BENCH_SATURATION_CORE, else the last core when there are several. */
export function saturationCore(cpuCount: number): number | undefined {
  const raw = process.env.BENCH_SATURATION_CORE;
  if (raw === 'none') return undefined;
  if (raw !== undefined) return Number(raw);
  if (cpuCount < 2) return undefined;
  try {
    execFileSync('taskset', ['-V'], { stdio: 'ignore' });
  } catch {
    return undefined;
  }
  return cpuCount - 1;
}

/** Pins every thread of a process to one core (or a list of cores); the previous affinity list, to restore. */
function pin(pid: number, core: number, list = String(core)): string {
  const before = execFileSync('taskset', ['-p', '-c', String(pid)], { encoding: 'utf8' }).split(':').pop()!.trim();
  execFileSync('taskset', ['-a', '-p', '-c', list, String(pid)], { stdio: 'ignore' });
  return before;
}

function unpin(pid: number, list: string): void {
  try {
    execFileSync('taskset', ['-a', '-p', '-c', list, String(pid)], { stdio: 'ignore' });
  } catch {
    // gone
  }
}

async function once(target: SaturationTarget, settings: SaturationSettings) {
  const cpuBefore = cpuNs(target.pid) ?? 0;
  const result = await autocannon({
    url: `http://127.0.0.1:${target.port}${target.call.path}`,
    method: target.call.method,
    headers: target.call.headers,
    body: target.call.body,
    duration: settings.seconds,
    connections: settings.connections,
  });
  const cpuAfter = cpuNs(target.pid) ?? cpuBefore;
  const answered = result['2xx'];
  return {
    requestsPerSecond: answered / settings.seconds,
    serverCpuMsPerRequest: (cpuAfter - cpuBefore) / 1e6 / Math.max(1, answered),
    p99Ms: result.latency.p99,
    errors: result.non2xx + result.errors + result.timeouts,
  };
}

export async function saturationRounds(targets: SaturationTarget[], settings: SaturationSettings, cpuCount: number, progress: (text: string) => void): Promise<SaturationSummary[]> {
  // The load generator (this process) keeps off the contender's core.
  const others = Array.from({ length: cpuCount }, (_, i) => i).filter((c) => c !== settings.core);
  const harness = settings.core === undefined || !others.length ? undefined : { before: pin(process.pid, -1, others.join(',')) };
  try {
    return await measure(targets, settings, progress);
  } finally {
    if (harness) unpin(process.pid, harness.before);
  }
}

async function measure(targets: SaturationTarget[], settings: SaturationSettings, progress: (text: string) => void): Promise<SaturationSummary[]> {
  const rounds = new Map<string, SaturationSummary['rounds']>(targets.map((t) => [t.id, []]));
  // One short unmeasured run each: the closed loop reaches code paths (and pool sizes) the fixed rate did not.
  for (const t of targets) await once(t, { ...settings, seconds: 1 });
  for (let round = 0; round < settings.rounds; round += 1) {
    const shift = round % targets.length;
    const order = [...targets.slice(shift), ...targets.slice(0, shift)];
    progress(`  saturation round ${round + 1}/${settings.rounds} `);
    for (const t of order) {
      const previous = settings.core === undefined ? undefined : pin(t.pid, settings.core);
      try {
        rounds.get(t.id)!.push(await once(t, settings));
      } finally {
        if (previous !== undefined) unpin(t.pid, previous);
      }
      progress('.');
    }
    progress('\n');
  }
  return targets.map((t) => {
    const r = rounds.get(t.id)!;
    return {
      id: t.id,
      name: t.name,
      requestsPerSecond: r.length ? median(r.map((x) => x.requestsPerSecond)) : undefined,
      serverCpuMsPerRequest: r.length ? median(r.map((x) => x.serverCpuMsPerRequest)) : undefined,
      p99Ms: r.length ? median(r.map((x) => x.p99Ms)) : undefined,
      errors: r.reduce((a, x) => a + x.errors, 0),
      rounds: r,
    };
  });
}
