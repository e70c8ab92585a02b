import { expect } from 'chai';
import type { Resource } from '../../src/engine/definition/resource.ts';
import type { RawResponse } from '../support/raw-request.ts';
import { shorten } from './fuzz-http.ts';
import { documentProblems, errorBodyProblems, sparseRecordProblems } from './openapi-schemas.ts';

/**
 * What every answer must be (CONTRACT.md §3, §4, §6, §8): a status the case
 * allows, a JSON body, the exact error body for an error, the exact list,
 * changes or counts envelope or record for a 200, each as the published OpenAPI
 * document describes it (openapi-schemas.ts); a 304 with no body.
 */

/** What each status may carry as `errorCode` (CONTRACT.md §4); 400 only the parameter and cursor codes. */
export const CODES_BY_STATUS: Readonly<Record<number, readonly string[]>> = {
  400: ['invalid_parameter', 'unsupported_include', 'invalid_cursor', 'cursor_mismatch'],
  401: ['unauthorized'],
  404: ['not_found'],
  405: ['method_not_allowed'],
  // What Node's HTTP parser refuses before the app: headers too slow, too large (client-error.ts).
  408: ['invalid_parameter'],
  429: ['rate_limited'],
  431: ['invalid_parameter'],
};

/** A one-line description of a response for assertion messages. */
export function describeResponse(path: string, response: RawResponse): string {
  return `GET ${shorten(path)} -> ${response.status} ${shorten(response.text, 600)}`;
}

/**
 * The status is one of `statuses`, and a non-200 carries the contract's error
 * body: exactly `{ error, errorCode, details? }`, a non-empty message, a code
 * of that status (and of `codes` when given), `details` of a 400
 * `invalid_parameter` or `unsupported_include` listing `{ parameter, message }`.
 */
export function expectAnswer({ path, response, statuses, codes }: { path: string; response: RawResponse; statuses: readonly number[]; codes?: readonly string[] }): void {
  const what = describeResponse(path, response);
  expect(response.status, `status of ${what}`).to.be.oneOf([...statuses]);
  if (response.status === 304) {
    // Not modified: no body, and the tag it revalidated.
    expect(response.text, `body of ${what}`).to.equal('');
    expect(response.headers.etag, `ETag of ${what}`).to.be.a('string');
    return;
  }
  expect(String(response.headers['content-type']), `content type of ${what}`).to.match(/^application\/json/);
  expect(response.body, `JSON body of ${what}`).to.be.an('object');
  if (response.status === 200) return;
  expectErrorBody({ what, body: response.body as Record<string, unknown>, status: response.status, codes });
}

export function expectErrorBody({ what, body, status, codes }: { what: string; body: Record<string, unknown>; status: number; codes?: readonly string[] }): void {
  expect(errorBodyProblems(body), `error body of ${what} against the document`).to.equal(null);
  const keys = Object.keys(body).sort();
  expect(keys.filter((key) => key !== 'details'), `error body keys of ${what}`).to.deep.equal(['error', 'errorCode']);
  expect(body.error, `error message of ${what}`).to.be.a('string').and.not.equal('');
  expect(body.errorCode, `errorCode of ${what}`).to.be.oneOf([...(CODES_BY_STATUS[status] ?? [])]);
  if (codes) expect(body.errorCode, `errorCode of ${what}`).to.be.oneOf([...codes]);
  if (body.errorCode === 'invalid_parameter' || body.errorCode === 'unsupported_include') {
    const details = body.details as unknown[];
    expect(details, `details of ${what}`).to.be.an('array').that.is.not.empty;
    for (const issue of details) {
      expect(issue, `an issue of ${what}`).to.be.an('object');
      expect(Object.keys(issue as object).sort(), `issue keys of ${what}`).to.deep.equal(['message', 'parameter']);
      expect((issue as Record<string, unknown>).parameter, `issue parameter of ${what}`).to.be.a('string');
      expect((issue as Record<string, unknown>).message, `issue message of ${what}`).to.be.a('string').and.not.equal('');
    }
  }
}

/** The parameters a 400 `invalid_parameter` names. */
export function namedParameters(response: RawResponse): string[] {
  const details = (response.body as { details?: { parameter: string }[] } | null)?.details;
  return Array.isArray(details) ? details.map((issue) => issue.parameter) : [];
}

/**
 * A record as the query asked for it, as the published document describes
 * it: the family's whole record schema (includes are optional properties of
 * it) without `fields`; with `fields`, exactly the fields named (and the
 * includes asked for), each as its property's schema allows.
 */
export function expectRecord({ what, record, resource, query }: { what: string; record: unknown; resource: Resource; query: URLSearchParams }): void {
  expect(record, `a record of ${what}`).to.be.an('object');
  const fields = query.get('fields');
  const problem = fields === null
    ? documentProblems({ family: resource.path, kind: 'record', value: record })
    : sparseRecordProblems({ family: resource.path, record: record as Record<string, unknown>, fields: fields.split(',').map((field) => field.trim()) });
  expect(problem, `record of ${what}: ${shorten(JSON.stringify(record))}`).to.equal(null);
  const allowed = new Set([...resource.recordFields.map((field) => field.name), ...resource.includes.map((include) => include.name)]);
  const stray = Object.keys(record as object).filter((key) => !allowed.has(key));
  expect(stray, `keys of a record of ${what}`).to.deep.equal([]);
}

/**
 * A list page: exactly `{ items, nextCursor, totalItems }`, no more items than
 * the limit, a total at least the page, `Link: rel="next"` exactly when there
 * is a next cursor, and every item a record of the family.
 */
export function expectListPage({ path, response, resource }: { path: string; response: RawResponse; resource: Resource }): void {
  const what = describeResponse(path, response);
  const query = queryOf(path);
  const body = response.body as Record<string, unknown>;
  expect(Object.keys(body).sort(), `list envelope of ${what}`).to.deep.equal(['items', 'nextCursor', 'totalItems']);
  const items = body.items as unknown[];
  expect(items, `items of ${what}`).to.be.an('array');
  expect(body.nextCursor === null || typeof body.nextCursor === 'string', `nextCursor of ${what}`).to.equal(true);
  expect(Number.isSafeInteger(body.totalItems) && (body.totalItems as number) >= 0, `totalItems of ${what}`).to.equal(true);
  const limit = query.has('limit') ? Number(query.get('limit')) : 25;
  expect(items.length, `page size of ${what}`).to.be.at.most(limit);
  expect(body.totalItems as number, `totalItems against the page of ${what}`).to.be.at.least(items.length);
  expect(response.headers.link !== undefined, `Link header exactly with a next cursor: ${what}`).to.equal(body.nextCursor !== null);
  for (const item of items) expectRecord({ what, record: item, resource, query });
  if (!query.has('fields')) expect(documentProblems({ family: resource.path, kind: 'list', value: body }), `page of ${what} against the document`).to.equal(null);
}

/**
 * A changes page (CONTRACT.md §6): exactly `{ items, nextCursor, syncToken }`,
 * a token exactly on the last page, `Link` exactly with a next cursor, each
 * item an upsert of a record or a delete with a null record.
 */
export function expectChangesPage({ path, response, resource }: { path: string; response: RawResponse; resource: Resource }): void {
  const what = describeResponse(path, response);
  const query = queryOf(path);
  const body = response.body as Record<string, unknown>;
  expect(Object.keys(body).sort(), `changes envelope of ${what}`).to.deep.equal(['items', 'nextCursor', 'syncToken']);
  expect((body.nextCursor === null) !== (body.syncToken === null), `exactly one of nextCursor and syncToken: ${what}`).to.equal(true);
  expect(response.headers.link !== undefined, `Link header exactly with a next cursor: ${what}`).to.equal(body.nextCursor !== null);
  for (const item of body.items as { change: string; id: string; record: unknown }[]) {
    expect(Object.keys(item).sort(), `a change of ${what}`).to.deep.equal(['change', 'id', 'record']);
    if (item.change === 'delete') expect(item.record, `a delete of ${what}`).to.equal(null);
    else expectRecord({ what, record: item.record, resource, query });
  }
  if (!query.has('fields')) expect(documentProblems({ family: resource.path, kind: 'changes', value: body }), `page of ${what} against the document`).to.equal(null);
}

/** The most values a counts body lists (CONTRACT.md §8). */
export const MAX_COUNTED = 1000;

/**
 * A counts body (CONTRACT.md §8): exactly `{ by, counts, otherItems,
 * totalItems }`, `by` the field asked for, at most `MAX_COUNTED` values,
 * each once, each `{ value, count }` with a count of at least 1, the largest
 * counts first, null last among equal counts, `otherItems` 0 unless the
 * list is full, `totalItems` the counts' sum plus `otherItems`; a value
 * written as a record writes the field (the published document says how).
 * Returns the body.
 */
export function expectCountsBody({ path, response, resource }: { path: string; response: RawResponse; resource: Resource }): { by: string; counts: { value: unknown; count: number }[]; otherItems: number; totalItems: number } {
  const what = describeResponse(path, response);
  const body = response.body as Record<string, unknown>;
  expect(Object.keys(body).sort(), `counts body of ${what}`).to.deep.equal(['by', 'counts', 'otherItems', 'totalItems']);
  expect(body.by, `by of ${what}`).to.equal(queryOf(path).get('by'));
  const counts = body.counts as { value: unknown; count: number }[];
  expect(counts, `counts of ${what}`).to.be.an('array');
  expect(counts.length, `number of counts of ${what}`).to.be.at.most(MAX_COUNTED);
  for (const entry of counts) {
    expect(entry, `a count of ${what}`).to.be.an('object');
    expect(Object.keys(entry).sort(), `a count of ${what}`).to.deep.equal(['count', 'value']);
    expect(Number.isSafeInteger(entry.count) && entry.count >= 1, `count ${JSON.stringify(entry)} of ${what}`).to.equal(true);
  }
  const values = counts.map((entry) => JSON.stringify(entry.value));
  expect(new Set(values).size, `each value once in ${what}`).to.equal(values.length);
  for (let at = 1; at < counts.length; at += 1) {
    const [before, after] = [counts[at - 1]!, counts[at]!];
    expect(before.count, `largest counts first in ${what}`).to.be.at.least(after.count);
    if (before.count === after.count) expect(before.value, `null last among equal counts in ${what}`).to.not.equal(null);
  }
  const { otherItems, totalItems } = body as { otherItems: number; totalItems: number };
  expect(Number.isSafeInteger(otherItems) && otherItems >= 0, `otherItems of ${what}`).to.equal(true);
  if (otherItems > 0) expect(counts.length, `otherItems only past ${MAX_COUNTED} values: ${what}`).to.equal(MAX_COUNTED);
  expect(totalItems, `totalItems is the counts' sum plus otherItems: ${what}`).to.equal(counts.reduce((sum, entry) => sum + entry.count, 0) + otherItems);
  expect(documentProblems({ family: resource.path, kind: 'counts', value: body }), `counts of ${what} against the document`).to.equal(null);
  return body as ReturnType<typeof expectCountsBody>;
}

/** The query of a path as the server reads it (WHATWG form decoding, as Koa does). */
export function queryOf(path: string): URLSearchParams {
  const at = path.indexOf('?');
  return new URLSearchParams(at < 0 ? '' : path.slice(at + 1));
}
