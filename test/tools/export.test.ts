import { appendFile, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { expect } from 'chai';
import { createClient, FAMILIES, type BrandCatalogClient, type FamilyPath } from '../../client/src/index.ts';
import { DEMO_BRAND, seedDemo } from '../../src/seed/demo-seed.ts';
import { ExportRefused, runExport, type ExportOptions } from '../../tools/export/export-run.ts';
import { readExportState, statePathOf } from '../../tools/export/export-state.ts';
import { createProgress } from '../../tools/export/progress.ts';
import { createTestKey, insert, resetToBrand } from '../support/fixtures.ts';
import { resetDatabase, testDatabase } from '../support/test-database.ts';
import { useServer } from '../support/use-server.ts';
import { bareEnv, runTool, type ToolRun } from '../support/run-tool.ts';
import { describeDatabaseAgnostic } from '../support/database-free.ts';

/**
 * `tools/export.ts` and its lib: the export runs in process against the real
 * server through the client, and once as the command a user runs.
 */

const lines = (text: string): string[] => text.split('\n').filter((line) => line !== '');
const ndjson = (text: string): Record<string, unknown>[] => lines(text).map((line) => JSON.parse(line) as Record<string, unknown>);

describeDatabaseAgnostic?.('tools/export.ts (npm run export)', function () {
  this.timeout(60_000);
  let dir: string;
  let brand: { id: string; slug: string };
  let key: string;
  let client: BrandCatalogClient;

  const server = useServer();
  beforeEach(async () => {
    ({ brand, key } = await resetToBrand('acme'));
    client = createClient({ baseUrl: server.origin, apiKey: key, brand: 'acme' });
    dir = await mkdtemp(join(tmpdir(), 'bcat-export-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  /** An export into a string, for output checks. */
  async function exportToText(options: Omit<ExportOptions, 'client' | 'out'>): Promise<string> {
    const stream = new PassThrough();
    let text = '';
    stream.on('data', (chunk: Buffer) => (text += chunk.toString()));
    const result = await runExport({ client, out: stream, ...options });
    expect(result.complete).to.equal(true);
    return text;
  }

  describe('formats', () => {
    it('ndjson: one record per line, every record once, in list order, as the API returns it', async () => {
      await insert('carton-sizes', brand.id, Array.from({ length: 5 }, (_, i) => ({ name: `C${i}`, lengthCm: `${i}.50` })));
      const text = await exportToText({ family: 'carton-sizes', format: 'ndjson', pageSize: 2 });
      expect(text.endsWith('\n')).to.equal(true);
      expect(ndjson(text)).to.deep.equal(await client.list('carton-sizes').toArray());
      expect(ndjson(text).map((size) => size.lengthCm)).to.deep.equal(['0.50', '1.50', '2.50', '3.50', '4.50']);
    });

    it('csv: RFC 4180, a header of the field names, quoting, null empty, JSON values as JSON text', async () => {
      const [quoted, empty] = await insert('notes', brand.id, [
        { entityType: 'order', content: { text: 'a, "b"' }, createdAt: '2026-03-01T10:00:00.000Z', updatedAt: '2026-03-01T10:00:00.000Z' },
        { entityType: null, content: null, createdAt: '2026-03-01T10:00:01.000Z', updatedAt: '2026-03-01T10:00:01.000Z' },
      ]);
      const sizes = await insert('carton-sizes', brand.id, [
        { name: 'Flat, "thin"\nbox', lengthCm: '40.50' },
        { name: '', lengthCm: null },
      ]);
      const notes = await exportToText({ family: 'notes', format: 'csv' });
      expect(notes).to.equal([
        'id,entityType,entityId,content,lastEditedById,createdAt,updatedAt\r\n',
        `${quoted!.id},order,,"{""text"":""a, \\""b\\""""}",,2026-03-01T10:00:00.000Z,2026-03-01T10:00:00.000Z\r\n`,
        `${empty!.id},,,,,2026-03-01T10:00:01.000Z,2026-03-01T10:00:01.000Z\r\n`,
      ].join(''));
      const cartons = await exportToText({ family: 'carton-sizes', format: 'csv', pageSize: 1 });
      const [header, first, second] = cartons.split('\r\n');
      expect(header).to.equal('id,name,lengthCm,widthCm,heightCm,createdAt,updatedAt');
      expect(first).to.equal(`${sizes[0]!.id},"Flat, ""thin""\nbox",40.50,,,${sizes[0]!.createdAt},${sizes[0]!.updatedAt}`);
      // An empty string is a quoted empty field, so it reads back apart from null.
      expect(second).to.equal(`${sizes[1]!.id},"",,,,${sizes[1]!.createdAt},${sizes[1]!.updatedAt}`);
    });

    it('csv of an empty list is the header alone', async () => {
      expect(await exportToText({ family: 'carton-sizes', format: 'csv' })).to.equal('id,name,lengthCm,widthCm,heightCm,createdAt,updatedAt\r\n');
    });
  });

  it('respects the filters', async () => {
    const products = await insert('products', brand.id, [
      { code: 'A', status: 'approved' },
      { code: 'B', status: 'draft' },
      { code: 'C', status: 'approved' },
    ]);
    const text = await exportToText({ family: 'products', format: 'ndjson', filters: { status: 'approved' }, pageSize: 1 });
    expect(ndjson(text).map((p) => p.id)).to.deep.equal([products[0]!.id, products[2]!.id]);
  });

  describe('resume', () => {
    let out: string;
    let sizes: Record<string, any>[];
    beforeEach(async () => {
      out = join(dir, 'cartons.ndjson');
      sizes = await insert('carton-sizes', brand.id, Array.from({ length: 7 }, (_, i) => ({ name: `C${i}` })));
    });
    const run = (options: Partial<ExportOptions> = {}) =>
      runExport({ client, family: 'carton-sizes', format: 'ndjson', out, pageSize: 2, ...options });

    it('saves a resume point after each page and goes on from it: every record exactly once', async () => {
      const first = await run({ maxPages: 2 });
      expect(first).to.include({ complete: false, records: 4, pages: 2, resumedAfter: null });
      const state = await readExportState(statePathOf(out));
      expect(state).to.include({ records: 4, bytes: (await stat(out)).size });
      expect(state!.export).to.deep.equal({ family: 'carton-sizes', brand: 'acme', filters: {}, format: 'ndjson' });

      // A page written after the last saved state (the run died before saving it) is cut off and written again.
      await appendFile(out, '{"id":"half a page');
      const second = await run();
      expect(second).to.include({ complete: true, records: 7, pages: 2, resumedAfter: 4 });
      expect(ndjson(await readFile(out, 'utf8')).map((size) => size.id)).to.deep.equal(sizes.map((size) => size.id));
      expect(await readExportState(statePathOf(out))).to.equal(null);
    });

    it('stops on the abort signal between pages and resumes from there', async () => {
      const controller = new AbortController();
      let pagesSeen = 0;
      const progress = { ...createProgress({ write: () => undefined, tty: false, label: 'x' }), page: () => (++pagesSeen === 1 ? controller.abort() : undefined) };
      const stopped = await run({ signal: controller.signal, progress });
      expect(stopped).to.include({ complete: false, records: 2 });
      const resumed = await run({ pageSize: 3 });
      expect(resumed).to.include({ complete: true, records: 7, resumedAfter: 2 });
      expect(ndjson(await readFile(out, 'utf8')).map((size) => size.id)).to.deep.equal(sizes.map((size) => size.id));
    });

    it('refuses to resume with other arguments, and starts over with restart', async () => {
      await run({ maxPages: 1 });
      for (const other of [{ format: 'csv' as const }, { filters: { name: 'C1' } }]) {
        const refused = await run(other).then(() => null, (error: Error) => error);
        expect(refused).to.be.instanceOf(ExportRefused);
        expect(refused!.message).to.contain('unfinished export').and.contain('--restart');
      }
      expect((await readExportState(statePathOf(out)))!.records).to.equal(2);

      const restarted = await run({ format: 'csv', restart: true });
      expect(restarted).to.include({ complete: true, records: 7, resumedAfter: null });
      expect(lines(await readFile(out, 'utf8'))).to.have.length(8);
    });

    it('refuses to resume onto a file shorter than its saved state', async () => {
      await run({ maxPages: 2 });
      await writeFile(out, '');
      const refused = await run().then(() => null, (error: Error) => error);
      expect(refused).to.be.instanceOf(ExportRefused);
      expect(refused!.message).to.contain('shorter');
    });
  });

  it('exports every family of the demo brand: as many records as totalItems, some in each, page after page', async function () {
    this.timeout(180_000);
    const { db, registry } = await testDatabase();
    await resetDatabase(db);
    await seedDemo({ db, registry });
    const { key: demoKey } = await createTestKey({ brands: [DEMO_BRAND.slug] });
    const demo = createClient({ baseUrl: server.origin, apiKey: demoKey, brand: DEMO_BRAND.slug });
    const families = Object.keys(FAMILIES) as FamilyPath[];
    const PAGE = 7;
    expect(families).to.have.length(registry.resources.length);
    for (const family of families) {
      const out = join(dir, `${family}.ndjson`);
      // A small page, so the larger families take several pages.
      const result = await runExport({ client: demo, family, format: 'ndjson', out, pageSize: PAGE });
      const records = ndjson(await readFile(out, 'utf8'));
      expect(result.complete, family).to.equal(true);
      expect(records, family).to.have.length(result.records);
      expect(result.records, family).to.be.greaterThan(0);
      if (FAMILIES[family].tenant) {
        expect(records.map((record) => record.slug), family).to.deep.equal([DEMO_BRAND.slug]);
        continue;
      }
      const [firstPage] = await collectFirstPage(demo, family);
      expect(result.records, family).to.equal(firstPage.totalItems);
      expect(result.pages, family).to.equal(Math.max(1, Math.ceil(firstPage.totalItems / PAGE)));
      expect(new Set(records.map((record) => record.id)).size, `${family}: no duplicates`).to.equal(records.length);
      expect(Object.keys(records[0]!), family).to.deep.equal([...FAMILIES[family].fields]);
    }
  });

  describe('the command', () => {
    const command = (args: readonly string[], env: Record<string, string>): Promise<ToolRun> => runTool('tools/export.ts', args, { env: bareEnv(env) });

    it('exports to stdout with its progress on stderr, and to a file', async () => {
      const sizes = await insert('carton-sizes', brand.id, Array.from({ length: 7 }, (_, i) => ({ name: `Box ${i}` })));
      const env = { API_URL: server.origin, API_KEY: key };
      const csv = await command(['carton-sizes', '--brand', 'acme', '--format', 'csv', '--page-size', '3', '--name=Box 2'], env);
      expect(csv.code, csv.stderr).to.equal(0);
      expect(csv.stdout).to.equal(`id,name,lengthCm,widthCm,heightCm,createdAt,updatedAt\r\n${sizes[2]!.id},Box 2,,,,${sizes[2]!.createdAt},${sizes[2]!.updatedAt}\r\n`);
      expect(csv.stderr).to.equal('carton-sizes: 1/1 records (100%), complete\n');

      const out = join(dir, 'all.ndjson');
      const file = await command(['carton-sizes', '--brand', 'acme', '--out', out, '--page-size', '3'], env);
      expect(file.code, file.stderr).to.equal(0);
      expect(file.stdout).to.equal('');
      expect(file.stderr).to.contain('carton-sizes: 7/7 records (100%), complete');
      expect(ndjson(await readFile(out, 'utf8')).map((size) => size.id)).to.deep.equal(sizes.map((size) => size.id));
    });

    it('exits 2 on a usage error, with a suggestion, before any request', async () => {
      const env = { API_URL: server.origin, API_KEY: key };
      const filter = await command(['products', '--brand', 'acme', '--stauts', 'approved'], env);
      expect(filter.code).to.equal(2);
      expect(filter.stderr).to.contain("products has no filter 'stauts' (did you mean 'status'?)").and.contain('usage:');
      const family = await command(['prodcts', '--brand', 'acme'], env);
      expect(family.code).to.equal(2);
      expect(family.stderr).to.contain("unknown family 'prodcts' (did you mean 'products'?)");
      const noKey = await command(['products', '--brand', 'acme'], { API_URL: server.origin });
      expect(noKey.code).to.equal(2);
      expect(noKey.stderr).to.contain('API_KEY is not set');
    });

    it('exits 1 with the API\'s error when the server refuses', async () => {
      const refused = await command(['products', '--brand', 'acme', '--category', 'not-a-uuid'], { API_URL: server.origin, API_KEY: key });
      expect(refused.code).to.equal(1);
      expect(refused.stderr).to.contain('400 invalid_parameter').and.contain('category: ');
    });
  });
});

async function collectFirstPage(client: BrandCatalogClient, family: FamilyPath): Promise<[{ totalItems: number }]> {
  for await (const page of client.list(family as Exclude<FamilyPath, 'brands'>, { limit: 1 }).pages()) return [page];
  throw new Error(`${family}: no page`);
}
