import type { Context } from 'koa';
import type { CompiledResource } from '../../engine/compile/compile-registry.ts';
import { UUID_PATTERN } from '../../engine/compile/field-types.ts';
import { getRecord, listRecords, openWalk } from '../../engine/read/read-records.ts';
import { countRecords } from '../../engine/read/read-counts.ts';
import type { Reads } from '../../engine/read/reads.ts';
import { ApiError, type ParameterIssue } from '../../engine/request/api-error.ts';
import type { CursorCodec } from '../../engine/request/cursor-codec.ts';
import { parseQuery, toListRequest, type ListRequest, type RawQuery } from '../../engine/request/parse-query.ts';
import { projectRecord } from '../../engine/request/sparse-fields.ts';
import { changesPage, type ChangesOperations } from './changes-route.ts';

/** The brand a request is for, resolved and authorized by the server before a handler runs. */
export interface BrandState {
  readonly id: string;
  readonly slug: string;
}

/** A route as a plain value: the server mounts it behind auth and rate limiting. */
export interface Route {
  readonly method: 'GET';
  /** Router path, relative to the API base (`/brands/:brand/carton-sizes/:id`). */
  readonly path: string;
  /** Family path, for logs. */
  readonly family: string;
  readonly handler: (ctx: Context) => Promise<void>;
}

/** What every handler reads with: the compiled families, the database port, the cursor codec and the changes feed's. */
interface Operations extends ChangesOperations {
  readonly families: ReadonlyMap<string, CompiledResource>;
  readonly reads: Reads;
  readonly cursors: CursorCodec;
}

const UUID = new RegExp(UUID_PATTERN);

const brandOf = (ctx: Context): BrandState => ctx.state.brand as BrandState;

/**
 * Turns every compiled family into its routes. Handlers are thin: parse the
 * request, run the operation, set the body. Errors are thrown, never written.
 */
export function buildFamilyRoutes(operations: Operations): Route[] {
  const routes: Route[] = [];
  for (const family of operations.families.values()) {
    const { path } = family.resource;
    if (family.resource.scope === 'tenant') {
      routes.push({ method: 'GET', path: `/${path}/:brand`, family: path, handler: (ctx) => getOne({ operations, family, ctx, id: brandOf(ctx).id }) });
      continue;
    }
    routes.push({ method: 'GET', path: `/brands/:brand/${path}`, family: path, handler: (ctx) => listPage({ operations, family, ctx }) });
    // Every list has its counts route: one whose family counts nothing answers what `by` may be (nothing), not a 400 about an id.
    routes.push({ method: 'GET', path: `/brands/:brand/${path}/counts`, family: path, handler: (ctx) => countsBody({ operations, family, ctx }) });
    routes.push({
      method: 'GET',
      path: `/brands/:brand/${path}/changes`,
      family: path,
      handler: (ctx) => changesPage({ operations, family, ctx, brandId: brandOf(ctx).id }),
    });
    routes.push({
      method: 'GET',
      path: `/brands/:brand/${path}/:id`,
      family: path,
      handler: (ctx) => {
        const id = String(ctx.params.id);
        return getOne({ operations, family, ctx, id, pathIssues: UUID.test(id) ? [] : [{ parameter: 'id', message: 'must be a lower-case UUID' }] });
      },
    });
  }
  return routes;
}

/** A single record: parse `include` and `fields`, read it, project it. */
async function getOne({ operations, family, ctx, id, pathIssues = [] }: {
  operations: Operations;
  family: CompiledResource;
  ctx: Context;
  id: string;
  pathIssues?: readonly ParameterIssue[];
}): Promise<void> {
  const { families, reads } = operations;
  const { includes, fields } = parseQuery({ query: ctx.query as RawQuery, schema: family.getSchema, validate: family.validateGet, family, pathIssues });
  const record = await reads.run((session) => getRecord({ session, families, brandId: brandOf(ctx).id, family, id, includes }));
  if (!record) throw new ApiError({ errorCode: 'not_found', message: `No ${family.resource.title.toLowerCase()} record with this id for this brand.` });
  ctx.body = projectRecord(record, fields, includes);
}

/** A list page: parse the query, check the cursor, read the page on a copy at least as new as the walk's first. */
async function listPage({ operations, family, ctx }: { operations: Operations; family: CompiledResource; ctx: Context }): Promise<void> {
  const { families, reads, cursors } = operations;
  const request = toListRequest(parseQuery({ query: ctx.query as RawQuery, schema: family.listSchema, validate: family.validateList, family }), family);
  const brandId = brandOf(ctx).id;
  const walk = openWalk({ cursors, brandId, family, request });
  const page = await reads.run(
    (session) => listRecords({ session, families, brandId, family, request, walk, cursors }),
    { after: walk.state?.mark ?? null },
  );
  if (page.nextCursor !== null) ctx.set('Link', `<${nextPageUrl(ctx, request, page.nextCursor)}>; rel="next"`);
  ctx.body = request.fields === null
    ? page
    : { ...page, items: page.items.map((record) => projectRecord(record, request.fields, request.includes)) };
}

/** Counts by value (CONTRACT.md §8): parse `by` and the filters, count on one copy of the data. */
async function countsBody({ operations, family, ctx }: { operations: Operations; family: CompiledResource; ctx: Context }): Promise<void> {
  // A family that counts nothing refuses any `by`, with whatever else is wrong with the query.
  const pathIssues = family.resource.countable.length > 0 ? [] : [{ parameter: 'by', message: `${family.resource.path} declares no countable field: it has no counts by value` }];
  const { values } = parseQuery({ query: ctx.query as RawQuery, schema: family.countsSchema, validate: family.validateCounts, family, records: false, pathIssues });
  const { by, ...filters } = values;
  const field = family.resource.countable.find((countable) => countable.name === by)!;
  ctx.body = await operations.reads.run((session) => countRecords({ session, family, brandId: brandOf(ctx).id, request: { by: field, filters } }));
}

/**
 * The `Link: rel="next"` target: origin-relative, the same filters (each
 * value of one given several times), sort and includes in the order given,
 * the page size, and the next cursor.
 */
function nextPageUrl(ctx: Context, request: ListRequest, cursor: string): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(ctx.query as RawQuery)) {
    if (name === 'cursor' || name === 'limit' || value === undefined) continue;
    for (const each of Array.isArray(value) ? value : [value]) params.append(name, each);
  }
  params.append('limit', String(request.limit));
  params.append('cursor', cursor);
  return `${ctx.path}?${params.toString()}`;
}
