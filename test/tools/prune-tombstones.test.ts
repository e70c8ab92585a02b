import { execFile } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { describeDatabaseFree } from '../support/database-free.ts';
import { copyOfSeededDataDir } from '../support/seeded-data-dir.ts';

/** `npm run db:prune-tombstones` as a user runs it: a process of its own, on the embedded database in a DATA_DIR of its own (seeded by `db:seed`). */
describeDatabaseFree?.('tools/prune-tombstones.ts (npm run db:prune-tombstones)', function () {
  this.timeout(60_000);
  const ROOT = new URL('../../', import.meta.url).pathname;

  it('prunes with the retention of SYNC_RETENTION_DAYS and says how many went; a bad setting exits 1 with its reason', async () => {
    const dataDir = await copyOfSeededDataDir('bcat-prune-');
    try {
      const env = { PATH: process.env.PATH, DATA_DIR: dataDir, SYNC_RETENTION_DAYS: '7' };
      const run = promisify(execFile);
      const { stdout } = await run(process.execPath, ['--import', 'tsx', 'tools/prune-tombstones.ts'], { cwd: ROOT, env, timeout: 45_000 });
      expect(stdout).to.equal('Pruned 0 tombstones older than 7 days.\n');
      const failed = await run(process.execPath, ['--import', 'tsx', 'tools/prune-tombstones.ts'], { cwd: ROOT, env: { ...env, SYNC_RETENTION_DAYS: '0' } })
        .then(() => null, (error: { code: number; stderr: string }) => error);
      expect(failed?.code).to.equal(1);
      expect(failed?.stderr).to.match(/SYNC_RETENTION_DAYS/);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
