/**
 * The text forms of dates and timestamps, made from the JSON text the
 * database writes for them (timestamp-sql.ts): `"2026-03-01T09:30:00.1234"`
 * (the UTC wall time, its fraction without trailing zeros, none when whole),
 * `"0044-03-15T12:00:00 BC"`, `"10000-01-01T00:00:00"`, `"infinity"`.
 *
 * Every value Postgres can store has one (CONTRACT.md §2): years 0001 to
 * 9999 have four digits, as RFC 3339 writes them; any other year is an ISO
 * 8601 expanded year, a sign and at least six digits, numbered as ISO 8601
 * and JavaScript's `Date` do (1 BC is year 0, `+000000`; 44 BC is
 * `-000043`); `infinity` and `-infinity` are those words. A record's
 * timestamp has milliseconds (the fraction cut, never rounded, as Postgres's
 * `to_char` did), a cursor's the database's microseconds.
 *
 * The common case, a year 0001 to 9999 AD, is made by slicing, with no
 * regular expression: a page of 100 records makes 200 of them.
 */

/** A timestamp's JSON text, the year and the rest apart: `"<year>-MM-DDTHH:MM:SS[.f]< BC>"`. */
const TIMESTAMP_JSON = /^"(\d{4,})(-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d{1,6}))?( BC)?"$/;
/** A date's JSON text: `"<year>-MM-DD< BC>"`. */
const DATE_JSON = /^"(\d{4,})(-\d\d-\d\d)( BC)?"$/;

/** What a cursor carries (`cursorTimestamp`), which Postgres reads back as the same instant whatever its DateStyle. */
export const CURSOR_TIMESTAMP = /^(?:\d{4,6}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z(?: BC)?|-?infinity)$/;

const DASH = 45;
const DOT = 46;
const LETTER_T = 84;
const LETTER_C = 67;

/**
 * Whether a timestamp's JSON text has a four-digit year AD: `"YYYY-`, the
 * `T`, a `.` before any fraction, no ` BC"` at its end, 21 characters (whole
 * seconds) to 28 (microseconds). Anything else goes to the full pattern.
 */
function isCommonTimestamp(json: string): boolean {
  const n = json.length;
  return n >= 21 && n <= 28 && json.charCodeAt(5) === DASH && json.charCodeAt(11) === LETTER_T
    && (n === 21 || json.charCodeAt(20) === DOT) && json.charCodeAt(n - 2) !== LETTER_C;
}

function parsed(pattern: RegExp, json: string, what: string): RegExpExecArray {
  const match = pattern.exec(json);
  if (!match) throw new Error(`not the JSON text of a ${what}: ${json}`);
  return match;
}

/** `infinity` or `-infinity` for their JSON text, null for anything else. */
function infinity(json: string): string | null {
  if (json === '"infinity"') return 'infinity';
  return json === '"-infinity"' ? '-infinity' : null;
}

/** An ISO 8601 expanded year from Postgres's digits and era (Postgres counts BC years from 1, ISO 8601 from 0). */
function expandedYear(digits: string, bc: boolean): string {
  const year = bc ? 1 - Number(digits) : Number(digits);
  return `${year < 0 ? '-' : '+'}${String(Math.abs(year)).padStart(6, '0')}`;
}

const ZEROS = '000000';

/**
 * A common timestamp's text (`isCommonTimestamp`) with `digits` of fraction
 * and a `Z`: the fraction cut or padded with zeros, by slicing only.
 */
function commonText(json: string, digits: number): string {
  const n = json.length;
  if (n === 21) return `${json.slice(1, 20)}.${ZEROS.slice(0, digits)}Z`;
  // The closing quote stands where the last digit of a full fraction would end: 22 + digits.
  const full = 22 + digits;
  return n >= full ? `${json.slice(1, full - 1)}Z` : `${json.slice(1, n - 1)}${ZEROS.slice(0, full - n)}Z`;
}

/** A record's timestamp: `2026-03-01T09:30:00.123Z`, `-000043-03-15T12:00:00.000Z`, `+010000-01-01T00:00:00.000Z`, `infinity`. */
export function recordTimestamp(json: string): string {
  if (isCommonTimestamp(json)) return commonText(json, 3);
  const word = infinity(json);
  if (word !== null) return word;
  const [, year, rest, fraction = '', bc] = parsed(TIMESTAMP_JSON, json, 'timestamp');
  return `${expandedYear(year!, bc !== undefined)}${rest}.${fraction.padEnd(3, '0').slice(0, 3)}Z`;
}

/**
 * A cursor's timestamp, with microseconds: `2026-03-01T09:30:00.123456Z`,
 * with ` BC` after a year before 1 and more than four digits after 9999.
 * A keyset cursor binds it as `?::timestamptz`, so the walk goes on from
 * exactly that instant.
 */
export function cursorTimestamp(json: string): string {
  if (isCommonTimestamp(json)) return commonText(json, 6);
  const word = infinity(json);
  if (word !== null) return word;
  const [, year, rest, fraction = '', bc = ''] = parsed(TIMESTAMP_JSON, json, 'timestamp');
  return `${year}${rest}.${fraction.padEnd(6, '0')}Z${bc}`;
}

/** A record's date: `2026-03-01`, `-000043-03-15`, `+010000-01-01`, `+1000000-01-01`, `infinity`. */
export function recordDate(json: string): string {
  if (json.length === 12 && json.charCodeAt(5) === DASH && json.charCodeAt(8) === DASH) return json.slice(1, 11);
  const word = infinity(json);
  if (word !== null) return word;
  const [, year, rest, bc] = parsed(DATE_JSON, json, 'date');
  return `${expandedYear(year!, bc !== undefined)}${rest}`;
}
