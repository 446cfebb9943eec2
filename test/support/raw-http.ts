import { connect } from 'node:net';

export interface RawAnswer {
  /** 0 when no status line came back. */
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The socket's error code (ECONNRESET, EPIPE), if any. */
  error?: string;
  /** Bytes of the body this client managed to send. */
  sent: number;
}

export interface RawRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: Buffer;
  /** Transfer-Encoding: chunked instead of Content-Length. */
  chunked?: boolean;
}

const CHUNK = 16 * 1024;

/**
 * One HTTP/1.1 request over a plain TCP socket, as a keep-alive client sends it: the head, then the
 * body in 16 KB writes (each after the last was taken), reading whatever comes back meanwhile. Ends
 * when the answer is complete and the body sent (or the socket failed, or closed).
 */
export function rawHttp(port: number, request: RawRequest): Promise<RawAnswer> {
  const body = request.body ?? Buffer.alloc(0);
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let received = Buffer.alloc(0);
    let error: string | undefined;
    let sent = 0;
    let writing = true;
    let answer: Omit<RawAnswer, 'error' | 'sent'> | undefined;
    const finish = () => {
      socket.destroy();
      resolve({ ...(answer ?? parse(received) ?? { status: 0, headers: {}, body: received.toString('latin1') }), error, sent });
    };
    const check = () => {
      answer ??= parse(received);
      if (answer && !writing) finish();
    };
    socket.on('data', (data) => {
      received = Buffer.concat([received, data]);
      check();
    });
    socket.on('error', (e: NodeJS.ErrnoException) => {
      error ??= e.code ?? e.message;
    });
    socket.on('close', finish);
    const head = [
      `${request.method} ${request.path} HTTP/1.1`,
      'Host: 127.0.0.1',
      request.chunked ? 'Transfer-Encoding: chunked' : `Content-Length: ${body.length}`,
      ...Object.entries(request.headers ?? {}).map(([k, v]) => `${k}: ${v}`),
    ];
    socket.write(`${head.join('\r\n')}\r\n\r\n`);
    const step = () => {
      while (sent < body.length && !socket.destroyed) {
        const part = body.subarray(sent, sent + CHUNK);
        const ok = socket.write(request.chunked ? Buffer.concat([Buffer.from(`${part.length.toString(16)}\r\n`), part, Buffer.from('\r\n')]) : part);
        sent += part.length;
        if (!ok) {
          socket.once('drain', step);
          return;
        }
      }
      if (request.chunked && !socket.destroyed) socket.write('0\r\n\r\n');
      writing = false;
      check();
    };
    step();
  });
}

/** The answer in `data` once it is complete (by its Content-Length), else undefined. */
function parse(data: Buffer): Omit<RawAnswer, 'error' | 'sent'> | undefined {
  const end = data.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const [statusLine, ...lines] = data.subarray(0, end).toString('latin1').split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const length = Number(headers['content-length'] ?? 0);
  if (data.length < end + 4 + length) return undefined;
  return { status: Number(statusLine.split(' ')[1]), headers, body: data.subarray(end + 4, end + 4 + length).toString('utf8') };
}
