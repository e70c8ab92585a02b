import { readFileSync } from 'node:fs';
import { percentileOfSorted } from '../../tools/shared/percentile.ts';
import { startGetClients } from './get-clients.ts';
import { startLiveClients, type LiveClients } from './live-clients.ts';
import type { LiveDatabase } from './live-setup.ts';

/**
 * One phase of the live bench: who asks (followers that wait, or clients
 * that get), for which brands, whether a writer commits to them, and
 * whether another writes a brand nobody follows.
 */
export interface LivePhase {
  readonly name: string;
  readonly clients: 'follow' | 'get';
  readonly brands: LiveDatabase['brands'];
  readonly perBrand: number;
  readonly writing: boolean;
  readonly elsewhere?: boolean;
}

export interface PhaseResult {
  readonly name: string;
  /** Followers waiting (0 in a phase of gets). */
  readonly waiting: number;
  /** Clients getting a record every `wait` seconds (0 in a phase of followers). */
  readonly getting: number;
  readonly writing: boolean;
  /** Whether another system wrote a brand nobody follows, in transactions that overlap. */
  readonly elsewhere: boolean;
  readonly seconds: number;
  readonly commits: number;
  /** Answers the clients received in the whole phase (their full syncs included). */
  readonly calls: number;
  readonly deliveries: number;
  readonly expectedDeliveries: number;
  readonly latencyMs: { p50: number | null; p99: number | null; max: number | null };
  readonly serverCpuPercent: number | null;
  /** The server's resident memory at the end of the phase's measurement, MB. */
  readonly serverRssMb: number | null;
  /** Answers per second the clients got during the measurement (waited calls or gets, full syncs excluded). */
  readonly callsPerSecond: number | null;
  readonly databaseTransactionsPerSecond: number | null;
  readonly errors: readonly string[];
}

/** Seconds of CPU the process has used (user + system), from /proc. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
/** The process's resident memory, MB, from /proc. */
function residentMb(pid: number): number | null {
  const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : null;
}
export const round = (n: number | null, digits = 1): number | null => (n === null ? null : Math.round(n * 10 ** digits) / 10 ** digits);

/** The server's own count of waiting requests (`bcat_live_waiting_requests` on /metrics). */
async function waitingOnServer(origin: string): Promise<number> {
  const text = await (await fetch(`${origin}/metrics`)).text();
  return Number(/^bcat_live_waiting_requests (\d+)/m.exec(text)?.[1] ?? 0);
}

/**
 * The phase's clients, started, once every one is in its loop (every
 * follower waiting on the server, every getter past its first get) and the
 * start's burst is over.
 */
async function startClients({ phase, origin, waitSeconds, onItem }: {
  phase: LivePhase;
  origin: string;
  waitSeconds: number;
  onItem: (id: string, at: number) => void;
}): Promise<LiveClients> {
  const count = phase.brands.length * phase.perBrand;
  if (phase.clients === 'get') {
    const getters = startGetClients({ origin, brands: phase.brands, perBrand: phase.perBrand, everySeconds: waitSeconds });
    for (let tries = 0; getters.started() < count && tries < 600; tries++) await sleep(100);
    await sleep(waitSeconds * 1000); // every getter's first get done, as a follower's full sync is
    return getters;
  }
  const followers = startLiveClients({ origin, brands: phase.brands, perBrand: phase.perBrand, wait: waitSeconds, onItem });
  for (let tries = 0; (await waitingOnServer(origin)) < count && tries < 600; tries++) await sleep(100);
  await sleep(12_000); // the full syncs' burst over, and its counts flushed (an idle backend reports within 10 s)
  return followers;
}

/** The server's CPU, the database's commits and the clients' answers at one moment. */
async function reading({ server, database, clients }: { server: { pid: number }; database: LiveDatabase; clients: LiveClients }) {
  const commits = await database.commits();
  return { cpu: cpuSeconds(server.pid), commits, calls: clients.calls(), at: performance.now() };
}

/** Runs one phase for `seconds`: its clients, its writer, and what the server and the database spent. */
export async function runPhase({ phase, database, server, seconds, waitSeconds }: {
  phase: LivePhase;
  database: LiveDatabase;
  server: { origin: string; pid: number };
  seconds: number;
  waitSeconds: number;
}): Promise<PhaseResult> {
  const committedAt = new Map<string, number>();
  const latencies: number[] = [];
  let measuring = false;
  const onItem = (id: string, at: number): void => {
    const committed = committedAt.get(id);
    if (committed !== undefined && measuring) latencies.push(at - committed);
  };
  // Writes elsewhere start first: the followers' first tokens are made while they run, as on a server written all day.
  const other = phase.elsewhere ? startWriterElsewhere(database) : null;
  const clients = await startClients({ phase, origin: server.origin, waitSeconds, onItem });
  const writer = startWriter({ database, committedAt, writing: phase.writing, counts: (brandId) => phase.brands.some((b) => b.id === brandId) });
  await sleep(1000);
  measuring = true;
  const before = await reading({ server, database, clients });
  const counted = writer.commits();
  await sleep(seconds * 1000);
  const after = await reading({ server, database, clients });
  const rss = residentMb(server.pid);
  const elapsed = (after.at - before.at) / 1000;
  const commits = writer.commits() - counted;
  await writer.stop();
  await other?.stop();
  await sleep(1500); // the last commit's answers
  measuring = false;
  await clients.stop();
  const sorted = latencies.sort((a, b) => a - b);
  const count = phase.brands.length * phase.perBrand;
  return {
    name: phase.name, waiting: phase.clients === 'follow' ? count : 0, getting: phase.clients === 'get' ? count : 0, writing: phase.writing, elsewhere: phase.elsewhere ?? false,
    seconds: round(elapsed)!, commits, calls: clients.calls(), deliveries: latencies.length, expectedDeliveries: phase.clients === 'follow' ? commits * phase.perBrand : 0,
    latencyMs: { p50: round(percentileOfSorted(sorted, 50)), p99: round(percentileOfSorted(sorted, 99)), max: round(sorted.at(-1) ?? null) },
    serverCpuPercent: round(((after.cpu - before.cpu) / elapsed) * 100, 2),
    serverRssMb: round(rss),
    callsPerSecond: round((after.calls - before.calls) / elapsed),
    databaseTransactionsPerSecond: round((after.commits - before.commits) / elapsed),
    errors: clients.errors.slice(0, 10),
  };
}

/** One insert a second to a random brand (or nothing, when not `writing`), its commit time kept by row id. */
function startWriter({ database, committedAt, writing, counts }: {
  database: LiveDatabase;
  committedAt: Map<string, number>;
  writing: boolean;
  counts: (brandId: string) => boolean;
}): { commits(): number; stop(): Promise<void> } {
  let commits = 0;
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const started = performance.now();
      if (writing) {
        const brand = database.brands[Math.floor(Math.random() * database.brands.length)]!;
        const [row] = (await database.db('carton_sizes').insert({ brand_id: brand.id, name: `w${commits}` }).returning('id')) as { id: string }[];
        committedAt.set(row!.id, performance.now());
        if (counts(brand.id)) commits += 1;
      }
      await sleep(Math.max(0, 1000 - (performance.now() - started)));
    }
  })();
  return {
    commits: () => commits,
    async stop() {
      stopped = true;
      await loop;
    },
  };
}


/**
 * What the rest of a database written all day looks like to the followers:
 * a brand nobody follows written ten times a second, beside two
 * transactions that each stay open a second, half a second apart, so one
 * is always open. Every token lists one in progress (the commits beside it
 * pass it), and its end is no change to any followed brand: it must wake
 * nobody.
 */
function startWriterElsewhere(database: LiveDatabase): { stop(): Promise<void> } {
  let stopped = false;
  const write = (db: LiveDatabase['db']) => db('carton_sizes').insert({ brand_id: database.elsewhere.id, name: 'elsewhere' });
  const held = async (delayMs: number): Promise<void> => {
    await sleep(delayMs);
    while (!stopped) {
      await database.db.transaction(async (trx) => {
        await write(trx as unknown as LiveDatabase['db']);
        await sleep(1000);
      });
    }
  };
  const short = (async () => {
    while (!stopped) {
      await write(database.db);
      await sleep(100);
    }
  })();
  const loops = [held(0), held(500), short];
  return {
    async stop() {
      stopped = true;
      await Promise.all(loops);
    },
  };
}
