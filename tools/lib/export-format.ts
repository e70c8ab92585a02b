import { csvLine } from './csv.ts';

/** What an export writes its records as. */
export type ExportFormat = 'ndjson' | 'csv';

interface FormatImpl {
  /** What opens the file, before any record. */
  header(fields: readonly string[]): string;
  /** The text of one record; the fields are the family's, in order. */
  record(fields: readonly string[], record: Readonly<Record<string, unknown>>): string;
}

export const EXPORT_FORMATS: Readonly<Record<ExportFormat, FormatImpl>> = Object.freeze({
  // One JSON record per line, as the API sent it.
  ndjson: {
    header: () => '',
    record: (_fields, record) => `${JSON.stringify(record)}\n`,
  },
  // A header of the family's field names, then one line per record; JSON values are JSON text.
  csv: {
    header: (fields) => csvLine(fields),
    record: (fields, record) => csvLine(fields.map((field) => record[field] ?? null)),
  },
});

export const isExportFormat = (value: string): value is ExportFormat => Object.hasOwn(EXPORT_FORMATS, value);
