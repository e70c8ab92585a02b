import fc from 'fast-check';

/**
 * The characters that break parsers written for ASCII, by Unicode category,
 * read from the running engine's own tables (so every space JavaScript's
 * `\s` knows is in, whatever its version), and the byte sequences that are
 * not UTF-8 at all, as percent-escapes. Shared by the fuzz generators and the
 * tests of parameter schemas: a generator that never leaves ASCII never finds
 * a `\s` that Postgres does not read (issue 16).
 */

function scan(pattern: RegExp): readonly string[] {
  const found: string[] = [];
  for (let code = 0; code <= 0x10ffff; code += 1) {
    if (code >= 0xd800 && code <= 0xdfff) continue;
    const char = String.fromCodePoint(code);
    if (pattern.test(char)) found.push(char);
  }
  return found;
}

/** Every character of these categories; computed once, on first use (a scan of all code points takes a few hundred ms). */
function lazily<T>(make: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= make());
}

const tables = lazily(() => {
  const all = scan(/[\s\p{Z}\p{Cc}\p{Cf}\p{M}\p{Nd}]/u);
  const of = (pattern: RegExp): readonly string[] => all.filter((char) => pattern.test(char));
  return {
    /** Every space and separator: JavaScript's `\s`, the categories Zs, Zl, Zp, and the invisible ones (U+180E, U+200B, U+2060, U+FEFF). */
    spaces: [...new Set([...of(/[\s\p{Z}]/u), '\u180e', '\u200b', '\u2060', '\ufeff'])],
    /** Controls (Cc, NUL and DEL included) and format characters (Cf: bidi controls, joiners, soft hyphen). */
    controls: of(/[\p{Cc}\p{Cf}]/u),
    /** Combining marks (Mn, Mc, Me), which attach to the character before them. */
    marks: of(/\p{M}/u),
    /** Decimal digits of other scripts: `٣`, `१`, `１`... (`\d` without the `u` flag is ASCII only). */
    digits: of(/\p{Nd}/u).filter((char) => !/[0-9]/.test(char)),
  };
});

export const unicodeSpaces = (): readonly string[] => tables().spaces;
export const unicodeControls = (): readonly string[] => tables().controls;
export const combiningMarks = (): readonly string[] => tables().marks;
export const foreignDigits = (): readonly string[] => tables().digits;

/** Look-alikes of the ASCII punctuation dates, numbers and ids are made of. */
export const LOOKALIKES: readonly string[] = [
  '\u2010', '\u2011', '\u2012', '\u2013', '\u2212', '\uff0d', '\ufe63', // hyphens and minus signs
  '\uff1a', '\u2236', '\ufe55', // colons
  '\uff0e', '\u2024', '\u3002', // full stops
  '\uff0b', '\u207a', '\u208a', // plus signs
  '\uff34', '\uff3a', '\u1d1b', // fullwidth T and Z, small capital T
  '\u212a', '\u0130', '\u017f', // Kelvin sign, dotted I, long s (fold into ASCII under some case rules)
];

/** Surrogate halves alone, and the code points no text should hold. */
export const ODD_CODE_POINTS: readonly string[] = ['\ud800', '\udbff', '\udc00', '\udfff', '\ufffe', '\uffff', '\ufffd', '\u{10ffff}', '\u{e0001}'];

/**
 * One character that breaks ASCII assumptions: any space or separator, a
 * control, a combining mark, a foreign digit, a look-alike, a lone surrogate,
 * or any code point at all.
 */
export function hostileCharacter(): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...unicodeSpaces()) },
    { weight: 2, arbitrary: fc.constantFrom(...unicodeControls()) },
    { weight: 2, arbitrary: fc.constantFrom(...combiningMarks()) },
    { weight: 1, arbitrary: fc.constantFrom(...foreignDigits()) },
    { weight: 2, arbitrary: fc.constantFrom(...LOOKALIKES) },
    { weight: 1, arbitrary: fc.constantFrom(...ODD_CODE_POINTS) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
  );
}

/** `text` with one character replaced by, or one inserted of, a hostile character, at any position. */
export function withHostileCharacter(text: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc.tuple(text, fc.nat(), hostileCharacter(), fc.boolean()).map(([value, at, char, replace]) => {
    const chars = [...value];
    const i = chars.length === 0 ? 0 : at % (chars.length + (replace ? 0 : 1));
    if (replace && chars.length > 0) chars[i] = char;
    else chars.splice(i, 0, char);
    return chars.join('');
  });
}

/**
 * Byte sequences that are not UTF-8, as percent-escapes: overlong forms
 * (`/` and NUL in two, three and four bytes), UTF-16 surrogates encoded as
 * if they were code points (CESU-8 and WTF-8), code points past U+10FFFF,
 * bytes that never occur (C0, C1, F5 to FF), sequences cut short, stray
 * continuation bytes; and beside them the escape of NUL and of a byte-order
 * mark, valid UTF-8 that parsers still trip on.
 */
export const INVALID_UTF8_ESCAPES: readonly string[] = [
  '%C0%AF', '%C0%80', '%C1%BF', '%E0%80%AF', '%E0%80%80', '%F0%80%80%AF', '%F8%88%80%80%80', '%FC%84%80%80%80%80',
  '%ED%A0%80', '%ED%BF%BF', '%ED%A0%BD%ED%B8%80', '%F4%90%80%80', '%F7%BF%BF%BF',
  '%FF', '%FE', '%FE%FF', '%C0', '%F5', '%80', '%BF', '%80%80',
  '%C3', '%E0%A4', '%F0%9F%98', '%E2%82',
  '%00', '%EF%BB%BF',
];
