import { setHeader } from './set-header.ts';
import { randomUUID } from 'node:crypto';
import type { Context } from 'koa';

/** A client's id is kept when it is short and plain; otherwise one is made. */
const SANE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Gives the request an id, echoed in `X-Request-Id` and written to its log line. */
export function assignRequestId(ctx: Context): void {
  const given = ctx.get('X-Request-Id');
  const id = given !== '' && SANE_ID.test(given) ? given : randomUUID();
  ctx.state.requestId = id;
  setHeader(ctx, 'X-Request-Id', id);
}
