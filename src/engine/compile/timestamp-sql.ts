/**
 * How dates and timestamps leave the database: as the JSON text Postgres
 * writes for them (`to_json`), which is ISO 8601 whatever the session's
 * DateStyle, of the UTC wall time (`at time zone 'UTC'`), whatever its time
 * zone; so pg and PGlite, direct or through a pooler, give the same text.
 * The record's form (milliseconds, CONTRACT.md §2) and the cursor's
 * (microseconds, §3) are made from it in JavaScript (timestamp-text.ts).
 *
 * Why not `to_char` into the final form, as before: on a page of 100
 * records with two timestamps and a cursor, `to_char` was about a quarter of
 * Postgres's work for the statement (docs/PERFORMANCE.md, "Timestamps
 * written by JavaScript"); `to_json` costs about what printing the column
 * itself does, and the JavaScript that finishes the text less than that.
 */

/** A timestamptz column as the JSON text of its UTC wall time: `"2026-03-01T09:30:00.123456"`, `"0044-03-15T12:00:00 BC"`, `"infinity"`. */
export function utcTimestampJsonSql(column: string): string {
  return `to_json(${column} at time zone 'UTC')::text`;
}

/** A date column as its JSON text: `"2026-03-01"`, `"0044-03-15 BC"`, `"5874897-12-31"`, `"infinity"`. */
export function dateJsonSql(column: string): string {
  return `to_json(${column})::text`;
}
