import { parseArgs } from 'node:util';

/** What `npm run soak` was asked to do, checked. */
export interface SoakOptions {
  /** Seconds of traffic. */
  readonly duration: number;
  /** Requests per second in total, paced (not as fast as possible). */
  readonly rate: number;
  /** Keep-alive connections to the server, at most. */
  readonly connections: number;
  /** Seconds between the progress lines; null picks one from the duration. */
  readonly interval: number | null;
  /** File to write the JSON report to, or null. */
  readonly json: string | null;
}

export const SOAK_USAGE = 'usage: npm run soak -- [--duration S (180)] [--rate N req/s (200)] [--connections N (16)] [--interval S] [--json out.json]';

export class SoakArgsError extends Error {
  override name = 'SoakArgsError';
}

function whole({ raw, name, fallback, min, max }: { raw: string | undefined; name: string; fallback: number; min: number; max: number }): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < min || value > max) throw new SoakArgsError(`--${name} must be a whole number from ${min} to ${max}, not '${raw}'`);
  return value;
}

export function parseSoakArgs(args: readonly string[]): SoakOptions {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...args],
      options: {
        duration: { type: 'string' },
        rate: { type: 'string' },
        connections: { type: 'string' },
        interval: { type: 'string' },
        json: { type: 'string' },
      },
    }));
  } catch (error) {
    throw new SoakArgsError((error as Error).message);
  }
  // Bounded on purpose: a soak is a few minutes of steady traffic, not a load test without end.
  return Object.freeze({
    duration: whole({ raw: values.duration, name: 'duration', fallback: 180, min: 3, max: 3600 }),
    rate: whole({ raw: values.rate, name: 'rate', fallback: 200, min: 1, max: 5000 }),
    connections: whole({ raw: values.connections, name: 'connections', fallback: 16, min: 1, max: 256 }),
    interval: values.interval === undefined ? null : whole({ raw: values.interval, name: 'interval', fallback: 10, min: 1, max: 600 }),
    json: values.json ?? null,
  });
}

/** Seconds between progress lines: 10, or less on a short run so it still prints a few. */
export function intervalFor(options: SoakOptions): number {
  return options.interval ?? Math.max(1, Math.min(10, Math.floor(options.duration / 4)));
}
