import { execFile } from 'node:child_process';
import { expect } from 'chai';
import { REPO_ROOT } from '../support/server-process.ts';
import { describeDatabaseFree } from '../support/database-free.ts';
import { SERVER_NODE_FLAGS } from '../../src/server/node-flags.ts';

const SECRET = '0123456789abcdef0123456789abcdef';

/** `npm run start:cluster` with only the environment given; resolves with its exit code and output. */
function startCluster(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...SERVER_NODE_FLAGS, '--import', 'tsx', 'src/server/cluster.ts'],
      { cwd: REPO_ROOT, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/root', ...env }, timeout: 60_000 },
      (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr }),
    );
  });
}

/**
 * The cluster's refusals, before it forks anything (test/cluster/ runs a real
 * cluster of workers on Postgres and Redis).
 */
describeDatabaseFree?.('npm run start:cluster: settings it refuses', function () {
  this.timeout(120_000);

  for (const { what, env, reason } of [
    { what: 'the embedded database', env: {}, reason: 'start:cluster needs DATABASE_URL: the embedded database belongs to one process (use npm start)' },
    { what: 'no CURSOR_SECRET for Postgres', env: { DATABASE_URL: 'postgres://u@db.invalid/d' }, reason: 'CURSOR_SECRET is required with DATABASE_URL' },
    { what: 'no REDIS_URL', env: { DATABASE_URL: 'postgres://u@db.invalid/d', CURSOR_SECRET: SECRET }, reason: 'start:cluster needs REDIS_URL: with in-process counters each worker would give a key the whole rate limit' },
    { what: 'no workers', env: { DATABASE_URL: 'postgres://u@db.invalid/d', CURSOR_SECRET: SECRET, REDIS_URL: 'redis://redis.invalid', CLUSTER_WORKERS: '0' }, reason: "CLUSTER_WORKERS must be a whole number from 1 to 256, not '0'" },
  ]) {
    it(`exits 1 with the reason for ${what}`, async () => {
      const { code, stdout, stderr } = await startCluster(env);
      expect(code, stderr).to.equal(1);
      expect(stderr).to.contain(`Could not start: ${reason}`);
      expect(stdout, 'no worker was started').to.not.contain('starting the cluster');
    });
  }
});
