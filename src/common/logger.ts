import pino, { Logger } from 'pino';

export type { Logger };

/** Structured JSON logs; secrets in headers are redacted. */
export function createLogger(level: string, base: Record<string, unknown> = {}): Logger {
  return pino({
    level,
    base: { service: 'music-agent-service', ...base },
    redact: {
      paths: ['req.headers["x-api-key"]', 'req.headers.authorization', 'req.headers["x-router-secret"]', '*.password', '*.api_key'],
      censor: '[redacted]',
    },
    timestamp: pino.stdTimeFunctions.isoTime,
  });
}
