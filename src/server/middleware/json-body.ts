import { setHeader } from './set-header.ts';
import type { Context } from 'koa';
import { stringifyExact } from '../../engine/compile/json-text.ts';

/**
 * Serialises a JSON body to the bytes that will be sent, once, as Koa would
 * (JSON.stringify, no spaces) but with jsonb values exactly as stored
 * (`stringifyExact`), and marks it JSON. Done ahead of Koa so that
 * whatever needs the exact bytes (the ETag) reads them, and they are not
 * encoded twice. Returns null, changing nothing, for a body that is not a
 * plain value (already bytes, a string, a stream, or none).
 */
export function toJsonBytes(ctx: Context): Buffer | null {
  const { body } = ctx;
  if (body === null || typeof body !== 'object' || Buffer.isBuffer(body) || typeof (body as { pipe?: unknown }).pipe === 'function') return null;
  const bytes = Buffer.from(stringifyExact(body));
  // Set before the body, so Koa keeps it (it would call a Buffer octet-stream).
  setHeader(ctx, 'Content-Type', 'application/json; charset=utf-8');
  ctx.body = bytes;
  return bytes;
}
