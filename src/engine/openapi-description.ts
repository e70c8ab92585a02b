import { ERROR_CODES } from './errors.ts';
import { DEFAULT_LIMIT, MAX_LIMIT } from './schema.ts';

/**
 * The document's `info.description`: what every operation has in common, in
 * a few lines of Markdown. The getting-started page walks through it.
 */
export const API_DESCRIPTION = [
  "Read-only access to one brand's catalog, sourcing, order, shipment, finance and document data.",
  '',
  'New here? Read the [getting-started page](/api/public/v1/docs/getting-started).',
  '',
  '- **Keys.** Every operation needs `Authorization: Bearer <key>`, with a key allowed for the brand in the path.',
  `- **Lists** are pages of \`limit\` records (default ${DEFAULT_LIMIT}, at most ${MAX_LIMIT}) ordered by \`createdAt\`, then \`id\`, as \`{ items, nextCursor, totalItems }\`. Pass \`nextCursor\` back as \`cursor\` with the same filters for the next page; the \`Link\` header carries the same URL. \`nextCursor\` is null on the last page.`,
  '- **Filters** are query parameters, combined with AND; each says how it matches. **Includes** (`include=a,b`) embed related records.',
  '- **Records** always carry every field; a value the data lacks is `null`.',
  `- **Errors** have the body \`{ error, errorCode, details? }\`, with \`errorCode\` one of ${Object.keys(ERROR_CODES).map((code) => `\`${code}\``).join(', ')}.`,
  '- **Rate limits** count requests per key; past the limit the answer is 429 with `Retry-After` in seconds.',
].join('\n');
