/**
 * What a date or timestamp query parameter may be, and what to tell a client
 * whose value is not one.
 *
 * The patterns spell the whole grammar out in ASCII. AJV's `date-time`
 * format alone is not enough: it splits date from time on `/t|\s/i`, and a
 * JavaScript `\s` is any Unicode space (U+00A0, U+2000 to U+200A, U+3000,
 * U+FEFF, line separators...), which Postgres does not read as a separator:
 * such a value passed validation and failed in SQL, a 500 on every `since`
 * parameter. The format stays beside the pattern for what a pattern cannot
 * check (February 30, the leap second only at 23:59:60 UTC).
 */

/** A day of the Gregorian calendar, without year 0000 (ISO 8601 has it, Postgres does not). */
const DATE = '(?!0000)[0-9]{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])';
/**
 * `hh:mm:ss` with an optional fraction. 60 is a leap second (the format
 * allows it at 23:59 UTC only), which Postgres reads as the next minute, but
 * not with a fraction past it (`23:59:60.5`: "out of range").
 */
const TIME = '(?:[01][0-9]|2[0-3]):[0-5][0-9]:(?:[0-5][0-9](?:\\.[0-9]+)?|60(?:\\.0+)?)';
/** `Z` or an offset Postgres reads: at most ±15:59 (RFC 3339 allows ±23:59). */
const ZONE = '(?:[Zz]|[+-](?:0[0-9]|1[0-5])(?::?[0-5][0-9])?)';

export const DATE_EXAMPLE = '2026-03-01';
export const TIMESTAMP_EXAMPLE = '2026-03-01T09:30:00Z';
const OFFSET_EXAMPLE = '2026-03-01T09:30:00+02:00';

/**
 * A timestamp parameter: RFC 3339 in ASCII, `T` (or `t`, or an ASCII space)
 * between date and time, a zone required. With the length bound, no more
 * fraction digits than Postgres parses.
 */
export const TIMESTAMP_PARAMETER: { readonly [key: string]: unknown } = {
  type: 'string',
  format: 'date-time',
  maxLength: 35,
  pattern: `^${DATE}[Tt ]${TIME}${ZONE}$`,
  examples: [TIMESTAMP_EXAMPLE],
};

/** `hh:mm:ss` with at most six fraction digits: a time the database holds exactly. */
const MICROSECOND_TIME = '(?:[01][0-9]|2[0-3]):[0-5][0-9]:(?:[0-5][0-9](?:\\.[0-9]{1,6})?|60(?:\\.0{1,6})?)';

/** The pattern of a range's timestamp bound: as `TIMESTAMP_PARAMETER`, with at most microseconds. */
export const MICROSECOND_TIMESTAMP_PATTERN = `^${DATE}[Tt ]${MICROSECOND_TIME}${ZONE}$`;

/**
 * A timestamp bound of a range (`createdAt[gte]`, CONTRACT.md §8), compared
 * at the database's full precision: a seventh fraction digit would be
 * rounded to the microsecond, and the bound would not be the one asked for,
 * so it is refused.
 */
export const RANGE_TIMESTAMP_PARAMETER: { readonly [key: string]: unknown } = { ...TIMESTAMP_PARAMETER, pattern: MICROSECOND_TIMESTAMP_PATTERN };

/** A date parameter: `YYYY-MM-DD` in ASCII digits. */
export const DATE_PARAMETER: { readonly [key: string]: unknown } = {
  type: 'string',
  format: 'date',
  pattern: `^${DATE}$`,
  examples: [DATE_EXAMPLE],
};

const SHAPED_DATE = /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/;
const SHAPED_TIMESTAMP = new RegExp(`^[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt ][0-9]{2}:[0-9]{2}:[0-9]{2}(?:\\.[0-9]+)?${ZONE}$`);
/** A date and time with nothing after it: the zone is missing. */
const NO_ZONE = /^[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt ][0-9]{2}:[0-9]{2}(?::[0-9]{2}(?:\.[0-9]+)?)?$/;
/** A space where the offset's sign belongs: `+02:00` sent unencoded, read back as ` 02:00`. */
const PLUS_AS_SPACE = /^[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt ][0-9]{2}:[0-9]{2}(?::[0-9]{2}(?:\.[0-9]+)?)? [0-9]{2}(?::?[0-9]{2})?$/;
const MISSING_SECONDS = /^[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt ][0-9]{2}:[0-9]{2}(?:[Zz]|[+-].*)$/;
const FAR_OFFSET = /[+-](?:1[6-9]|[2-9][0-9])(?::?[0-9]{2})?$/;

/** The first character no date or timestamp may hold (anything but visible ASCII and the space), named by code point. */
function foreignCharacter(text: string): string | null {
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (code < 0x20 || code > 0x7e) return `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  }
  return null;
}

/**
 * Why `text` is not a timestamp parameter, in words a client can act on, with
 * an example of a valid value (their own, mended, where it can be).
 */
export function explainTimestamp(text: string, { microseconds = false }: { microseconds?: boolean } = {}): string {
  const valid = `such as ${TIMESTAMP_EXAMPLE} or ${OFFSET_EXAMPLE}`;
  const fraction = /:[0-9]{2}\.([0-9]+)/.exec(text)?.[1];
  if (microseconds && fraction !== undefined && fraction.length > 6) {
    return `has ${fraction.length} fraction digits: a range's bound is compared at the database's precision, microseconds, so give at most six, such as 2026-03-01T09:30:00.123456Z`;
  }
  if (text === '') return `must not be empty: give an ISO 8601 timestamp with a time zone, ${valid}`;
  const foreign = foreignCharacter(text);
  if (foreign) return `contains ${foreign}, which an ISO 8601 timestamp cannot: write it in ASCII, with T between the date and the time, ${valid}`;
  if (PLUS_AS_SPACE.test(text)) {
    const mended = text.replace(/ (?=[0-9]{2}(?::?[0-9]{2})?$)/, '%2B');
    return `has a space where the offset's sign belongs: in a query string an unencoded '+' is read as a space, so send it as %2B (${mended}), or give the time in UTC with Z (${TIMESTAMP_EXAMPLE})`;
  }
  if (SHAPED_DATE.test(text)) return `is a date without a time: give an instant with a time zone, such as ${text}T00:00:00Z`;
  if (NO_ZONE.test(text)) {
    const mended = /:[0-9]{2}:[0-9]{2}/.test(text) ? `${text}Z` : TIMESTAMP_EXAMPLE;
    return `has no time zone: end it with Z for UTC or with an offset such as +02:00, as in ${mended}`;
  }
  if (MISSING_SECONDS.test(text)) return `must give the seconds (hh:mm:ss), ${valid}`;
  if (text.startsWith('0000')) return `has the year 0000, which the database does not have: the earliest is 0001, ${valid}`;
  if (FAR_OFFSET.test(text)) return `has an offset beyond ±15:59, the furthest the database reads, ${valid}`;
  if (text.length > Number(TIMESTAMP_PARAMETER.maxLength)) return `is too long (at most ${String(TIMESTAMP_PARAMETER.maxLength)} characters: a fraction of at most nanoseconds), ${valid}`;
  if (SHAPED_TIMESTAMP.test(text)) return `names a date or time that does not exist (a month past 12, February 30, an hour past 23...), ${valid}`;
  return `must be an ISO 8601 timestamp with a time zone (the date YYYY-MM-DD, T, the time hh:mm:ss with an optional fraction, then Z or an offset), ${valid}`;
}

/** Why `text` is not a date parameter, with an example of a valid value. */
export function explainDate(text: string): string {
  const valid = `such as ${DATE_EXAMPLE}`;
  if (text === '') return `must not be empty: give a date YYYY-MM-DD, ${valid}`;
  const foreign = foreignCharacter(text);
  if (foreign) return `contains ${foreign}, which a date cannot: write it YYYY-MM-DD in ASCII digits, ${valid}`;
  if (/^[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt ]/.test(text)) return `must be a date without a time, such as ${text.slice(0, 10)}`;
  if (text.startsWith('0000')) return `has the year 0000, which the database does not have: the earliest is 0001, ${valid}`;
  if (SHAPED_DATE.test(text)) return `names a date that does not exist (a month past 12, February 30...), ${valid}`;
  return `must be a date YYYY-MM-DD, ${valid}`;
}

/** The explanations by JSON Schema format: the validator's messages for any value of a parameter with that format. */
export const FORMAT_EXPLANATIONS: Readonly<Record<string, (text: string) => string>> = Object.freeze({
  'date-time': explainTimestamp,
  date: explainDate,
});
