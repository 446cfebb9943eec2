import bytes from 'bytes';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { AppError } from '../common/errors';
import { fromAppError } from '../common/error-status';

/** The methods the service answers; any other is a 405 naming these in `Allow`. */
export const ALLOWED_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
const ALLOWED = new Set<string>(ALLOWED_METHODS);
export const ALLOW_HEADER = ALLOWED_METHODS.join(', ');

/** The most of an unread body the service reads and discards before an answer (then it closes the connection instead). */
export const DRAIN_MAX_BYTES = 16 * 1024 * 1024;

/**
 * Runs `answer` once the request's body has been read to its end, discarding what nobody read (up
 * to DRAIN_MAX_BYTES), so the client is done sending when the answer comes and reads its status:
 * an answer sent while the client still writes, followed by a close, reaches it as a reset. Past
 * the drain bound the answer goes at once with `Connection: close` (a client that keeps sending that
 * much after its answer may still see a reset). `answer` learns whether the part discarded here
 * alone was past `limit` bytes (the answer is then a 413, whatever else was wrong).
 */
export function afterBody(req: IncomingMessage, res: Response, limit: number, answer: (tooLarge: boolean) => void): void {
  // Read to its end already (a body parser took it), or gone. A request whose message has fully
  // arrived (`complete`) may still hold its body unread in the stream (Node 24 marks it complete as
  // soon as the parser sees the last chunk): that body is counted below like one still arriving.
  if (req.readableEnded || req.destroyed) {
    answer(false);
    return;
  }
  let seen = 0;
  let answered = false;
  const done = () => {
    if (answered) return;
    answered = true;
    req.off('data', counted);
    req.off('end', done);
    req.off('error', done);
    req.off('close', done);
    if (!req.complete) res.setHeader('Connection', 'close');
    answer(seen > limit);
  };
  const counted = (chunk: Buffer) => {
    seen += chunk.length;
    if (seen > DRAIN_MAX_BYTES) done();
  };
  req.on('data', counted);
  req.once('end', done);
  req.once('error', done);
  req.once('close', done);
  // A body parser that gave up (too large) paused the request: what is left flows to nobody now.
  req.resume();
}

/** The body limit in bytes (REQUEST_BODY_LIMIT, e.g. "1mb"). */
export function limitBytes(limit: string): number {
  const parsed = bytes.parse(limit);
  if (parsed === null || !Number.isFinite(parsed) || parsed <= 0) throw new Error(`Not a size: ${limit}`);
  return parsed;
}

export function payloadTooLarge(limit: string): AppError {
  return new AppError('PAYLOAD_TOO_LARGE', `Request body is larger than ${limit}`, { details: [{ field: 'body', message: 'is too large' }] });
}

export function methodNotAllowed(method: string): AppError {
  return new AppError('METHOD_NOT_ALLOWED', `Method ${method} is not allowed`);
}

/**
 * The first check of every request, before any route: a method the service does not answer is a
 * 405 (with `Allow`), and a body that declares a length past REQUEST_BODY_LIMIT is a 413, whatever
 * the path or method (a body sent in chunks is measured by the body parser of the route that reads it).
 */
export function requestEdge(limit: string): RequestHandler {
  const max = limitBytes(limit);
  return (req: Request, res: Response, next: NextFunction) => {
    // For error answers (sendError), which measure a body nobody read.
    res.locals.bodyLimit = limit;
    if (!ALLOWED.has(req.method)) {
      res.setHeader('Allow', ALLOW_HEADER);
      next(methodNotAllowed(req.method));
      return;
    }
    const length = Number(req.headers['content-length']);
    if (req.headers['transfer-encoding'] === undefined && Number.isFinite(length) && length > max) {
      next(payloadTooLarge(limit));
      return;
    }
    next();
  };
}

/** How long a connection whose request could not be parsed is read (and discarded) after its answer, before it is closed. */
export const LINGER_MS = 2000;

/** Status, reason and message for a request node's parser refused (node's own choice of status, the service's JSON body). */
function unparsable(code: string | undefined): { status: number; reason: string; field: string; message: string } {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, reason: 'Request Header Fields Too Large', field: 'headers', message: 'The request line and headers are larger than the server reads (16 KB)' };
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return { status: 413, reason: 'Payload Too Large', field: 'body', message: 'A chunk extension is larger than the server reads' };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, reason: 'Request Timeout', field: 'request', message: 'The request did not arrive in time' };
    default:
      return { status: 400, reason: 'Bad Request', field: 'request', message: 'The request is not well-formed HTTP/1.1' };
  }
}

/**
 * Requests node's HTTP parser refuses (headers past 16 KB, a malformed request line, a request that
 * took too long) get the service's JSON error body with node's status, then a lingering close: the
 * connection is read and discarded until the client ends it or LINGER_MS pass. Closing at once (node's
 * own handling) leaves what the client still sends unread, and the kernel then resets the connection,
 * which on Node 24 reaches a client still writing its body before it reads the answer: a reset where a
 * 431 was due. Node may report the same connection twice (the bytes after the error fail to parse too):
 * it is answered once.
 */
export function answerClientErrors(server: Server): void {
  const answered = new WeakSet<Duplex>();
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (answered.has(socket)) return;
    answered.add(socket);
    // Nothing to answer on a connection the client reset or that is already half-answered.
    if (err.code === 'ECONNRESET' || !socket.writable || (socket as Socket).bytesWritten > 0) {
      socket.destroy();
      return;
    }
    const { status, reason, field, message } = unparsable(err.code);
    // The service's error body (the status line is HTTP's own, see docs/api/errors.md).
    const body = JSON.stringify(fromAppError(new AppError('BAD_USER_INPUT', message, { details: [{ field, message: 'could not be read' }] })).body);
    socket.end(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${body}`,
    );
    const timer = setTimeout(() => socket.destroy(), LINGER_MS);
    timer.unref();
    const close = () => {
      clearTimeout(timer);
      socket.destroy();
    };
    socket.on('data', () => undefined);
    socket.once('end', close);
    socket.once('error', close);
    socket.resume();
  });
}

/**
 * CONNECT requests, which node hands to the server's 'connect' event (with no listener it drops
 * the socket), go through the express app like any request, so they get its headers and a 405.
 */
export function answerConnect(server: Server, app: (req: IncomingMessage, res: ServerResponse) => void): void {
  server.on('connect', (req: IncomingMessage, socket: Duplex) => {
    const res = new ServerResponse(req);
    res.shouldKeepAlive = false;
    res.assignSocket(socket as Socket);
    res.once('finish', () => {
      res.detachSocket(socket as Socket);
      socket.end();
    });
    socket.once('error', () => socket.destroy());
    // The target of a CONNECT is an authority (host:port), which no express route matches.
    if (!req.url?.startsWith('/')) req.url = '/';
    app(req, res);
  });
}
