import { execFile, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { insert, resetToBrand } from '../support/fixtures.ts';
import { useServer } from '../support/use-server.ts';
import { waitFor } from '../support/wait-for.ts';

const GUIDE = readFileSync(new URL('../../docs/guides/syncing.md', import.meta.url), 'utf8');

/** The fenced block of `lang` that follows `heading` in the guide. */
function sampleAfter(heading: string, lang: string): string {
  const from = GUIDE.indexOf(heading);
  expect(from, heading).to.be.at.least(0);
  const match = new RegExp('```' + lang + '\\n([\\s\\S]*?)```').exec(GUIDE.slice(from));
  expect(match, `${lang} after ${heading}`).to.not.equal(null);
  return match![1]!;
}

/** The live loop of docs/guides/syncing.md ("Following live"), run as written against a real server. */
describe('the syncing guide: following live', function () {
  this.timeout(60_000);
  const server = useServer({}, { startTimeoutMs: 180_000 });

  it('the Python sample gets the full sync, then waits and gets a change as it commits', async function () {
    if (await promisify(execFile)('python3', ['-c', 'import requests']).then(() => false, () => true)) {
      if (process.env.CI) throw new Error('CI needs python3 with requests to run the guide\'s Python sample (pip install requests)');
      this.skip();
    }
    const { brand, key } = await resetToBrand('acme');
    const [first] = await insert('carton-sizes', brand.id, [{ name: 'first' }]);
    const child = spawn('python3', ['-c', sampleAfter('### In Python', 'python')], {
      env: { ...process.env, API_URL: server.origin, API_KEY: key, BRAND: 'acme' }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    try {
      await waitFor(async () => out.includes(`upsert ${first!.id}`) && server.live.waiting() === 1, { intervalMs: 20, timeoutMs: 20_000, what: `the full sync, then a waiting call (output: ${out})` });
      const [second] = await insert('carton-sizes', brand.id, [{ name: 'second' }]);
      await waitFor(async () => out.includes(`upsert ${second!.id}`), { intervalMs: 20, timeoutMs: 3000, what: 'the change, live' });
    } finally {
      child.kill();
    }
  });
});
