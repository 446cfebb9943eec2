import type { IncomingMessage, ServerResponse } from 'node:http';
import type { LevelWithSilent } from 'pino';
import { pinoHttp } from 'pino-http';
import type { Logger } from '../common/logger';

export interface RequestLoggingOptions {
  /** The request's id; called once per request, before anything else is logged. */
  genReqId(req: IncomingMessage, res: ServerResponse): string;
  /** Level of the line written when the response ends (or fails); `silent`: none. */
  customLogLevel(req: IncomingMessage, res: ServerResponse, err: Error | undefined): LevelWithSilent;
  /** Requests that get no access line (an error of the response is still logged). */
  ignore(req: IncomingMessage): boolean;
}

/**
 * The request id (`req.id`), the request's logger (`req.log`, its lines carrying the request with
 * its secrets redacted by the logger's `redact`) and the access line when the response ends:
 * pino-http, with its serializers, fields (`req`, `res`, `err`, `responseTime`), messages
 * ("request completed", "request errored", "request aborted") and levels. The lines are pinned
 * field by field in request-log.test.ts.
 */
export function requestLogging(logger: Logger, options: RequestLoggingOptions) {
  return pinoHttp({
    logger,
    genReqId: options.genReqId,
    customLogLevel: options.customLogLevel,
    autoLogging: { ignore: options.ignore },
  });
}
