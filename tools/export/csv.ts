/**
 * RFC 4180 text: fields separated by commas, lines ended by CRLF, and a field
 * quoted (its quotes doubled) when it holds a comma, a quote, CR or LF.
 */

/** One cell from a record value: null is an empty field, an empty string a quoted one (so the two stay apart), JSON values their JSON text. */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value === '') return '""';
  const text = typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One line, CRLF included. */
export function csvLine(values: readonly unknown[]): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}
