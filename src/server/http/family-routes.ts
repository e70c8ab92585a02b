import type { Context } from 'koa';
import type { Knex } from 'knex';
import type { CompiledResource } from '../../engine/compile/compile-registry.ts';
import { createExactCounts, type ExactCounts } from '../../db/counts/exact-counts.ts';
import type { CursorCodec } from '../../engine/request/cursor-codec.ts';
import { ApiError, type ParameterIssue } from '../../engine/request/api-error.ts';
import { UUID_PATTERN } from '../../engine/compile/field-types.ts';
import { parseQuery, toListRequest, type ListRequest, type RawQuery } from '../../engine/request/parse-query.ts';
import { getRecord, listRecords, openWalk } from '../../engine/read/read-records.ts';
import type { Reads } from '../../engine/read/reads.ts';
import { projectRecord } from '../../engine/request/sparse-fields.ts';

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

const UUID = new RegExp(UUID_PATTERN);

/**
 * Turns every compiled family into its routes. Handlers are thin: parse the
 * request, run the operation, set the body. Errors are thrown, never written.
 */
export function buildRoutes({ families, reads, cursors }: {
  families: ReadonlyMap<string, CompiledResource>;
  reads: Reads;
  cursors: CursorCodec;
}): Route[] {
  const routes: Route[] = [];
  // Identical first-page counts share a run, and are remembered, per database: with replicas, a count is
  // shared only by requests reading the same copy of the data (so a total never comes from another copy
  // than its page, and a request moved off a failed replica never waits on that replica's count).
  const countsByDb = new WeakMap<Knex, ExactCounts>();
  const countsOn = (db: Knex): ExactCounts => {
    let counts = countsByDb.get(db);
    if (!counts) {
      counts = createExactCounts();
      countsByDb.set(db, counts);
    }
    return counts;
  };
  const brandOf = (ctx: Context): BrandState => ctx.state.brand as BrandState;
  for (const family of families.values()) {
    const { resource } = family;

    const getHandler = async ({ ctx, id, pathIssues = [] }: { ctx: Context; id: string; pathIssues?: readonly ParameterIssue[] }): Promise<void> => {
      const { includes, fields } = parseQuery({ query: ctx.query as RawQuery, schema: family.getSchema, validate: family.validateGet, family, pathIssues });
      const record = await reads.run((db) => getRecord({ db, families, brandId: brandOf(ctx).id, family, id, includes }));
      if (!record) throw new ApiError({ errorCode: 'not_found', message: `No ${resource.title.toLowerCase()} record with this id for this brand.` });
      ctx.body = projectRecord(record, fields, includes);
    };

    if (resource.scope === 'tenant') {
      routes.push({ method: 'GET', path: `/${resource.path}/:brand`, family: resource.path, handler: (ctx) => getHandler({ ctx, id: brandOf(ctx).id }) });
      continue;
    }

    routes.push({
      method: 'GET',
      path: `/brands/:brand/${resource.path}`,
      family: resource.path,
      handler: async (ctx) => {
        const request = toListRequest(
          parseQuery({ query: ctx.query as RawQuery, schema: family.listSchema, validate: family.validateList, family }),
        );
        const brandId = brandOf(ctx).id;
        const walk = openWalk({ cursors, brandId, family, request });
        // A later page reads from a copy at least as new as the one its walk began on.
        const page = await reads.run(
          (db) => listRecords({ db, families, brandId, family, request, walk, cursors, counts: countsOn(db), mark: () => reads.mark(db) }),
          { after: walk.state?.mark ?? null },
        );
        if (page.nextCursor !== null) ctx.set('Link', `<${nextPageUrl(ctx, request, page.nextCursor)}>; rel="next"`);
        ctx.body = request.fields === null
          ? page
          : { ...page, items: page.items.map((record) => projectRecord(record, request.fields, request.includes)) };
      },
    });

    routes.push({
      method: 'GET',
      path: `/brands/:brand/${resource.path}/:id`,
      family: resource.path,
      handler: async (ctx) => {
        const id = String(ctx.params.id);
        await getHandler({ ctx, id, pathIssues: UUID.test(id) ? [] : [{ parameter: 'id', message: 'must be a lower-case UUID' }] });
      },
    });
  }
  return routes;
}

/**
 * The `Link: rel="next"` target: origin-relative, the same filters and
 * includes in the order given, the page size, and the next cursor.
 */
function nextPageUrl(ctx: Context, request: ListRequest, cursor: string): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(ctx.query as RawQuery)) {
    if (name !== 'cursor' && name !== 'limit' && typeof value === 'string') params.append(name, value);
  }
  params.append('limit', String(request.limit));
  params.append('cursor', cursor);
  return `${ctx.path}?${params.toString()}`;
}
