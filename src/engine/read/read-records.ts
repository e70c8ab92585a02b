import { hashFilters, sortKeyHash, type CursorCodec, type CursorPosition, type CursorScope, type CursorState } from '../request/cursor-codec.ts';
import { ApiError, invalidParameters } from '../request/api-error.ts';
import type { CompiledResource } from '../compile/compile-registry.ts';
import { CURSOR_COLUMN, SORT_KEY_COLUMN } from '../compile/compile-queries.ts';
import { cursorTimestamp } from '../compile/timestamp-text.ts';
import type { ListSort } from '../compile/list-sorts.ts';
import { SORT_KEYS } from '../compile/sort-keys.ts';
import type { Include } from '../definition/resource.ts';
import type { ListRequest } from '../request/parse-query.ts';
import type { ReadSession, Row } from './reads.ts';

/**
 * Reading records: the operations behind the routes, with no knowledge of HTTP.
 */

export type { Row };

/**
 * The most records one include may embed in one response. Past it the request
 * is refused (never cut short): the client asks for a smaller page, or lists
 * the related family with a filter.
 */
export const MAX_INCLUDED_RECORDS = 5000;

export interface ListPage {
  readonly items: Row[];
  readonly nextCursor: string | null;
  readonly totalItems: number;
}

interface ReadContext {
  readonly session: ReadSession;
  readonly families: ReadonlyMap<string, CompiledResource>;
  readonly brandId: string;
}

/** A list request's place in its walk: what its cursor is valid for, and what the cursor says (null on a first page). */
export interface Walk {
  readonly scope: CursorScope;
  readonly state: CursorState | null;
}

/** Checks the request's cursor against the brand, collection, filters and sort (400 when it does not belong). */
export function openWalk({ cursors, brandId, family, request }: {
  cursors: CursorCodec;
  brandId: string;
  family: CompiledResource;
  request: ListRequest;
}): Walk {
  const scope = { brandId, collection: family.resource.path, filterHash: hashFilters(request.filters), sort: request.sort.name };
  const state = request.cursor === null ? null : cursors.decode(request.cursor, scope);
  if (state !== null && !keyFits(state.position, request.sort)) throw new ApiError({ errorCode: 'invalid_cursor' });
  return { scope, state };
}

/** Whether a cursor's place has what its sort needs: a value of the field's kind (or null), or its hash; nothing in `createdAt` order. */
function keyFits(position: CursorPosition, sort: ListSort): boolean {
  if (sort.field.name === 'createdAt') return position.key === undefined && position.keyHash === undefined;
  if (position.keyHash !== undefined) return true;
  return position.key === null || (typeof position.key === 'string' && SORT_KEYS[sort.field.type]!.accepts.test(position.key));
}

/**
 * One page of a list, its total, the next cursor and any includes.
 *
 * `totalItems` is exact as of the request on a first page: from a run that
 * started after the request arrived, shared by identical requests, which
 * counts unless nothing has changed since the last count (`ExactCounts`). Later pages carry the total of their walk's first page in
 * the cursor, so a deep page costs what its keyset page costs. A first page
 * with a next one also puts the `mark` of its data in the cursor, taken after
 * its page was read (so the mark is at least as new as the page), and later
 * pages pass it on.
 */
export async function listRecords({ session, families, brandId, family, request, walk, cursors }: ReadContext & {
  family: CompiledResource;
  request: ListRequest;
  walk: Walk;
  cursors: CursorCodec;
}): Promise<ListPage> {
  const { scope, state } = walk;
  const { queries } = family;
  const { sort } = request;
  const after = state === null ? null : await placeOf({ session, family, brandId, position: state.position, sort });
  const [rows, totalItems] = await Promise.all([
    session.rows(queries.page({ brandId, filters: request.filters, after, limit: request.limit, sort })),
    state?.totalItems ?? session.count(`${scope.collection}\u0000${brandId}\u0000${scope.filterHash}`, queries.count({ brandId, filters: request.filters })),
  ]);
  const hasNext = rows.length > request.limit;
  if (hasNext) rows.length = request.limit;
  const last = rows[rows.length - 1];
  // The cursor is read from the last row as the driver gave it; its records leave the hidden columns behind.
  const nextCursor = hasNext && last
    ? cursors.encode(scope, {
      position: { createdAt: cursorTimestamp(last[CURSOR_COLUMN] as string), id: last.id as string, ...sortKeyOf(last, sort) },
      totalItems,
      mark: state === null ? await session.mark() : state.mark,
    })
    : null;
  const page = queries.decode(rows);
  await loadIncludes({ session, families, brandId, records: page, includes: request.includes });
  return { items: page, nextCursor, totalItems };
}

/** The sort field's value at a page's last row, as the cursor carries it: nothing in `createdAt` order. */
function sortKeyOf(row: Row, sort: ListSort): { key?: string | null } {
  if (sort.field.name === 'createdAt') return {};
  const text = row[SORT_KEY_COLUMN];
  const { decode } = SORT_KEYS[sort.field.type]!;
  return { key: typeof text === 'string' ? (decode ? decode(text) : text) : null };
}

/**
 * Where the next page starts. A sort value too long to ride in the cursor
 * came as its hash: it is read again from the cursor's row, and the walk
 * goes on only while that row still has it (otherwise no place in the order
 * is known for certain, and the client starts again: 400 `invalid_cursor`).
 */
async function placeOf({ session, family, brandId, position, sort }: {
  session: ReadSession;
  family: CompiledResource;
  brandId: string;
  position: CursorPosition;
  sort: ListSort;
}): Promise<CursorPosition> {
  if (position.keyHash === undefined) return position;
  const [row] = await session.rows(family.queries.sortKey({ brandId, id: position.id, sort }));
  const key = row === undefined ? undefined : sortKeyOf(row, sort).key;
  if (typeof key !== 'string' || sortKeyHash(key) !== position.keyHash) {
    throw new ApiError({
      errorCode: 'invalid_cursor',
      message: 'The record this cursor stopped at has a new sort value or is gone, and its value was too long to carry in the cursor: start the walk again from the first page.',
    });
  }
  return { createdAt: position.createdAt, id: position.id, key };
}

/** One record by id, or null when the brand has no such record. */
export async function getRecord({ session, families, brandId, family, id, includes }: ReadContext & {
  family: CompiledResource;
  id: string;
  includes: readonly Include[];
}): Promise<Row | null> {
  const found = family.queries.decode(await session.rows(family.queries.one({ brandId, id })));
  if (found.length === 0) return null;
  await loadIncludes({ session, families, brandId, records: found, includes });
  return found[0]!;
}

/**
 * Embeds each requested include in every record: one query per include for
 * the whole page, never one per record. To-one gives an object or null,
 * to-many an array in list order.
 */
async function loadIncludes({ session, families, brandId, records, includes }: ReadContext & {
  records: Row[];
  includes: readonly Include[];
}): Promise<void> {
  // Fetched in parallel, embedded in the order asked for, so equal requests give equal bodies.
  const related = await Promise.all(
    includes.map((include) => {
      const keys = [...new Set(records.map((r) => r[include.localField]).filter((v) => v !== null && v !== undefined))];
      const { queries } = families.get(include.resource)!;
      return keys.length === 0
        ? Promise.resolve([])
        : session.rows(queries.matching({ brandId, field: include.remoteField, values: keys, limit: MAX_INCLUDED_RECORDS + 1 })).then(queries.decode);
    }),
  );
  const tooMany = includes.filter((_, i) => related[i]!.length > MAX_INCLUDED_RECORDS);
  if (tooMany.length > 0) {
    throw invalidParameters(tooMany.map((include) => ({
      parameter: 'include',
      message: `'${include.name}' would embed more than ${MAX_INCLUDED_RECORDS} records: ask for fewer with limit, or list ${include.resource} with a filter`,
    })));
  }
  includes.forEach((include, i) => embed({ include, records, found: related[i]! }));
}

/** To-one: an object or null. To-many: an array in list order, empty when none. */
function embed({ include, records, found }: { include: Include; records: Row[]; found: Row[] }): void {
  if (include.cardinality === 'one') {
    const byKey = new Map(found.map((row) => [row[include.remoteField], row]));
    for (const record of records) record[include.name] = byKey.get(record[include.localField]) ?? null;
    return;
  }
  const byKey = new Map<unknown, Row[]>();
  for (const row of found) {
    const key = row[include.remoteField];
    const list = byKey.get(key);
    if (list) list.push(row);
    else byKey.set(key, [row]);
  }
  for (const record of records) record[include.name] = byKey.get(record[include.localField]) ?? [];
}
