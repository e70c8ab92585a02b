import { pino, type Logger } from 'pino';

export type { Logger };

/** JSON lines on stdout. Keys and secrets are never logged: the request log names the key by its id. */
export function createLogger({ level }: { level: string }): Logger {
  return pino({
    level,
    base: { service: 'brand-catalog-read-api' },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: ['req.headers.authorization', 'headers.authorization'], censor: '[redacted]' },
  });
}
