import { getHeapSpaceStatistics } from 'node:v8';

const oldUsed = (): number => getHeapSpaceStatistics().find((space) => space.space_name === 'old_space')!.space_used_size;

/**
 * How much V8's old generation grows, in bytes, while `step(1)` … `step(times)` run one after
 * another: read every 25 steps, growth only (a full collection meanwhile lowers the reading and is
 * not counted against the steps). The promotion probes' measure (test/support/*-promotion-probe.ts).
 */
export async function oldGenerationGrowth(times: number, step: (i: number) => Promise<void>): Promise<number> {
  let grown = 0;
  let last = oldUsed();
  for (let i = 1; i <= times; i += 1) {
    await step(i);
    if (i % 25 === 0) {
      const now = oldUsed();
      grown += Math.max(0, now - last);
      last = now;
    }
  }
  return grown;
}
