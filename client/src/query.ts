/** One filter value as the server reads it: text, or a number or boolean written plainly. */
export type FilterScalar = string | number | boolean;

/** The bounds of a range (`createdAt[gte]=...`), any of them. */
export interface RangeBounds {
  readonly gte?: FilterScalar;
  readonly gt?: FilterScalar;
  readonly lte?: FilterScalar;
  readonly lt?: FilterScalar;
}

/** A filter's value: one, several (any of them matches), or the bounds of a range. */
export type FilterValue = FilterScalar | readonly FilterScalar[] | RangeBounds;

const BOUNDS = ['gte', 'gt', 'lte', 'lt'] as const;

/**
 * The query string of a request. Filters keep the order given and an
 * `undefined` value is left out, so optional filters can be passed through.
 * Several values of a filter repeat it (`status=a&status=b`); a range is its
 * bounds in brackets (`createdAt[gte]=...&createdAt[lt]=...`).
 */
export function buildQuery({ filters, sort, by, include, fields, limit, cursor, syncToken, wait }: {
  filters?: Readonly<Record<string, FilterValue | undefined>>;
  sort?: string;
  by?: string;
  include?: readonly string[];
  fields?: readonly string[];
  limit?: number;
  cursor?: string | null;
  syncToken?: string | null;
  wait?: number;
}): URLSearchParams {
  const query = new URLSearchParams();
  if (by !== undefined) query.append('by', by);
  for (const [name, value] of Object.entries(filters ?? {})) {
    if (value === undefined) continue;
    if (Array.isArray(value)) {
      for (const each of value as readonly FilterScalar[]) query.append(name, String(each));
    } else if (typeof value === 'object' && value !== null) {
      for (const bound of BOUNDS) {
        const limit = (value as RangeBounds)[bound];
        if (limit !== undefined) query.append(`${name}[${bound}]`, String(limit));
      }
    } else {
      query.append(name, String(value));
    }
  }
  if (sort !== undefined) query.append('sort', sort);
  if (include && include.length > 0) query.append('include', include.join(','));
  if (fields && fields.length > 0) query.append('fields', fields.join(','));
  if (limit !== undefined) query.append('limit', String(limit));
  if (syncToken) query.append('syncToken', syncToken);
  if (cursor) query.append('cursor', cursor);
  if (wait !== undefined) query.append('wait', String(wait));
  return query;
}
