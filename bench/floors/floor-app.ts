import Koa from 'koa';
import type pg from 'pg';
import type { CompiledResource } from '../../src/engine/compile/compile-registry.ts';
import { CURSOR_COLUMN } from '../../src/engine/compile/compile-queries.ts';
import { cursorTimestamp } from '../../src/engine/compile/timestamp-text.ts';
import { MAX_INCLUDED_RECORDS } from '../../src/engine/read/read-records.ts';
import type { SqlFragment } from '../../src/engine/compile/sql-fragment.ts';
import { toPositional } from '../../src/db/query/to-positional.ts';
import { DEFAULT_SORT } from '../../src/engine/compile/list-sorts.ts';
import {
  countsBody, FloorQuestionError, handCount, handCounts, handPage, isHandQuestion, parseCountsQuestion, parseHandQuestion, type HandStatement,
} from './floor-questions.ts';

type Row = Record<string, unknown>;

/**
 * Where the floor serves: `/floor/<family>/<brand id>` lists, `/floor/<family>/<brand id>/<id>` reads one,
 * `/floor/products/<brand id>/counts?by=status` counts by value.
 */
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
 *
 * The list questions of CONTRACT.md §8 on products (an order, any of, a
 * range, an OFFSET, counts by value) it answers with SQL written by hand,
 * as a bare handler would (floor-questions.ts): the server's own compiled
 * statements for those would only measure the server against itself.
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

  const named = new Map<string, string>();
  const handRows: HandRows = async (statement) => {
    if (!prepared || !statement.prepare) return (await pool.query(statement.text, [...statement.values])).rows as Row[];
    let name = named.get(statement.text);
    if (name === undefined) {
      name = `hand_${named.size + 1}`;
      named.set(statement.text, name);
    }
    return (await pool.query({ name, text: statement.text, values: [...statement.values] })).rows as Row[];
  };

  const app = new Koa();
  app.use(async (ctx) => {
    const [, prefix, path, brandId, id, ...rest] = ctx.path.split('/');
    const family = path === undefined ? undefined : families.get(path);
    if (`/${prefix}` !== FLOOR_PREFIX || !family || !brandId || rest.length > 0) {
      ctx.status = 404;
      return;
    }
    const hand = (answer: (query: HandQuery) => Promise<unknown>): Promise<void> => answerByHand(ctx, answer);
    if (path === HAND_FAMILY && id === 'counts') return hand((query) => handCountsBody({ handRows, brandId, query }));
    if (id) {
      const [record] = family.queries.decode(await rows(family.queries.one({ brandId, id })));
      if (record) ctx.body = record;
      else ctx.status = 404;
      return;
    }
    const query = ctx.query as HandQuery;
    if (path === HAND_FAMILY && isHandQuestion(query)) return hand(() => handListPage({ handRows, family, brandId, query }));
    ctx.body = await listPage({ rows, families, family, brandId, query: query as Record<string, string> });
  });
  return app;
}

type Rows = (query: SqlFragment) => Promise<Row[]>;
type HandRows = (statement: HandStatement) => Promise<Row[]>;
type HandQuery = Record<string, string | string[] | undefined>;

/** The body of a hand-written question, or 400 with the reason when the floor does not answer it. */
async function answerByHand(ctx: Koa.Context, answer: (query: HandQuery) => Promise<unknown>): Promise<void> {
  try {
    ctx.body = await answer(ctx.query as HandQuery);
  } catch (error) {
    if (!(error instanceof FloorQuestionError)) throw error;
    ctx.status = 400;
    ctx.body = { error: error.message };
  }
}

/** The family whose §8 questions the floor answers by hand. */
const HAND_FAMILY = 'products';

/** Counts by value of a hand-written question, in the body the server gives. */
async function handCountsBody({ handRows, brandId, query }: {
  handRows: HandRows;
  brandId: string;
  query: HandQuery;
}): Promise<ReturnType<typeof countsBody>> {
  const question = parseCountsQuestion(query);
  return countsBody(question.by, (await handRows(handCounts(question, brandId))) as { value: unknown; count: number }[]);
}

/**
 * A page of a hand-written question: the page and its count in parallel
 * (no count when the position carries the walk's total), the rows made
 * records, and the next position: `<created_at>,<id>` in a `createdAt`
 * order, the next OFFSET in another.
 */
async function handListPage({ handRows, family, brandId, query }: {
  handRows: HandRows;
  family: CompiledResource;
  brandId: string;
  query: HandQuery;
}): Promise<{ items: Row[]; nextCursor: string | null; totalItems: unknown }> {
  const question = parseHandQuestion(query);
  const [page, total] = await Promise.all([
    handRows(handPage(question, brandId)),
    question.total === null ? handRows(handCount(question, brandId)).then((rows) => rows[0]!.total) : Promise.resolve(question.total),
  ]);
  const hasNext = page.length > question.limit;
  if (hasNext) page.length = question.limit;
  const last = page[page.length - 1];
  let nextCursor: string | null = null;
  if (hasNext && last) {
    nextCursor = question.order.field === 'createdAt' ? `${cursorTimestamp(last.createdAt as string)},${String(last.id)}` : String(question.offset + question.limit);
  }
  return { items: family.queries.decode(page), nextCursor, totalItems: total };
}

/** A list page: the page and the count in parallel, the rows made records, and the include embedded. */
async function listPage({ rows, families, family, brandId, query }: {
  rows: Rows;
  families: ReadonlyMap<string, CompiledResource>;
  family: CompiledResource;
  brandId: string;
  query: Record<string, string>;
}): Promise<{ items: Row[]; nextCursor: string | null; totalItems: unknown }> {
  const { limit: limitText, after: afterText, include: includeName, ...filters } = query as Record<string, string>;
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
