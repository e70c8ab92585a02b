import { basename, dirname } from 'node:path';
import pg from 'pg';
import { API_BASE_PATH } from '../../src/server/http/api-base-path.ts';
import { BRAND } from '../../test/faults/fault-support.ts';
import { postgresBinDir } from '../../test/faults/local-postgres.ts';
import { faultSchedule, type ScheduledFault } from './fault-schedule.ts';
import { startFaultServices, type FaultServices } from './fault-services.ts';
import { injectFault } from './fault-injector.ts';
import { formatFaultReport } from './fault-report.ts';
import { runFollower, runHangups, runReader, syncOnce, type FaultTarget, type FollowerState } from './fault-traffic.ts';
import { copyDifferences, judgeFaultRun, type FaultAnswer, type FaultVerdict, type FaultWindow } from './fault-verdict.ts';
import { startFaultWriter, type FaultWriter } from './fault-writer.ts';
import { HEAP_RULE, judgeFlatness } from './soak-flatness.ts';

/**
 * `npm run soak -- --faults`: the soak with a writer and faults on a schedule
 * (fault-schedule.ts), on services of its own (fault-services.ts). Readers,
 * a follower of the changes feed and a client that hangs up mid-answer run
 * all along; at the end the follower's copy is compared with the database,
 * and the verdict and report say what each fault cost.
 */
export interface FaultSoakResult {
  readonly verdict: FaultVerdict;
  readonly markdown: string;
}

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const READERS = 4;

/** The brand's rows on the database the proxy points at now, as id → name. */
async function databaseRows(services: FaultServices): Promise<Map<string, string>> {
  const client = new pg.Client({ connectionString: services.databaseUrl, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    const result = await client.query<{ id: string; name: string }>('select id, name from carton_sizes where brand_id = $1', [services.brandId]);
    return new Map(result.rows.map((row) => [row.id, String(row.name)]));
  } finally {
    await client.end();
  }
}

/** Runs the schedule against the clock of `now`, until `durationS`; returns each fault's window. */
async function runSchedule({ schedule, durationS, services, writer, now, signal, log }: {
  schedule: readonly ScheduledFault[]; durationS: number; services: FaultServices; writer: FaultWriter; now: () => number; signal: AbortSignal; log: (line: string) => void;
}): Promise<FaultWindow[]> {
  const windows: FaultWindow[] = [];
  for (const fault of schedule) {
    while (now() < fault.atS * 1000 && !signal.aborted) await pause(100);
    if (signal.aborted) break;
    windows.push(await injectFault({ fault, services, writer, now, log }));
  }
  while (now() < durationS * 1000 && !signal.aborted) await pause(100);
  return windows;
}

/** Once the writer has stopped: a whole batch of the feed (retried while the service recovers), then the copy against the database. */
async function compareCopy({ target, follower, services }: { target: FaultTarget; follower: FollowerState; services: FaultServices }): Promise<string[]> {
  const deadline = Date.now() + 30_000;
  while (!(await syncOnce(target, follower))) {
    if (Date.now() > deadline) return ['the changes feed did not answer within 30 s after the run'];
    await pause(500);
  }
  return copyDifferences({ copy: follower.copy, database: await databaseRows(services) });
}

export async function runFaultSoak({ durationS, signal, log }: { durationS: number; signal: AbortSignal; log: (line: string) => void }): Promise<FaultSoakResult> {
  const schedule = faultSchedule({ durationS });
  log('soak --faults: starting a primary, its streaming replica, a proxy, Redis and the server…');
  const startedAt = new Date().toISOString();
  const services = await startFaultServices();
  try {
    const started = performance.now();
    const now = (): number => performance.now() - started;
    const target: FaultTarget = { origin: services.server.origin, collection: `${API_BASE_PATH}/brands/${BRAND}/carton-sizes`, key: services.key, now };
    const traffic = new AbortController();
    const stopTraffic = (): void => traffic.abort();
    signal.addEventListener('abort', stopTraffic);
    const answers: FaultAnswer[] = [];
    const follower: FollowerState = { copy: new Map(), token: null, batches: 0, failed: 0 };
    const writer = startFaultWriter({ url: services.databaseUrl, brandId: services.brandId });
    const heap: number[] = [];
    const sampler = setInterval(() => {
      void services.server.sampleMemory().then((sample) => sample.heapUsedBytes !== null && heap.push(sample.heapUsedBytes));
    }, 1000);
    log(`soak --faults: server pid ${services.server.pid} on ${services.server.origin}; ${durationS} s; faults: ${schedule.map((f) => `${f.kind} at ${f.atS} s`).join(', ')}`);
    const readers = Array.from({ length: READERS }, () => runReader({ target, answers, signal: traffic.signal }));
    const following = runFollower({ target, state: follower, signal: traffic.signal });
    const hangups = runHangups({ target, signal: traffic.signal });
    const windows = await runSchedule({ schedule, durationS, services, writer, now, signal, log });
    traffic.abort();
    clearInterval(sampler);
    signal.removeEventListener('abort', stopTraffic);
    const [abandoned] = await Promise.all([hangups, following, ...readers]);
    await writer.stop();
    const differences = await compareCopy({ target, follower, services });
    const heapFlatness = judgeFlatness(heap, HEAP_RULE);
    const verdict = judgeFaultRun({ answers, windows, copyDifferences: differences, heap: heapFlatness });
    const markdown = formatFaultReport({
      startedAt, durationS, readers: READERS, schedule, answers, verdict, writer: writer.counts,
      follower: { batches: follower.batches, failed: follower.failed, records: follower.copy.size }, hangups: abandoned, heap: heapFlatness,
      environment: `Postgres ${basename(dirname(postgresBinDir() ?? '/?/bin'))} primary and streaming replica (throwaway clusters, fsync off), Redis, the server in a child process (pool 6), ${READERS} readers, on a 2-core machine shared with other work.`,
    });
    return { verdict, markdown };
  } finally {
    await services.close();
  }
}
