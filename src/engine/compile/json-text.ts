/**
 * A jsonb value as the text Postgres prints, so a record gives it back digit
 * for digit (CONTRACT.md §2): `9007199254740993`, `1.50` and `1e400` (which
 * jsonb keeps as a 401-digit numeric) would be rounded, cut or turned to
 * `null` by a JavaScript number, and both drivers parse jsonb through one.
 * The column is read as text and the response splices that text into its
 * bytes: `stringifyExact`.
 *
 * Anything else that serialises a record (`JSON.stringify` in a tool, Koa)
 * gets the parsed value, as before: exactness is the response's job, and
 * nothing outside `stringifyExact` ever sees the splice's mark.
 */

/**
 * What stands for a `JsonText` in `JSON.stringify`'s output while
 * `stringifyExact` runs. It starts with NUL, which neither Postgres text nor
 * jsonb can hold, so no stored string is ever mistaken for it.
 */
const MARK = '\u0000json:';
/** The mark as `JSON.stringify` escapes it, opening a string; then the rest of that string literal. */
const MARKED = /"\\u0000json:(?:[^"\\]|\\.)*"/g;
const MARK_OPENING = '"\\u0000json:';

/** Whitespace between tokens (jsonb prints `{"a": 1, "b": 2}`), strings kept whole. */
const STRING_OR_SPACE = /("(?:[^"\\]|\\.)*")|[ \t\r\n]+/g;

let exact = false;

export class JsonText {
  /** The JSON text, without whitespace between tokens. */
  readonly text: string;

  constructor(text: string) {
    this.text = text.replace(STRING_OR_SPACE, (_, string: string | undefined) => string ?? '');
  }

  /** Inside `stringifyExact`, the mark and the text; anywhere else, the parsed value (numbers as JavaScript has them). */
  toJSON(): unknown {
    return exact ? MARK + this.text : JSON.parse(this.text);
  }
}

/**
 * `JSON.stringify`, with every `JsonText` written as its text. A body
 * without one costs one search of the output for the mark.
 */
export function stringifyExact(value: unknown): string {
  exact = true;
  let json: string;
  try {
    json = JSON.stringify(value) as string;
  } finally {
    exact = false;
  }
  if (!json.includes(MARK_OPENING)) return json;
  // The literal parses back to exactly the string toJSON gave: the mark and the text.
  return json.replace(MARKED, (literal) => (JSON.parse(literal) as string).slice(MARK.length));
}
