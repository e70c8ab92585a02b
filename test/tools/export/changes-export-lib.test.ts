import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { createChangesProgress } from '../../../tools/export/changes-progress.ts';
import { parseExportArgs } from '../../../tools/export/export-args.ts';
import { usageError } from './usage-error.ts';
import { EXPORT_FORMATS } from '../../../tools/export/export-format.ts';
import { newSyncState, readSyncState, writeSyncState } from '../../../tools/export/sync-state.ts';

/** The incremental export's pieces that need no server: its arguments, its lines, its progress and its state file. */

describe('incremental export arguments (--sync-state)', () => {
  it('reads the state file, the flags, and pages of up to 1000', () => {
    expect(parseExportArgs(['skus', '--brand', 'acme', '--sync-state', 's.json', '--out', 'skus.ndjson', '--resync-expired', '--page-size', '1000'])).to.deep.include({
      family: 'skus', syncState: 's.json', out: 'skus.ndjson', resyncExpired: true, restart: false, pageSize: 1000, filters: {}, follow: false,
    });
    expect(parseExportArgs(['skus', '--brand', 'acme', '--sync-state', 's.json', '--out', 'o', '--follow'])).to.deep.include({ follow: true });
  });

  it('refuses what the feed cannot do, and a token that could move past what is on disk', () => {
    const base = ['skus', '--brand', 'acme', '--sync-state', 's.json', '--out', 'o'];
    expect(usageError(['skus', '--brand', 'acme', '--sync-state', 's.json'])).to.contain('--sync-state needs --out');
    expect(usageError([...base, '--code', 'A'])).to.contain('the changes feed takes no filters: drop --code');
    expect(usageError(['brands', '--brand', 'acme', '--sync-state', 's.json', '--out', 'o'])).to.contain('brands has no changes feed');
    expect(usageError(['skus', '--brand', 'acme', '--resync-expired'])).to.contain('--resync-expired needs --sync-state');
    expect(usageError(['skus', '--brand', 'acme', '--follow'])).to.contain('--follow needs --sync-state');
    expect(usageError([...base, '--follow=yes'])).to.contain('--follow takes no value');
    expect(usageError([...base, '--page-size', '1001'])).to.contain('from 1 to 1000');
    expect(usageError(['skus', '--brand', 'acme', '--page-size', '1000'])).to.contain('from 1 to 100,');
  });
});

describe('change lines (tools/export/export-format.ts)', () => {
  const fields = ['id', 'name', 'size'];
  const upsert = { change: 'upsert', id: 'a1', record: { id: 'a1', name: 'Box, "flat"', size: null } } as const;
  const remove = { change: 'delete', id: 'b2', record: null } as const;
  const reset = { change: 'reset', id: null, record: null } as const;

  it('ndjson: one item a line, as the feed gives it, and the reset line', () => {
    const { change, changeHeader } = EXPORT_FORMATS.ndjson;
    expect(changeHeader(fields)).to.equal('');
    expect([upsert, remove, reset].map((line) => change(fields, line)).join('')).to.equal([
      '{"change":"upsert","id":"a1","record":{"id":"a1","name":"Box, \\"flat\\"","size":null}}\n',
      '{"change":"delete","id":"b2","record":null}\n',
      '{"change":"reset","id":null,"record":null}\n',
    ].join(''));
  });

  it('csv: a change column, then the fields; a delete fills the id only', () => {
    const { change, changeHeader } = EXPORT_FORMATS.csv;
    expect(changeHeader(fields)).to.equal('change,id,name,size\r\n');
    expect([upsert, remove, reset].map((line) => change(fields, line)).join('')).to.equal('upsert,a1,"Box, ""flat""",\r\ndelete,b2,,\r\nreset,,,\r\n');
  });
});

describe('incremental export progress (tools/export/changes-progress.ts)', () => {
  it('says how a batch begins, counts changes, and says where the token went', () => {
    let text = '';
    const progress = createChangesProgress({ write: (chunk) => (text += chunk), tty: false, label: 'skus' });
    progress.started({ kind: 'full', reason: 'first', out: 'o.ndjson' });
    progress.started({ kind: 'since', syncedAt: '2026-03-01T00:00:00.000Z', out: 'o.ndjson' });
    progress.started({ kind: 'resume', items: 40, out: 'o.ndjson' });
    for (let page = 1; page <= 10; page++) progress.page({ upserts: page, deletes: 1 });
    progress.finished({ upserts: 10, deletes: 1, statePath: 's.json' });
    progress.stopped({ upserts: 1, deletes: 0 });
    expect(text).to.equal([
      'skus: no sync token yet: a full sync, every record as an upsert after a reset line, appending to o.ndjson\n',
      'skus: changes since the last run (2026-03-01T00:00:00.000Z), appending to o.ndjson\n',
      'skus: resuming the unfinished batch after 40 lines, appending to o.ndjson\n',
      'skus: 11 changes (10 upserts, 1 delete) so far\n',
      'skus: 11 changes (10 upserts, 1 delete), complete; sync token saved in s.json\n',
      'skus: stopped after 1 change (1 upsert, 0 deletes); run the same command again to resume the batch\n',
    ].join(''));
  });
});

describe('sync state file (tools/export/sync-state.ts)', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bcat-sync-state-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('round-trips, is absent before the first run, and refuses a file that is not one', async () => {
    const path = join(dir, 's.json');
    expect(await readSyncState(path)).to.equal(null);
    const state = { ...newSyncState({ brand: 'acme', family: 'skus' }), syncToken: 't', batch: { out: '/o', format: 'csv' as const, nextCursor: 'c', bytes: 10, items: 2 } };
    await writeSyncState(path, state);
    expect(await readSyncState(path)).to.deep.equal(state);
    expect(JSON.parse(await readFile(path, 'utf8'))).to.deep.equal(state);
    for (const bad of ['{', '{"version":1}', JSON.stringify({ ...state, syncToken: 5 }), JSON.stringify({ ...state, batch: { ...state.batch, bytes: -1 } })]) {
      await writeFile(path, bad);
      const error = await readSyncState(path).then(() => null, (caught: Error) => caught);
      expect(error?.message, bad).to.contain('is not a sync state file');
    }
  });
});
