import pino, { Logger } from 'pino';

export type { Logger };

/** Structured JSON logs; secrets in headers are redacted. */
export function createLogger(level: string, base: Record<string, unknown> = {}, pretty = false): Logger {
  return pino({
    // Human-readable lines on a terminal; JSON (one object a line) everywhere else.
    ...(pretty ? { transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname,service' } } } : {}),
    level,
    base: { service: 'music-agent-service', ...base },
    redact: {
      paths: ['req.headers["x-api-key"]', 'req.headers.authorization', 'req.headers["x-router-secret"]', '*.password', '*.api_key'],
      censor: '[redacted]',
    },
    timestamp: pino.stdTimeFunctions.isoTime,
  });
}
