import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { insert, resetToBrand } from '../support/fixtures.ts';
import { useServer } from '../support/use-server.ts';
import { describeDatabaseAgnostic } from '../support/database-free.ts';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const GUIDE = readFileSync(new URL('../../docs/guides/asking-lists.md', import.meta.url), 'utf8');
const CLIENT = new URL('../../client/src/index.ts', import.meta.url).href;

/** Every fenced block of `lang` in the guide, in order. */
function blocksOf(lang: string): string[] {
  return [...GUIDE.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))].map((match) => match[1]!);
}

/**
 * What the guide shows: `...` stands for anything, the rest is literal. The
 * printed output is compared with its whitespace collapsed, as a reader
 * compares a multi-line `console.log` with a one-line comment.
 */
function shown(text: string): string {
  return text.trim().split('...').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*?');
}
const collapse = (text: string): string => text.replace(/\s+/g, ' ').trim();

/** The expected outputs a code block writes as trailing comments of its `console.log(` / `print(` lines, in order. */
function commentedOutputs(code: string, { call, comment }: { call: string; comment: string }): string[] {
  return code.split('\n').filter((line) => line.includes(call) && line.includes(` ${comment} `)).map((line) => line.slice(line.lastIndexOf(` ${comment} `) + comment.length + 2));
}

/** Fails with the text when `output` does not hold `expected`, in order, anything else between. */
function expectInOrder({ output, expected, what }: { output: string; expected: readonly string[]; what: string }): void {
  const pattern = new RegExp(expected.map(shown).join('[\\s\\S]*?'));
  expect(pattern.test(collapse(output)), `${what}: expected, in order,\n  ${expected.join('\n  ')}\nin\n${output}`).to.equal(true);
}

/** A step of the guide's shell session: one command, and the output the guide shows under it (null for none). */
interface ShellStep {
  readonly command: string;
  readonly shown: string | null;
}

/** The guide's sh blocks as one session, without the line that sets the placeholder key. */
function shellSteps(): ShellStep[] {
  const steps: { command: string; shown: string | null }[] = [];
  for (const block of blocksOf('sh')) {
    for (const line of block.split('\n')) {
      if (line.trim() === '' || line.startsWith('export API_URL=')) continue;
      if (line.startsWith('# ')) {
        const last = steps.at(-1)!;
        last.shown = last.shown === null ? line.slice(2) : `${last.shown} ${line.slice(2)}`;
      } else {
        steps.push({ command: line, shown: null });
      }
    }
  }
  return steps;
}

const available = (command: string, args: readonly string[]): Promise<boolean> => run(command, args).then(() => true, () => false);

/** Skips a sample whose interpreter is missing, except in CI, where every sample must run. */
async function needs(test: Mocha.Context, { what, command, args }: { what: string; command: string; args: readonly string[] }): Promise<void> {
  if (await available(command, args)) return;
  if (process.env.CI) throw new Error(`CI needs ${what} to run the asking-lists guide's samples`);
  test.skip();
}

/** docs/guides/asking-lists.md, its curl, TypeScript and Python samples run as written against planted orders. */
describeDatabaseAgnostic?.('the asking-lists guide', function () {
  this.timeout(60_000);
  const server = useServer({}, { startTimeoutMs: 180_000 });
  let key: string;
  let suppliers: { porto: string; saigon: string };
  const env = (): NodeJS.ProcessEnv => ({ PATH: process.env.PATH, HOME: process.env.HOME, API_URL: server.origin, API_KEY: key });

  before(async function () {
    this.timeout(180_000);
    const planted = await resetToBrand('northwind');
    key = planted.key;
    const [porto, saigon] = await insert('suppliers', planted.brand.id, [{ code: 'PKW', name: 'Porto Knitwear' }, { code: 'SGA', name: 'Saigon Apparel' }]);
    suppliers = { porto: porto!.id, saigon: saigon!.id };
    // 0102 and 0103 share a millisecond; 0101 and 0102 share an amount; 0104 has none.
    const orders: [code: string, status: string, orderedOn: string, totalAmount: string | null, supplierId: string, createdAt: string][] = [
      ['PO-2026-0101', 'draft', '2026-01-05', '1250.00', suppliers.porto, '2026-01-05T09:00:00Z'],
      ['PO-2026-0102', 'issued', '2026-01-19', '1250.00', suppliers.porto, '2026-01-19T10:00:00.000100Z'],
      ['PO-2026-0103', 'issued', '2026-01-19', '980.50', suppliers.saigon, '2026-01-19T10:00:00.000200Z'],
      ['PO-2026-0104', 'closed', '2026-02-02', null, suppliers.porto, '2026-02-02T08:00:00Z'],
      ['PO-2026-0105', 'draft', '2026-02-10', '4100.00', suppliers.saigon, '2026-02-10T08:00:00Z'],
    ];
    await insert('orders', planted.brand.id, orders.map(([code, status, orderedOn, totalAmount, supplierId, createdAt]) =>
      ({ code, status, orderedOn, totalAmount, supplierId, currency: 'EUR', createdAt, updatedAt: createdAt })));
  });

  it('writes every curl line so that curl sends it: -g, or brackets percent-encoded', () => {
    const curls = shellSteps().filter((step) => step.command.includes('curl '));
    expect(curls.length).to.be.at.least(10);
    for (const { command } of curls) {
      const url = /"(\$BASE[^"]*)"/.exec(command)?.[1];
      expect(url, command).to.be.a('string');
      if (/[[\]]/.test(url!)) expect(command, 'brackets need -g').to.match(/curl -s?g/);
      expect(url, 'a + in a URL is a space').to.not.include('+');
    }
  });

  it('answers each curl line of the guide as the guide shows', async function () {
    await needs(this, { what: 'curl 7.84 or later and jq', command: 'sh', args: ['-c', 'curl --version | grep -qE "^curl (7\\.(8[4-9]|9)|[89]\\.)" && jq --version'] });
    const steps = shellSteps();
    const script = steps.map((step, i) => `${step.command}\nprintf '\\n@@%d %d\\n' ${i} $?`).join('\n');
    const { stdout } = await run('bash', ['-c', script], { env: env(), cwd: ROOT });
    const outputs = stdout.split(/\n@@\d+ \d+\n/);
    const codes = [...stdout.matchAll(/\n@@(\d+) (\d+)\n/g)].map((match) => Number(match[2]));
    expect(codes, stdout).to.have.length(steps.length);
    steps.forEach((step, i) => {
      expect(codes[i], step.command).to.equal(0);
      const output = outputs[i]!.trim();
      if (step.shown === null) expect(output, step.command).to.equal('');
      else expect(new RegExp(`^${shown(step.shown)}$`).test(output), `${step.command}\nshows ${step.shown}\nbut printed ${output}`).to.equal(true);
    });
    const answerOf = (part: string): any => JSON.parse(outputs[steps.findIndex((step) => step.command.includes(part))]!);

    // What the shown outputs leave out with `...`.
    const first = answerOf('"$BASE/orders?sort=-totalAmount&limit=2&fields');
    const second = answerOf('&cursor=$CURSOR"');
    expect([...first.items, ...second.items].map((o: { code: string }) => o.code)).to.deep.equal(['PO-2026-0104', 'PO-2026-0105', 'PO-2026-0102', 'PO-2026-0101']);
    expect(second.nextCursor).to.be.a('string');
    expect(answerOf('counts?by=supplierId').counts).to.deep.equal([suppliers.porto, suppliers.saigon].sort().map((value) => ({ value, count: 2 })));
    const tab = answerOf('include=supplier');
    expect(tab.items.map((o: { supplier: { name: string } }) => o.supplier.name)).to.deep.equal(['Saigon Apparel', 'Porto Knitwear', 'Porto Knitwear']);
    expect(answerOf('createdAt%5Bgt%5D').items.map((o: { code: string }) => o.code)).to.deep.equal(['PO-2026-0103', 'PO-2026-0104', 'PO-2026-0105']);
  });

  it('keeps the sort and the filters in Link, and refuses the cursor with another sort', async () => {
    const path = '/brands/northwind/orders?sort=-totalAmount&status=issued&status=draft&limit=2';
    const page = await server.request(path, { key });
    expect(page.status).to.equal(200);
    const next = /^<([^>]+)>; rel="next"$/.exec(page.headers.get('link')!)![1]!;
    expect(next).to.include('sort=-totalAmount').and.include('status=issued&status=draft').and.include(`cursor=${page.body.nextCursor}`);
    const walked = [...page.body.items, ...(await server.request(next, { key })).body.items].map((o: { code: string }) => o.code);
    expect(walked).to.deep.equal(['PO-2026-0105', 'PO-2026-0102', 'PO-2026-0101', 'PO-2026-0103']);
    const other = await server.request(`/brands/northwind/orders?sort=code&status=issued&status=draft&cursor=${page.body.nextCursor}`, { key });
    expect(other.status).to.equal(400);
    expect(other.body.errorCode).to.equal('cursor_mismatch');
  });

  it('runs the TypeScript sample with the repository\'s client', async () => {
    const [sample, ...rest] = blocksOf('ts');
    expect(rest, 'one TypeScript sample').to.have.length(0);
    expect(sample).to.include("from '@brand-catalog/client'");
    const dir = mkdtempSync(join(tmpdir(), 'asking-lists-'));
    try {
      const file = join(dir, 'sample.mts');
      writeFileSync(file, sample!.replace("'@brand-catalog/client'", `'${CLIENT}'`));
      const { stdout } = await run(process.execPath, ['--import', 'tsx', file], { env: env(), cwd: ROOT });
      expectInOrder({ output: stdout, expected: commentedOutputs(sample!, { call: 'console.log(', comment: '//' }), what: 'the TypeScript sample' });
      // The walk by -totalAmount: every order once, no amount first.
      expect(stdout).to.include('PO-2026-0104 null\nPO-2026-0105 4100.00\nPO-2026-0102 1250.00\nPO-2026-0101 1250.00\nPO-2026-0103 980.50\n');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('runs the Python sample with requests', async function () {
    await needs(this, { what: 'python3 with requests (pip install requests)', command: 'python3', args: ['-c', 'import requests'] });
    const [sample, ...rest] = blocksOf('python');
    expect(rest, 'one Python sample').to.have.length(0);
    const { stdout } = await run('python3', ['-c', sample!], { env: env() });
    expectInOrder({ output: stdout, expected: commentedOutputs(sample!, { call: 'print(', comment: '#' }), what: 'the Python sample' });
    expect(stdout).to.include("[('PO-2026-0104', None), ('PO-2026-0105', '4100.00'), ('PO-2026-0102', '1250.00'), ('PO-2026-0101', '1250.00'), ('PO-2026-0103', '980.50')]");
  });
});
