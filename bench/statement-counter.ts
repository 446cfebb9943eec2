import { createConnection, createServer, type AddressInfo, type Server, type Socket } from 'node:net';

/** Startup-phase request codes (no type byte): answered by the server with one byte, then the real startup follows. */
const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;

/**
 * Parses one connection's frontend (client → server) PostgreSQL wire protocol and counts the
 * statements it asks the server to run: simple-protocol Query ('Q') and extended-protocol Execute
 * ('E') messages. Parse, Bind, Describe, Sync, Flush, Close and the startup/authentication
 * exchange are not statements. A 'Q' holding several ';'-separated statements counts once.
 */
export class FrontendParser {
  private buffer: Buffer = Buffer.alloc(0);
  private startup = true;
  /** Prepared statement texts by name ('' is the unnamed one), and the statement the last Bind used. */
  private readonly prepared = new Map<string, string>();
  private bound = '';

  constructor(private readonly onStatement: (kind: 'Q' | 'E', sql?: string) => void) {}

  push(chunk: Buffer): void {
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
    for (;;) {
      if (this.startup) {
        // StartupMessage, SSLRequest, GSSENCRequest, CancelRequest: int32 length, int32 code, body.
        if (this.buffer.length < 8) return;
        const length = this.buffer.readInt32BE(0);
        if (this.buffer.length < length) return;
        const code = this.buffer.readInt32BE(4);
        this.buffer = this.buffer.subarray(length);
        // After an SSL or GSS encryption request the client sends the startup message proper.
        if (code !== SSL_REQUEST && code !== GSSENC_REQUEST && code !== CANCEL_REQUEST) this.startup = false;
        continue;
      }
      if (this.buffer.length < 5) return;
      const type = String.fromCharCode(this.buffer[0]);
      const length = this.buffer.readInt32BE(1);
      if (this.buffer.length < 1 + length) return;
      if (type === 'Q') this.onStatement('Q', this.buffer.toString('utf8', 5, length).replace(/\0$/, ''));
      else if (type === 'E') this.onStatement('E', this.prepared.get(this.bound));
      else if (type === 'P') {
        // Parse: statement name \0, query text \0, parameter types.
        const nameEnd = this.buffer.indexOf(0, 5);
        const textEnd = this.buffer.indexOf(0, nameEnd + 1);
        this.prepared.set(this.buffer.toString('utf8', 5, nameEnd), this.buffer.toString('utf8', nameEnd + 1, textEnd));
      } else if (type === 'B') {
        // Bind: portal name \0, statement name \0, ...
        const portalEnd = this.buffer.indexOf(0, 5);
        this.bound = this.buffer.toString('utf8', portalEnd + 1, this.buffer.indexOf(0, portalEnd + 1));
      }
      this.buffer = this.buffer.subarray(1 + length);
    }
  }
}

export interface CountingProxy {
  /** host:port to put in the contender's connection string instead of PostgreSQL's. */
  port: number;
  /** Statements seen since the last reset. */
  readonly count: number;
  /** The SQL texts of the statements seen since the last reset (first 1000), to show what a request runs. */
  readonly queries: string[];
  reset(): void;
  close(): Promise<void>;
}

/**
 * A TCP proxy on 127.0.0.1 in front of PostgreSQL that counts the statements its clients send
 * (see FrontendParser). It does not decrypt: clients must connect without TLS (sslmode=disable,
 * the default of node-postgres), or the counter sees nothing but the SSLRequest.
 */
export async function startCountingProxy(target: { host: string; port: number }): Promise<CountingProxy> {
  let count = 0;
  let queries: string[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = createConnection({ host: target.host, port: target.port });
    sockets.add(client).add(upstream);
    const parser = new FrontendParser((_kind, sql) => {
      count += 1;
      if (queries.length < 1000) queries.push(sql ?? '(prepared statement of unknown text)');
    });
    client.on('data', (chunk: Buffer) => {
      parser.push(chunk);
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => client.write(chunk));
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    get count() {
      return count;
    },
    get queries() {
      return queries;
    },
    reset() {
      count = 0;
      queries = [];
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
