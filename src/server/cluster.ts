/**
 * `npm run start:cluster`: the server in several processes on one machine,
 * sharing one port (Node's cluster module hands connections to the workers
 * in turn). Each worker is `main.ts` as it is; they share nothing but what
 * every instance shares (Postgres, Redis, the cursor secret), so a worker
 * is one more instance, whether on this machine or another.
 *
 * - CLUSTER_WORKERS processes, one per CPU by default.
 * - It needs DATABASE_URL (the embedded database belongs to one process) and
 *   REDIS_URL (otherwise each worker would count rate limits on its own, and
 *   a key would get its limit once per worker).
 * - A worker that dies after it was serving is replaced; one that cannot
 *   start (a bad setting, the port in use) stops the whole cluster with its
 *   reason, as `npm start` would.
 * - SIGTERM or SIGINT: every worker drains its requests and exits, then the
 *   primary does.
 */
import cluster, { type Worker } from 'node:cluster';
import { availableParallelism } from 'node:os';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, checkServeConfig, loadConfig } from './config.ts';
import { createLogger } from './logger.ts';

/** `main.ts` from the repository, `main.js` from the build: the same form as this file. */
const WORKER_SCRIPT = fileURLToPath(new URL(`./main${extname(fileURLToPath(import.meta.url))}`, import.meta.url));
/** A worker that is not listening this long after it was forked counts as failed to start. */
const START_TIMEOUT_MS = 120_000;

function clusterConfig(): { workers: number; logLevel: string } {
  const config = loadConfig();
  checkServeConfig(config);
  if (config.databaseUrl === null) {
    throw new ConfigError('start:cluster needs DATABASE_URL: the embedded database belongs to one process (use npm start)');
  }
  if (config.redisUrl === null) {
    throw new ConfigError('start:cluster needs REDIS_URL: with in-process counters each worker would give a key the whole rate limit');
  }
  return { workers: config.clusterWorkers ?? availableParallelism(), logLevel: config.logLevel };
}

function run(): void {
  const { workers, logLevel } = clusterConfig();
  const logger = createLogger({ level: logLevel });
  // Workers run the same loader as this process (tsx from the repository, none from the build).
  cluster.setupPrimary({ exec: WORKER_SCRIPT, execArgv: process.execArgv });

  let stopping = false;
  const serving = new WeakSet<Worker>();

  const fork = (): void => {
    const worker = cluster.fork();
    const startTimer = setTimeout(() => {
      logger.error({ worker: worker.id }, `worker did not start listening within ${START_TIMEOUT_MS / 1000} s`);
      stop('start-up timeout', 1);
    }, START_TIMEOUT_MS);
    worker.once('listening', () => {
      clearTimeout(startTimer);
      serving.add(worker);
    });
    worker.once('exit', () => clearTimeout(startTimer));
  };

  let exitCode = 0;
  const stop = (reason: string, code: number): void => {
    if (stopping) return;
    stopping = true;
    exitCode = code;
    logger.info({ reason, workers: Object.keys(cluster.workers ?? {}).length }, 'stopping the cluster');
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
  };

  cluster.on('exit', (worker, code, signal) => {
    if (!stopping) {
      if (serving.has(worker)) {
        logger.error({ worker: worker.id, code, signal }, 'worker died: starting another');
        fork();
      } else {
        // Its own reason is on stderr already (main.ts prints "Could not start: ...").
        logger.error({ worker: worker.id, code, signal }, 'worker could not start: stopping the cluster');
        stop('a worker could not start', 1);
      }
    }
    if (stopping && Object.keys(cluster.workers ?? {}).length === 0) process.exit(exitCode);
  });

  process.on('SIGTERM', () => stop('SIGTERM', 0));
  process.on('SIGINT', () => stop('SIGINT', 0));
  logger.info({ workers }, 'starting the cluster');
  for (let i = 0; i < workers; i++) fork();
}

try {
  run();
} catch (error) {
  process.stderr.write(`Could not start: ${(error as Error).message}\n`);
  process.exit(1);
}
