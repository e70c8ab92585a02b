/** Filter values as the server reads them: text, or a number or boolean written plainly. */
export type FilterValue = string | number | boolean;

/**
 * The query string of a request. Filters keep the order given and an
 * `undefined` value is left out, so optional filters can be passed through.
 */
export function buildQuery({ filters, include, fields, limit, cursor, syncToken, wait }: {
  filters?: Readonly<Record<string, FilterValue | undefined>>;
  include?: readonly string[];
  fields?: readonly string[];
  limit?: number;
  cursor?: string | null;
  syncToken?: string | null;
  wait?: number;
}): URLSearchParams {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(filters ?? {})) {
    if (value !== undefined) query.append(name, String(value));
  }
  if (include && include.length > 0) query.append('include', include.join(','));
  if (fields && fields.length > 0) query.append('fields', fields.join(','));
  if (limit !== undefined) query.append('limit', String(limit));
  if (syncToken) query.append('syncToken', syncToken);
  if (cursor) query.append('cursor', cursor);
  if (wait !== undefined) query.append('wait', String(wait));
  return query;
}
