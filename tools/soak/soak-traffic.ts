import { driveSoak, type DriverResult } from './soak-driver.ts';
import type { SoakMix } from './soak-mix.ts';
import type { SoakRecorder } from './soak-recorder.ts';
import { formatInterval } from './soak-report.ts';
import type { SoakServer } from './soak-server.ts';

/** The traffic part of a soak's settings. */
export interface TrafficOptions {
  readonly duration: number;
  readonly rate: number;
  readonly connections: number;
  /** Seconds between progress lines. */
  readonly interval: number;
}

/**
 * Drives the mix at the server for the duration (or until `signal`), with
 * the server's memory sampled every second (one scrape at a time) and at both
 * ends, and a progress line every interval. Closes the recorder after the
 * last answers; returns the driver's counts and the seconds the traffic took.
 */
export async function runSoakTraffic({ options, server, mix, recorder, signal, log }: {
  options: TrafficOptions;
  server: Pick<SoakServer, 'origin' | 'sampleMemory'>;
  mix: SoakMix;
  recorder: SoakRecorder;
  signal: AbortSignal;
  log: (line: string) => void;
}): Promise<{ result: DriverResult; elapsedSeconds: number }> {
  const started = performance.now();
  const seconds = (): number => Math.round((performance.now() - started) / 100) / 10;
  const sample = async (): Promise<void> => {
    const memory = await server.sampleMemory();
    recorder.sampleMemory({ atSeconds: seconds(), ...memory });
  };
  await sample();
  let sampling = false;
  const memoryTimer = setInterval(() => {
    if (sampling) return; // a slow scrape must not pile up
    sampling = true;
    void sample().finally(() => (sampling = false));
  }, 1000);
  const lineTimer = setInterval(() => log(formatInterval(recorder.endInterval(Math.round(seconds())))), options.interval * 1000);
  let result: DriverResult;
  try {
    result = await driveSoak({
      origin: server.origin,
      mix,
      rate: options.rate,
      durationMs: options.duration * 1000,
      connections: options.connections,
      onOutcome: (outcome) => recorder.record(outcome),
      signal,
    });
  } finally {
    clearInterval(memoryTimer);
    clearInterval(lineTimer);
  }
  await sample();
  recorder.addAbandoned(result.abandoned);
  recorder.close();
  const elapsedSeconds = (performance.now() - started) / 1000;
  const last = recorder.endInterval(Math.round(elapsedSeconds));
  if (last.requests > 0) log(formatInterval(last));
  return { result, elapsedSeconds };
}
