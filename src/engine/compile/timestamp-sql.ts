/**
 * The two text forms of a timestamp, written by SQL so pg and PGlite agree
 * whatever the session time zone: the record's (milliseconds, CONTRACT.md §2)
 * and the cursor's (microseconds, the database's full precision, §3).
 */

/** `to_char` of a timestamptz column in UTC, as `2026-03-01T09:30:00.123Z`. */
export const recordTimestampSql = (column: string): string =>
  `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** `to_char` of a timestamptz column in UTC, as `2026-03-01T09:30:00.123456Z`. */
export const cursorTimestampSql = (column: string): string =>
  `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** What `cursorTimestampSql` writes. */
export const CURSOR_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
