/**
 * Flags the API process is started with: deploy/Dockerfile's CMD and `npm start` pass them to node
 * (test/deploy.test.ts holds them to this list), and the bench starts its service contender with
 * them, so what the bench measures is how production runs. Together they fix each semi-space of
 * V8's young generation at 16 MB.
 *
 * `--min-semi-space-size=16` (MB): while a process idles V8 shrinks its young generation to a
 * fraction of its busy size, so the first requests after a quiet spell ran a young-generation
 * collection every request or two instead of every twenty or so, until it had grown back (issue 31,
 * bench/results/2026-11-26-tail-sources.md). The cost: the young generation stays at its busy size
 * while idle, about 30 MB of heap the process would otherwise hand back.
 *
 * `--max-semi-space-size=16` (MB): on a 64-bit machine with a few GB of memory V8 lets a busy young
 * generation grow to 32 MB a semi-space (64 MB in all). V8 starts marking the old generation as
 * soon as the room left under its limit is smaller than the young generation's capacity (a
 * scavenge must be able to promote everything), so with GraphQL pages of 50-100 songs at 30
 * requests a second the process ran a mark-compact every 2.5-4 s (8-28 ms each) with old space
 * flat: 4 in 15 s and a p99 of 31-34 ms on pages of 100, against 0-1 and 12 ms with the cap; more,
 * shorter scavenges instead (at most 1.5 ms each) and no loss at saturation
 * (bench/results/2026-11-27-young-generation.md).
 */
export const API_NODE_FLAGS: readonly string[] = ['--min-semi-space-size=16', '--max-semi-space-size=16'];
