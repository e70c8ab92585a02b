import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import type { ExportFormat } from './export-format.ts';

/**
 * The resume point of an export to a file, kept beside it in
 * `<out>.export-state.json` and rewritten after each page is on disk: the
 * out file's length after that page, the records in it, and the cursor of the
 * next page. A rerun cuts the file back to that length and goes on from the
 * cursor, so a page half-written when the run stopped is written again, once.
 */

/** What decides an export's content; a resume must use the same. The page size may change: cursors allow it. */
export interface ExportIdentity {
  readonly family: string;
  readonly brand: string;
  readonly filters: Readonly<Record<string, string>>;
  readonly format: ExportFormat;
}

export interface ExportState {
  readonly version: 1;
  readonly export: ExportIdentity;
  /** The cursor of the first page not yet in the file. */
  readonly nextCursor: string;
  /** Length of the out file, in bytes, once the last written page is in it. */
  readonly bytes: number;
  readonly records: number;
}

export const statePathOf = (out: string): string => `${out}.export-state.json`;

/** The saved state, or null when there is none; a file that is not one is an error (never silently restarted). */
export async function readExportState(path: string): Promise<ExportState | null> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const state = JSON.parse(text) as Partial<ExportState>;
  const valid = state.version === 1
    && typeof state.nextCursor === 'string'
    && Number.isSafeInteger(state.bytes) && state.bytes! >= 0
    && Number.isSafeInteger(state.records) && state.records! >= 0
    && typeof state.export?.family === 'string' && typeof state.export.brand === 'string'
    && typeof state.export.format === 'string' && typeof state.export.filters === 'object';
  if (!valid) throw new Error(`${path} is not an export state file`);
  return state as ExportState;
}

/** Replaces the state in one rename, so a stop mid-write leaves the old state or the new one, never half of one. */
export async function writeExportState(path: string, state: ExportState): Promise<void> {
  const temporary = `${path}.tmp`;
  await writeFile(temporary, `${JSON.stringify(state, null, 2)}\n`);
  await rename(temporary, path);
}

export async function removeExportState(path: string): Promise<void> {
  await rm(path, { force: true });
}

/** The first difference between two exports' identities, in words, or null when they are the same export. */
export function identityDifference(saved: ExportIdentity, wanted: ExportIdentity): string | null {
  for (const key of ['family', 'brand', 'format'] as const) {
    if (saved[key] !== wanted[key]) return `${key} was ${saved[key]}, now ${wanted[key]}`;
  }
  // Filter order does not change a list (nor its cursors), so compare them sorted.
  const canonical = (filters: Readonly<Record<string, string>>): string =>
    JSON.stringify(Object.entries(filters).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  if (canonical(saved.filters) !== canonical(wanted.filters)) {
    const show = (filters: Readonly<Record<string, string>>): string =>
      Object.entries(filters).map(([name, value]) => `--${name}=${value}`).join(' ') || 'none';
    return `filters were ${show(saved.filters)}, now ${show(wanted.filters)}`;
  }
  return null;
}
