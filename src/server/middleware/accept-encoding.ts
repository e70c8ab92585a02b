/**
 * The content codings the server applies, in its order of preference when a
 * client weighs them alike: at the settings used (`content-codings.ts`)
 * Brotli sends about 6 % fewer bytes than gzip for about the same CPU
 * (docs/PERFORMANCE.md, "Compression").
 */
export const CONTENT_CODINGS = ['br', 'gzip'] as const;
export type ContentCoding = (typeof CONTENT_CODINGS)[number];
/** What a response is sent as: one of the codings, or the bytes as they are. */
export type ResponseCoding = ContentCoding | 'identity';

/** RFC 9110 §8.4.1.3: `x-gzip` is gzip. */
const ALIASES: Readonly<Record<string, string>> = { 'x-gzip': 'gzip' };
/** RFC 9110 §12.4.2: 0 to 1, at most three decimals. */
const QVALUE = /^(?:0(?:\.[0-9]{0,3})?|1(?:\.0{0,3})?)$/;

/**
 * Each coding the header names, by its lower-case name, with its weight.
 * An element whose weight does not parse is left out (as if not sent);
 * a coding named twice keeps its first weight.
 */
export function parseAcceptEncoding(header: string): Map<string, number> {
  const weights = new Map<string, number>();
  for (const element of header.split(',')) {
    const [rawName = '', ...parameters] = element.split(';').map((part) => part.trim());
    if (rawName === '') continue;
    let weight = 1;
    for (const parameter of parameters) {
      const q = /^q\s*=\s*(.*)$/i.exec(parameter);
      if (q) weight = QVALUE.test(q[1]!) ? Number(q[1]) : Number.NaN;
    }
    const name = rawName.toLowerCase();
    const coding = ALIASES[name] ?? name;
    if (!Number.isNaN(weight) && !weights.has(coding)) weights.set(coding, weight);
  }
  return weights;
}

/**
 * The coding to send a response in, per RFC 9110 §12.5.3: the acceptable
 * coding of highest weight, the server's order (br, gzip, then identity)
 * breaking ties. A coding the header does not name takes the weight of `*`,
 * or is not acceptable. Identity is always acceptable unless excluded
 * (`identity;q=0`, or `*;q=0` without naming it), but an unnamed identity
 * comes last: `gzip;q=0.5` alone asks for gzip. No header, an empty one,
 * or one that excludes everything gives identity: §12.5.3 asks for a
 * response without coding rather than a 406.
 */
export function negotiateEncoding(header: string | undefined): ResponseCoding {
  if (!header) return 'identity';
  const weights = parseAcceptEncoding(header);
  const star = weights.get('*');
  let chosen: ResponseCoding = 'identity';
  let chosenWeight = weights.get('identity') ?? star ?? 0;
  // Walked from the least preferred up, so that a tie goes to the coding the server prefers.
  for (const coding of [...CONTENT_CODINGS].reverse()) {
    const weight = weights.get(coding) ?? star ?? 0;
    if (weight > 0 && weight >= chosenWeight) {
      chosen = coding;
      chosenWeight = weight;
    }
  }
  return chosen;
}
