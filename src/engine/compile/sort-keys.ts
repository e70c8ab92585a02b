import { CURSOR_TIMESTAMP, cursorTimestamp } from './timestamp-text.ts';
import { dateJsonSql, utcTimestampJsonSql } from './timestamp-sql.ts';
import type { FieldType } from '../definition/resource-definition.ts';

/**
 * How a sort field's value rides in a cursor (CONTRACT.md §8): as text the
 * database wrote and reads back as exactly the same value, never through a
 * JavaScript `Date` or number. A timestamp keeps its microseconds, a decimal
 * its every digit, a date its era; the cursor binds the text cast back to
 * the column's type (`?::numeric`), so the next page starts exactly after
 * the last row.
 */
export interface SortKeyImpl {
  /** The column's value as the text the cursor carries (or JSON text that `decode` finishes). */
  sql(columnSql: string): string;
  /** The driver's text as the cursor's; unset: as it is. */
  readonly decode?: (text: string) => string;
  /** Whether a cursor's text could have come from `sql` (cursors are signed: a check against the format changing). */
  readonly accepts: RegExp;
}

/** A date's JSON text (`"2026-03-01"`, `"0044-03-15 BC"`, `"infinity"`) without its quotes: ISO, which Postgres reads whatever its DateStyle. */
const unquote = (json: string): string => json.slice(1, -1);

const ANY = /^[^\u0000]*$/;

/** The sort key of each type a sort takes (normalize-questions.ts); null for the others. */
export const SORT_KEYS: Readonly<Record<FieldType, SortKeyImpl | null>> = Object.freeze({
  string: { sql: (c) => c, accepts: ANY },
  enum: { sql: (c) => c, accepts: ANY },
  integer: { sql: (c) => `${c}::text`, accepts: /^-?[0-9]{1,10}$/ },
  // numeric::text writes every digit and the scale; NaN and the infinities as words.
  decimal: { sql: (c) => `${c}::text`, accepts: /^(?:-?[0-9]+(?:\.[0-9]+)?|NaN|-?Infinity)$/ },
  date: { sql: dateJsonSql, decode: unquote, accepts: /^(?:[0-9]{4,}-[0-9]{2}-[0-9]{2}(?: BC)?|-?infinity)$/ },
  timestamp: { sql: utcTimestampJsonSql, decode: cursorTimestamp, accepts: CURSOR_TIMESTAMP },
  uuid: null,
  boolean: null,
  json: null,
});
