import { rm } from 'node:fs/promises';
import { expect } from 'chai';
import { API_BASE_PATH } from '../../src/server/http/api-base-path.ts';
import { spawnServer, type ServerProcess } from '../support/server-process.ts';
import { describeDatabaseFree } from '../support/database-free.ts';
import { copyOfSeededDataDir } from '../support/seeded-data-dir.ts';
import { runTool, type ToolRun } from '../support/run-tool.ts';

/**
 * `npm run keys` as a user runs it: a process of its own, on the embedded
 * database in a DATA_DIR of its own (DATABASE_URL unset), seeded by `db:seed`.
 */

const KEY_SHAPE = /^bcat_sk_[0-9A-Za-z]{46}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describeDatabaseFree?.('tools/keys.ts (npm run keys)', function () {
  this.timeout(120_000);
  let dataDir: string;
  let env: NodeJS.ProcessEnv;
  // The limit only stops a hang: on a busy machine (the gate runs four test processes on two cores) one run of the
  // command, which opens the embedded folder and closes it, took over 20 s, though it printed its key in time.
  const keys = (...args: string[]): Promise<ToolRun> => runTool('tools/keys.ts', args, { env, timeoutMs: 90_000 });

  async function createJson(...args: string[]): Promise<{ id: string; key: string }> {
    const result = await keys('create', ...args, '--json');
    expect(result.code, result.stderr).to.equal(0);
    return JSON.parse(result.stdout) as { id: string; key: string };
  }

  before(async function () {
    // A copy of a folder `db:seed` made in an empty DATA_DIR (once a run: seeded-data-dir.ts); the limit only stops a hang.
    this.timeout(180_000);
    dataDir = await copyOfSeededDataDir('bcat-keys-');
    env = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
    for (const name of ['DATABASE_URL', 'REDIS_URL', 'CURSOR_SECRET', 'PORT', 'RATE_LIMIT_POINTS', 'RATE_LIMIT_WINDOW_SECONDS']) delete env[name];
  });
  after(() => rm(dataDir, { recursive: true, force: true }));

  /**
   * Keys made once, by the command, for the tests below (each run of the
   * command costs a second or two of CPU: what the command prints for each
   * case is checked in process, test/tools/keys/keys-command.test.ts).
   */
  let made: {
    northwind: { id: string; key: string; stdout: string };
    global: { id: string; key: string; stdout: string };
    toRevoke: { id: string; key: string };
  };

  before(async function () {
    this.timeout(300_000);
    const northwind = await keys('create', '--brand', 'northwind', '--area', 'catalog', '--json');
    expect(northwind.code, northwind.stderr).to.equal(0);
    const global = await keys('create', '--global');
    expect(global.code, global.stderr).to.equal(0);
    const globalKey = /bcat_sk_[0-9A-Za-z]+/.exec(global.stdout)?.[0] ?? '';
    const globalId = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/.exec(global.stdout)?.[0] ?? '';
    made = {
      northwind: { ...(JSON.parse(northwind.stdout.trim().split('\n')[0] ?? 'null') as { id: string; key: string }), stdout: northwind.stdout },
      global: { id: globalId, key: globalKey, stdout: global.stdout },
      toRevoke: await createJson('--brand', 'northwind'),
    };
  });

  it('create prints the key once: as {"id","key"} with --json, in words without', () => {
    const lines = made.northwind.stdout.trim().split('\n');
    expect(lines).to.have.length(1);
    const created = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(Object.keys(created).sort()).to.deep.equal(['id', 'key']);
    expect(created.id).to.match(UUID);
    expect(created.key).to.match(KEY_SHAPE);
    expect(made.global.key, made.global.stdout).to.match(KEY_SHAPE);
    expect(made.global.id, made.global.stdout).to.match(UUID);
    expect(made.global.stdout.split(made.global.key).length - 1, 'the key is printed once').to.equal(1);
  });

  it('revoke <id> revokes the key; list --json then shows every key, that one revoked, and no secret', async () => {
    const revoked = await keys('revoke', made.toRevoke.id);
    expect(revoked.code, revoked.stderr).to.equal(0);
    expect(revoked.stdout).to.contain(made.toRevoke.id);
    const result = await keys('list', '--json');
    expect(result.code, result.stderr).to.equal(0);
    const byId = new Map((JSON.parse(result.stdout) as Record<string, any>[]).map((k) => [k.id as string, k]));
    expect(byId.get(made.northwind.id)).to.deep.include({ global: false, brands: ['northwind'], areas: ['catalog'], revokedAt: null });
    expect(byId.get(made.global.id)).to.deep.include({ global: true, brands: [], revokedAt: null });
    expect(byId.get(made.toRevoke.id)!.revokedAt).to.match(/^\d{4}-\d{2}-\d{2}T/);
    for (const { key } of [made.northwind, made.global, made.toRevoke]) expect(result.stdout).to.not.contain(key.slice(8, 20));
  });

  it('exits 2 with the usage on bad usage, before opening the database', async () => {
    const result = await keys('create', '--global', '--expires-at', '2027-02-30');
    expect(result.code, result.stderr).to.equal(2);
    expect(result.stderr).to.contain('usage:');
    expect(result.stdout).to.equal('');
  });

  describe('while a server holds the data dir', () => {
    let server: ServerProcess | null = null;
    let baseUrl = '';

    before(async function () {
      this.timeout(120_000);
      server = await spawnServer({ env: { DATA_DIR: dataDir, LOG_LEVEL: 'warn' }, timeoutMs: 90_000 }).started;
      baseUrl = `${server.origin}${API_BASE_PATH}`;
    });
    after(async () => {
      const running = server;
      server = null;
      if (running && running.child.exitCode === null && running.child.signalCode === null) {
        running.child.kill('SIGTERM');
        const timer = setTimeout(() => running.child.kill('SIGKILL'), 12_000);
        await running.exited;
        clearTimeout(timer);
      }
    });

    it('refuses to open the embedded database, saying the data dir is in use, and exits non-zero', async () => {
      const result = await keys('list');
      expect(result.code, 'keys list').to.not.equal(0);
      expect(result.stderr).to.match(/in use/);
      expect(result.stderr).to.contain(dataDir);
      expect(result.stdout).to.equal('');
    });

    it('the server takes the keys the command made, within their brands and areas, and refuses the revoked one', async () => {
      // Keys made by the command before the server started (it cannot run beside it); one revoked since.
      const status = async (path: string, key: string): Promise<number> => (await fetch(`${baseUrl}${path}`, { headers: { Authorization: `Bearer ${key}` } })).status;
      expect(await status('/brands/northwind/products', made.northwind.key)).to.equal(200);
      expect(await status('/brands/northwind/orders', made.northwind.key), 'another area').to.equal(401);
      expect(await status('/brands/southpeak/products', made.northwind.key), 'another brand').to.equal(401);
      expect(await status('/brands/southpeak/orders', made.global.key)).to.equal(200);
      expect(await status('/brands/northwind/products', made.toRevoke.key)).to.equal(401);
    });
  });
});
