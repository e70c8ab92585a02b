import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { embeddedCursorSecret, lockDataDir, pgliteDir, readDemoKey, writeDemoKey } from '../../../src/db/connection/embedded-data-dir.ts';
import { spawnZombie } from '../../support/zombie-process.ts';
import { describeDatabaseFree } from '../../support/database-free.ts';

/** The pid of a process that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid!;
}

describeDatabaseFree?.('the embedded database\'s folder', () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = join(await mkdtemp(join(tmpdir(), 'bcat-data-')), 'data');
  });
  afterEach(() => rm(join(dataDir, '..'), { recursive: true, force: true }));

  it('keeps the PGlite data in a folder of its own', () => {
    expect(pgliteDir('/srv/bcat')).to.equal(join('/srv/bcat', 'pglite'));
  });

  it('is locked for this process, and free again once released', async () => {
    const release = await lockDataDir(dataDir);
    expect(await readFile(join(dataDir, 'lock'), 'utf8')).to.equal(String(process.pid));
    await release();
    await stat(join(dataDir, 'lock')).then(() => expect.fail('the lock is still there'), (error: NodeJS.ErrnoException) => expect(error.code).to.equal('ENOENT'));
    await (await lockDataDir(dataDir))();
  });

  it('refuses a folder another running process holds, naming it, once that process has not gone within the wait', async () => {
    const release = await lockDataDir(dataDir);
    await writeFile(join(dataDir, 'lock'), String(process.ppid));
    const failure = await lockDataDir(dataDir, { waitMs: 200 }).then(() => null, (error: Error) => error);
    expect(failure?.message).to.equal(
      `the embedded database in ${dataDir} is in use by process ${process.ppid} (is \`npm start\` running?). Stop it first, or set DATABASE_URL to use Postgres.`,
    );
    await release();
  });

  it('takes over a lock left by a process that died', async () => {
    const release = await lockDataDir(dataDir);
    await writeFile(join(dataDir, 'lock'), String(await deadPid()));
    const again = await lockDataDir(dataDir);
    expect(await readFile(join(dataDir, 'lock'), 'utf8')).to.equal(String(process.pid));
    await again();
    await release();
  });

  it('takes over a lock whose process ended but is not reaped (a zombie)', async () => {
    const zombie = await spawnZombie();
    try {
      await mkdir(dataDir, { recursive: true });
      await writeFile(join(dataDir, 'lock'), String(zombie.pid));
      const release = await lockDataDir(dataDir, { waitMs: 0 });
      expect(await readFile(join(dataDir, 'lock'), 'utf8')).to.equal(String(process.pid));
      await release();
    } finally {
      await zombie.dispose();
    }
  });

  it('waits for a holder that goes: its process ends, or it lets go of the lock, within the wait', async () => {
    for (const goes of ['ends', 'lets go'] as const) {
      const holder = spawn('sleep', ['3600'], { stdio: 'ignore' });
      const holderExited = new Promise((resolve) => holder.once('exit', resolve));
      try {
        await mkdir(dataDir, { recursive: true });
        await writeFile(join(dataDir, 'lock'), String(holder.pid));
        const taking = lockDataDir(dataDir, { waitMs: 30_000 });
        if (goes === 'ends') holder.kill('SIGKILL');
        else await rm(join(dataDir, 'lock'));
        const release = await taking;
        expect(await readFile(join(dataDir, 'lock'), 'utf8'), goes).to.equal(String(process.pid));
        await release();
      } finally {
        holder.kill('SIGKILL');
        await holderExited;
      }
    }
  });

  it('makes the cursor secret once, readable by its owner only, and keeps it', async () => {
    await lockDataDir(dataDir);
    const secret = await embeddedCursorSecret(dataDir);
    expect(secret).to.match(/^[0-9a-f]{64}$/);
    expect((await stat(join(dataDir, 'cursor-secret'))).mode & 0o777).to.equal(0o600);
    expect(await embeddedCursorSecret(dataDir)).to.equal(secret);
    // One too short to sign with is replaced.
    await writeFile(join(dataDir, 'cursor-secret'), 'short\n');
    expect(await embeddedCursorSecret(dataDir)).to.match(/^[0-9a-f]{64}$/).and.not.equal(secret);
  });

  it('keeps the demo key, owner-readable, for the next start to print', async () => {
    await lockDataDir(dataDir);
    expect(await readDemoKey(dataDir)).to.equal(null);
    await writeDemoKey(dataDir, 'bcat_sk_demo');
    expect(await readDemoKey(dataDir)).to.equal('bcat_sk_demo');
    expect(await readFile(join(dataDir, 'demo-key'), 'utf8')).to.equal('bcat_sk_demo\n');
    expect((await stat(join(dataDir, 'demo-key'))).mode & 0o777).to.equal(0o600);
  });
});
