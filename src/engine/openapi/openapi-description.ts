import { ERROR_CODES } from '../request/api-error.ts';
import { DEFAULT_LIMIT, MAX_LIMIT } from '../compile/schemas.ts';

/**
 * The document's `info.description`: what every operation has in common, in
 * a few lines of Markdown. The getting-started page walks through it.
 */
export const API_DESCRIPTION = [
  "Read-only access to one brand's catalog, sourcing, order, shipment, finance and document data.",
  '',
  'New here? Read the [getting-started page](/api/public/v1/docs/getting-started). Guides: [keys](/api/public/v1/docs/keys), [lists](/api/public/v1/docs/pagination) (pages, filters, includes, fields), [asking lists](/api/public/v1/docs/asking-lists) (sort, several values, ranges, counts), [errors](/api/public/v1/docs/errors), [rate limits](/api/public/v1/docs/rate-limits), [keeping a copy in sync](/api/public/v1/docs/syncing). To try an operation here, open **Test Request** and paste your key after `Bearer Token`.',
  '',
  '- **Keys.** Every operation needs `Authorization: Bearer <key>`, with a key allowed for the brand in the path. `npm start` on the demo prints a demo key for `northwind`; an operator creates others with `npm run keys -- create` ([keys](/api/public/v1/docs/keys)).',
  `- **Lists** are pages of \`limit\` records (default ${DEFAULT_LIMIT}, at most ${MAX_LIMIT}) ordered by \`createdAt\`, then \`id\`, as \`{ items, nextCursor, totalItems }\`. Pass \`nextCursor\` back as \`cursor\` with the same filters for the next page; the \`Link\` header carries the same URL. \`nextCursor\` is null on the last page.`,
  '- **Filters** are query parameters, combined with AND; each says how it matches. **Includes** (`include=a,b`) embed related records.',
  '- **Records** always carry every field; a value the data lacks is `null`.',
  `- **Errors** have the body \`{ error, errorCode, details? }\`, with \`errorCode\` one of ${Object.keys(ERROR_CODES).map((code) => `\`${code}\``).join(', ')}.`,
  '- **Keeping a copy in sync**: every family but the brand has a changes feed, `GET /brands/{brand}/<family>/changes`, that returns inserts, updates and deletions since a `syncToken` and never misses one ([guide](/api/public/v1/docs/syncing)); `updatedSince` and `createdSince` filter a list by time, and cannot see late commits or deletions. **Sparse fields**: `fields=id,code` returns only those fields, on lists and single records. Instants are RFC 3339 with their zone; in a query string send an offset\'s `+` as `%2B`.',
  '- **Paths** match exactly: another letter case or a trailing slash is 404.',
  '- **Conditional requests**: every 200 has a strong `ETag`; send it in `If-None-Match` to get 304 with no body, which costs no rate limit. Responses are `Cache-Control: private, no-cache` and vary by `Authorization`.',
  '- **Compression**: bodies of 1 KB or more come in Brotli or gzip when `Accept-Encoding` asks for them (Brotli first at equal weight); responses vary by `Accept-Encoding`. A compressed body\'s `ETag` carries its coding (`"<tag>-br"`), and `If-None-Match` takes the tag of any coding.',
  '- **Rate limits** count requests per key; every response to a key carries the IETF draft\'s structured fields `RateLimit-Policy: "default";q=<requests>;w=<seconds>` and `RateLimit: "default";r=<remaining>;t=<seconds to reset>` (and, deprecated, the earlier draft\'s `RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset`). Past the limit the answer is 429 with `Retry-After` in seconds.',
  '- **Request ids**: every response carries `X-Request-Id` (yours, when you send a plain one); a 500 repeats it in `details.requestId`.',
].join('\n');
