import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

let clockTicks: number | undefined;

/** USER_HZ, the unit of utime/stime in /proc/<pid>/stat (100 on Linux almost everywhere). */
function ticksPerSecond(): number {
  if (clockTicks === undefined) {
    try {
      clockTicks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      clockTicks = 100;
    }
  }
  return clockTicks;
}

/** utime + stime of a whole process (every thread, live or exited), in nanoseconds; 10 ms resolution. */
function statCpuNs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) may hold spaces: count fields after its closing parenthesis.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return ((utime + stime) * 1e9) / ticksPerSecond();
}

/**
 * CPU time a process has used so far, in nanoseconds: the sum of its threads' on-CPU time from
 * /proc/<pid>/task/<tid>/schedstat (nanosecond resolution; readable for processes of other users
 * such as the postgres backends), else utime + stime from /proc/<pid>/stat. Undefined once the
 * process is gone.
 */
export function cpuNs(pid: number): number | undefined {
  try {
    let total = 0;
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      total += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
    }
    // (A thread that exits takes its schedstat with it: the contenders' threads live as long as they do.)
    return total;
  } catch {
    try {
      return statCpuNs(pid);
    } catch {
      return undefined;
    }
  }
}

/** CPU of a set of processes between two snapshots, in nanoseconds; processes new in `after` count whole. */
export function cpuDelta(before: Map<number, number>, after: Map<number, number>): { ns: number; lost: number } {
  let ns = 0;
  let lost = 0;
  for (const [pid, end] of after) ns += end - (before.get(pid) ?? 0);
  for (const pid of before.keys()) if (!after.has(pid)) lost += 1;
  return { ns, lost };
}

export function snapshot(pids: number[]): Map<number, number> {
  const map = new Map<number, number>();
  for (const pid of pids) {
    const ns = cpuNs(pid);
    if (ns !== undefined) map.set(pid, ns);
  }
  return map;
}
