/**
 * `npm start` on the embedded database, started again at once after its
 * process group was killed (SIGKILL): the lock in DATA_DIR still names the
 * killed process, which may still be ending, or stay a zombie where nothing
 * reaps it. (Not SIGTERM just before: on a busy machine the server could
 * finish its graceful stop, and give its lock back, before the SIGKILL
 * landed, and there was then no lock to take over.) A holder that is gone or going does not
 * block the start; a live server still does, so two never share the folder.
 */
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'chai';
import { API_BASE_PATH } from '../../src/server/http/api-base-path.ts';
import { processState } from '../../src/system/is-process-running.ts';
import { spawnServer, type ServerProcess, type SpawnedServer } from '../support/server-process.ts';
import { waitFor } from '../support/wait-for.ts';
import { describeDatabaseFree } from '../support/database-free.ts';
import { copyOfSeededDataDir } from '../support/seeded-data-dir.ts';

/** The demo brand and key the banner prints, and a list of it that must answer 200. */
async function expectServing(server: ServerProcess): Promise<void> {
  const brand = /demo brand: (\S+)/.exec(server.stderr())?.[1];
  const key = /demo key: +(\S+)/.exec(server.stderr())?.[1];
  expect(brand, server.stderr()).to.be.a('string');
  const response = await fetch(`${server.origin}${API_BASE_PATH}/brands/${brand}/carton-sizes?limit=1`, { headers: { Authorization: `Bearer ${key}` } });
  expect(response.status, await response.clone().text()).to.equal(200);
  expect((await response.json()).items).to.have.length(1);
}

describeDatabaseFree?.('faults: the embedded server started again right after a kill', function () {
  this.timeout(120_000);
  let dataDir: string;
  const spawned: SpawnedServer[] = [];
  const spawn = (options: { unreaped?: boolean } = {}): SpawnedServer => {
    const server = spawnServer({ env: { DATA_DIR: dataDir }, timeoutMs: 60_000, ...options });
    spawned.push(server);
    return server;
  };

  // A folder the demo data is in already (seeded-data-dir.ts): what is tested is the lock, not a first start.
  beforeEach(async () => {
    dataDir = await copyOfSeededDataDir('bcat-restart-');
  });
  afterEach(async () => {
    await Promise.all(spawned.splice(0).map((server) => server.dispose()));
    await rm(dataDir, { recursive: true, force: true });
  });

  it('starts at once over the lock of a server whose group was killed, left a zombie', async () => {
    const first = spawn({ unreaped: true });
    const running = await first.started;
    await expectServing(running);
    const pid = await first.pid;
    expect(await readFile(join(dataDir, 'lock'), 'utf8'), 'the first server holds the folder').to.equal(String(pid));

    process.kill(-pid, 'SIGKILL');
    // Its parent never reaps it: the killed server stays a zombie, and its pid still exists.
    await waitFor(async () => processState(pid) === 'Z', { timeoutMs: 10_000, intervalMs: 20, what: 'the killed server to be a zombie' });
    // Read before the next server starts: that one takes the lock over as soon as it runs.
    expect(await readFile(join(dataDir, 'lock'), 'utf8'), 'the killed server had no time to let go of its lock').to.equal(String(pid));
    const again = spawn();

    const restarted = await again.started;
    await expectServing(restarted);
    expect(await readFile(join(dataDir, 'lock'), 'utf8')).to.equal(String(restarted.child.pid));
    expect(processState(pid), 'the old server is still an unreaped zombie').to.equal('Z');
  });

  it('still refuses a second server on a folder a live server holds, and the first keeps serving', async () => {
    const first = await spawn().started;
    const second = spawn();
    const { code } = await second.exited;
    expect(code, second.stderr()).to.equal(1);
    expect(second.stderr()).to.include(`the embedded database in ${dataDir} is in use by process ${first.child.pid}`);
    expect(second.stderr(), 'it never listened').not.to.match(/Brand Catalog Read API on/);
    expect(await readFile(join(dataDir, 'lock'), 'utf8')).to.equal(String(first.child.pid));
    await expectServing(first);
  });
});
