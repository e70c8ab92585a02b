import fc from 'fast-check';
import type { FieldType } from '../../src/engine/definition/resource-definition.ts';
import { hostileCharacter, INVALID_UTF8_ESCAPES, LOOKALIKES, unicodeSpaces, withHostileCharacter } from '../support/unicode-text.ts';

/**
 * Hostile text for parameters and path segments, and the ways it goes on the
 * wire. What Node's HTTP client refuses in a path (a space, a control
 * character, anything above U+00FF: ERR_UNESCAPED_CHARACTERS) is always
 * percent-encoded, as are raw bytes 0x80-0xFF, which the client would send but
 * Node's HTTP parser refuses (a 400 with the contract's body, before the app
 * sees the request: oversized.test.ts covers that). `#` is encoded too (it
 * would end the URL's query). Everything else may go raw, `%` included, so
 * the server also meets malformed percent-encoding.
 *
 * The text covers all of Unicode, not ASCII alone (issue 16: a no-break space
 * between date and time was a 500 no ASCII generator could find): every
 * space and separator, controls, combining marks, foreign digits and
 * look-alikes (test/support/unicode-text.ts), and on the wire lone
 * surrogates, overlong and invalid UTF-8 as percent-escapes.
 */

/** Node's HTTP server refuses a request line and headers over 16 KB with a 431 (oversized.test.ts): generated URL parts stay well under. */
export const MAX_WIRE_LENGTH = 14_000;

/** SQL and LIKE metacharacters, injection classics, and values that look like JavaScript internals. */
export const INJECTIONS: readonly string[] = [
  "' or 1=1 --", "' OR '1'='1", "1; drop table products; --", "';drop table brands;--", '"; select pg_sleep(10); --',
  "') union select null, null --", '\\', '\\\\', "\\'", '%', '%%', '_', '%_%', '\\%', '\\_', '[a-z]%', '*', '?', '$1',
  'null', 'NULL', 'undefined', 'NaN', 'true', 'false', '[]', '{}', '{"a":1}', '__proto__', 'constructor', 'toString',
  '\u0000', 'a\u0000b', '\u0000\u0000', ' ', '  padded  ', '\t', '\r\n', '\n', '\uFEFF', '\u202E', '\uD83D\uDE00', '\uFFFF', 'é', 'É', 'ß', 'ẞ', 'İ',
];

/** Numbers as text: huge, negative, float, exponent, hex, padded, and integers the server reads. */
export const NUMBER_TEXT: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '0', '1', '-1', '25', '100', '101', '1e1', '1E2', '1e308', '1e-7', '5e-324', '0x10', '0o7', '0b1', ' 5', '5 ', '+5', '-0', '00', '007', '1.0', '1.',
    '.5', '1_000', '１', '٣', 'Infinity', '-Infinity', 'NaN', '9007199254740991', '9007199254740993', '99999999999999999999', '-9223372036854775809',
    '2147483648', '-2147483649', '1,5',
  ),
  fc.integer().map(String),
  fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }).map(String),
  fc.double().map(String),
);

/**
 * ISO 8601 instants as RFC 3339 and AJV's `date-time` read them: any year 0001
 * to 9999, `T`, `t` or a space, no fraction or one of 1 to 300 digits, `Z`,
 * `z` or any offset up to ±23:59 (with or without the colon). Postgres takes
 * less than that: offsets up to ±15:59, fractions up to about 128 digits.
 */
export const INSTANT_TEXT: fc.Arbitrary<string> = fc.record({
  date: fc.date({ min: new Date('0001-01-01T00:00:00.000Z'), max: new Date('9999-12-31T23:59:59.999Z'), noInvalidDate: true }),
  separator: fc.constantFrom('T', 'T', 't', ' '),
  fraction: fc.oneof(fc.constant(''), fc.integer({ min: 1, max: 9 }), fc.integer({ min: 10, max: 300 }))
    .chain((digits) => (digits === '' ? fc.constant('') : fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: digits, maxLength: digits }).map((d) => `.${d}`))),
  zone: fc.oneof(
    fc.constantFrom('Z', 'Z', 'z'),
    fc.tuple(fc.constantFrom('+', '-'), fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }), fc.constantFrom(':', ''))
      .map(([sign, hours, minutes, colon]) => `${sign}${String(hours).padStart(2, '0')}${colon}${String(minutes).padStart(2, '0')}`),
  ),
}).map(({ date, separator, fraction, zone }) => `${date.toISOString().slice(0, 10)}${separator}${date.toISOString().slice(11, 19)}${fraction}${zone}`);

/** Instants at the edges: of the years Postgres and the grammar take, of the offsets, of the calendar, of the clock. */
export const BOUNDARY_INSTANTS: readonly string[] = [
  '0001-01-01T00:00:00Z', '0001-01-01T00:00:00+15:59', '0001-01-01T00:00:00-15:59', '9999-12-31T23:59:59.999999999Z', '9999-12-31T23:59:59-15:59',
  '2026-03-01T09:30:00+15:59', '2026-03-01T09:30:00-16:00', '2026-03-01T09:30:00+1559', '2026-03-01T09:30:00+15', '2026-03-01T09:30:00-00:00',
  '2024-02-29T00:00:00Z', '2023-02-29T00:00:00Z', '2016-12-31T23:59:60Z', '2016-12-31T23:59:60.999Z', '2026-03-01T12:00:60Z', '2026-03-01T23:59:59.9999999999999Z',
  '1969-12-31T23:59:59.999999Z', '1970-01-01T00:00:00Z', '2038-01-19T03:14:08Z', '10000-01-01T00:00:00Z', '-0001-01-01T00:00:00Z', '0000-12-31T23:59:59Z',
];

/** Instants and near-instants, for `updatedSince`, `createdSince` and date filters. */
export const DATE_TEXT: fc.Arbitrary<string> = fc.oneof(
  INSTANT_TEXT,
  fc.date({ noInvalidDate: true }).map((date) => date.toISOString()),
  fc.date({ noInvalidDate: true }).map((date) => date.toISOString().slice(0, 10)),
  fc.constantFrom(...BOUNDARY_INSTANTS),
  // Any space, separator or look-alike between date and time (a no-break space there was a 500), or a hostile character anywhere.
  fc.tuple(INSTANT_TEXT, fc.constantFrom(...unicodeSpaces(), ...LOOKALIKES)).map(([instant, separator]) => `${instant.slice(0, 10)}${separator}${instant.slice(11)}`),
  withHostileCharacter(INSTANT_TEXT),
  // Without a zone, and with an offset whose `+` goes raw (read as a space).
  INSTANT_TEXT.map((instant) => instant.replace(/(?:[zZ]|[+-][0-9:]+)$/, '')),
  INSTANT_TEXT.map((instant) => instant.replace(/(?:[zZ]|[+-](?=[0-9:]+$))/, ' ')),
  fc.constantFrom(
    '2026-03-01T09:30:00Z', '2026-03-01T09:30:00.123456789Z', '2026-03-01T09:30:00+14:00', '2026-03-01T09:30:00+99:99', '2026-03-01T09:30:00',
    '2026-13-01T00:00:00Z', '2026-02-30T00:00:00Z', '2026-03-01T24:00:00Z', '2026-03-01T23:59:60Z', '0000-01-01T00:00:00Z', '-000001-01-01T00:00:00Z',
    '+275760-09-13T00:00:00.000Z', '+275760-09-13T00:00:00.001Z', '9999-12-31T23:59:59.999Z', '1970-01-01T00:00:00Z', '2026-W09-7', 'now', 'today',
    'infinity', '-infinity', 'epoch', 'allballs', '2026-03-01T09:30:00 BC', 'J2451187', '2026-03-01T09:30:00 America/New_York', '2026-03-01T09:30:00 PST',
  ),
);

/** The field types a range compares (CONTRACT.md §8). */
export type RangeType = Extract<FieldType, 'timestamp' | 'date' | 'integer' | 'decimal'>;

const digits = (count: number, first = '1'): string => `${first}${'0123456789'.repeat(Math.ceil(count / 10)).slice(1, count)}`;

/** Decimal strings and near ones: a sign or none, 1 to 25 integer digits, no fraction or 1 to 25 digits (the rule takes 20 and 20). */
export const DECIMAL_TEXT: fc.Arbitrary<string> = fc.tuple(
  fc.constantFrom('', '', '-', '+', '--'),
  fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 1, maxLength: 25 }),
  fc.oneof(fc.constant(''), fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 1, maxLength: 25 }).map((d) => `.${d}`)),
).map(([sign, whole, fraction]) => `${sign}${whole}${fraction}`);

/** Values for a range bound of each type: valid ones (often), near ones and ones of the wrong type. */
export const BOUND_TEXT: Readonly<Record<RangeType, fc.Arbitrary<string>>> = {
  timestamp: fc.oneof({ weight: 3, arbitrary: INSTANT_TEXT }, { weight: 2, arbitrary: DATE_TEXT }, { weight: 1, arbitrary: NUMBER_TEXT }),
  date: fc.oneof(
    { weight: 3, arbitrary: fc.date({ min: new Date('0001-01-01T00:00:00.000Z'), max: new Date('9999-12-31T00:00:00.000Z'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)) },
    { weight: 2, arbitrary: DATE_TEXT },
    { weight: 1, arbitrary: NUMBER_TEXT },
  ),
  integer: fc.oneof(
    { weight: 3, arbitrary: fc.integer({ min: -2147483648, max: 2147483647 }).map(String) },
    { weight: 2, arbitrary: NUMBER_TEXT },
    { weight: 1, arbitrary: DECIMAL_TEXT },
  ),
  decimal: fc.oneof({ weight: 3, arbitrary: DECIMAL_TEXT }, { weight: 2, arbitrary: NUMBER_TEXT }, { weight: 1, arbitrary: DATE_TEXT }),
};

/** Not a bound of any type: specials every parser has a word for, numbers no type holds, the empty text. */
const NO_BOUND: readonly string[] = ['', ' ', 'NaN', 'nan', '-NaN', '1e400', '-1e400', 'Infinity', '-Infinity', 'infinity', '-infinity', 'inf', 'null', 'undefined', digits(200), `-${digits(200)}`, `${digits(200)}.5`, `0.${digits(200)}`];

/**
 * Bounds out of range or out of shape for each type (CONTRACT.md §8): a
 * timestamp or a date with the year 10000 or -4713 (either way written),
 * Postgres's own words (`epoch`, `today`, `allballs`), a timestamp without
 * a zone; integers past int32 or with 200 digits; decimals with 21
 * fraction or integer digits; `NaN`, `1e400` and `Infinity` for every type.
 * Each is 400 `invalid_parameter` naming its parameter, never a 500.
 */
export const OUT_OF_RANGE_BOUNDS: Readonly<Record<RangeType, readonly string[]>> = {
  timestamp: [
    // Finer than the database holds: a seventh fraction digit would be rounded, so the bound would not be the one asked for.
    '9999-12-31T23:59:59.999999999Z', '2026-03-01T09:30:00.123456789+05:30', '2026-03-01T09:30:00.0000001Z',
    ...NO_BOUND, '10000-01-01T00:00:00Z', '+010000-01-01T00:00:00Z', '+10000-01-01T00:00:00Z', '-4713-11-24T00:00:00Z', '-004713-11-24T00:00:00Z',
    '4713-11-24T00:00:00Z BC', '4713-11-24 00:00:00+00 BC', '0000-01-01T00:00:00Z', '2026-03-01T09:30:00', '2026-03-01 09:30:00', '2026-03-01T09:30:00.123456',
    '2026-03-01T09:30', '2026-03-01', '2026-03-01T24:00:00Z', '2026-02-30T00:00:00Z', '2026-03-01T09:30:00 02:00', `2026-03-01T09:30:00.${'1'.repeat(300)}Z`,
    'epoch', 'now', 'today', 'tomorrow', 'allballs', 'J2451187', '1772357400', '2026-03-01T09:30:00Z[Europe/Lisbon]', '2026-03-01T09:30:00 UTC',
  ],
  date: [
    ...NO_BOUND, '10000-01-01', '+010000-01-01', '+10000-01-01', '-4713-11-24', '-004713-11-24', '4713-11-24 BC', '0000-01-01', '2026-02-30', '2026-13-01',
    '2026-3-1', '20260301', '2026-03-01T00:00:00Z', '2026-03-01 00:00', '26-03-01', 'epoch', 'now', 'today', 'J2451187', '2026-W09-7', '2026-060',
  ],
  integer: [
    ...NO_BOUND, '2147483648', '-2147483649', '9223372036854775807', '-9223372036854775809', '99999999999999999999', '1.5', '1.0', '1e3', '0x10', '1_000', '1,000',
    '１', '٣', '--1', '+-1', '2147483647.0',
  ],
  decimal: [
    ...NO_BOUND, `1.${'1'.repeat(21)}`, `-0.${'0'.repeat(20)}1`, digits(21), `${digits(21)}.5`, '1e3', '1E-3', '0x10', '1,5', '1_000.5', '１.5', '--1', '+-1', '1.2.3', '-', '.',
  ],
};

/** Bounds at the edges of what each type takes: 200 with a page, never a 500. */
export const EDGE_BOUNDS: Readonly<Record<RangeType, readonly string[]>> = {
  timestamp: [
    // A range's timestamp bound holds at most microseconds (it is compared as given, never rounded): more digits are out of range.
    '0001-01-01T00:00:00Z', '0001-01-01T00:00:00+15:59', '0001-01-01T00:00:00-15:59', '9999-12-31T23:59:59.999999Z', '9999-12-31T23:59:59-15:59',
    '2026-03-01T09:30:00.123456+05:30', '2026-03-01T09:30:00-00:00', '2016-12-31T23:59:60Z', '1970-01-01T00:00:00Z', '2026-03-01T09:30:00.000001Z',
  ],
  date: ['0001-01-01', '9999-12-31', '2024-02-29', '1970-01-01', '2026-03-01'],
  integer: ['2147483647', '-2147483648', '0', '-0', '1', '-1'],
  decimal: [`${digits(20, '9')}.${digits(20, '9')}`, `-${digits(20, '9')}.${digits(20, '9')}`, `0.${'0'.repeat(19)}1`, '-0', '0', '-0.00', '00000000000000000001.5', '12.50', '-12.5'],
};

/**
 * The name of a range bound written wrong: brackets nested, repeated,
 * doubled or unclosed, another operator, the operator in another case, no
 * operator, or another separator. None is a parameter of any route.
 */
export const BRACKET_MANGLINGS: readonly ((field: string, bound: string) => string)[] = [
  (f, b) => `${f}[${b}][x]`, (f, b) => `${f}[[${b}]]`, (f, b) => `${f}[${b}`, (f, b) => `${f}]${b}[`, (f, b) => `${f}[${b.toUpperCase()}]`, (f) => `${f}[eq]`,
  (f) => `${f}[ne]`, (f) => `${f}[in]`, (f) => `${f}[between]`, (f) => `${f}[]`, (f, b) => `${f}[${b}]]`, (f, b) => `${f}[[${b}]`, (f, b) => `${f}[${b}][${b}]`,
  (f, b) => `${f}[ ${b}]`, (f, b) => `${f}[${b} ]`, (f, b) => `${f}.${b}`, (f, b) => `${f}_${b}`, (f, b) => `${f}:${b}`, (f, b) => `${f}(${b})`, (f, b) => `${f}{${b}}`,
  (f, b) => `${f}[${b[0]!.toUpperCase()}${b.slice(1)}]`, (f) => `${f}[gte,lte]`, (f) => `${f}[0]`, (f) => `${f}[__proto__]`, (f) => `${f}[constructor]`, (_f, b) => `[${b}]`,
  (f, b) => `${f.toLowerCase()}[${b}]`, (f, b) => `${f.toUpperCase()}[${b}]`, (f, b) => ` ${f}[${b}]`, (f, b) => `${f} [${b}]`, (f, b) => `${f}[${b}]\u0000`,
  (f, b) => `${f}%5B${b}%5D`, (f, b) => `${f}［${b}］`,
];

/**
 * A `sort` value written wrong around one the list takes (CONTRACT.md §8):
 * spaces, two `-`, a `+` (sent raw it is a space), a trailing `-`, another
 * case, two fields, SQL's words.
 */
export const SORT_MANGLINGS: readonly ((sort: string) => string)[] = [
  (s) => ` ${s}`, (s) => `${s} `, (s) => `--${s.replace(/^-/, '')}`, (s) => `+${s.replace(/^-/, '')}`, (s) => `${s}-`, (s) => `- ${s.replace(/^-/, '')}`,
  (s) => s.toUpperCase(), (s) => (s.toLowerCase() === s ? `${s}X` : s.toLowerCase()), (s) => `${s},${s}`, (s) => `${s} desc`, (s) => `${s}:desc`, (s) => `${s};`, (s) => `${s}\u0000`,
  (s) => `${s}\u00A0`, (s) => `\u2212${s.replace(/^-/, '')}`, (s) => `"${s}"`, (s) => `${s}[]`, (s) => `${s}.asc`, (s) => `${s} nulls first`,
];

/** UUIDs and near-UUIDs: upper case, braces, URN, no dashes, one character too many or too few. */
export const UUID_TEXT: fc.Arbitrary<string> = fc.uuid().chain((id) =>
  fc.constantFrom(
    id, id.toUpperCase(), `{${id}}`, `urn:uuid:${id}`, id.replace(/-/g, ''), `${id}0`, id.slice(0, -1), ` ${id}`, `${id}\u0000`,
    `${id.slice(0, 14)}x${id.slice(15)}`, '00000000-0000-0000-0000-000000000000', 'ffffffff-ffff-ffff-ffff-ffffffffffff',
  ));

/** Long values, ASCII so that a URL of several stays under Node's 16 KB header limit (oversized.test.ts covers beyond). */
export const LONG_TEXT: fc.Arbitrary<string> = fc.tuple(fc.constantFrom(255, 256, 1024, 2049, 10_000), fc.constantFrom('x', '%', 'a,', ',', '_', "'")).map(
  ([length, unit]) => unit.repeat(Math.ceil(length / unit.length)).slice(0, length),
);

/** Any hostile text, with `known` (real names and values of the route) mixed in so some requests get past validation. */
export function hostileText(known: readonly string[] = []): fc.Arbitrary<string> {
  const base = fc.oneof(
    { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 24 }) },
    { weight: 2, arbitrary: fc.string({ unit: hostileCharacter(), minLength: 1, maxLength: 6 }) },
    ...(known.length > 0 ? [{ weight: 3, arbitrary: withHostileCharacter(fc.constantFrom(...known)) }] : []),
    { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 12 }) },
    { weight: 2, arbitrary: fc.string({ unit: 'grapheme-ascii', maxLength: 24 }) },
    { weight: 3, arbitrary: fc.constantFrom(...INJECTIONS) },
    { weight: 2, arbitrary: NUMBER_TEXT },
    { weight: 1, arbitrary: DATE_TEXT },
    { weight: 1, arbitrary: UUID_TEXT },
    { weight: 1, arbitrary: LONG_TEXT },
    { weight: 1, arbitrary: fc.constant('') },
    ...(known.length > 0 ? [{ weight: 4, arbitrary: fc.constantFrom(...known) }] : []),
  );
  // Sometimes two of them at once: a list (`a,b`) or a value with a NUL or an injection inside.
  return fc.oneof(
    { weight: 6, arbitrary: base },
    { weight: 1, arbitrary: fc.tuple(base, base).map(([a, b]) => `${a},${b}`) },
    { weight: 1, arbitrary: fc.tuple(base, fc.constantFrom(...INJECTIONS), base).map(([a, b, c]) => `${a}${b}${c}`) },
  );
}

/** Malformed or surprising percent-encoding, to splice into a wire text. */
export const BAD_ESCAPES: readonly string[] = [
  '%', '%%', '%z', '%zz', '%E0%A4%A', '%u0041', '%uD800', '%2', '%%32%35', '%2525', '%+', '%%00',
  ...INVALID_UTF8_ESCAPES,
];

const UNRESERVED = /[A-Za-z0-9\-._~]/;
/** Sent raw in the loose encoding: visible ASCII (`#` is left out below: it would start the URL's fragment). */
const RAW_OK = /[!-~]/;

function escapeBytes(char: string): string {
  return [...Buffer.from(char, 'utf8')].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join('');
}

/** Every character but the unreserved ones percent-encoded, as UTF-8 (a lone surrogate becomes U+FFFD). */
export function encodeStrict(text: string): string {
  let out = '';
  for (const char of text) out += UNRESERVED.test(char) ? char : escapeBytes(char);
  return out;
}

/** Visible ASCII raw (`&`, `=`, `+`, `%` included: they change what the server reads, which is the point), the rest encoded. */
export function encodeLoose(text: string): string {
  let out = '';
  for (const char of text) out += RAW_OK.test(char) && char !== '#' ? char : escapeBytes(char);
  return out;
}

/**
 * A text as it goes on the wire: strictly encoded, loosely encoded, or with a
 * malformed escape spliced in at some position. Never a character Node's
 * client refuses, never a raw byte above 0x7F.
 */
export function onTheWire(text: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: text.map(encodeStrict) },
    { weight: 2, arbitrary: text.map(encodeLoose) },
    {
      weight: 1,
      arbitrary: fc.tuple(text.map(encodeStrict), fc.nat(), fc.constantFrom(...BAD_ESCAPES)).map(([wire, at, bad]) => {
        const cut = wire.length === 0 ? 0 : at % (wire.length + 1);
        return `${wire.slice(0, cut)}${bad}${wire.slice(cut)}`;
      }),
    },
  );
}

/** Every byte percent-encoded, unreserved characters too: a server that decodes reads the same text. */
export function encodeAll(text: string): string {
  return [...Buffer.from(text, 'utf8')].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join('');
}

/** A path segment as @koa/router hands it over: percent-decoded, or as sent when the encoding is malformed. */
export function routerDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Whether a wire text holds only what `onTheWire` may produce (guards the generators themselves). */
export function isSendable(wire: string): boolean {
  return /^[!-~]*$/.test(wire) && !wire.includes('#');
}
