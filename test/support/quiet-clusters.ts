/**
 * Postgres clusters of a run's own, for the test files that watch the whole
 * cluster: the changes feed and the count cache read the cluster's snapshot
 * and its oldest running transaction, which any transaction in any database
 * of the cluster moves (test/support/suite-files.cjs, ALONE). On the
 * machine's Postgres those files wait for every other file to end; on a
 * cluster of their own nothing else runs, so they can run beside the rest.
 *
 * A command, for `.ci/run`: `tsx test/support/quiet-clusters.ts <n>` makes
 * and starts n throwaway clusters (test/faults/local-postgres.ts: the same
 * Postgres binaries as the machine's, trust authentication on 127.0.0.1, no
 * fsync), prints one line, `<pid> <url>...`, and runs until that pid gets
 * SIGTERM or SIGINT; then it stops the clusters and deletes their folders.
 */
import { appendFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { LocalPostgres } from '../faults/local-postgres.ts';
import { runUntilStopped } from './until-stopped.ts';

/**
 * Connections a cluster takes: a test run's servers, its own clients and
 * PgBouncer's pool together (the fault tests' 40 is for one server).
 */
const MAX_CONNECTIONS = 200;

/** Makes and starts `count` clusters; the caller destroys them. */
export async function startQuietClusters(count: number): Promise<LocalPostgres[]> {
  const clusters: LocalPostgres[] = [];
  try {
    for (let i = 0; i < count; i += 1) {
      const cluster = await LocalPostgres.create();
      clusters.push(cluster);
      await appendFile(join(cluster.dataDir, 'postgresql.conf'), `\n# a quiet cluster of a test run\nmax_connections = ${MAX_CONNECTIONS}\n`);
      await cluster.start();
    }
    return clusters;
  } catch (error) {
    await Promise.all(clusters.map((cluster) => cluster.destroy()));
    throw error;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const count = Number(process.argv[2]);
  if (!Number.isInteger(count) || count < 1) {
    process.stderr.write('usage: tsx test/support/quiet-clusters.ts <how many clusters>\n');
    process.exit(2);
  }
  const clusters = await startQuietClusters(count);
  runUntilStopped(() => Promise.all(clusters.map((cluster) => cluster.destroy())));
  process.stdout.write(`${process.pid} ${clusters.map((cluster) => cluster.url).join(' ')}\n`);
}
