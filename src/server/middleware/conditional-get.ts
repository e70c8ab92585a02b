import { setHeader } from './set-header.ts';
import { hash } from 'node:crypto';
import type { Context } from 'koa';
import { codingFor } from './compress-body.ts';
import { encodedTag, tagsOfEveryCoding } from './content-codings.ts';
import { toJsonText } from './json-body.ts';

/**
 * Conditional requests for what a key reads: a strong `ETag` on every 200,
 * computed from the exact bytes of the body, and `304 Not Modified` (no body)
 * when `If-None-Match` names it. The rate limit gives a 304's point back
 * (rate-limit.ts).
 *
 * A 200 may be kept by the client alone (`private`), and only to revalidate
 * (`no-cache`): the next read sends its tag and costs a 304.
 *
 * The tag set here is the identity bytes'; a compressed 200 carries it with
 * its coding's suffix (`"…-br"`, added by `compress-body.ts`), and any of
 * those tags matches, so a client that changes its `Accept-Encoding` keeps
 * its 304s. The 304 is decided before anything is compressed. Runs on the
 * way back, once the route has set its answer (family-guard.ts).
 */
export function answerConditionally(ctx: Context): void {
  if (ctx.status !== 200) return;
  // The tag is of the identity bytes, the text's UTF-8 (compression, later, adds its coding to it).
  const text = toJsonText(ctx);
  if (text === null) return;
  const tag = `"${hash('sha256', text, 'base64url').slice(0, 32)}"`;
  setHeader(ctx, 'Cache-Control', 'private, no-cache');
  setHeader(ctx, 'ETag', tag);
  if (matchesIfNoneMatch(ctx, tag)) {
    // A 304 carries the validator and Vary its 200 would have (RFC 9110 §15.4.5): the tag of this request's coding.
    setHeader(ctx, 'ETag', encodedTag(tag, codingFor(ctx, Buffer.byteLength(text))));
    ctx.vary('Accept-Encoding');
    ctx.status = 304;
    ctx.body = null;
  }
}

/**
 * RFC 9110 §13.1.2: `*` or any listed tag, compared weakly (a `W/` prefix is
 * ignored); the tag of any coding of the same bytes matches.
 */
function matchesIfNoneMatch(ctx: Context, tag: string): boolean {
  const header = ctx.get('If-None-Match');
  if (!header) return false;
  if (header.trim() === '*') return true;
  const tags = tagsOfEveryCoding(tag);
  return header.split(',').some((candidate) => tags.includes(candidate.trim().replace(/^W\//, '')));
}
