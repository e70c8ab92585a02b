import type { Context } from 'koa';
import type { CompiledResource } from '../../engine/compile/compile-registry.ts';
import { DEFAULT_CHANGES_LIMIT } from '../../engine/compile/schemas.ts';
import { openBatch, readChanges, type ChangesRequest } from '../../engine/read/read-changes.ts';
import type { Reads } from '../../engine/read/reads.ts';
import type { ChangesCodec } from '../../engine/request/changes-codec.ts';
import { parseQuery, type RawQuery } from '../../engine/request/parse-query.ts';
import { projectRecord } from '../../engine/request/sparse-fields.ts';

/** What the changes handler reads with. */
export interface ChangesOperations {
  readonly reads: Reads;
  readonly changes: ChangesCodec;
  /** Days a deletion stays visible (SYNC_RETENTION_DAYS): an older token is 410. */
  readonly syncRetentionDays: number;
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
  const pathIssues = query.include === undefined ? [] : [{ parameter: 'include', message: 'is not a parameter of this route' }];
  delete query.include;
  const { values, fields } = parseQuery({ query, schema: family.changesSchema, validate: family.validateChanges, family, pathIssues });
  const request: ChangesRequest = {
    limit: (values.limit as number | undefined) ?? DEFAULT_CHANGES_LIMIT,
    syncToken: (values.syncToken as string | undefined) ?? null,
    cursor: (values.cursor as string | undefined) ?? null,
    fields,
  };
  const now = Date.now();
  const batch = openBatch({ codec, brandId, family, request, retentionDays: syncRetentionDays, now });
  const page = await reads.run(
    (session) => readChanges({ session, family, request, batch, codec, now }),
    { after: batch.mark },
  );
  if (page.nextCursor !== null) ctx.set('Link', `<${nextPageUrl(ctx, request.limit, page.nextCursor)}>; rel="next"`);
  ctx.body = request.fields === null
    ? page
    : { ...page, items: page.items.map((item) => (item.record === null ? item : { ...item, record: projectRecord(item.record, request.fields, []) })) };
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
