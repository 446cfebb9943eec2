/**
 * The contract between the harness and a contender process (forked with an IPC channel): the child
 * reports `{ port }` once it listens, and stops when the parent says `stop` or goes away, so no
 * contender outlives a harness that crashed. On `memory` it answers `{ memory }`, its
 * process.memoryUsage() after a full GC when started with --expose-gc.
 */
export function serveUntilParentLeaves(port: number, stop: () => Promise<void>): void {
  let stopping = false;
  const leave = () => {
    if (stopping) return;
    stopping = true;
    const timer = setTimeout(() => process.exit(0), 5000);
    timer.unref();
    stop()
      .catch((error: unknown) => console.error(error))
      .finally(() => process.exit(0));
  };
  process.on('message', (message) => {
    if (message === 'stop') leave();
    if (message === 'memory') {
      (globalThis as { gc?: () => void }).gc?.();
      process.send?.({ memory: process.memoryUsage() });
    }
  });
  process.on('disconnect', leave);
  process.on('SIGTERM', leave);
  process.send?.({ port });
}
