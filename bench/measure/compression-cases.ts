/**
 * What response compression costs and saves (issue 19, item 4), measured on
 * the server alone: the floor sends no compressed bodies. Each request is
 * asked without `Accept-Encoding` (as the floor's cases are: autocannon
 * sends none), with gzip and with Brotli.
 */
export const COMPRESSION_CASE_NAMES = ['compression'] as const;
export type CompressionCaseName = (typeof COMPRESSION_CASE_NAMES)[number];

/** The codings a case is asked in, and the `Accept-Encoding` each sends (none for identity). */
export const ASKED_CODINGS = ['identity', 'gzip', 'br'] as const;
export type AskedCoding = (typeof ASKED_CODINGS)[number];

/** The requests measured in every coding: a list page of 100 and a get by id, both of the big brand's products. */
export const COMPRESSION_REQUESTS = ['list-page-100', 'get-by-id'] as const;
export type CompressionRequest = (typeof COMPRESSION_REQUESTS)[number];

export const COMPRESSION_REQUEST_TITLES: Readonly<Record<CompressionRequest, string>> = Object.freeze({
  'list-page-100': 'list page of 100 (the first 20 pages of the big brand)',
  'get-by-id': 'get by id (300 products of the big brand)',
});

/** Paths per request whose bodies are fetched once in each coding to weigh them. */
export const WEIGHED_PATHS = 20;
