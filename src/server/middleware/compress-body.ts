import { setHeader } from './set-header.ts';
import type { Context } from 'koa';
import { negotiateEncoding, type ContentCoding, type ResponseCoding } from './accept-encoding.ts';
import { encodeBody, encodedTag } from './content-codings.ts';
import { toJsonText } from './json-body.ts';

/**
 * Bodies smaller than this are sent as they are: a gzip or Brotli frame
 * saves little on them (a single record of a few hundred bytes shrinks by
 * a fifth), and below one packet no byte saved is a round trip saved.
 */
export const MIN_COMPRESSED_BYTES = 1024;

/** Text that compresses: JSON (and `+json`), JavaScript, CSS, HTML, SVG, XML, any `text/`. */
const COMPRESSIBLE = /^(?:text\/|application\/(?:json|javascript|xml|[\w.-]+\+(?:json|xml))\b|image\/svg\+xml\b)/i;

function isCompressible(contentType: string): boolean {
  return COMPRESSIBLE.test(contentType);
}

/**
 * The coding a body of `length` bytes gets in answer to this request:
 * identity when it is small or the client asks for none of ours.
 */
export function codingFor(ctx: Context, length: number): ResponseCoding {
  return length < MIN_COMPRESSED_BYTES ? 'identity' : negotiateEncoding(ctx.headers['accept-encoding']);
}

/** The body's bytes, serialising a JSON value as Koa would; null for a stream. */
function bodyBytes(ctx: Context): Buffer | null {
  const { body } = ctx;
  if (Buffer.isBuffer(body)) return body;
  if (typeof body === 'string') return Buffer.from(body);
  const text = toJsonText(ctx);
  return text === null ? null : Buffer.from(text);
}

/** The length of a body that is bytes or text already (a string is not encoded to learn it); null for a value not serialised yet. */
function knownLength(body: unknown): number | null {
  if (Buffer.isBuffer(body)) return body.length;
  return typeof body === 'string' ? Buffer.byteLength(body) : null;
}

/**
 * A response header as text, read on Node's response: Koa's
 * `ctx.response.get` copies every header into a new object to read one.
 */
function headerOf(ctx: Context, name: string): string {
  const value = ctx.res.getHeader(name);
  return value === undefined ? '' : String(value);
}

/**
 * Compresses the body of any answer, errors and public routes included, as
 * the last step before it is sent (envelope.ts), so that every concern
 * before it works on the identity bytes: the conditional GET tags them and
 * answers 304 before any compression is done. Done here and not in a
 * middleware of its own, to spare every request a layer (envelope.ts).
 *
 * Every compressible answer varies by `Accept-Encoding`, small ones too
 * (the same URL may give a larger body later, and a cache must not give
 * a client that asked for none a body it cannot read); `Vary` is appended
 * to, never replaced. A HEAD is compressed as its GET would be, so its
 * `Content-Length`, `Content-Encoding` and `ETag` are the GET's. A strong
 * `ETag` gets the coding's suffix (`content-codings.ts`).
 *
 * Returns null when there is nothing to compress, decided without a
 * promise (most answers are small ones); else the compression under way.
 */
export function compressBody(ctx: Context): Promise<void> | null {
  const { body } = ctx;
  if (body === null || body === undefined || !isCompressible(headerOf(ctx, 'Content-Type'))) return null;
  ctx.vary('Accept-Encoding');
  if (headerOf(ctx, 'Content-Encoding')) return null;
  const known = knownLength(body);
  if (known !== null && known < MIN_COMPRESSED_BYTES) return null;
  const coding = negotiateEncoding(ctx.headers['accept-encoding']);
  if (coding === 'identity') return null;
  // A JSON value (an error body) is serialised only now, once the client is known to take a coding.
  const bytes = bodyBytes(ctx);
  if (bytes === null || bytes.length < MIN_COMPRESSED_BYTES) return null;
  return encodeInto({ ctx, bytes, coding });
}

async function encodeInto({ ctx, bytes, coding }: { ctx: Context; bytes: Buffer; coding: ContentCoding }): Promise<void> {
  ctx.body = await encodeBody(bytes, coding);
  setHeader(ctx, 'Content-Encoding', coding);
  const tag = headerOf(ctx, 'ETag');
  if (tag) setHeader(ctx, 'ETag', encodedTag(tag, coding));
}
