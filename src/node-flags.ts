/**
 * Flags the API process is started with: deploy/Dockerfile's CMD and `npm start` pass them to node
 * (test/deploy.test.ts holds them to this list), and the bench starts its service contender with
 * them, so what the bench measures is how production runs.
 *
 * `--min-semi-space-size=16` (MB, V8's default ceiling for a semi-space on 64-bit): while a
 * process idles V8 shrinks its young generation to a fraction of its busy size, so the first
 * requests after a quiet spell ran a young-generation collection every request or two instead of
 * every twenty or so, until it had grown back (issue 31, bench/results/2026-11-26-tail-sources.md).
 * The cost: the young generation (two semi-spaces) stays at its busy size while idle, about 30 MB
 * of heap the process would otherwise hand back.
 */
export const API_NODE_FLAGS: readonly string[] = ['--min-semi-space-size=16'];
