import type { CompiledResource } from '../compile/compile-registry.ts';
import { COUNTS_COLUMNS } from '../compile/counts-query.ts';
import { FIELD_TYPES } from '../compile/field-types.ts';
import type { Field } from '../definition/resource.ts';
import { hashFilters } from '../request/cursor-codec.ts';
import type { ReadSession } from './reads.ts';

/** A counts request after validation (CONTRACT.md §8). */
export interface CountsRequest {
  readonly by: Field;
  /** Validated filter values by parameter name, as a list's (`ListRequest.filters`). */
  readonly filters: Readonly<Record<string, unknown>>;
}

/** The counts body, exactly as the contract writes it. */
export interface CountsBody {
  readonly by: string;
  readonly counts: { readonly value: unknown; readonly count: number }[];
  readonly otherItems: number;
  readonly totalItems: number;
}

/**
 * How many matching records each value of a field has. The statement
 * (compile/counts-query.ts) gives the largest counts and the total; the
 * session remembers them as it remembers a first page's total, keyed by the
 * family, the field, the brand and the filters, and counts again only when a
 * row they may read has changed since (`ReadSession.counts`).
 */
export async function countRecords({ session, family, brandId, request }: {
  session: ReadSession;
  family: CompiledResource;
  brandId: string;
  request: CountsRequest;
}): Promise<CountsBody> {
  const { by, filters } = request;
  const key = `${family.resource.path}\u0000counts\u0000${by.name}\u0000${brandId}\u0000${hashFilters(filters)}`;
  const rows = await session.counts(key, family.queries.counts({ brandId, filters, by }));
  const { decode } = FIELD_TYPES[by.type];
  const counts = rows
    .filter((row) => row[COUNTS_COLUMNS.count] !== null)
    .map((row) => {
      const value = row[COUNTS_COLUMNS.value];
      return { value: decode && typeof value === 'string' ? decode(value) : value ?? null, count: row[COUNTS_COLUMNS.count] as number };
    });
  const totalItems = counts.length === 0 ? 0 : (rows[0]![COUNTS_COLUMNS.total] as number);
  const listed = counts.reduce((sum, entry) => sum + entry.count, 0);
  return { by: by.name, counts, otherItems: totalItems - listed, totalItems };
}
