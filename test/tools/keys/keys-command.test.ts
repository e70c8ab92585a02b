import { expect } from 'chai';
import { findGrant } from '../../../src/server/auth/api-keys.ts';
import { AREAS } from '../../../src/engine/definition/normalize-resource.ts';
import { KEYS_USAGE, parseKeysCommand, runKeysCommand, UsageError } from '../../../tools/keys/keys-command.ts';
import { resetToBrands } from '../../support/fixtures.ts';
import { testDatabase } from '../../support/test-database.ts';

const KEY_SHAPE = /^bcat_sk_[0-9A-Za-z]{46}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * `npm run keys` in process, on the run's database: what it prints and
 * exits with for each command. (test/tools/keys.test.ts runs the real
 * process, as a user does, on the embedded database.)
 */
describe('keys command (tools/keys/keys-command.ts)', () => {
  /** Runs a command line; its exit code and what it wrote. */
  async function keys(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    const { db, registry } = await testDatabase();
    let stdout = '';
    let stderr = '';
    const known = async () => ({ families: registry.resources.filter((r) => r.scope !== 'tenant').map((r) => r.path), areas: AREAS });
    const code = await runKeysCommand({ command: parseKeysCommand(argv), db, known, out: (text) => (stdout += text), err: (text) => (stderr += text) });
    return { code, stdout, stderr };
  }
  const json = async (...argv: string[]): Promise<any> => {
    const result = await keys(...argv, '--json');
    expect(result.code, result.stderr).to.equal(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines, 'one line of JSON').to.have.length(1);
    return JSON.parse(lines[0]!);
  };

  beforeEach(async () => {
    await resetToBrands('northwind', 'southpeak');
  });

  it('refuses bad usage before opening anything: every error names what is wrong', () => {
    const cases: [string[], RegExp][] = [
      [['frobnicate'], /unknown command: frobnicate/],
      [[], /name a command/],
      [['create', '--global', '--brand', 'northwind'], /--global or at least one --brand/],
      [['create', '--global', '--expires-at', 'tomorrow'], /--expires-at takes a date/],
      [['create', '--global', '--expires-at', '2020-01-01'], /already past/],
      [['create', '--global', '--rate-limit', '0'], /--rate-limit takes a whole number/],
      [['create', '--global', '--rate-limit', '1.5'], /--rate-limit/],
      [['revoke', 'not-a-uuid'], /revoke takes one key id/],
      [['rotate', '00000000-0000-4000-8000-000000000000', '--overlap', '24'], /--overlap takes 0 or a duration/],
      [['rotate', '00000000-0000-4000-8000-000000000000', '--overlap', '400d'], /longer than a year/],
      [['create', '--global', '--bogus'], /Unknown option '--bogus'/],
    ];
    for (const [argv, message] of cases) {
      let error: unknown = null;
      try {
        parseKeysCommand(argv);
      } catch (e) {
        error = e;
      }
      expect(error, argv.join(' ')).to.be.instanceOf(UsageError);
      expect((error as Error).message, argv.join(' ')).to.match(message);
    }
    expect(KEYS_USAGE).to.contain('rotate <id> [--overlap').and.contain('--family <path>').and.contain('--area <area>');
  });

  it('creates a key: --json prints {"id","key"} and nothing else; in words, the key once', async () => {
    const created = await json('create', '--brand', 'northwind');
    expect(Object.keys(created).sort()).to.deep.equal(['id', 'key']);
    expect(created.id).to.match(UUID);
    expect(created.key).to.match(KEY_SHAPE);
    const words = await keys('create', '--global', '--name', 'bi job');
    expect(words.code).to.equal(0);
    const key = /bcat_sk_[0-9A-Za-z]+/.exec(words.stdout)![0];
    expect(words.stdout.split(key).length - 1).to.equal(1);
  });

  it('creates a key restricted to families and areas, with its own limit; an unknown one is refused, naming it, and nothing is made', async () => {
    const created = await json('create', '--brand', 'northwind', '--area', 'logistics', '--family', 'invoices', '--family', 'payments', '--rate-limit', '120');
    const { db } = await testDatabase();
    const grant = (await findGrant(db, { key: created.key, brandSlug: 'northwind' }))!;
    expect([...grant.restriction!.areas]).to.deep.equal(['logistics']);
    expect([...grant.restriction!.families]).to.deep.equal(['invoices', 'payments']);
    expect(grant.rateLimit).to.equal(120);
    for (const [argv, message] of [
      [['--family', 'shipmentz'], "no family 'shipmentz' (did you mean 'shipments'?)"],
      [['--area', 'logstics'], "no area 'logstics' (did you mean 'logistics'?): the areas are catalog, sourcing, orders, logistics, finance, documents, reference"],
      [['--family', 'brands'], "no family 'brands'"],
    ] as const) {
      const refused = await keys('create', '--brand', 'northwind', ...argv);
      expect(refused.code, argv.join(' ')).to.equal(1);
      expect(refused.stderr).to.contain(message);
      expect(refused.stdout).to.equal('');
    }
    expect(await json('list')).to.have.length(1);
  });

  it('lists every key with its brands, families, areas, limit, expiry and last use, and never a secret', async () => {
    const open = await json('create', '--brand', 'northwind', '--brand', 'southpeak', '--expires-at', '2031-05-06T07:08:09Z');
    const restricted = await json('create', '--global', '--area', 'finance', '--rate-limit', '60', '--name', 'ledger');
    const { db } = await testDatabase();
    await db('api_keys').where({ id: restricted.id }).update({ last_used_at: '2026-11-28T10:15:42.123Z' });
    const listed = await json('list');
    const byId = new Map(listed.map((k: any) => [k.id, k]));
    expect(byId.get(open.id)).to.deep.include({ global: false, brands: ['northwind', 'southpeak'], families: [], areas: [], rateLimit: null, expiresAt: '2031-05-06T07:08:09.000Z', lastUsedAt: null });
    expect(byId.get(restricted.id)).to.deep.include({ global: true, brands: [], areas: ['finance'], rateLimit: 60, name: 'ledger', lastUsedAt: '2026-11-28T10:15:00.000Z' });
    for (const entry of listed) {
      expect(entry).to.have.keys(['id', 'name', 'hint', 'global', 'brands', 'families', 'areas', 'rateLimit', 'expiresAt', 'revokedAt', 'lastUsedAt', 'createdAt']);
    }
    const text = await keys('list');
    const lineOf = (id: string): string => text.stdout.split('\n').find((l) => l.startsWith(id)) ?? '';
    expect(lineOf(restricted.id)).to.contain('global  areas: finance  limit 60').and.contain('last used 2026-11-28T10:15Z').and.contain('ledger');
    expect(lineOf(open.id)).to.contain('brands: northwind, southpeak  every family  default limit  expires 2031-05-06T07:08:09.000Z  never used');
    for (const output of [JSON.stringify(listed), text.stdout]) {
      for (const { key } of [open, restricted]) expect(output).to.not.contain(key.slice(8, 20));
    }
  });

  it('rotates a key (--json as create), revokes one, and says when an id is no live key', async () => {
    const old = await json('create', '--brand', 'northwind', '--family', 'orders');
    const rotated = await json('rotate', old.id, '--overlap', '90m');
    expect(Object.keys(rotated).sort()).to.deep.equal(['id', 'key']);
    expect(rotated.key).to.match(KEY_SHAPE).and.not.equal(old.key);
    const listed = await json('list');
    const oldEnds = Date.parse(listed.find((k: any) => k.id === old.id).expiresAt);
    expect(oldEnds - Date.now()).to.be.within(89 * 60_000, 91 * 60_000);
    expect(listed.find((k: any) => k.id === rotated.id)).to.deep.include({ brands: ['northwind'], families: ['orders'], expiresAt: null });
    const words = await keys('rotate', rotated.id, '--overlap', '0');
    expect(words.stdout).to.match(new RegExp(`to replace ${rotated.id}; ${rotated.id} is revoked`));
    expect(await json('revoke', old.id)).to.deep.equal({ id: old.id, revoked: true });
    for (const argv of [['revoke', old.id], ['rotate', rotated.id]]) {
      const gone = await keys(...argv);
      expect(gone.code, argv.join(' ')).to.equal(1);
      expect(gone.stderr).to.contain(`No live key with id ${argv[1]}`);
    }
  });
});
