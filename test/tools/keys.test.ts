import { spawn, type ChildProcess } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { expect } from 'chai';
import { API_BASE_PATH } from '../../src/server/http/api-base-path.ts';
import { spawnServer, type ServerProcess } from '../support/server-process.ts';
import { describeDatabaseFree } from '../support/database-free.ts';
import { copyOfSeededDataDir } from '../support/seeded-data-dir.ts';

/**
 * `npm run keys` as a user runs it: a process of its own, on the embedded
 * database in a DATA_DIR of its own (DATABASE_URL unset), seeded by `db:seed`.
 */

const ROOT = new URL('../../', import.meta.url).pathname;
const KEY_SHAPE = /^bcat_sk_[0-9A-Za-z]{46}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

describeDatabaseFree?.('tools/keys.ts (npm run keys)', function () {
  this.timeout(60_000);
  let dataDir: string;
  let env: NodeJS.ProcessEnv;
  const children = new Set<ChildProcess>();

  function run(script: string, args: readonly string[], timeoutMs = 20_000): Promise<Run> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
      children.add(child);
      let stdout = '';
      let stderr = '';
      child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`${script} ${args.join(' ')} took over ${timeoutMs} ms\n${stdout}\n${stderr}`));
      }, timeoutMs);
      child.on('error', reject);
      child.on('close', (code) => {
        clearTimeout(timer);
        children.delete(child);
        resolve({ code, stdout, stderr });
      });
    });
  }
  const keys = (...args: string[]): Promise<Run> => run('tools/keys.ts', args);

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
  after(async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
  });

  /** Keys made once, by the command, for the tests below (each run of the command costs a second or two). */
  let made: {
    northwind: { id: string; key: string; stdout: string };
    global: { id: string; key: string; stdout: string };
    twoBrands: { id: string; key: string };
    expired: { id: string; key: string };
    toRevoke: { id: string; key: string };
  };

  /** The command refuses a past expiry, so this key expires moments after it is made. */
  let soon: string;

  before(async () => {
    const northwind = await keys('create', '--brand', 'northwind', '--json');
    expect(northwind.code, northwind.stderr).to.equal(0);
    const global = await keys('create', '--global');
    expect(global.code, global.stderr).to.equal(0);
    const globalKey = /bcat_sk_[0-9A-Za-z]+/.exec(global.stdout)?.[0] ?? '';
    const globalId = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/.exec(global.stdout)?.[0] ?? '';
    made = {
      northwind: { ...(JSON.parse(northwind.stdout.trim().split('\n')[0] ?? 'null') as { id: string; key: string }), stdout: northwind.stdout },
      global: { id: globalId, key: globalKey, stdout: global.stdout },
      twoBrands: await createJson('--brand', 'northwind', '--brand', 'southpeak', '--expires-at', '2031-05-06T07:08:09Z'),
      expired: await createJson('--brand', 'northwind', '--expires-at', (soon = new Date(Date.now() + 3_000).toISOString())),
      toRevoke: await createJson('--brand', 'northwind'),
    };
  });

  it('create --brand northwind --json prints {"id","key"} and nothing else', () => {
    const lines = made.northwind.stdout.trim().split('\n');
    expect(lines).to.have.length(1);
    const created = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(Object.keys(created).sort()).to.deep.equal(['id', 'key']);
    expect(created.id).to.match(UUID);
    expect(created.key).to.match(KEY_SHAPE);
  });

  it('create --global prints the id and the key once, in words', () => {
    expect(made.global.key, made.global.stdout).to.match(KEY_SHAPE);
    expect(made.global.id, made.global.stdout).to.match(UUID);
    expect(made.global.stdout.split(made.global.key).length - 1, 'the key is printed once').to.equal(1);
  });

  it('makes a different key and id every time', () => {
    const all = [made.northwind, made.global, made.twoBrands, made.expired, made.toRevoke];
    for (const { key } of all) expect(key).to.match(KEY_SHAPE);
    expect(new Set(all.map((k) => k.key)).size).to.equal(all.length);
    expect(new Set(all.map((k) => k.id)).size).to.equal(all.length);
  });

  it('list --json gives each key its scope and expiry, and never a secret', async () => {
    const result = await keys('list', '--json');
    expect(result.code, result.stderr).to.equal(0);
    const listed = JSON.parse(result.stdout) as Record<string, any>[];
    expect(listed).to.be.an('array');
    const byId = new Map(listed.map((k) => [k.id as string, k]));
    expect(byId.get(made.northwind.id)).to.deep.include({ global: false, brands: ['northwind'], expiresAt: null, revokedAt: null });
    expect(byId.get(made.global.id)).to.deep.include({ global: true, brands: [], expiresAt: null, revokedAt: null });
    expect(byId.get(made.twoBrands.id)).to.deep.include({ global: false, expiresAt: '2031-05-06T07:08:09.000Z', revokedAt: null });
    expect(byId.get(made.twoBrands.id)!.brands).to.deep.equal(['northwind', 'southpeak']);
    expect(byId.get(made.expired.id)).to.deep.include({ expiresAt: soon });
    for (const entry of listed) {
      expect(entry).to.have.keys(['id', 'name', 'hint', 'global', 'brands', 'expiresAt', 'revokedAt', 'createdAt']);
    }
    expectNoSecret(result.stdout);
  });

  function expectNoSecret(output: string): void {
    for (const { key } of [made.northwind, made.global, made.twoBrands, made.expired, made.toRevoke]) {
      expect(output).to.not.contain(key);
      const secret = key.slice('bcat_sk_'.length);
      for (let i = 0; i + 8 <= secret.length; i++) expect(output, 'a piece of a secret').to.not.contain(secret.slice(i, i + 8));
    }
    expect(output).to.not.match(/bcat_sk_[0-9A-Za-z]{8}/);
  }

  it('revoke <id> revokes the key; list then shows it revoked, with every id and no secret', async () => {
    const revoked = await keys('revoke', made.toRevoke.id);
    expect(revoked.code, revoked.stderr).to.equal(0);
    expect(revoked.stdout).to.contain(made.toRevoke.id);
    const text = await keys('list');
    expect(text.code, text.stderr).to.equal(0);
    for (const { id } of [made.northwind, made.global, made.twoBrands, made.expired, made.toRevoke]) expect(text.stdout).to.contain(id);
    const lineOf = (id: string): string => text.stdout.split('\n').find((l) => l.startsWith(id)) ?? '';
    expect(lineOf(made.toRevoke.id), text.stdout).to.match(/revoked \d{4}-\d{2}-\d{2}T/);
    expect(lineOf(made.northwind.id)).to.not.contain('revoked');
    expect(lineOf(made.global.id)).to.contain('global');
    expect(lineOf(made.twoBrands.id)).to.contain('northwind, southpeak');
    expectNoSecret(text.stdout);
  });

  it('exits 2 with the usage on bad usage', async () => {
    const cases: string[][] = [
      ['frobnicate'],
      ['create', '--global', '--brand', 'northwind'],
      ['create', '--global', '--expires-at', 'tomorrow'],
      ['create', '--global', '--expires-at', '2027-02-30'],
      ['create', '--global', '--expires-at', '2020-01-01'],
      ['revoke', 'not-a-uuid'],
    ];
    const results: Run[] = [];
    // Two at a time: these stop before opening the database.
    for (let i = 0; i < cases.length; i += 2) results.push(...(await Promise.all(cases.slice(i, i + 2).map((args) => keys(...args)))));
    results.forEach((result, i) => {
      expect(result.code, `keys ${cases[i]!.join(' ')}: ${result.stderr}`).to.equal(2);
      expect(result.stderr).to.contain('usage:');
      expect(result.stdout).to.equal('');
    });
  });

  it('exits 1 for an unknown brand, printing no key', async () => {
    const result = await keys('create', '--brand', 'northwind', '--brand', 'no-such-brand');
    expect(result.code).to.equal(1);
    expect(result.stderr).to.contain('no-such-brand');
    expect(result.stdout).to.not.match(/bcat_sk_/);
  });

  describe('while a server holds the data dir', () => {
    let server: ServerProcess | null = null;
    let baseUrl = '';

    before(async () => {
      server = await spawnServer({ env: { DATA_DIR: dataDir, LOG_LEVEL: 'warn' } }).started;
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

    it('the server takes the keys the command made, and refuses the revoked ones', async () => {
      // Keys made by the command before the server started (it cannot run beside it); one revoked since.
      const live = { ...made, revoked: made.toRevoke };
      const ok = await fetch(`${baseUrl}/brands/northwind/carton-sizes`, { headers: { Authorization: `Bearer ${live.northwind.key}` } });
      expect(ok.status).to.equal(200);
      const other = await fetch(`${baseUrl}/brands/southpeak/carton-sizes`, { headers: { Authorization: `Bearer ${live.northwind.key}` } });
      expect(other.status).to.equal(401);
      const global = await fetch(`${baseUrl}/brands/southpeak/carton-sizes`, { headers: { Authorization: `Bearer ${live.global.key}` } });
      expect(global.status).to.equal(200);
      const revoked = await fetch(`${baseUrl}/brands/northwind/carton-sizes`, { headers: { Authorization: `Bearer ${live.revoked.key}` } });
      expect(revoked.status).to.equal(401);
      const both = await fetch(`${baseUrl}/brands/southpeak/carton-sizes`, { headers: { Authorization: `Bearer ${live.twoBrands.key}` } });
      expect(both.status).to.equal(200);
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, Date.parse(soon) + 100 - Date.now())));
      const expired = await fetch(`${baseUrl}/brands/northwind/carton-sizes`, { headers: { Authorization: `Bearer ${live.expired.key}` } });
      expect(expired.status).to.equal(401);
    });
  });
});
