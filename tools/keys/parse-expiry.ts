/**
 * Reads `--expires-at`: a date (`2027-01-01`, midnight UTC) or a timestamp
 * with its zone (`2027-01-01T12:00:00Z`, `...+02:00`). A day that does not
 * exist (`2027-02-30`), a timestamp without a zone (whose meaning would
 * depend on the machine) or a moment already past is refused.
 */
const SHAPE = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2}))?$/;

export function parseExpiry(text: string, now: Date = new Date()): Date {
  const match = SHAPE.exec(text);
  if (!match) throw new Error('--expires-at takes a date (2027-01-01) or a timestamp with a zone (2027-01-01T12:00:00Z)');
  const [, year, month, day, hour, minute, second] = match.map(Number);
  const calendar = new Date(Date.UTC(year!, month! - 1, day!));
  if (calendar.getUTCMonth() !== month! - 1 || calendar.getUTCDate() !== day!
    || (hour !== undefined && !Number.isNaN(hour) && (hour > 23 || minute! > 59 || (second ?? 0) > 59))) {
    throw new Error(`--expires-at: ${text} is not a real date and time`);
  }
  const expiresAt = match[4] === undefined ? calendar : new Date(text);
  if (Number.isNaN(expiresAt.getTime())) throw new Error(`--expires-at: ${text} is not a real date and time`);
  if (expiresAt.getTime() <= now.getTime()) throw new Error(`--expires-at: ${expiresAt.toISOString()} is already past`);
  return expiresAt;
}
