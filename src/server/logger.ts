import { pino, type DestinationStream, type Logger } from 'pino';

export type { Logger };

/**
 * JSON lines on stdout. Keys and secrets are never logged: the request log names the key by its id.
 * `mixin` adds fields to every line (with tracing on: the trace and span id of the request being answered).
 */
export function createLogger({ level, destination, mixin }: { level: string; destination?: DestinationStream; mixin?: () => object }): Logger {
  const options = {
    level,
    ...(mixin ? { mixin } : {}),
    base: { service: 'brand-catalog-read-api' },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: ['req.headers.authorization', 'headers.authorization'], censor: '[redacted]' },
  };
  return destination ? pino(options, destination) : pino(options);
}
