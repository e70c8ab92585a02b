import type { Context } from 'koa';
import type { CompiledResource } from '../../engine/compile/compile-registry.ts';
import { DEFAULT_CHANGES_LIMIT } from '../../engine/compile/schemas.ts';
import { openBatch, readChanges, type ChangesBatch, type ChangesPage, type ChangesRequest } from '../../engine/read/read-changes.ts';
import type { Reads } from '../../engine/read/reads.ts';
import type { ParameterIssue } from '../../engine/request/api-error.ts';
import type { ChangesCodec } from '../../engine/request/changes-codec.ts';
import { parseQuery, type RawQuery } from '../../engine/request/parse-query.ts';
import { projectRecord } from '../../engine/request/sparse-fields.ts';
import type { LiveChanges, LiveRequest, TokenPoint } from '../live/live-changes.ts';
import type { HangUp } from '../live/hang-up.ts';
import { xminOf } from '../../engine/compile/snapshot-text.ts';

/** What the changes handler reads with. */
export interface ChangesOperations {
  readonly reads: Reads;
  readonly changes: ChangesCodec;
  /** Days a deletion stays visible (SYNC_RETENTION_DAYS): an older token is 410. */
  readonly syncRetentionDays: number;
  /** Where a call with `wait` waits (CONTRACT.md §7). */
  readonly live: LiveChanges;
}

/**
 * `GET /brands/{brand}/<path>/changes` (CONTRACT.md §6): parse, check the
 * token or cursor, read the page on a copy at least as new as the batch's
 * first, project each record, link the next page.
 */
export async function changesPage({ operations, family, ctx, brandId }: {
  operations: ChangesOperations;
  family: CompiledResource;
  ctx: Context;
  brandId: string;
}): Promise<void> {
  const { reads, changes: codec, syncRetentionDays } = operations;
  const query = { ...(ctx.query as RawQuery) };
  // Every route knows `include`; this one has none to give.
  const pathIssues: ParameterIssue[] = query.include === undefined ? [] : [{ parameter: 'include', message: 'is not a parameter of this route' }];
  delete query.include;
  if (query.wait !== undefined && (query.syncToken === undefined || query.cursor !== undefined)) {
    pathIssues.push({ parameter: 'wait', message: 'is allowed only with syncToken and without cursor' });
  }
  const { values, fields } = parseQuery({ query, schema: family.changesSchema, validate: family.validateChanges, family, pathIssues });
  const request: ChangesRequest = {
    limit: (values.limit as number | undefined) ?? DEFAULT_CHANGES_LIMIT,
    syncToken: (values.syncToken as string | undefined) ?? null,
    cursor: (values.cursor as string | undefined) ?? null,
    fields,
  };
  const batch = openBatch({ codec, brandId, family, request, retentionDays: syncRetentionDays, now: Date.now() });
  // A waited batch reads after its own token, or after a later one its wait moved on to, on a copy no older than `after` (live-changes.ts).
  const readPage = (after: string | null, from?: TokenPoint): Promise<ChangesPage> => {
    const now = Date.now();
    const at = from === undefined ? batch : { ...batch, since: from.since, seen: from.seen, mark: from.mark };
    return reads.run((session) => readChanges({ session, family, request, batch: at, codec, now }), { after });
  };
  const seconds = (values.wait as number | undefined) ?? 0;
  const page = seconds > 0 && batch.since !== null && batch.cursor === null
    ? await waited({ operations, ctx, family, batch, limit: request.limit, seconds, readPage, sameToken: youngToken(request.syncToken!, batch, Date.now()) })
    : await readPage(batch.mark);
  if (page === null) return; // the client hung up: nobody to answer
  if (page.nextCursor !== null) ctx.set('Link', `<${nextPageUrl(ctx, request.limit, page.nextCursor)}>; rel="next"`);
  ctx.body = request.fields === null
    ? page
    : { ...page, items: page.items.map((item) => (item.record === null ? item : { ...item, record: projectRecord(item.record, request.fields, []) })) };
}

/**
 * How old a token may be and still be given back as it is, after a wait
 * nothing interrupted (live-changes.ts): far younger than any retention, so
 * a follower of a brand where nothing happens for weeks gets a new token
 * now and then, and its token never comes near its expiry.
 */
export const SAME_TOKEN_MAX_AGE_MS = 3_600_000;

/** The request's token text, when it is young enough to give back; null otherwise. */
function youngToken(text: string, batch: ChangesBatch, now: number): string | null {
  return batch.madeAt !== null && now - batch.madeAt < SAME_TOKEN_MAX_AGE_MS ? text : null;
}

/** The batch of a call with `wait`: held in the instance's live changes until it has items, the time is up, or the client hangs up (null). */
async function waited({ operations, ctx, family, batch, limit, seconds, readPage, sameToken }: {
  operations: ChangesOperations;
  ctx: Context;
  family: CompiledResource;
  batch: ChangesBatch;
  limit: number;
  seconds: number;
  readPage: LiveRequest['readPage'];
  sameToken: string | null;
}): Promise<ChangesPage | null> {
  const hangUp = hangUpOf(ctx);
  try {
    return await operations.live.changes({
      family, batch, limit, seconds, readPage, hangUp, sameToken,
      keyId: String(ctx.state.keyId),
      reopen: (page) => {
        const token = operations.changes.decodeToken(page.syncToken!, batch.scope);
        return { since: token.snapshot, seen: token.truncations ?? [], mark: token.mark };
      },
      // The truncations the token had seen stay seen (at or above the new xmin): without them the next call is a 410.
      token: ({ since, seen, mark }, madeAt) => {
        const truncations = seen.filter((id) => BigInt(id) >= BigInt(xminOf(since)));
        return operations.changes.encodeToken(batch.scope, { snapshot: since, madeAt, mark, ...(truncations.length > 0 ? { truncations } : {}) });
      },
    });
  } finally {
    hangUp.close();
  }
}

/** The client's hang-up: its response closed before it was written; `close` stops watching for it. */
function hangUpOf(ctx: Context): HangUp & { close(): void } {
  let hungUp = ctx.req.socket.destroyed;
  let listener: (() => void) | null = null;
  const onClose = (): void => {
    if (ctx.res.writableFinished) return;
    hungUp = true;
    const heard = listener;
    listener = null;
    heard?.();
  };
  ctx.res.once('close', onClose);
  return {
    get hungUp() {
      return hungUp;
    },
    listen(heard) {
      listener = heard;
      return () => {
        if (listener === heard) listener = null;
      };
    },
    close: () => ctx.res.off('close', onClose),
  };
}

/** The `rel="next"` target: origin-relative, `fields` as given, the page size and the cursor (which carries the token). */
function nextPageUrl(ctx: Context, limit: number, cursor: string): string {
  const params = new URLSearchParams();
  const fields = (ctx.query as RawQuery).fields;
  if (typeof fields === 'string') params.append('fields', fields);
  params.append('limit', String(limit));
  params.append('cursor', cursor);
  return `${ctx.path}?${params.toString()}`;
}
