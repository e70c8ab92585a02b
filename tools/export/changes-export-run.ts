import { resolve } from 'node:path';
import { ApiError, FAMILIES, SyncTokenExpiredError, type BrandCatalogClient, type ChangesPage, type ChangesPath } from '../../client/src/index.ts';
import type { ChangeCounts, ChangesProgress } from './changes-progress.ts';
import { EXPORT_FORMATS, type ExportFormat } from './export-format.ts';
import { ExportRefused, fileSink, type Sink } from './export-sink.ts';
import { newSyncState, readSyncState, writeSyncState, type SyncState } from './sync-state.ts';

/**
 * An incremental export (`--sync-state`): one batch of a family's changes
 * feed (CONTRACT.md §6), appended to the out file as change lines
 * (export-format.ts), the token kept in the state file for the next run
 * (sync-state.ts). The first batch, and any after `restart` or an expired
 * token with `resyncExpired`, is a full sync, opened by a reset line.
 *
 * Why nothing is lost and a crash only repeats: the token moves on only
 * after the batch's last page is durably in the file; before that, each page
 * is synced to disk before the state names its end and the next cursor, and
 * a rerun cuts the file back to that end and goes on from that cursor. What
 * a run wrote after its last saved page is written again, once.
 */

export interface ChangesExportOptions {
  readonly client: BrandCatalogClient;
  readonly family: ChangesPath;
  readonly format: ExportFormat;
  /** The file batches are appended to. */
  readonly out: string;
  /** The state file: the token, and the place in an unfinished batch. */
  readonly statePath: string;
  /** Items per request, 1 to 1000. */
  readonly pageSize?: number;
  /** Forget the token (and an unfinished batch): this batch is a full sync. */
  readonly restart?: boolean;
  /** On a 410 (the token has expired), write a full sync instead of stopping with `ExportTokenExpired`. */
  readonly resyncExpired?: boolean;
  readonly progress?: ChangesProgress | null;
  /** Stops the run between pages or mid-request; what is written stays resumable. */
  readonly signal?: AbortSignal;
  /** Seconds the batch's first page may wait on the server for a change (`--follow`; only after a token). */
  readonly wait?: number;
  /** Stop after this many pages of this run, as an interruption would (for tests). */
  readonly maxPages?: number;
}

export interface ChangesExportResult extends ChangeCounts {
  /** Pages read by this run. */
  readonly pages: number;
  /** False when the run stopped before the batch's end; rerun to resume it. */
  readonly complete: boolean;
  /** The batch was a full sync (the out file got a reset line). */
  readonly full: boolean;
  /** The run went on with a batch an earlier run began. */
  readonly resumed: boolean;
  /** The token the state file holds after the run. */
  readonly syncToken: string | null;
}

/** The token has expired (410) and `resyncExpired` was not given: the message says what to do. */
export class ExportTokenExpired extends Error {
  override readonly name = 'ExportTokenExpired';
}

type FullReason = 'first' | 'restart' | 'expired';
type PlainRecord = Readonly<Record<string, unknown>>;

/** What one batch's run shares: the options, the out path, and the state as the file now holds it. */
interface BatchRun {
  readonly options: ChangesExportOptions;
  readonly out: string;
  state: SyncState;
  readonly counts: { upserts: number; deletes: number; pages: number };
}

export async function runChangesExport(options: ChangesExportOptions): Promise<ChangesExportResult> {
  const { client, family, statePath, restart = false, resyncExpired = false } = options;
  const out = resolve(options.out);
  const feed = { brand: client.brand, family };
  const saved = await readSyncState(statePath);
  if (saved && (saved.feed.brand !== feed.brand || saved.feed.family !== feed.family)) {
    throw new ExportRefused(`${statePath} keeps the sync state of ${saved.feed.brand}/${saved.feed.family}, not ${feed.brand}/${feed.family}: use one state file per brand and family`);
  }
  const run: BatchRun = { options, out, state: saved ?? newSyncState(feed), counts: { upserts: 0, deletes: 0, pages: 0 } };
  let reason: FullReason = 'first';
  if (restart) {
    reason = 'restart';
    // An unfinished batch into this file is cut back to where its last saved page ended; one into another file is left as it is.
    const batch = run.state.batch?.out === out ? { ...run.state.batch, format: options.format, nextCursor: null, items: 0 } : null;
    await save(run, { ...run.state, syncToken: null, batch });
  }
  const resumed = run.state.batch?.nextCursor != null;
  for (;;) {
    const full = run.state.syncToken === null;
    try {
      const complete = await runBatch(run, reason);
      return { ...run.counts, complete, full, resumed, syncToken: run.state.syncToken };
    } catch (error) {
      if (error instanceof ApiError && (error.errorCode === 'invalid_cursor' || error.errorCode === 'cursor_mismatch')) {
        // A token of another server (another CURSOR_SECRET) or a state file edited by hand: asking again will not help.
        throw new ExportRefused(`the server refused the token or cursor saved in ${statePath} (${error.errorCode}): was it made by another server? Add --restart to start over with a full sync`);
      }
      // A full sync has no token to expire: a 410 there is not one a resync could cure (and must not loop).
      if (!(error instanceof SyncTokenExpiredError) || full) throw error;
      if (!resyncExpired) throw new ExportTokenExpired(expiredMessage(run, statePath));
      // Start over without a token, after what is already in the file (harmless: the reset line comes after it).
      reason = 'expired';
      const batch = run.state.batch && { ...run.state.batch, nextCursor: null, items: 0 };
      await save(run, { ...run.state, syncToken: null, batch });
    }
  }
}

async function save(run: BatchRun, state: SyncState): Promise<void> {
  await writeSyncState(run.options.statePath, state);
  run.state = state;
}

/** Writes one batch from where the state stands: returns true when it reached its end and the token is saved. */
async function runBatch(run: BatchRun, reason: FullReason): Promise<boolean> {
  const { options, out } = run;
  const { client, family, format, pageSize = 100, progress = null, signal, maxPages = Infinity, wait } = options;
  const { batch: unfinished, syncToken } = run.state;
  if (unfinished && (unfinished.out !== out || unfinished.format !== format)) {
    throw new ExportRefused(
      `${options.statePath} holds an unfinished batch written to ${unfinished.out} as ${unfinished.format}: rerun with --out ${unfinished.out} --format ${unfinished.format} to finish it, or add --restart to start over with a full sync`,
    );
  }
  const sink = await fileSink(out, unfinished ? unfinished.bytes : 'end');
  let complete = false;
  try {
    const cursor = unfinished?.nextCursor ?? null;
    if (cursor === null) {
      const batch = { out, format, nextCursor: null, bytes: sink.bytes, items: 0 };
      await save(run, { ...run.state, batch });
      progress?.started({ ...(syncToken === null ? { kind: 'full', reason } : { kind: 'since', syncedAt: run.state.syncedAt }), out });
      await writePrologue(run, sink);
    } else {
      progress?.started({ kind: 'resume', items: unfinished!.items, out });
    }
    // The family is a runtime value here, so its records are read as plain objects.
    const pages = client.changes(family, { syncToken, cursor, limit: pageSize, signal, wait: cursor === null && syncToken !== null ? wait : undefined }).pages() as AsyncGenerator<ChangesPage<PlainRecord>, string>;
    for await (const page of pages) {
      await writePage(run, sink, page);
      complete = page.nextCursor === null;
      if (complete || run.counts.pages >= maxPages || signal?.aborted) break;
    }
  } catch (error) {
    // An abort ends the run like maxPages does: the file and its state agree, so a rerun resumes.
    if (!signal?.aborted) throw error;
  } finally {
    await sink.close();
  }
  if (complete) progress?.finished({ ...run.counts, statePath: options.statePath });
  else progress?.stopped(run.counts);
  return complete;
}

/** A CSV header when the file is empty; a reset line before a full sync. */
async function writePrologue(run: BatchRun, sink: Sink): Promise<void> {
  const { format, family } = run.options;
  const fields = FAMILIES[family].fields;
  const formatter = EXPORT_FORMATS[format];
  if (sink.bytes === 0) await sink.write(formatter.changeHeader(fields));
  if (run.state.syncToken === null) await sink.write(formatter.change(fields, { change: 'reset', id: null, record: null }));
}

/** One page into the file, on disk, then the state that says so: the next cursor, or at the batch's end the next token. */
async function writePage(run: BatchRun, sink: Sink, page: ChangesPage<PlainRecord>): Promise<void> {
  const { format, family, progress } = run.options;
  const fields = FAMILIES[family].fields;
  await sink.write(page.items.map((item) => EXPORT_FORMATS[format].change(fields, item)).join(''));
  await sink.flush();
  for (const item of page.items) run.counts[item.change === 'delete' ? 'deletes' : 'upserts'] += 1;
  run.counts.pages += 1;
  const batch = run.state.batch!;
  if (page.nextCursor !== null) {
    await save(run, { ...run.state, batch: { ...batch, nextCursor: page.nextCursor, bytes: sink.bytes, items: batch.items + page.items.length } });
  } else {
    await save(run, { ...run.state, syncToken: page.syncToken, syncedAt: new Date().toISOString(), batch: null });
  }
  progress?.page(run.counts);
}

function expiredMessage(run: BatchRun, statePath: string): string {
  const { family } = run.options;
  const since = run.state.syncedAt ? ` (last synced ${run.state.syncedAt})` : '';
  return [
    `${family}: the sync token in ${statePath} has expired${since}: it is older than the server keeps deletions (SYNC_RETENTION_DAYS), so what changed since can no longer be told.`,
    'Rerun with --resync-expired to append a full sync: it begins with a reset line, after which every current record comes as an upsert; rebuild the copy from it (drop the records it does not list).',
  ].join('\n');
}
