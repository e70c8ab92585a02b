import { setHeader } from './set-header.ts';
import type { Context } from 'koa';
import { stringifyExact } from '../../engine/compile/json-text.ts';

/**
 * Serialises a JSON body to the text that will be sent, once, as Koa would
 * (JSON.stringify, no spaces) but with jsonb values exactly as stored
 * (`stringifyExact`), and marks it JSON. Done ahead of Koa so that
 * whatever needs the exact body (the ETag) reads it, and it is not
 * serialised twice. Returns null, changing nothing, for a body that is not a
 * plain value (already bytes, a string, a stream, or none).
 *
 * The body stays a string, and is sent as one: made into a Buffer, each
 * page's tens of kilobytes were memory outside V8's heap, whose growth
 * starts a full garbage collection every few hundred pages (a deep page's
 * CPU, docs/PERFORMANCE.md, "Bodies sent as text"). Its UTF-8 bytes are
 * made only where they are needed: by a compression.
 */
export function toJsonText(ctx: Context): string | null {
  const { body } = ctx;
  if (body === null || typeof body !== 'object' || Buffer.isBuffer(body) || typeof (body as { pipe?: unknown }).pipe === 'function') return null;
  const text = stringifyExact(body);
  // Set before the body, so Koa keeps it (it would call a string text/plain).
  setHeader(ctx, 'Content-Type', 'application/json; charset=utf-8');
  ctx.body = text;
  return text;
}
