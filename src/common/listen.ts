import { createServer, Server } from 'node:net';

/** The HTTP port cannot be taken: start-up stops with this message (it names port and host). */
export class PortInUseError extends Error {
  constructor(port: number, host: string, code: string) {
    super(
      code === 'EADDRINUSE'
        ? `Port ${port} on ${host} is already in use: stop the other process or set PORT to a free port`
        : `Cannot listen on port ${port} on ${host} (${code}): set PORT to a port this user may open`,
    );
    this.name = 'PortInUseError';
  }
}

/** Listens, or rejects with PortInUseError instead of leaving the 'error' event to whoever listens for it. */
export function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      server.off('listening', onListening);
      reject(error.code ? new PortInUseError(port, host, error.code) : error);
    };
    const onListening = () => {
      server.off('error', onError);
      resolve();
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, host);
  });
}

/** Fails before anything is started (database, queue, worker) when the port is taken; listen() still guards the race. */
export async function assertPortFree(port: number, host: string): Promise<void> {
  if (port === 0) return;
  const probe = createServer();
  await listen(probe, port, host);
  await new Promise<void>((resolve) => probe.close(() => resolve()));
}
