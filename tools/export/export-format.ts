import { csvLine } from './csv.ts';

/** What an export writes its records as. */
export type ExportFormat = 'ndjson' | 'csv';

/**
 * A line of an incremental export (`--sync-state`): an item of the changes
 * feed, or `reset`, which opens every full sync: drop the family's records,
 * the lines after it list every current one.
 */
export type ChangeLine =
  | { readonly change: 'upsert'; readonly id: string; readonly record: Readonly<Record<string, unknown>> }
  | { readonly change: 'delete'; readonly id: string; readonly record: null }
  | { readonly change: 'reset'; readonly id: null; readonly record: null };

interface FormatImpl {
  /** What opens the file, before any record. */
  header(fields: readonly string[]): string;
  /** The text of one record; the fields are the family's, in order. */
  record(fields: readonly string[], record: Readonly<Record<string, unknown>>): string;
  /** What opens an incremental export's file (written when the file is empty). */
  changeHeader(fields: readonly string[]): string;
  /** The text of one line of an incremental export. */
  change(fields: readonly string[], line: ChangeLine): string;
}

export const EXPORT_FORMATS: Readonly<Record<ExportFormat, FormatImpl>> = Object.freeze({
  // One JSON record per line, as the API sent it; changes as the feed's items, `{ change, id, record }`.
  ndjson: {
    header: () => '',
    record: (_fields, record) => `${JSON.stringify(record)}\n`,
    changeHeader: () => '',
    change: (_fields, line) => `${JSON.stringify({ change: line.change, id: line.id, record: line.record })}\n`,
  },
  // A header of the family's field names, then one line per record; JSON values are JSON text.
  // Changes lead with a `change` column; a delete fills only `id`, a reset nothing.
  csv: {
    header: (fields) => csvLine(fields),
    record: (fields, record) => csvLine(fields.map((field) => record[field] ?? null)),
    changeHeader: (fields) => csvLine(['change', ...fields]),
    change: (fields, line) => csvLine([line.change, ...fields.map((field) => (line.record ? line.record[field] : field === 'id' ? line.id : null) ?? null)]),
  },
});

export const isExportFormat = (value: string): value is ExportFormat => Object.hasOwn(EXPORT_FORMATS, value);
