import pino, { Bindings, DestinationStream, Logger } from 'pino';

export type { Logger };

/** Structured JSON logs; secrets in headers are redacted. `destination` (tests) replaces stdout. */
export function createLogger(level: string, base: Record<string, unknown> = {}, pretty = false, destination?: DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    // Human-readable lines on a terminal; JSON (one object a line) everywhere else.
    ...(pretty ? { transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname,service' } } } : {}),
    level,
    base: { service: 'music-agent-service', ...base },
    redact: {
      paths: ['req.headers["x-api-key"]', 'req.headers.authorization', 'req.headers["x-router-secret"]', '*.password', '*.api_key'],
      censor: '[redacted]',
    },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  return destination ? pino(options, destination) : pino(options);
}

/** What a lazy child answers without being built: none of it depends on the child's bindings. */
const LEVEL_KEYS = new Set<string | symbol>(['level', 'levelVal', 'levels', 'isLevelEnabled']);

/**
 * `parent.child(bindings())`, built only when first needed. pino serializes (and redacts) a
 * child's bindings when the child is made, so a per-request child costs that work on every
 * request, even when nothing is ever written through it. This one is built, once, when it writes
 * a line at a level the parent writes, or when anything else is asked of it; a call at a level the
 * parent does not write is pino's no-op, as on the parent. `bindings` must answer what the
 * bindings were when the lazy child was made (snapshot what may change), so the lines are the
 * ones an eager child writes.
 */
export function lazyChild(parent: Logger, bindings: () => Bindings): Logger {
  let child: Logger | undefined;
  const built = (): Logger => (child ??= parent.child(bindings()));
  return new Proxy(parent, {
    get(target, key) {
      if (child === undefined) {
        if (typeof key === 'string' && key in target.levels.values && !target.isLevelEnabled(key)) return Reflect.get(target, key);
        if (LEVEL_KEYS.has(key)) {
          const value: unknown = Reflect.get(target, key);
          return typeof value === 'function' ? value.bind(target) : value;
        }
      }
      const real = built();
      const value: unknown = Reflect.get(real, key);
      return typeof value === 'function' ? value.bind(real) : value;
    },
    set: (_target, key, value) => Reflect.set(built(), key, value),
    has: (_target, key) => Reflect.has(built(), key),
  });
}
