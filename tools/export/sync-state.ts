import { open, readFile, rename } from 'node:fs/promises';
import { isExportFormat, type ExportFormat } from './export-format.ts';

/**
 * The state file of an incremental export (`--sync-state <file>`), one per
 * brand and family: the token of the next batch, and, while a batch is being
 * written, where: the out file, its length once the last saved page is in it,
 * and the cursor of the next page. It is rewritten (atomically) after each
 * page is durably in the out file, so a run that dies resumes the batch from
 * its last saved page, and the token only moves on once the whole batch is
 * written.
 */

/** The feed an incremental export follows. A state file serves one. */
export interface SyncFeed {
  readonly brand: string;
  readonly family: string;
}

/** A batch begun and not finished. */
export interface SyncBatchState {
  /** The out file, absolute. */
  readonly out: string;
  readonly format: ExportFormat;
  /** The cursor of the batch's first page not yet in the file; null: the batch starts again from the token. */
  readonly nextCursor: string | null;
  /** The out file's length once the last saved page is in it (before the batch, while `nextCursor` is null). */
  readonly bytes: number;
  /** Lines of this batch in the file (the reset line not counted). */
  readonly items: number;
}

export interface SyncState {
  readonly version: 1;
  readonly feed: SyncFeed;
  /** The token the next batch starts from; null: the next batch is a full sync. */
  readonly syncToken: string | null;
  /** When the last batch ended (ISO 8601), or null. */
  readonly syncedAt: string | null;
  readonly batch: SyncBatchState | null;
}

export const newSyncState = (feed: SyncFeed): SyncState => ({ version: 1, feed, syncToken: null, syncedAt: null, batch: null });

const isCount = (value: unknown): boolean => Number.isSafeInteger(value) && (value as number) >= 0;
const isTextOrNull = (value: unknown): boolean => value === null || (typeof value === 'string' && value !== '');

function isBatch(value: unknown): value is SyncBatchState {
  const batch = value as Partial<SyncBatchState> | null;
  return typeof batch?.out === 'string' && typeof batch.format === 'string' && isExportFormat(batch.format)
    && isTextOrNull(batch.nextCursor) && isCount(batch.bytes) && isCount(batch.items);
}

/** The saved state, or null when there is none yet; a file that is not one is an error (never silently a full sync again). */
export async function readSyncState(path: string): Promise<SyncState | null> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  let state: Partial<SyncState> | null = null;
  try {
    state = JSON.parse(text) as Partial<SyncState>;
  } catch {
    // Reported below.
  }
  const valid = state?.version === 1
    && typeof state.feed?.brand === 'string' && typeof state.feed.family === 'string'
    && isTextOrNull(state.syncToken) && isTextOrNull(state.syncedAt)
    && (state.batch === null || isBatch(state.batch));
  if (!valid) throw new Error(`${path} is not a sync state file of npm run export`);
  return state as SyncState;
}

/**
 * Replaces the state in one rename, after syncing the new file to disk: a
 * stop or a power cut leaves the old state or the new one, never half of one.
 */
export async function writeSyncState(path: string, state: SyncState): Promise<void> {
  const temporary = `${path}.tmp`;
  const handle = await open(temporary, 'w');
  try {
    await handle.writeFile(`${JSON.stringify(state, null, 2)}\n`);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temporary, path);
}
