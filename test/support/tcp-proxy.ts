import { createServer, Server, Socket, connect } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface TcpProxy {
  port: number;
  /** Rewrites a PostgreSQL URL to go through the proxy. */
  url(target: string): string;
  /** The database goes away: open connections are reset and new ones refused. */
  cut(): Promise<void>;
  /** The database is back on the same port. */
  restore(): Promise<void>;
  /** Connections are accepted but nothing reaches the database (a hung server or a dropped route). */
  blackhole(): Promise<void>;
  /** Cuts the database the moment a client sends a statement containing this text (before it runs). */
  cutOnStatement(text: string): void;
  /** CancelRequests (the protocol's out-of-band cancel, each on a connection of its own) seen so far. */
  readonly cancels: number;
  /** From now on a CancelRequest reaches the database only at `releaseCancels` (or never, if its sender gives up first). */
  holdCancels(): void;
  /** Sends the held CancelRequests on, and lets later ones through. */
  releaseCancels(): void;
  close(): Promise<void>;
}

/** A TCP proxy in front of a PostgreSQL server that a test can cut and restore in-process. */
export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;
  let holding = false;
  let trigger: string | undefined;
  let cancels = 0;
  let held: (() => void)[] | undefined;

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const s = createServer((client) => {
        client.on('error', () => undefined);
        sockets.add(client);
        client.on('close', () => sockets.delete(client));
        if (holding) return;
        const upstream = connect(targetPort, targetHost);
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on('close', () => sockets.delete(socket));
          socket.on('error', () => undefined);
        }
        client.on('data', (chunk: Buffer) => {
          if (isCancelRequest(chunk)) {
            cancels++;
            if (held) return void held.push(() => upstream.write(chunk));
          }
          if (trigger && chunk.includes(trigger)) {
            trigger = undefined;
            void stop();
            return;
          }
          upstream.write(chunk);
        });
        upstream.pipe(client);
        client.on('close', () => upstream.destroy());
        upstream.on('close', () => client.destroy());
      });
      s.once('error', reject);
      s.listen(port, '127.0.0.1', () => {
        port = (s.address() as AddressInfo).port;
        server = s;
        resolve();
      });
    });

  const stop = async () => {
    holding = false;
    const s = server;
    server = undefined;
    for (const socket of sockets) socket.resetAndDestroy();
    sockets.clear();
    if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
  };

  await listen();
  return {
    get port() {
      return port;
    },
    url(target) {
      const u = new URL(target);
      u.hostname = '127.0.0.1';
      u.port = String(port);
      return u.toString();
    },
    cut: stop,
    restore: listen,
    async blackhole() {
      await stop();
      holding = true;
      await listen();
    },
    cutOnStatement(text) {
      trigger = text;
    },
    get cancels() {
      return cancels;
    },
    holdCancels() {
      held ??= [];
    },
    releaseCancels() {
      const waiting = held ?? [];
      held = undefined;
      for (const send of waiting) send();
    },
    close: stop,
  };
}

/** A CancelRequest: length 16, then the code 80877102 (PostgreSQL protocol, "Message Formats"). */
function isCancelRequest(chunk: Buffer): boolean {
  return chunk.length === 16 && chunk.readInt32BE(0) === 16 && chunk.readInt32BE(4) === 80877102;
}
