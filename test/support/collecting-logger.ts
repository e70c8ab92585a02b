import { Writable } from 'node:stream';
import { createLogger, type Logger } from '../../src/server/logger.ts';

/** A logger (at level info unless told) whose lines are kept, parsed, for the test to read. */
export function collectingLogger({ level = 'info', mixin }: { level?: string; mixin?: () => object } = {}): { logger: Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n')) if (line) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { logger: createLogger({ level, destination, ...(mixin ? { mixin } : {}) }), lines };
}
