/**
 * Reads `--overlap` of `keys rotate`: how long the old key keeps working
 * beside the new one. `0` ends it at once; otherwise a whole number and a
 * unit, `s`, `m`, `h` or `d` (`90m`, `24h`, `7d`), at most 365 days.
 */
const SHAPE = /^(0|[1-9][0-9]{0,6})(s|m|h|d)?$/;
const UNIT_MS: Readonly<Record<string, number>> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const MAX_MS = 365 * 86_400_000;

/** The rotation's default overlap: a day, long enough for every reader to be given the new key. */
export const DEFAULT_OVERLAP = '24h';

export function parseOverlap(text: string): number {
  const match = SHAPE.exec(text);
  if (!match || (match[1] !== '0' && match[2] === undefined)) throw new Error(`--overlap takes 0 or a duration such as 90m, 24h or 7d, not '${text}'`);
  const ms = Number(match[1]) * (match[2] === undefined ? 0 : UNIT_MS[match[2]]!);
  if (ms > MAX_MS) throw new Error(`--overlap: ${text} is longer than a year`);
  return ms;
}
