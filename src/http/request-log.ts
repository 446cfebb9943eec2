import type { NextFunction, Request, Response } from 'express';
import type { IncomingMessage, ServerResponse } from 'node:http';
import pino, { Level } from 'pino';
import { lazyChild, Logger } from '../common/logger';

declare module 'http' {
  interface IncomingMessage {
    /** The request id (x-request-id), set by requestLogging. */
    id: string;
    /** The request's logger: its lines carry the request (`req`, secrets redacted). */
    log: Logger;
  }
  interface ServerResponse {
    log: Logger;
  }
}

export interface RequestLoggingOptions {
  /** The request's id; called once per request, before anything else is logged. */
  genReqId(req: IncomingMessage, res: ServerResponse): string;
  /** Level of the line written when the response ends (or fails). */
  customLogLevel(req: IncomingMessage, res: ServerResponse, err: Error | undefined): Level;
  /** Requests that get no access line (an error of the response is still logged). */
  ignore(req: IncomingMessage): boolean;
}

/**
 * The request id, the request's logger and the access log: the lines pino-http writes (same
 * serializers, fields, messages and levels), with the request logger built lazily. pino-http
 * serializes and redacts the request into a child logger on every request; here that happens only
 * when a line is written through it (the access line at a level that is logged, an error, a
 * service's own line), from a snapshot of what routing changes later (the params) and what may be
 * gone by then (the peer address), so the lines are the same.
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
    if (!res.log) res.log = log;
    if (!req.log) req.log = log;

    const onResponseComplete = (err?: Error) => {
      res.removeListener('close', onResponseComplete);
      res.removeListener('finish', onResponseComplete);
      res.removeListener('error', onResponseComplete);
      const level = options.customLogLevel(req, res, err);
      if (!httpLogger.isLevelEnabled(level)) return;
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
