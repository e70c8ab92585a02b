import type { Writable } from 'node:stream';
import { FAMILIES, type BrandCatalogClient, type CollectionPath, type Families, type FamilyPath, type Page } from '../../client/src/index.ts';
import { EXPORT_FORMATS, type ExportFormat } from './export-format.ts';
import {
  identityDifference,
  readExportState,
  removeExportState,
  statePathOf,
  writeExportState,
  type ExportIdentity,
} from './export-state.ts';
import { ExportRefused, fileSink, streamSink } from './export-sink.ts';
import type { Progress } from './progress.ts';

export { ExportRefused } from './export-sink.ts';

/**
 * One export: every record of a family that matches the filters, read page
 * by page through the client and written as NDJSON or CSV. To a file, it
 * saves a resume point after each page (`export-state.ts`) and a rerun with
 * the same arguments goes on from there; to a stream, it simply runs.
 */

export interface ExportOptions {
  /** A client for the brand to export. */
  readonly client: BrandCatalogClient;
  readonly family: FamilyPath;
  readonly filters?: Readonly<Record<string, string>>;
  readonly format: ExportFormat;
  /** A file path (resumable), or a stream such as stdout. */
  readonly out: string | Writable;
  /** Records per request, 1 to 100. */
  readonly pageSize?: number;
  /** Drop a saved state of the out file and start over. */
  readonly restart?: boolean;
  readonly progress?: Progress | null;
  /** Stops the run between pages or mid-request; what is written stays resumable. */
  readonly signal?: AbortSignal;
  /** Stop after this many pages of this run, as an interruption would (for tests and for exports in slices). */
  readonly maxPages?: number;
}

export interface ExportResult {
  /** Records in the output, resumed ones included. */
  readonly records: number;
  /** The list's `totalItems` on the last page read. */
  readonly totalItems: number;
  /** Pages read by this run. */
  readonly pages: number;
  /** False when the run stopped early (`maxPages`, the signal); rerun to resume. */
  readonly complete: boolean;
  /** Records already in the file when this run resumed, or null for a fresh start. */
  readonly resumedAfter: number | null;
}

export async function runExport(options: ExportOptions): Promise<ExportResult> {
  const { client, family, filters = {}, format, out, pageSize = 100, restart = false, progress = null, signal, maxPages = Infinity } = options;
  const info = FAMILIES[family];
  const formatter = EXPORT_FORMATS[format];
  const identity: ExportIdentity = { family, brand: client.brand, filters, format };
  const statePath = typeof out === 'string' ? statePathOf(out) : null;

  let state = statePath ? await readExportState(statePath) : null;
  if (state && restart) {
    await removeExportState(statePath!);
    state = null;
  }
  if (state) {
    const difference = identityDifference(state.export, identity);
    if (difference) {
      throw new ExportRefused(`${out as string} holds an unfinished export with other arguments (${difference}); rerun it as it was to resume, or add --restart to start over`);
    }
  }

  const sink = typeof out === 'string' ? await fileSink(out, state?.bytes ?? 'empty') : streamSink(out);
  let records = state?.records ?? 0;
  let totalItems = 0;
  let pages = 0;
  let complete = false;
  try {
    if (state) progress?.resumed({ records, statePath: statePath! });
    else await sink.write(formatter.header(info.fields));
    for await (const page of pagesOf({ client, family, filters, pageSize, cursor: state?.nextCursor ?? null, signal })) {
      await sink.write(page.items.map((record) => formatter.record(info.fields, record as Record<string, unknown>)).join(''));
      records += page.items.length;
      totalItems = page.totalItems;
      pages += 1;
      if (page.nextCursor === null) {
        complete = true;
        break;
      }
      if (statePath) {
        await sink.flush();
        await writeExportState(statePath, { version: 1, export: identity, nextCursor: page.nextCursor, bytes: sink.bytes, records });
      }
      progress?.page({ records, totalItems });
      if (pages >= maxPages || signal?.aborted) break;
    }
  } catch (error) {
    // An abort ends the run like maxPages does: the file and its state agree, so a rerun resumes.
    if (!signal?.aborted) throw error;
  } finally {
    await sink.close();
  }
  if (complete) {
    if (statePath) await removeExportState(statePath);
    progress?.finished({ records, totalItems });
  } else {
    progress?.stopped({ records, totalItems, resumable: statePath !== null });
  }
  return { records, totalItems, pages, complete, resumedAfter: state ? state.records : null };
}

/** The pages of a list; the tenant family (`brands`) is one page holding the brand. */
async function* pagesOf({ client, family, filters, pageSize, cursor, signal }: {
  client: BrandCatalogClient;
  family: FamilyPath;
  filters: Readonly<Record<string, string>>;
  pageSize: number;
  cursor: string | null;
  signal: AbortSignal | undefined;
}): AsyncGenerator<Page<unknown>> {
  if (FAMILIES[family].tenant) {
    yield { items: [await client.getBrand({ signal })], nextCursor: null, totalItems: 1, cursor: null };
    return;
  }
  // The family is a runtime value here, so the typed filters are asserted: the arguments were checked against FAMILIES.
  yield* client
    .list(family as CollectionPath, { filters: filters as Families[CollectionPath]['filters'], limit: pageSize, cursor, signal })
    .pages();
}
