/**
 * `npm run soak -- [--duration S] [--rate N] [--connections N] [--interval S] [--json out.json]`
 *
 * A bounded loopback soak: starts the real server in a child process on its
 * own database (DATABASE_URL's Postgres, with REDIS_URL, or a fresh embedded
 * one), sends a steady mix of requests across every family and several keys
 * for `--duration` seconds, prints a line every interval (answers by status,
 * latency percentiles, the server's RSS and heap) and a summary, and exits 1
 * on any 5xx, request error, unexpected status or memory that is not flat.
 *
 * `npm run soak -- --faults [--duration S] [--report out.md]` is the soak
 * with a writer and faults on a schedule, on a primary, a replica and Redis of
 * its own (tools/soak/fault-run.ts); it needs root and the Postgres binaries.
 */
import { writeFile } from 'node:fs/promises';
import { loadRegistry } from '../src/engine/definition/registry.ts';
import { intervalFor, parseSoakArgs, SOAK_USAGE, SoakArgsError, type SoakOptions } from './soak/soak-args.ts';
import { prepareEmbedded, preparePostgres, type SoakDatabase } from './soak/soak-database.ts';
import { buildSoakReport } from './soak/build-soak-report.ts';
import { createSoakMix } from './soak/soak-mix.ts';
import { SoakRecorder } from './soak/soak-recorder.ts';
import { formatSummary } from './soak/soak-report.ts';
import { startSoakServer, type SoakServer } from './soak/soak-server.ts';
import { runSoakTraffic } from './soak/soak-traffic.ts';

/** The rate limit window the server gets: short, so a wrong budget shows as 429s within the run. */
const WINDOW_SECONDS = 10;

/**
 * A real limit, high enough for the soak: each key may make three times its
 * even share of the run's rate in a window. The global key reads both brands
 * and so carries about half of the traffic: 1.5 × headroom for it.
 */
function rateLimitPoints({ rate, keys }: { rate: number; keys: number }): number {
  return Math.max(100, Math.ceil((3 * rate * WINDOW_SECONDS) / keys));
}

const log = (line: string): void => {
  process.stderr.write(`${line}\n`);
};

/** What tools/soak/fault-run.ts exports, named here without an import that would pull it into the build. */
interface FaultRunModule {
  runFaultSoak(args: { durationS: number; signal: AbortSignal; log: (line: string) => void }): Promise<{ verdict: { pass: boolean }; markdown: string }>;
}

/** `--faults`: the scheduled-fault run (tools/soak/fault-run.ts); its markdown report on stdout and in `--report`. */
async function soakWithFaults(options: SoakOptions, signal: AbortSignal): Promise<number> {
  // Loaded here: it runs on the fault tests' helpers (throwaway clusters, Redis, a proxy) in test/, which the steady
  // soak never needs. The name is not a literal, so the production build (tsconfig.build.json, which leaves out
  // tools/soak/fault-*.ts) does not pull test/ into dist/: the fault mode runs from the repository, with tsx.
  const faultRun = './soak/fault-run.ts';
  const { runFaultSoak } = (await import(faultRun)) as FaultRunModule;
  const { verdict, markdown } = await runFaultSoak({ durationS: options.duration, signal, log });
  process.stdout.write(markdown);
  if (options.report) await writeFile(options.report, markdown);
  if (signal.aborted) return 130;
  return verdict.pass ? 0 : 1;
}

async function soak(options: SoakOptions, signal: AbortSignal, cleanup: { server: SoakServer | null; database: SoakDatabase | null }): Promise<number> {
  const registry = await loadRegistry();
  const adminUrl = process.env.DATABASE_URL || null;
  const redisUrl = process.env.REDIS_URL || null;
  log(`soak: preparing ${adminUrl ? `Postgres database bcat_soak_${process.pid}` : 'an embedded database'}…`);
  const database = adminUrl ? await preparePostgres({ adminUrl, redisUrl, registry }) : await prepareEmbedded({ registry });
  cleanup.database = database;
  const points = rateLimitPoints({ rate: options.rate, keys: database.keys.length });
  const server = await startSoakServer({
    env: { ...database.serverEnv, RATE_LIMIT_POINTS: String(points), RATE_LIMIT_WINDOW_SECONDS: String(WINDOW_SECONDS) },
  });
  cleanup.server = server;
  const interval = intervalFor(options);
  log(`soak: server pid ${server.pid} on ${server.origin}; ${options.duration} s at ${options.rate} req/s, ${options.connections} connections, a line every ${interval} s`);

  const recorder = new SoakRecorder();
  const traffic = await runSoakTraffic({
    options: { ...options, interval }, server, mix: createSoakMix({ registry, keys: database.keys }), recorder, signal, log,
  });
  const exitCode = await server.stop();
  cleanup.server = null;
  const report = buildSoakReport({
    options: { duration: options.duration, rate: options.rate, connections: options.connections, interval },
    database,
    rateLimit: { points, windowSeconds: WINDOW_SECONDS },
    families: registry.resources.filter((r) => r.scope !== 'tenant').length,
    traffic,
    recorder,
    server: { pid: server.pid, exitCode, warnings: server.warnings },
  });
  if (signal.aborted) log('soak: interrupted');
  process.stderr.write(formatSummary(report));
  if (options.json) await writeFile(options.json, `${JSON.stringify(report, null, 2)}\n`);
  if (signal.aborted) return 130;
  return report.verdict.pass ? 0 : 1;
}

async function main(): Promise<void> {
  let options: SoakOptions;
  try {
    options = parseSoakArgs(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof SoakArgsError)) throw error;
    log(`${error.message}\n${SOAK_USAGE}`);
    process.exitCode = 2;
    return;
  }
  const controller = new AbortController();
  const cleanup: { server: SoakServer | null; database: SoakDatabase | null } = { server: null, database: null };
  // First Ctrl-C: stop sending, then stop the server, drop the database and summarise. Second: kill the server now.
  const onSignal = (): void => {
    if (controller.signal.aborted) {
      cleanup.server?.killNow();
      return;
    }
    controller.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    process.exitCode = options.faults ? await soakWithFaults(options, controller.signal) : await soak(options, controller.signal, cleanup);
  } catch (error) {
    log(`soak: ${(error as Error).message}`);
    process.exitCode = 1;
  } finally {
    await cleanup.server?.stop().catch(() => undefined);
    await cleanup.database?.drop().catch((error: Error) => log(`soak: could not drop ${cleanup.database?.where}: ${error.message}`));
  }
}

await main();
