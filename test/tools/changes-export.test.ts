import { appendFile, copyFile, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { createClient, type BrandCatalogClient } from '../../client/src/index.ts';
import { createChangesCodec } from '../../src/engine/request/changes-codec.ts';
import { createCursorCodec } from '../../src/engine/request/cursor-codec.ts';
import { ExportTokenExpired, runChangesExport, type ChangesExportOptions } from '../../tools/export/changes-export-run.ts';
import { ExportRefused } from '../../tools/export/export-sink.ts';
import { readSyncState, writeSyncState } from '../../tools/export/sync-state.ts';
import { insert, resetToBrand } from '../support/fixtures.ts';
import { testDatabase } from '../support/test-database.ts';
import { TEST_CURSOR_SECRET } from '../support/test-server.ts';
import { useServer } from '../support/use-server.ts';
import { bareEnv, startTool, type ToolProcess } from '../support/run-tool.ts';
import { waitFor } from '../support/wait-for.ts';
import { describeDatabaseAgnostic } from '../support/database-free.ts';

/**
 * The export's incremental mode (`--sync-state`, tools/export/changes-export-run.ts)
 * over the real changes feed: in process for the details, and as the command
 * a user runs, killed mid-batch and run again.
 */

interface Line {
  change: 'upsert' | 'delete' | 'reset';
  id: string | null;
  record: Record<string, unknown> | null;
}

const parse = (text: string): Line[] => text.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as Line);

/** Applies lines in order, as a consumer would: reset empties the copy, the last line for an id wins. */
function apply(copy: Map<string, unknown>, lines: readonly Line[]): Map<string, unknown> {
  for (const line of lines) {
    if (line.change === 'reset') copy.clear();
    else if (line.change === 'delete') copy.delete(line.id!);
    else copy.set(line.id!, line.record);
  }
  return copy;
}

/**
 * The lines that changed the copy (applying them to it as it goes). Delivery
 * is at least once (CONTRACT.md §6): a later batch may repeat an item the
 * copy already holds, which changes nothing and is left out.
 */
function changing(copy: Map<string, unknown>, lines: readonly Line[]): Line[] {
  const changed: Line[] = [];
  for (const line of lines) {
    const held = line.id === null ? undefined : copy.get(line.id);
    if (line.change === 'reset' || (line.change === 'delete' ? copy.has(line.id!) : JSON.stringify(held) !== JSON.stringify(line.record))) changed.push(line);
    apply(copy, [line]);
  }
  return changed;
}

const summary = (lines: readonly Line[]): string[][] => lines.map((line) => [line.change, line.id ?? '']).sort();

describeDatabaseAgnostic?.('tools/export/changes-export-run.ts (npm run export -- --sync-state)', function () {
  this.timeout(90_000);
  let brand: { id: string; slug: string };
  let key: string;
  let client: BrandCatalogClient;
  let dir: string;
  let out: string;
  let statePath: string;

  const server = useServer();
  beforeEach(async () => {
    ({ brand, key } = await resetToBrand('acme'));
    client = createClient({ baseUrl: server.origin, apiKey: key, brand: 'acme' });
    dir = await mkdtemp(join(tmpdir(), 'bcat-changes-export-'));
    out = join(dir, 'cartons.ndjson');
    statePath = join(dir, 'cartons.sync.json');
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  const sql = async (text: string, bindings: string[] = []): Promise<void> => {
    await (await testDatabase()).db.raw(text, bindings);
  };
  const run = (options: Partial<ChangesExportOptions> = {}) =>
    runChangesExport({ client, family: 'carton-sizes', format: 'ndjson', out, statePath, pageSize: 2, ...options });
  const listed = async (): Promise<Map<string, unknown>> => new Map((await client.list('carton-sizes').toArray()).map((size) => [size.id, size]));
  /** The file's lines from a byte offset on. */
  const linesFrom = async (offset: number): Promise<Line[]> => parse((await readFile(out)).subarray(offset).toString('utf8'));
  /** Three changes by SQL: an insert, an update, a hard delete. */
  async function changeRows(rows: Record<string, any>[]): Promise<Line[]> {
    const [added] = await insert('carton-sizes', brand.id, [{ name: 'New' }]);
    await sql('update carton_sizes set name = ? where id = ?', ['Renamed', rows[1]!.id]);
    await sql('delete from carton_sizes where id = ?', [rows[2]!.id]);
    return [
      { change: 'upsert', id: added!.id, record: null },
      { change: 'upsert', id: rows[1]!.id, record: null },
      { change: 'delete', id: rows[2]!.id, record: null },
    ];
  }

  it('a first run writes a full sync (a reset line, then every record), the next only what changed, deletes included', async () => {
    const rows = await insert('carton-sizes', brand.id, Array.from({ length: 5 }, (_, i) => ({ name: `C${i}` })));
    const first = await run();
    expect(first).to.include({ complete: true, full: true, resumed: false, upserts: 5, deletes: 0, pages: 3 });
    const fullLines = await linesFrom(0);
    expect(fullLines[0]).to.deep.equal({ change: 'reset', id: null, record: null });
    expect(fullLines.slice(1).map((line) => line.change)).to.deep.equal(Array(5).fill('upsert'));
    const copy = apply(new Map(), fullLines);
    expect(copy).to.deep.equal(await listed());
    const saved = await readSyncState(statePath);
    expect(saved).to.include({ syncToken: first.syncToken, batch: null });
    expect(saved!.feed).to.deep.equal({ brand: 'acme', family: 'carton-sizes' });

    const expected = await changeRows(rows);
    const before = (await stat(out)).size;
    const second = await run();
    expect(second).to.include({ complete: true, full: false, resumed: false });
    const written = await linesFrom(before);
    expect(written.map((line) => line.change)).to.not.include('reset');
    expect(summary(changing(copy, written))).to.deep.equal(summary(expected));
    expect(copy).to.deep.equal(await listed());
    expect((copy.get(rows[1]!.id) as { name: string }).name).to.equal('Renamed');
    expect((await readSyncState(statePath))!.syncToken).to.equal(second.syncToken).and.not.equal(first.syncToken);

    // Nothing changed: nothing that changes the copy is written.
    const idle = (await stat(out)).size;
    await run();
    expect(changing(copy, await linesFrom(idle))).to.deep.equal([]);
  });

  it('csv: a change column before the fields, the header once, a delete with its id only, a reset with nothing', async () => {
    const csvOut = join(dir, 'cartons.csv');
    const rows = await insert('carton-sizes', brand.id, [{ name: 'A', lengthCm: '40.50' }, { name: 'B' }, { name: 'C' }]);
    await run({ format: 'csv', out: csvOut });
    await sql('delete from carton_sizes where id = ?', [rows[0]!.id]);
    await run({ format: 'csv', out: csvOut });
    const text = await readFile(csvOut, 'utf8');
    const lines = text.split('\r\n').filter((line) => line !== '');
    expect(lines[0]).to.equal('change,id,name,lengthCm,widthCm,heightCm,createdAt,updatedAt');
    expect(lines.filter((line) => line.startsWith('change,'))).to.have.length(1);
    expect(lines[1]).to.equal('reset,,,,,,,');
    expect(lines).to.include(`upsert,${rows[0]!.id},A,40.50,,,${rows[0]!.createdAt},${rows[0]!.updatedAt}`);
    expect(lines[lines.length - 1]).to.equal(`delete,${rows[0]!.id},,,,,,`);
  });

  it('a run that stops mid-batch resumes from its last saved page: a page written but not saved comes once, never half', async () => {
    const rows = await insert('carton-sizes', brand.id, Array.from({ length: 4 }, (_, i) => ({ name: `C${i}` })));
    await run();
    const copy = apply(new Map(), await linesFrom(0));
    const expected = await changeRows(rows);
    expected.push(...(await insert('carton-sizes', brand.id, [{ name: 'X' }, { name: 'Y' }])).map((row): Line => ({ change: 'upsert', id: row.id, record: null })));
    const before = (await stat(out)).size;

    const stopped = await run({ maxPages: 1 });
    expect(stopped).to.include({ complete: false, pages: 1 });
    const afterPage = await readSyncState(statePath);
    expect(afterPage!.batch).to.include({ out, format: 'ndjson', bytes: (await stat(out)).size, items: 2 });
    expect(afterPage!.batch!.nextCursor).to.be.a('string');
    expect(afterPage!.syncToken).to.equal(stopped.syncToken);

    // The crash window: the next page reached the file, its state did not (then half a line more).
    await copyFile(statePath, `${statePath}.kept`);
    await run({ maxPages: 1 });
    await copyFile(`${statePath}.kept`, statePath);
    await appendFile(out, '{"change":"upsert","id":"half a li');

    const resumed = await run();
    expect(resumed).to.include({ complete: true, resumed: true, full: false });
    const batch = await linesFrom(before);
    // One batch: every id at most once, so the page read twice is in the file once.
    expect(new Set(batch.map((line) => line.id)).size).to.equal(batch.length);
    expect(summary(changing(copy, batch))).to.deep.equal(summary(expected));
    expect(copy).to.deep.equal(await listed());
    expect(await readSyncState(statePath)).to.include({ batch: null, syncToken: resumed.syncToken });
  });

  it('an expired token stops with what to do; with resyncExpired it appends a full sync opened by a reset line', async () => {
    const rows = await insert('carton-sizes', brand.id, [{ name: 'A' }, { name: 'B' }, { name: 'C' }]);
    await run();
    await sql('delete from carton_sizes where id = ?', [rows[0]!.id]);
    const codec = createChangesCodec(createCursorCodec(TEST_CURSOR_SECRET));
    const old = codec.encodeToken({ brandId: brand.id, family: 'carton-sizes' }, { snapshot: '1:1:', madeAt: Date.now() - 31 * 86_400_000, mark: null });
    await writeSyncState(statePath, { ...(await readSyncState(statePath))!, syncToken: old });
    const size = (await stat(out)).size;

    const refused = await run().then(() => null, (error: Error) => error);
    expect(refused).to.be.instanceOf(ExportTokenExpired);
    expect(refused!.message).to.contain('has expired').and.contain('--resync-expired').and.contain('reset line');
    expect((await stat(out)).size).to.equal(size);
    expect((await readSyncState(statePath))!.syncToken).to.equal(old);

    const resynced = await run({ resyncExpired: true });
    expect(resynced).to.include({ complete: true, full: true, upserts: 2, deletes: 0 });
    const written = await linesFrom(size);
    expect(written[0]!.change).to.equal('reset');
    expect(apply(new Map([['stale', {}]]), written)).to.deep.equal(await listed());
    expect((await readSyncState(statePath))!.syncToken).to.equal(resynced.syncToken).and.not.equal(old);
  });

  it('restart appends a full sync; a state of another family, an unfinished batch into another file and a foreign token are refused', async () => {
    await insert('carton-sizes', brand.id, [{ name: 'A' }, { name: 'B' }, { name: 'C' }]);
    await run();
    const size = (await stat(out)).size;
    const restarted = await run({ restart: true });
    expect(restarted).to.include({ full: true, upserts: 3 });
    expect((await linesFrom(size))[0]!.change).to.equal('reset');

    const refusal = async (options: Partial<ChangesExportOptions>): Promise<string> => {
      const error = await run(options).then(() => null, (caught: Error) => caught);
      expect(error).to.be.instanceOf(ExportRefused);
      return error!.message;
    };
    expect(await refusal({ family: 'products' })).to.contain('acme/carton-sizes').and.contain('one state file per brand and family');

    await run({ restart: true, maxPages: 1 });
    expect(await refusal({ out: join(dir, 'other.ndjson') })).to.contain('unfinished batch').and.contain(out);
    expect(await refusal({ format: 'csv' })).to.contain('--restart');
    await run();
    // A restart drops an unfinished batch: the file is cut back to its last saved page, then a full sync follows.
    await run({ restart: true, maxPages: 1 });
    const cut = (await readSyncState(statePath))!.batch!.bytes;
    await appendFile(out, '{"half a li');
    expect(await run({ restart: true })).to.include({ complete: true, full: true, upserts: 3 });
    expect((await linesFrom(cut))[0]!.change).to.equal('reset');

    const otherServer = createCursorCodec('another-secret-0123456789abcdef0123456789abcdef');
    const foreign = createChangesCodec(otherServer).encodeToken({ brandId: brand.id, family: 'carton-sizes' }, { snapshot: '1:1:', madeAt: Date.now(), mark: null });
    await writeSyncState(statePath, { ...(await readSyncState(statePath))!, syncToken: foreign });
    expect(await refusal({})).to.contain('invalid_cursor').and.contain('--restart');
  });

  describe('the command', () => {
    let proxy: Server;
    let proxyOrigin: string;
    /** Changes requests the proxy has held without an answer (the process is killed while it waits). */
    let held: ServerResponse[];
    let holdAt: number;

    beforeEach(async () => {
      held = [];
      holdAt = Infinity;
      let changesRequests = 0;
      proxy = createServer((request, response) => {
        if (request.url!.includes('/changes') && ++changesRequests >= holdAt) {
          held.push(response);
          return;
        }
        void fetch(`${server.origin}${request.url}`, { headers: { authorization: request.headers.authorization ?? '' } }).then(async (answer) => {
          response.writeHead(answer.status, { 'Content-Type': answer.headers.get('content-type') ?? 'application/json' });
          response.end(await answer.text());
        });
      });
      await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
      proxyOrigin = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    });
    afterEach(async () => {
      proxy.closeAllConnections();
      await new Promise((resolve) => proxy.close(resolve));
    });

    const start = (args: readonly string[], apiUrl = server.origin): ToolProcess =>
      startTool('tools/export.ts', ['carton-sizes', '--brand', 'acme', '--sync-state', statePath, '--out', out, ...args], { env: bareEnv({ API_URL: apiUrl, API_KEY: key }) });

    it('first run, rows changed by SQL, a second run killed mid-batch, a third that finishes it: the copy equals the database', async () => {
      const rows = await insert('carton-sizes', brand.id, Array.from({ length: 4 }, (_, i) => ({ name: `C${i}` })));
      const first = await start(['--page-size', '3']).done;
      expect(first.code, first.stderr).to.equal(0);
      expect(first.stderr).to.contain('no sync token yet: a full sync').and.contain('4 changes (4 upserts, 0 deletes), complete');
      const copy = apply(new Map(), await linesFrom(0));
      expect(copy).to.deep.equal(await listed());

      const expected = await changeRows(rows);
      expected.push(...(await insert('carton-sizes', brand.id, [{ name: 'X' }, { name: 'Y' }, { name: 'Z' }])).map((row): Line => ({ change: 'upsert', id: row.id, record: null })));
      const before = (await stat(out)).size;
      holdAt = 2;
      const killed = start(['--page-size', '2'], proxyOrigin);
      await waitFor(async () => held.length > 0, { timeoutMs: 30_000, intervalMs: 10, what: 'the second page request to be held' });
      killed.child.kill('SIGKILL');
      expect((await killed.done).signal).to.equal('SIGKILL');
      const state = await readSyncState(statePath);
      expect(state!.batch).to.include({ items: 2, bytes: (await stat(out)).size });

      const finished = await start(['--page-size', '2']).done;
      expect(finished.code, finished.stderr).to.equal(0);
      expect(finished.stderr).to.contain('resuming the unfinished batch after 2 lines');
      const batch = await linesFrom(before);
      expect(new Set(batch.map((line) => line.id)).size).to.equal(batch.length);
      expect(summary(changing(copy, batch))).to.deep.equal(summary(expected));
      expect(copy).to.deep.equal(await listed());
    });

    it('exits 3 on an expired token, saying to rerun with --resync-expired, which then writes a full sync', async () => {
      await insert('carton-sizes', brand.id, [{ name: 'A' }]);
      const codec = createChangesCodec(createCursorCodec(TEST_CURSOR_SECRET));
      const old = codec.encodeToken({ brandId: brand.id, family: 'carton-sizes' }, { snapshot: '1:1:', madeAt: Date.now() - 31 * 86_400_000, mark: null });
      await writeFile(statePath, JSON.stringify({ version: 1, feed: { brand: 'acme', family: 'carton-sizes' }, syncToken: old, syncedAt: '2026-01-01T00:00:00.000Z', batch: null }));
      const expired = await start([]).done;
      expect(expired.code).to.equal(3);
      expect(expired.stderr).to.contain('has expired (last synced 2026-01-01T00:00:00.000Z)').and.contain('Rerun with --resync-expired');
      const resynced = await start(['--resync-expired']).done;
      expect(resynced.code, resynced.stderr).to.equal(0);
      expect(resynced.stderr).to.contain('the sync token has expired').and.contain('1 change (1 upsert, 0 deletes), complete');
      expect((await linesFrom(0)).map((line) => line.change)).to.deep.equal(['reset', 'upsert']);
    });
  });
});
