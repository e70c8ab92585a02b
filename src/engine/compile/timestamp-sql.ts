/**
 * The text forms of dates and timestamps, written by SQL so pg and PGlite
 * agree whatever the session's time zone and DateStyle: the record's
 * (milliseconds, CONTRACT.md §2) and the cursor's (microseconds, the
 * database's full precision, §3).
 *
 * Every value Postgres can store has one (§2): years 0001 to 9999 have four
 * digits, as RFC 3339 writes them; any other year is an ISO 8601 expanded
 * year, a sign and at least six digits, numbered as ISO 8601 and
 * JavaScript's `Date` do (1 BC is year 0, `+000000`; 44 BC is `-000043`);
 * `infinity` and `-infinity` are those words. The common case is tested
 * first, so an ordinary row pays one range check.
 */

/** The first instant of year 1 and of year 10000, UTC: the four-digit years lie between. */
const FIRST = `'0001-01-01T00:00:00Z'::timestamptz`;
const PAST = `'10000-01-01T00:00:00Z'::timestamptz`;

/**
 * The ISO 8601 expanded year of a value outside 0001 to 9999, given whether
 * it is BC: Postgres counts BC years from 1 (`extract` says -44 for 44 BC),
 * ISO 8601 from 0. Six digits hold every timestamp's year (up to 294276).
 */
const expandedYear = (value: string, bc: string): string =>
  `to_char(extract(year from ${value}) + (case when ${bc} then 1 else 0 end), 'S000000')`;

/**
 * A timestamptz column in UTC, as `2026-03-01T09:30:00.123Z`,
 * `-000043-03-15T12:00:00.000Z`, `+010000-01-01T00:00:00.000Z`, `infinity`.
 */
export function recordTimestampSql(column: string): string {
  const utc = `(${column} at time zone 'UTC')`;
  return `(case when ${column} >= ${FIRST} and ${column} < ${PAST} then to_char(${utc}, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`
    + ` when isfinite(${column}) then ${expandedYear(utc, `${column} < ${FIRST}`)} || to_char(${utc}, '-MM-DD"T"HH24:MI:SS.MS"Z"')`
    + ` else ${column}::text end)`;
}

/**
 * A date column as `2026-03-01`, `-000043-03-15`, `+010000-01-01`,
 * `infinity`. Past year 294276 a date has no timestamp, which `to_char`
 * needs: its month and day are written from their parts, and from year
 * 1000000 its year has seven digits.
 */
export function recordDateSql(column: string): string {
  const part = (field: string): string => `to_char(extract(${field} from ${column}), 'FM00')`;
  return `(case when ${column} >= '0001-01-01'::date and ${column} < '10000-01-01'::date then to_char(${column}, 'YYYY-MM-DD')`
    + ` when not isfinite(${column}) then ${column}::text`
    + ` when ${column} >= '1000000-01-01'::date then '+' || extract(year from ${column})::text || '-' || ${part('month')} || '-' || ${part('day')}`
    + ` else ${expandedYear(column, `${column} < '0001-01-01'::date`)} || '-' || ${part('month')} || '-' || ${part('day')} end)`;
}

/**
 * A timestamptz column in UTC with microseconds, in a form Postgres reads
 * back whatever its DateStyle: `2026-03-01T09:30:00.123456Z`, with
 * ` BC` after a year before 1, more than four digits after 9999, and
 * `infinity` / `-infinity` as they are. A keyset cursor binds it as
 * `?::timestamptz`, so the walk goes on from exactly that instant.
 */
export function cursorTimestampSql(column: string): string {
  const text = `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
  return `(case when not isfinite(${column}) then ${column}::text when ${column} < ${FIRST} then ${text} || ' BC' else ${text} end)`;
}

/** What `cursorTimestampSql` writes. */
export const CURSOR_TIMESTAMP = /^(?:\d{4,6}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z(?: BC)?|-?infinity)$/;
