import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync, type BrotliOptions, type ZlibOptions } from 'node:zlib';
import { CONTENT_CODINGS, type ContentCoding, type ResponseCoding } from './accept-encoding.ts';

/**
 * How hard to compress: a body made for one request is compressed on the
 * request's time, a body that never changes (the OpenAPI document, the docs'
 * files) once for the whole process.
 */
type Effort = 'request' | 'once';

/**
 * Measured on list pages of 25 to 1,000 products and on the OpenAPI document
 * (docs/PERFORMANCE.md, "Compression"). Per request, the fast end of each:
 * Brotli quality 3 (its default, 11, costs a hundred times more; 4 made list
 * pages only 1 % smaller than 3 for 30 to 50 % more CPU) and gzip level 1,
 * within 6 to 8 % of level 6's size for a third to a half less CPU (nginx's
 * default level is 1 too). Once: what a first request can wait for on the
 * thread pool (at most ~250 ms, Brotli on the 4.35 MB Scalar bundle of the
 * docs site); Brotli 11 would save 5 to 10 % more but take seconds on each.
 */
const GZIP_LEVEL: Readonly<Record<Effort, number>> = { request: 1, once: 9 };
const BROTLI_QUALITY: Readonly<Record<Effort, number>> = { request: 3, once: 8 };

function brotliOptions(bytes: Buffer, effort: Effort): BrotliOptions {
  return {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY[effort],
      // The whole input is known: Brotli sizes its window and tables to it.
      [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
    },
  };
}

const gzipOptions = (effort: Effort): ZlibOptions => ({ level: GZIP_LEVEL[effort] });

interface CodingImpl {
  encodeSync(bytes: Buffer, effort: Effort): Buffer;
  /** On libuv's thread pool, off the event loop. */
  encode(bytes: Buffer, effort: Effort): Promise<Buffer>;
}

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

const CODINGS: Readonly<Record<ContentCoding, CodingImpl>> = {
  br: {
    encodeSync: (bytes, effort) => brotliCompressSync(bytes, brotliOptions(bytes, effort)),
    encode: (bytes, effort) => brotliAsync(bytes, brotliOptions(bytes, effort)),
  },
  gzip: {
    encodeSync: (bytes, effort) => gzipSync(bytes, gzipOptions(effort)),
    encode: (bytes, effort) => gzipAsync(bytes, gzipOptions(effort)),
  },
};

/**
 * From this size a body is compressed on the thread pool. Below it the
 * synchronous call is cheaper than the hop (gzip of a 28 KB page: 0.08 ms
 * of CPU synchronously, 0.17 ms through the pool; at 140 KB the pool adds
 * 5 %); above it, a page with large includes (up to 5,000 embedded
 * records, megabytes) would hold the event loop for milliseconds.
 */
export const ASYNC_FROM_BYTES = 128 * 1024;

/** Bodies that never change while the process runs, with their encodings once made. */
const STATIC_BODIES = new WeakMap<Buffer, Partial<Record<ContentCoding, Promise<Buffer>>>>();

/**
 * Marks bytes that are served unchanged for the life of the process: each
 * coding of them is made once, on its first request, with more effort, and
 * kept as long as the bytes are. Returns the same buffer.
 */
export function staticBody(bytes: Buffer): Buffer {
  STATIC_BODIES.set(bytes, {});
  return bytes;
}

function encodeOnce(bytes: Buffer, coding: ContentCoding, made: Partial<Record<ContentCoding, Promise<Buffer>>>): Promise<Buffer> {
  let encoded = made[coding];
  if (!encoded) {
    encoded = CODINGS[coding].encode(bytes, 'once');
    made[coding] = encoded;
    // A failure is not kept: the next request tries again.
    encoded.catch(() => delete made[coding]);
  }
  return encoded;
}

/** The body in a coding: once for a static body, otherwise now (synchronously when small). */
export function encodeBody(bytes: Buffer, coding: ContentCoding): Buffer | Promise<Buffer> {
  const made = STATIC_BODIES.get(bytes);
  if (made) return encodeOnce(bytes, coding, made);
  return bytes.length < ASYNC_FROM_BYTES ? CODINGS[coding].encodeSync(bytes, 'request') : CODINGS[coding].encode(bytes, 'request');
}

/**
 * A strong tag names exact bytes (RFC 9110 §8.8.3), so each coding of a body
 * has a tag of its own: the identity tag with the coding inside the quotes
 * (`"abc"` → `"abc-br"`). A weak tag stays as it is: the codings of one body
 * are the same content, which is what a weak tag means.
 */
export function encodedTag(tag: string, coding: ResponseCoding): string {
  if (coding === 'identity' || !tag.endsWith('"') || tag.startsWith('W/')) return tag;
  return `${tag.slice(0, -1)}-${coding}"`;
}

/** Every tag a body of this identity tag may have been sent with. */
export function tagsOfEveryCoding(tag: string): string[] {
  return [tag, ...CONTENT_CODINGS.map((coding) => encodedTag(tag, coding))];
}
