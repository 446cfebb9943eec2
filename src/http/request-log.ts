import type { NextFunction, Request, Response } from 'express';
import type { IncomingMessage, ServerResponse } from 'node:http';
import pino, { type LevelWithSilent } from 'pino';
import { lazyChild, type Logger } from '../common/logger';

declare module 'http' {
  interface IncomingMessage {
    /** The request id (x-request-id), set by requestLogging. */
    id: string;
    /** The request's logger: its lines carry the request (`req`, secrets redacted). */
    log: Logger;
  }
}

export interface RequestLoggingOptions {
  /** The request's id; called once per request, before anything else is logged. */
  genReqId(req: IncomingMessage, res: ServerResponse): string;
  /** Level of the line written when the response ends (or fails); `silent`: none. */
  customLogLevel(req: IncomingMessage, res: ServerResponse, err: Error | undefined): LevelWithSilent;
  /** Requests that get no access line (an error of the response is still logged). */
  ignore(req: IncomingMessage): boolean;
}

/**
 * The request id (`req.id`), the request's logger (`req.log`) and the access line when the
 * response ends: the lines pino-http writes (pino's standard serializers; fields `req`, `res`,
 * `err`, `responseTime`; messages "request completed", "request errored", "request aborted"; the
 * levels `customLogLevel` gives), pinned field by field in request-log.test.ts.
 *
 * Why not pino-http itself: it builds each request's logger as a pino child bound to the request,
 * and pino serializes and redacts a child's bindings when the child is made, so every request paid
 * for a serialized, redacted copy of itself even when no line was ever written through it (at
 * LOG_LEVEL=warn, nearly every request). Counted in the whole service process, that was 71
 * thousand of a REST songs page's 1.065 M main-thread instructions and 58 thousand of a GraphQL
 * page's 1.521 M (bench/results/2026-11-27-request-logger.md); a micro-benchmark of the child
 * alone had put it at ~5 µs, the rest being what the redaction costs V8 in a long-running
 * process. Here the child is
 * built only when a line is written through it, from a snapshot of what routing changes later
 * (the params) and what may be gone by then (the peer address), so the lines are the same.
 */
export function requestLogging(logger: Logger, options: RequestLoggingOptions) {
  // pino-http's serializers: pino's standard ones (its wrappers of them are the same functions).
  const { req: reqSerializer, res: resSerializer, err: errSerializer } = pino.stdSerializers;
  const httpLogger = logger.child({}, { serializers: { req: reqSerializer, res: resSerializer, err: errSerializer } });
  return (req: Request, res: Response, next: NextFunction): void => {
    const startTime = Date.now();
    req.id = req.id || options.genReqId(req, res);
    // What the request serializer reads, as it is now: routing replaces req.params, and the socket's address is gone once it closes.
    const params = req.params;
    const socket = { remoteAddress: req.socket?.remoteAddress, remotePort: req.socket?.remotePort };
    const log = lazyChild(httpLogger, () => ({
      req: { id: req.id, method: req.method, originalUrl: req.originalUrl, url: req.url, query: req.query, params, headers: req.headers, socket },
    }));
    if (!req.log) req.log = log;

    const onResponseComplete = (err?: Error) => {
      res.removeListener('close', onResponseComplete);
      res.removeListener('finish', onResponseComplete);
      res.removeListener('error', onResponseComplete);
      const level = options.customLogLevel(req, res, err);
      if (level === 'silent' || !httpLogger.isLevelEnabled(level)) return;
      const responseTime = Date.now() - startTime;
      const failure = err || (res as { err?: Error }).err;
      if (failure || res.statusCode >= 500) {
        log[level]({ res, err: failure || new Error(`failed with status code ${res.statusCode}`), responseTime }, 'request errored');
        return;
      }
      log[level]({ res, responseTime }, !req.readableAborted && res.writableEnded ? 'request completed' : 'request aborted');
    };
    if (!options.ignore(req)) {
      res.on('close', onResponseComplete);
      res.on('finish', onResponseComplete);
    }
    res.on('error', onResponseComplete);
    next();
  };
}
