import { pino, type DestinationStream, type Logger } from 'pino';

export type { Logger };

/** JSON lines on stdout. Keys and secrets are never logged: the request log names the key by its id. */
export function createLogger({ level, destination }: { level: string; destination?: DestinationStream }): Logger {
  const options = {
    level,
    base: { service: 'brand-catalog-read-api' },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: ['req.headers.authorization', 'headers.authorization'], censor: '[redacted]' },
  };
  return destination ? pino(options, destination) : pino(options);
}
