import Koa from 'koa';
import type pg from 'pg';
import type { CompiledResource } from '../../src/engine/compile/compile-registry.ts';
import { CURSOR_COLUMN } from '../../src/engine/compile/compile-queries.ts';
import { cursorTimestamp } from '../../src/engine/compile/timestamp-text.ts';
import { MAX_INCLUDED_RECORDS } from '../../src/engine/read/read-records.ts';
import type { SqlFragment } from '../../src/engine/compile/sql-fragment.ts';
import { toPositional } from '../../src/db/query/to-positional.ts';
import { DEFAULT_SORT } from '../../src/engine/compile/list-sorts.ts';

type Row = Record<string, unknown>;

/** Where the floor serves: `/floor/<family>/<brand id>` lists, `/floor/<family>/<brand id>/<id>` reads one. */
export const FLOOR_PREFIX = '/floor';

/**
 * The floor: the least an HTTP server can do to answer the bench's requests
 * with the engine's own SQL. No auth, rate limit, validation, router, cursor
 * signing, ETag or log: the brand comes as its id, a list's position as the
 * plain `after=<created_at>,<id>` of the row before, and `nextCursor` is that
 * pair for the next page. Everything else is what the server does too: the
 * SQL text the engine compiled (`?` numbered as knex numbers it), a list's
 * page and count queries in parallel, one query per include, the rows made
 * records (the engine's `decode`: the hidden cursor column left behind,
 * timestamps finished from their JSON text), and the same JSON body.
 */
export function createFloorApp({ pool, families, prepared = false }: {
  pool: pg.Pool;
  families: ReadonlyMap<string, CompiledResource>;
  /**
   * Send each query as a named prepared statement, as the server does (`pg`
   * prepares a name once per connection), except those the engine marks to
   * be planned for their values; false: unprepared, as a bare handler sends
   * them.
   */
  prepared?: boolean;
}): Koa {
  const numbered = new Map<string, { text: string; name: string }>();
  const rows: Rows = async (query) => {
    let statement = numbered.get(query.sql);
    if (statement === undefined) {
      statement = { text: toPositional(query.sql), name: `floor_${numbered.size + 1}` };
      numbered.set(query.sql, statement);
    }
    const values = query.bindings as unknown[];
    const result = prepared && query.prepare !== false
      ? await pool.query({ name: statement.name, text: statement.text, values })
      : await pool.query(statement.text, values);
    return result.rows as Row[];
  };

  const app = new Koa();
  app.use(async (ctx) => {
    const [, prefix, path, brandId, id, ...rest] = ctx.path.split('/');
    const family = path === undefined ? undefined : families.get(path);
    if (`/${prefix}` !== FLOOR_PREFIX || !family || !brandId || rest.length > 0) {
      ctx.status = 404;
      return;
    }
    if (id) {
      const [record] = family.queries.decode(await rows(family.queries.one({ brandId, id })));
      if (record) ctx.body = record;
      else ctx.status = 404;
      return;
    }
    ctx.body = await listPage({ rows, families, family, brandId, query: ctx.query as Record<string, string> });
  });
  return app;
}

type Rows = (query: SqlFragment) => Promise<Row[]>;

/** A list page: the page and the count in parallel, the rows made records, and the include embedded. */
async function listPage({ rows, families, family, brandId, query }: {
  rows: Rows;
  families: ReadonlyMap<string, CompiledResource>;
  family: CompiledResource;
  brandId: string;
  query: Record<string, string>;
}): Promise<{ items: Row[]; nextCursor: string | null; totalItems: unknown }> {
  const { limit: limitText, after: afterText, include: includeName, ...filters } = query;
  const limit = Number(limitText ?? 25);
  const [createdAt, afterId] = afterText ? afterText.split(',') : [];
  const after = createdAt && afterId ? { createdAt, id: afterId } : null;
  const [page, counted] = await Promise.all([
    rows(family.queries.page({ brandId, filters, after, limit, sort: family.sorts.get(DEFAULT_SORT)! })),
    rows(family.queries.count({ brandId, filters }).count),
  ]);
  const hasNext = page.length > limit;
  if (hasNext) page.length = limit;
  const last = page[page.length - 1];
  const nextCursor = hasNext && last ? `${cursorTimestamp(last[CURSOR_COLUMN] as string)},${String(last.id)}` : null;
  const items = family.queries.decode(page);
  const include = includeName ? family.includesByName.get(includeName) : undefined;
  if (include) await embed({ rows, related: families.get(include.resource)!, include, brandId, page: items });
  return { items, nextCursor, totalItems: counted[0]!.total };
}

type Include = NonNullable<ReturnType<CompiledResource['includesByName']['get']>>;

/** One query for the whole page's related records, each parent given its own (one, or a list). */
async function embed({ rows, related, include, brandId, page }: { rows: Rows; related: CompiledResource; include: Include; brandId: string; page: Row[] }): Promise<void> {
  const keys = [...new Set(page.map((row) => row[include.localField]).filter((key) => key !== null && key !== undefined))];
  const found = keys.length === 0 ? [] : related.queries.decode(await rows(related.queries.matching({
    brandId, field: include.remoteField, values: keys, limit: MAX_INCLUDED_RECORDS + 1,
  })));
  const byKey = new Map<unknown, Row[]>();
  for (const row of found) {
    const list = byKey.get(row[include.remoteField]);
    if (list) list.push(row);
    else byKey.set(row[include.remoteField], [row]);
  }
  for (const row of page) {
    const matches = byKey.get(row[include.localField]) ?? [];
    row[include.name] = include.cardinality === 'one' ? (matches[0] ?? null) : matches;
  }
}
