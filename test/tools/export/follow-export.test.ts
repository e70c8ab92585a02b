import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { ApiError, createClient } from '../../../client/src/index.ts';
import { runChangesExport } from '../../../tools/export/changes-export-run.ts';
import { followExport } from '../../../tools/export/follow-export.ts';
import { readSyncState } from '../../../tools/export/sync-state.ts';
import { insert, resetToBrand } from '../../support/fixtures.ts';
import { useServer } from '../../support/use-server.ts';
import { waitFor } from '../../support/wait-for.ts';

/** `npm run export -- --follow` (tools/export/follow-export.ts): batches appended live, the state kept current, a stop, retries. */
describe('export --follow', () => {
  const server = useServer({}, { startTimeoutMs: 180_000 });
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'follow-export-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('appends the full sync, then each change as it commits, keeps the token in the state file, and stops on the signal', async () => {
    const { brand, key } = await resetToBrand('acme');
    const [first] = await insert('carton-sizes', brand.id, [{ name: 'first' }]);
    const client = createClient({ baseUrl: server.origin, apiKey: key, brand: 'acme' });
    const out = join(dir, 'out.ndjson');
    const statePath = join(dir, 'state.json');
    const stop = new AbortController();
    const lines = async (): Promise<{ change: string; id: string | null }[]> =>
      (await readFile(out, 'utf8').catch(() => '')).split('\n').filter(Boolean).map((line) => JSON.parse(line));
    const following = followExport({
      signal: stop.signal,
      onRetry: (error) => { throw error; },
      runBatch: async (isFirst) => (await runChangesExport({ client, family: 'carton-sizes', format: 'ndjson', out, statePath, restart: isFirst, wait: 5, signal: stop.signal })).complete,
    });
    await waitFor(async () => server.live.waiting() === 1, { intervalMs: 10, what: 'the full sync written, then a waiting call' });
    expect((await lines()).map((line) => [line.change, line.id])).to.deep.equal([['reset', null], ['upsert', first!.id]]);
    const tokenAfterFull = (await readSyncState(statePath))!.syncToken;
    const [second] = await insert('carton-sizes', brand.id, [{ name: 'second' }]);
    await waitFor(async () => (await lines()).length === 3 || undefined, { intervalMs: 10, timeoutMs: 3000, what: 'the change appended live' });
    expect((await lines())[2]).to.include({ change: 'upsert', id: second!.id });
    await waitFor(async () => server.live.waiting() === 1, { intervalMs: 10, what: 'waiting again' });
    expect((await readSyncState(statePath))!.syncToken).to.be.a('string').and.not.equal(tokenAfterFull);
    stop.abort();
    await following;
    await waitFor(async () => server.live.waiting() === 0, { intervalMs: 10, what: 'the hang-up freeing the place' });
  });

  it('retries a failure that may pass, with backoff, and ends on one that will not', async () => {
    const stop = new AbortController();
    let runs = 0;
    const retries: number[] = [];
    await followExport({
      signal: stop.signal,
      onRetry: (_error, delayMs) => retries.push(delayMs),
      runBatch: async () => {
        runs += 1;
        if (runs === 1) throw new ApiError({ status: 503, errorCode: 'internal_error', message: 'down', details: null, requestId: null, retryAfterSeconds: 0, url: '' });
        stop.abort();
        return true;
      },
    });
    expect(runs).to.equal(2);
    expect(retries).to.have.length(1);
    let thrown: unknown = null;
    try {
      await followExport({ signal: new AbortController().signal, onRetry: () => {}, runBatch: async () => { throw new ApiError({ status: 400, errorCode: 'invalid_parameter', message: 'no', details: null, requestId: null, retryAfterSeconds: null, url: '' }); } });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).to.be.instanceOf(ApiError);
  });
});
