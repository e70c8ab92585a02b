import { expect } from 'chai';
import fc from 'fast-check';
import type { JsonSchema } from '../../src/engine/compile/field-types.ts';
import { filterSchemas } from '../../src/engine/compile/schemas.ts';
import type { Filter, Resource } from '../../src/engine/definition/resource.ts';
import { acceptsParameter, validParameterValue } from '../support/record-factory.ts';
import type { RawResponse } from '../support/raw-request.ts';
import { useServer } from '../support/use-server.ts';
import { describeResponse, expectAnswer, expectCountsBody, expectListPage, namedParameters, queryOf } from './contract-checks.ts';
import { bearer, send, shorten } from './fuzz-http.ts';
import { fuzzEach, fuzzIt } from './fuzz-run.ts';
import { fuzzData, listPath, type FuzzData } from './fuzz-world.ts';
import {
  BOUND_TEXT, BRACKET_MANGLINGS, EDGE_BOUNDS, encodeAll, encodeStrict, hostileText, isSendable, MAX_WIRE_LENGTH, OUT_OF_RANGE_BOUNDS, SORT_MANGLINGS,
  type RangeType,
} from './hostile-values.ts';
import { expectedCounts, fieldOfColumn, inSortOrder, isExactBound, matchesQuery, oracleAnswers, oracleKnows } from './question-oracle.ts';
import { expectedQueryOutcome, MAX_ANY_OF, oneValueSchema, sortValues, type RouteKind } from './query-outcome.ts';
import { countsVocabulary, INTERNAL_NAMES, queryArbitrary } from './query-strings.ts';
import { QUESTION_FEATURES, questionData, type QuestionData } from './question-world.ts';

/**
 * Issue 9, item "Hostile input": the questions a list answers since
 * CONTRACT.md §8 (`sort`, an exact filter given several times, range
 * bounds `<field>[gte|gt|lte|lt]`, and `GET .../<path>/counts?by=`) under
 * hostile query strings, on every family (cheap sweeps) and in depth on a
 * few families chosen from the registry for what they declare
 * (question-world.ts: a range and a sort of each type, a shared family,
 * nothing countable...), whose brand holds records with the values at the
 * edges of what Postgres stores.
 *
 * - Bound names written wrong (`createdAt[gte][x]`, `createdAt[[gte]]`,
 *   `createdAt[gte`, `createdAt]gte[`, `createdAt[GTE]`, `createdAt[eq]`...)
 *   and bound values out of range for their type (years 10000 and -4713,
 *   `NaN`, `1e400`, `Infinity`, 200 digits, past int32, 21 fraction
 *   digits, no time zone) are 400 `invalid_parameter` naming the parameter.
 * - An exact filter takes up to 100 values, each in its rule; 101 is 400.
 * - `sort` with spaces, two `-`, a `+`, another case, an unknown field,
 *   empty or given twice is 400 naming `sort` (a value it does not take
 *   with the sorts it takes in the message).
 * - Counts: `by` missing, unknown, repeated or not countable, and any of
 *   `cursor`, `limit`, `sort`, `include`, `fields`, are 400 naming each;
 *   random query strings from all of Unicode (query-strings.ts) answer as
 *   `expectedQueryOutcome` says. A changes feed takes neither `sort`, nor
 *   a bound, nor `by`.
 * - Never a 5xx; an error body is exactly `{ error, errorCode, details }`
 *   and `details` names exactly the offending parameters.
 * - A valid question is 200 with the list page or the counts body whose
 *   content is what the planted records say (question-oracle.ts): the
 *   records that match, in the sort's order, walked page by page through
 *   `Link` (which keeps the sort) to exactly the expected records; a
 *   cursor given another sort is 400 `cursor_mismatch`; the counts exactly
 *   the expected values and counts, `totalItems` their sum plus
 *   `otherItems`, and the same total as the list's.
 */

const BOUNDS = ['gte', 'gt', 'lte', 'lt'] as const;

/** Bounds of each type near the values planted (question-world.ts) and at the edges; each used only where the parameter's rule takes it. */
const BOUND_CANDIDATES: Readonly<Record<RangeType, readonly string[]>> = {
  timestamp: [
    ...EDGE_BOUNDS.timestamp, '2026-03-01T09:30:00.123456Z', '2026-03-01T09:30:00.123455Z', '2026-03-01T09:30:00.123457Z', '2026-03-01T09:30:00.123458Z',
    '2026-03-01T09:30:00.123Z', '2026-03-01T10:30:00.123456+01:00', '2026-03-01T09:30:00.1234565Z', '1999-12-31T23:59:59.999999Z', '2000-01-01T00:00:00Z',
    '2026-03-01T09:30:01Z', '0001-01-01T00:00:00Z', '2026-03-01 04:30:00.123457-05:00',
  ],
  date: [...EDGE_BOUNDS.date, '2026-03-02', '2026-02-28'],
  integer: [...EDGE_BOUNDS.integer, '5', '4', '6', '42', '2147483646'],
  decimal: [...EDGE_BOUNDS.decimal, '12.5', '12.49999999999999999999', '12.50000000000000000001', '0.00000000000000000001', '99999999999999999999.99999999999999999999', '-12.51'],
};

/** A query parameter as the test means it: a name, and a value or none (`name` with no `=`). */
type Pair = readonly [name: string, value: string | null];
type BracketStyle = 'raw' | 'upper' | 'lower' | 'half';
const BRACKET_STYLES: readonly BracketStyle[] = ['raw', 'upper', 'lower', 'half'];

/** A name on the wire, strictly percent-encoded, its brackets raw, encoded, encoded in lower-case hex, or only the opening one encoded (Koa decodes all four). */
function wireName(name: string, style: BracketStyle): string {
  const strict = encodeStrict(name);
  if (style === 'upper') return strict;
  if (style === 'lower') return strict.replace(/%5B/g, '%5b').replace(/%5D/g, '%5d');
  if (style === 'half') return strict.replace(/%5D/g, ']');
  return strict.replace(/%5B/g, '[').replace(/%5D/g, ']');
}

/** The query string of pairs: names in a bracket style, values strictly encoded. */
function wireQuery(pairs: readonly Pair[], style: BracketStyle = 'raw'): string {
  if (pairs.length === 0) return '';
  return `?${pairs.map(([name, value]) => (value === null ? wireName(name, style) : `${wireName(name, style)}=${encodeStrict(value)}`)).join('&')}`;
}

/** What one question is: a family, the route, the brand (`home` for sweeps of every family, `rich` for the chosen ones), and the query on the wire. */
interface Question {
  readonly family: string;
  readonly route: 'list' | 'counts';
  readonly brand: 'home' | 'rich';
  readonly query: string;
  /** Follow `Link` to the last page (a 200 list of the rich brand). */
  readonly walk?: boolean;
}

/** A value now and then: present with weight `present`, null with weight `absent`. */
const maybe = <T>(arbitrary: fc.Arbitrary<T>, present: number, absent: number): fc.Arbitrary<T | null> =>
  fc.oneof({ weight: present, arbitrary }, { weight: absent, arbitrary: fc.constant(null) });

const rangeType = (filter: Filter): RangeType => filter.targets[0]!.type as RangeType;
const isBound = (filter: Filter): boolean => (BOUNDS as readonly string[]).includes(filter.match);

describe('fuzz: list questions (sort, any of, ranges, counts)', function () {
  this.timeout(240_000);
  let data: FuzzData;
  let rich: QuestionData;

  before(async function () {
    this.timeout(240_000);
    data = await fuzzData();
    rich = await questionData(data.families);
  });
  const server = useServer();

  const family = (path: string): Resource => data.families.find((resource) => resource.path === path)!;
  const brandSlug = (brand: Question['brand']): string => (brand === 'home' ? data.home.slug : rich.brand.slug);
  const keyOf = (brand: Question['brand']): string => (brand === 'home' ? data.key : rich.key);
  const routePath = (resource: Resource, route: Question['route'], brand: Question['brand']): string =>
    `${listPath(brandSlug(brand), resource)}${route === 'counts' ? '/counts' : ''}`;

  async function get(path: string, brand: Question['brand']): Promise<RawResponse> {
    expect(isSendable(path), `the generator made an unsendable path: ${path}`).to.equal(true);
    expect(path.length, `the generator made a path too long: ${shorten(path)}`).to.be.at.most(MAX_WIRE_LENGTH + 200);
    return send({ origin: server.origin, path, headers: bearer(keyOf(brand)) });
  }

  // ---- Valid values, from the registry and the planted pools ----

  const exactCache = new Map<string, string[]>();
  /** Valid values of one exact filter: short ones its rule takes, the planted pools' among them. */
  function exactValues(resource: Resource, name: string): string[] {
    const id = `${resource.path} ${name}`;
    let values = exactCache.get(id);
    if (!values) {
      values = findExactValues(resource, name);
      exactCache.set(id, values);
    }
    return values;
  }

  function findExactValues(resource: Resource, name: string): string[] {
    const schema = oneValueSchema(filterSchemas(resource)[name] as JsonSchema);
    const planted = (rich.planted.get(resource.path) ?? []).flatMap((record) => {
      const filter = resource.filters.find((candidate) => candidate.name === name)!;
      const field = oracleKnows(resource, filter) ? fieldOfColumn(resource, filter.targets[0]!.column) : null;
      return field && record[field.name] !== null && record[field.name] !== undefined ? [String(record[field.name])] : [];
    });
    const candidates = [validParameterValue(schema), ...planted, ...rich.uuids, 'a', 'B', 'é', '%_', 'Z z', 'x'];
    return [...new Set(candidates)].filter((value) => value.length <= 40 && acceptsParameter(schema, value));
  }

  /** A valid bound of a range filter: near the planted values, at the edges, or random; `exact` keeps those the oracle places exactly. */
  function boundValue(resource: Resource, filter: Filter, exact: boolean): fc.Arbitrary<string> {
    const schema = filterSchemas(resource)[filter.name] as JsonSchema;
    const type = rangeType(filter);
    const fits = (value: string): boolean => acceptsParameter(schema, value) && (!exact || isExactBound(type, value));
    const known = BOUND_CANDIDATES[type].filter(fits);
    expect(known, `valid bounds for ${filter.name} of ${resource.path}`).to.not.be.empty;
    return fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...known) }, { weight: 1, arbitrary: BOUND_TEXT[type].filter(fits) });
  }

  /** Filters a question of the rich brand may carry: those the oracle answers. */
  const oracleFilters = (resource: Resource): Filter[] =>
    resource.filters.filter((filter) => oracleKnows(resource, filter) && (filter.match === 'exact' ? exactValues(resource, filter.name).length > 0 : true));

  /**
   * Valid parameters for a route of a family, each name once (an exact
   * filter with one to four values): filters and bounds, and on a list
   * `sort`, `limit`, `fields` (with `id`, so the oracle can tell records
   * apart) and `include`; on counts a valid `by`.
   */
  function validPairs(resource: Resource, route: Question['route'], { exact, limits = ['1', '2', '3', '25', '100'] }: { exact: boolean; limits?: readonly string[] }): fc.Arbitrary<Pair[]> {
    const filters = exact ? oracleFilters(resource) : resource.filters.filter((filter) => filter.match === 'exact' || filter.match === 'since' || isBound(filter));
    const usable = filters.filter((filter) => filter.match !== 'exact' || exactValues(resource, filter.name).length > 0);
    const filterPairs = (filter: Filter): fc.Arbitrary<Pair[]> => {
      if (filter.match === 'exact') {
        return fc.array(fc.constantFrom(...exactValues(resource, filter.name)), { minLength: 1, maxLength: 4 }).map((values) => values.map((value) => [filter.name, value] as const));
      }
      if (filter.match === 'since') {
        const type = filter.targets[0]!.type as RangeType;
        return fc.constantFrom(...BOUND_CANDIDATES[type].filter((value) => acceptsParameter(filterSchemas(resource)[filter.name] as JsonSchema, value) && (!exact || isExactBound(type, value))))
          .map((value) => [[filter.name, value] as const]);
      }
      return boundValue(resource, filter, exact).map((value) => [[filter.name, value] as const]);
    };
    const chosenFilters = usable.length === 0
      ? fc.constant([] as Pair[])
      : fc.uniqueArray(fc.constantFrom(...usable), { maxLength: 3 }).chain((chosen) => (chosen.length === 0 ? fc.constant([] as Pair[][]) : fc.tuple(...chosen.map(filterPairs)))).map((groups) => groups.flat());
    const fieldNames = resource.recordFields.map((field) => field.name).filter((name) => name !== 'id');
    const includeNames = resource.includes.map((include) => include.name);
    const listOnly: fc.Arbitrary<Pair[]> = fc.record({
      sort: maybe(fc.constantFrom(...sortValues(resource)), 1, 1),
      limit: maybe(fc.constantFrom(...limits), 2, 1),
      fields: maybe(fc.subarray(fieldNames, { maxLength: 3 }).map((names) => ['id', ...names].join(',')), 1, 3),
      include: includeNames.length > 0 ? maybe(fc.constantFrom(...includeNames), 1, 3) : fc.constant(null),
    }).map((chosen) => Object.entries(chosen).flatMap(([name, value]) => (value === null ? [] : [[name, value] as const])));
    const own = route === 'list'
      ? listOnly
      : resource.countable.length === 0
        ? fc.constant<Pair[]>([])
        : fc.constantFrom(...resource.countable.map((field) => field.name)).map((by): Pair[] => [['by', by]]);
    return fc.tuple(own, chosenFilters).map(([a, b]) => [...a, ...b]);
  }

  /** Pairs in a random order (the order given must not matter). */
  const shuffled = (pairs: fc.Arbitrary<Pair[]>): fc.Arbitrary<Pair[]> =>
    pairs.chain((all) => fc.shuffledSubarray(all, { minLength: all.length, maxLength: all.length }));

  // ---- The checks ----

  /**
   * Sends a question and checks the answer against the contract: the
   * status and error code `expectedQueryOutcome` works out, `details`
   * naming exactly the offending parameters, a 200's page or counts body,
   * and on the rich brand what the planted records say. Returns the
   * outcome (`200 list`, `200 counts`, `400 <errorCode>`).
   */
  async function expectQuestionAnswer(question: Question): Promise<string> {
    return (await askQuestion(question)).outcome;
  }

  async function askQuestion(question: Question): Promise<{ outcome: string; response: RawResponse; path: string }> {
    const resource = family(question.family);
    const path = `${routePath(resource, question.route, question.brand)}${question.query}`;
    const response = await get(path, question.brand);
    return { outcome: await checkAnswer({ question, resource, path, response }), response, path };
  }

  async function checkAnswer({ question, resource, path, response }: { question: Question; resource: Resource; path: string; response: RawResponse }): Promise<string> {
    expectAnswer({ path, response, statuses: [200, 400] });
    const query = queryOf(path);
    const noCounts = question.route === 'counts' && resource.countable.length === 0;
    const what = describeResponse(path, response);
    if (noCounts) {
      // A family that counts nothing refuses any `by`, naming it with whatever else is wrong (no value of `by` is countable).
      const expected = expectedQueryOutcome({ resource, query, route: 'counts' });
      expect(response.status, `status: ${what}`).to.equal(400);
      expect(response.body.errorCode, `errorCode: ${what}`).to.equal('invalid_parameter');
      const named = expected.status === 400 && expected.errorCode === 'invalid_parameter' ? expected.parameters : [];
      expect(new Set(namedParameters(response)), `details name exactly the offending parameters: ${what}`).to.deep.equal(new Set([...named, 'by']));
      return '400 nothing countable';
    }
    const expected = expectedQueryOutcome({ resource, query, route: question.route });
    if (expected.status === 400) {
      expect(response.status, `status (expected ${JSON.stringify(expected)}): ${what}`).to.equal(400);
      expect(response.body.errorCode, `errorCode: ${what}`).to.equal(expected.errorCode);
      if (expected.errorCode === 'invalid_parameter') {
        expect(Object.keys(response.body).sort(), `error body: ${what}`).to.deep.equal(['details', 'error', 'errorCode']);
        expect(new Set(namedParameters(response)), `details name exactly the offending parameters: ${what}`).to.deep.equal(new Set(expected.parameters));
      }
      return `400 ${expected.errorCode}`;
    }
    expect(response.status, `status (expected 200): ${what}`).to.equal(200);
    if (question.route === 'counts') {
      const body = expectCountsBody({ path, response, resource });
      await expectCountsHold({ resource, query, body, brand: question.brand, what });
      return '200 counts';
    }
    expectListPage({ path, response, resource });
    if (question.brand === 'rich') await expectPageHolds({ resource, path, response, walk: question.walk ?? false });
    return query.has('sort') ? '200 sorted list' : '200 list';
  }

  /** The query without the names that do not filter: what a list and counts of the same records share. */
  function filtersOf(query: URLSearchParams, resource: Resource): Pair[] {
    const names = new Set(resource.filters.map((filter) => filter.name));
    return [...query.entries()].filter(([name]) => names.has(name));
  }

  /** The planted records of the rich brand that match the query's filters. */
  function matching(resource: Resource, query: URLSearchParams): { records: Record<string, unknown>[]; exact: boolean } {
    const planted = rich.planted.get(resource.path) ?? [];
    return { records: planted.filter((record) => matchesQuery({ resource, record, query, ranks: rich.ranks })), exact: resource.scope === 'brand' };
  }

  /**
   * A counts body of the rich brand is exactly the planted records' counts
   * (a shared family also counts rows no brand owns: at least them); of
   * any brand, `totalItems` is the list's with the same filters.
   */
  async function expectCountsHold({ resource, query, body, brand, what }: {
    resource: Resource;
    query: URLSearchParams;
    body: ReturnType<typeof expectCountsBody>;
    brand: Question['brand'];
    what: string;
  }): Promise<void> {
    if (brand === 'rich' && oracleAnswers(resource, query)) {
      const { records, exact } = matching(resource, query);
      const field = resource.countable.find((candidate) => candidate.name === query.get('by'))!;
      const expected = expectedCounts({ records, field, ranks: rich.ranks });
      if (exact) {
        expect(body.counts, `counts of the planted records: ${what}`).to.deep.equal(expected);
        expect(body.totalItems, `totalItems of the planted records: ${what}`).to.equal(records.length);
      } else {
        for (const entry of expected) {
          const found = body.counts.find((candidate) => JSON.stringify(candidate.value) === JSON.stringify(entry.value));
          expect(found?.count ?? 0, `the count of ${JSON.stringify(entry.value)} at least the planted records': ${what}`).to.be.at.least(entry.count);
        }
      }
    }
    const listQuery = `${routePath(resource, 'list', brand)}${wireQuery(filtersOf(query, resource), 'upper')}`;
    const list = await get(listQuery, brand);
    expectAnswer({ path: listQuery, response: list, statuses: [200] });
    expect(body.totalItems, `counts' totalItems against the list's (${describeResponse(listQuery, list)}): ${what}`).to.equal(list.body.totalItems);
  }

  /**
   * A page of the rich brand: the planted records that match, in the
   * sort's order, the page size at most the limit, `totalItems` their
   * number (a shared family lists other rows too: the planted ones among
   * them, in order, and a total at least theirs). With `walk`, every page
   * through `Link`, which keeps the query, to exactly the expected records,
   * and a cursor given another sort is 400 `cursor_mismatch`.
   */
  async function expectPageHolds({ resource, path, response, walk }: { resource: Resource; path: string; response: RawResponse; walk: boolean }): Promise<void> {
    const query = queryOf(path);
    if (!oracleAnswers(resource, query)) return;
    const { records, exact } = matching(resource, query);
    const expected = inSortOrder({ resource, records, sort: query.get('sort'), ranks: rich.ranks }).map((record) => record.id as string);
    const planted = new Set((rich.planted.get(resource.path) ?? []).map((record) => record.id as string));
    const limit = Number(query.get('limit') ?? 25);
    const what = describeResponse(path, response);
    const ids = (page: RawResponse): string[] => (page.body.items as { id: string }[]).map((item) => item.id);
    if (exact) {
      expect(ids(response), `the first page: ${what}`).to.deep.equal(expected.slice(0, limit));
      expect(response.body.totalItems, `totalItems: ${what}`).to.equal(expected.length);
      expect(response.body.nextCursor === null, `a next cursor exactly when more records match: ${what}`).to.equal(expected.length <= limit);
    } else {
      expect(response.body.totalItems, `totalItems at least the planted records': ${what}`).to.be.at.least(expected.length);
    }
    if (!walk && exact) return;
    const seen = [...ids(response)];
    let page = response;
    let pagePath = path;
    for (let count = 1; page.body.nextCursor !== null; count += 1) {
      expect(count, `pages of ${what}`).to.be.at.most(Math.ceil(Number(response.body.totalItems) / limit) + 1);
      const link = String(page.headers.link ?? '');
      const target = /^<([^>]+)>; rel="next"$/.exec(link)?.[1];
      expect(target, `Link of ${describeResponse(pagePath, page)}`).to.be.a('string');
      const linked = queryOf(target!);
      const kept = (q: URLSearchParams): string[] => [...q.entries()].filter(([name]) => name !== 'cursor' && name !== 'limit').map((pair) => pair.join('=')).sort();
      expect(kept(linked), `Link keeps the sort, the filters, fields and includes: ${link}`).to.deep.equal(kept(query));
      if (count === 1) await expectCursorBoundToSort(resource, target!);
      pagePath = target!;
      page = await get(pagePath, 'rich');
      expectAnswer({ path: pagePath, response: page, statuses: [200] });
      expectListPage({ path: pagePath, response: page, resource });
      seen.push(...ids(page));
    }
    expect(new Set(seen).size, `no record twice in the walk of ${what}`).to.equal(seen.length);
    const mine = exact ? seen : seen.filter((id) => planted.has(id));
    expect(mine, `the walk of ${what}: the planted records that match, in order`).to.deep.equal(expected);
    if (exact) expect(seen.length, `the walk of ${what} holds totalItems records`).to.equal(response.body.totalItems);
  }

  /** The next page's cursor with another sort: 400 `cursor_mismatch` (CONTRACT.md §8). */
  async function expectCursorBoundToSort(resource: Resource, target: string): Promise<void> {
    const query = queryOf(target);
    const other = sortValues(resource).find((sort) => sort !== (query.get('sort') ?? 'createdAt'))!;
    query.set('sort', other);
    const path = `${target.slice(0, target.indexOf('?'))}?${query.toString()}`;
    const response = await get(path, 'rich');
    expectAnswer({ path, response, statuses: [400], codes: ['cursor_mismatch'] });
  }

  // ---- Bound names written wrong ----

  /** A bound's name written wrong around a field of the family (or any), with a value, among valid parameters. */
  function mangledNameQuestion(resource: Resource, route: Question['route'], brand: Question['brand']): fc.Arbitrary<Question> {
    const declared = new Set([...Object.keys(filterSchemas(resource)), 'sort', 'limit', 'cursor', 'include', 'fields', 'by']);
    const fields = [...new Set([...resource.ranges.map((f) => f.name), ...resource.sorts.map((f) => f.name), ...resource.recordFields.map((f) => f.name)])];
    const name = fc.tuple(
      fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...fields) }, { weight: 1, arbitrary: fc.constantFrom('createdAt', 'updatedAt', 'totalAmount', 'x', '', ...INTERNAL_NAMES) }),
      fc.constantFrom(...BOUNDS),
      fc.constantFrom(...BRACKET_MANGLINGS),
    ).map(([field, bound, mangle]) => mangle(field, bound)).filter((mangled) => !declared.has(mangled) && mangled !== '');
    const value = fc.oneof(
      fc.constantFrom(...Object.values(BOUND_CANDIDATES).flat()),
      hostileText(),
      fc.constant(''),
    );
    const pair = fc.tuple(name, maybe(value, 7, 1)).map(([n, v]) => [n, v] as Pair);
    return fc.record({
      pairs: fc.tuple(pair, validPairs(resource, route, { exact: brand === 'rich' })).chain(([bad, good]) => shuffled(fc.constant([bad, ...good]))),
      style: fc.constantFrom(...BRACKET_STYLES),
    }).map(({ pairs, style }) => ({ family: resource.path, route, brand, query: wireQuery(pairs, style) })).filter(({ query }) => query.length <= MAX_WIRE_LENGTH);
  }

  const countableRoute = (resource: Resource): fc.Arbitrary<Question['route']> =>
    resource.countable.length > 0 ? fc.constantFrom<Question['route']>('list', 'list', 'counts') : fc.constant<Question['route']>('list');

  fuzzEach('every family refuses bound names written wrong (nested, repeated, unclosed brackets; unknown or upper-case operators)', {
    items: () => data.families,
    label: (resource) => resource.path,
    numRuns: 2,
    outcomes: ['400 invalid_parameter'],
    build: (resource) => ({
      arbitrary: countableRoute(resource).chain((route) => mangledNameQuestion(resource, route, 'home')),
      predicate: async (question: Question) => {
        const outcome = await expectQuestionAnswer(question);
        expect(outcome, `a bound name written wrong is refused: ${question.query}`).to.equal('400 invalid_parameter');
        return outcome;
      },
    }),
  });

  // ---- Bound values out of range, at the edges, and at random ----

  type BoundKind = 'out of range' | 'edge' | 'random' | 'repeated';

  function boundQuestion(resource: Resource): fc.Arbitrary<{ question: Question; parameter: string; kind: BoundKind }> {
    const bounds = resource.filters.filter(isBound);
    return fc.tuple(fc.constantFrom(...bounds), countableRoute(resource)).chain(([filter, route]) => {
      const type = rangeType(filter);
      const value = fc.oneof(
        { weight: 3, arbitrary: fc.constantFrom(...OUT_OF_RANGE_BOUNDS[type]).map((text) => [text, 'out of range'] as const) },
        { weight: 2, arbitrary: fc.constantFrom(...EDGE_BOUNDS[type]).map((text) => [text, 'edge'] as const) },
        { weight: 2, arbitrary: BOUND_TEXT[type].map((text) => [text, 'random'] as const) },
      );
      return fc.record({
        value,
        // Now and then the bound given twice, the second time with a valid value: a bound is one value (CONTRACT.md §3).
        again: maybe(boundValue(resource, filter, false), 1, 6),
        others: validPairs(resource, route, { exact: true }),
        style: fc.constantFrom(...BRACKET_STYLES),
        everyByte: fc.boolean(),
      }).map(({ value: [text, valueKind], again, others, style, everyByte }) => {
        // The bound replaces any valid one of the same name; every byte percent-encoded reads the same.
        const pairs: Pair[] = [...others.filter(([name]) => name !== filter.name), [filter.name, text], ...(again === null ? [] : [[filter.name, again] as const])];
        const kind: BoundKind = again === null ? valueKind : 'repeated';
        const query = everyByte ? `?${pairs.map(([n, v]) => `${encodeAll(n)}=${encodeAll(v ?? '')}`).join('&')}` : wireQuery(pairs, style);
        return { question: { family: resource.path, route, brand: 'rich' as const, query }, parameter: filter.name, kind };
      });
    }).filter(({ question }) => question.query.length <= MAX_WIRE_LENGTH);
  }

  async function expectBoundAnswer({ question, parameter, kind }: { question: Question; parameter: string; kind: BoundKind }): Promise<string> {
    const outcome = await expectQuestionAnswer(question);
    const resource = family(question.family);
    const value = queryOf(`${question.query}`).get(parameter)!;
    if (kind === 'out of range') {
      // The contract, not the server's own schema: the generator's own check that its values are out of range, then the answer.
      expect(acceptsParameter(filterSchemas(resource)[parameter] as JsonSchema, value), `${JSON.stringify(value)} is out of range for ${parameter}`).to.equal(false);
      expect(outcome, `${parameter}=${JSON.stringify(value)} out of range: ${question.query}`).to.equal('400 invalid_parameter');
    }
    if (kind === 'edge') expect(outcome, `${parameter}=${JSON.stringify(value)} at the edge is answered: ${question.query}`).to.match(/^200/);
    if (kind === 'repeated') expect(outcome, `${parameter} given twice: ${question.query}`).to.equal('400 invalid_parameter');
    return `${kind}: ${outcome}`;
  }

  fuzzIt('bounds of every range type, out of range, at the edges and at random, on the chosen families', {
    numRuns: 120,
    outcomes: ['out of range: 400 invalid_parameter', 'edge: 200 list', 'edge: 200 sorted list', 'edge: 200 counts', 'random: 200 list', 'random: 400 invalid_parameter', 'repeated: 400 invalid_parameter'],
    build: () => ({
      arbitrary: fc.constantFrom(...rich.families).chain(boundQuestion),
      predicate: expectBoundAnswer,
    }),
  });

  // ---- Any of: up to 100 values ----

  function anyOfQuestion(resource: Resource): fc.Arbitrary<{ question: Question; parameter: string; count: number }> {
    const exact = oracleFilters(resource).filter((filter) => filter.match === 'exact');
    return fc.tuple(fc.constantFrom(...exact), countableRoute(resource)).chain(([filter, route]) => {
      const values = exactValues(resource, filter.name);
      const isUuidFilter = filter.targets[0]!.type === 'uuid';
      const invalid = ['', 'x'.repeat(256), 'a\u0000b', ...(values[0] && /^[0-9a-f-]{36}$/.test(values[0]) ? [values[0].toUpperCase(), `{${values[0]}}`] : [])]
        .filter((text) => !acceptsParameter(oneValueSchema(filterSchemas(resource)[filter.name] as JsonSchema), text));
      return fc.record({
        count: fc.oneof(fc.integer({ min: 1, max: 5 }), fc.constantFrom(MAX_ANY_OF - 1, MAX_ANY_OF, MAX_ANY_OF + 1, MAX_ANY_OF + 50)),
        spoil: maybe(fc.tuple(fc.constantFrom(...invalid), fc.nat()), 1, 3),
        others: validPairs(resource, route, { exact: true }),
        // The filter's name spelled on the wire another way now and then: `%73tatus` is `status`.
        respell: fc.boolean(),
      }).chain(({ count, spoil, others, respell }) =>
        // A UUID filter also takes fresh UUIDs: a hundred different values.
        fc.array(isUuidFilter ? fc.oneof(fc.constantFrom(...values), fc.uuid()) : fc.constantFrom(...values), { minLength: count, maxLength: count }).map((chosen) => {
          const all = [...chosen];
          if (spoil) all.splice(spoil[1] % (all.length + 1), 0, spoil[0]);
          const rest = others.filter(([name]) => name !== filter.name);
          const pairs = all.map((value, at) => `${respell && at % 2 === 1 ? encodeAll(filter.name) : encodeStrict(filter.name)}=${encodeStrict(value)}`);
          const query = `?${[...pairs, ...rest.map(([n, v]) => `${wireName(n, 'raw')}=${encodeStrict(v ?? '')}`)].join('&')}`;
          return { question: { family: resource.path, route, brand: 'rich' as const, query }, parameter: filter.name, count: all.length };
        }));
    }).filter(({ question }) => question.query.length <= MAX_WIRE_LENGTH);
  }

  fuzzIt('an exact filter takes up to 100 values, each in its rule, on the chosen families', {
    numRuns: 60,
    outcomes: ['over 100: 400 invalid_parameter', 'at most 100: 200', 'at most 100: 400 invalid_parameter'],
    build: () => ({
      arbitrary: fc.constantFrom(...rich.families.filter((resource) => oracleFilters(resource).some((filter) => filter.match === 'exact'))).chain(anyOfQuestion),
      predicate: async ({ question, parameter, count }) => {
        const outcome = await expectQuestionAnswer(question);
        if (count > MAX_ANY_OF) {
          expect(outcome, `${count} values of ${parameter}: ${shorten(question.query)}`).to.equal('400 invalid_parameter');
          return 'over 100: 400 invalid_parameter';
        }
        return `at most 100: ${outcome.startsWith('200') ? '200' : outcome}`;
      },
    }),
  });

  // ---- sort ----

  /** A `sort` value written wrong, unknown, empty or repeated; or a valid one (then 200 in the sort's order). */
  function sortQuestion(resource: Resource, brand: Question['brand']): fc.Arbitrary<{ question: Question; kind: string }> {
    const sorts = sortValues(resource);
    const unknown = [...resource.recordFields.map((field) => field.name).filter((name) => !sorts.includes(name)), 'random', 'id', 'ID', ...INTERNAL_NAMES];
    const value = fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(...sorts).map((sort) => [[sort], 'valid'] as const) },
      { weight: 4, arbitrary: fc.tuple(fc.constantFrom(...sorts), fc.constantFrom(...SORT_MANGLINGS)).map(([sort, mangle]) => [[mangle(sort)], 'written wrong'] as const) },
      { weight: 2, arbitrary: fc.constantFrom(...unknown).chain((name) => fc.constantFrom(name, `-${name}`)).map((sort) => [[sort], 'unknown'] as const) },
      { weight: 1, arbitrary: fc.constant([[''], 'empty'] as const) },
      { weight: 1, arbitrary: fc.constant([[null], 'bare'] as const) },
      { weight: 2, arbitrary: fc.tuple(fc.constantFrom(...sorts), fc.constantFrom(...sorts)).map(([a, b]) => [[a, b], 'repeated'] as const) },
      { weight: 1, arbitrary: hostileText().map((text) => [[text], 'hostile'] as const) },
    );
    return fc.record({
      value,
      others: validPairs(resource, 'list', { exact: brand === 'rich' }),
      // A `+` or a space sent raw: the server reads a space for both.
      plus: fc.constantFrom('strict', 'strict', 'raw plus'),
    }).map(({ value: [values, kind], others, plus }) => {
      const rest = others.filter(([name]) => name !== 'sort');
      const sortPairs = values.map((v) => (v === null ? 'sort' : `sort=${plus === 'raw plus' ? encodeStrict(v).replace(/%2B/g, '+').replace(/%20/g, '+') : encodeStrict(v)}`));
      const query = `?${[...sortPairs, ...rest.map(([n, v]) => `${wireName(n, 'raw')}=${encodeStrict(v ?? '')}`)].join('&')}`;
      return { question: { family: resource.path, route: 'list' as const, brand, query, walk: kind === 'valid' }, kind };
    }).filter(({ question }) => question.query.length <= MAX_WIRE_LENGTH);
  }

  async function expectSortAnswer({ question, kind }: { question: Question; kind: string }): Promise<string> {
    const resource = family(question.family);
    const { outcome, response, path } = await askQuestion(question);
    const sorts = queryOf(path).getAll('sort');
    if (kind !== 'valid' && kind !== 'hostile') expect(outcome, `sort ${JSON.stringify(sorts)} (${kind}) is refused: ${question.query}`).to.equal('400 invalid_parameter');
    if (kind === 'valid') expect(outcome, `sort ${JSON.stringify(sorts)}: ${question.query}`).to.match(/^200/);
    if (outcome === '400 invalid_parameter' && sorts.length === 1 && !sortValues(resource).includes(sorts[0]!)) {
      // A sort the family does not take: the message lists the sorts it takes (CONTRACT.md §8).
      const issue = (response.body.details as { parameter: string; message: string }[]).find((candidate) => candidate.parameter === 'sort');
      for (const sort of sortValues(resource)) {
        expect(issue?.message, `the sort issue names the sorts ${resource.path} takes: ${describeResponse(path, response)}`).to.match(new RegExp(`(^|[^-\\w])${sort.replace(/[-]/g, '\\-')}($|[^\\w])`));
      }
      return `${kind}: 400 listing the sorts`;
    }
    return `${kind}: ${outcome}`;
  }

  fuzzEach('every family refuses a sort written wrong, unknown, empty or repeated, and orders by one it takes', {
    items: () => data.families,
    label: (resource) => resource.path,
    numRuns: 2,
    outcomes: ['valid: 200 sorted list', 'written wrong: 400 listing the sorts', 'repeated: 400 invalid_parameter'],
    build: (resource) => ({ arbitrary: sortQuestion(resource, 'home'), predicate: expectSortAnswer }),
  });

  fuzzIt('sorts on the chosen families: refused when written wrong, and the records walked in the sort\'s order', {
    numRuns: 50,
    outcomes: ['valid: 200 sorted list', 'written wrong: 400 listing the sorts', 'unknown: 400 listing the sorts', 'empty: 400 listing the sorts', 'repeated: 400 invalid_parameter'],
    build: () => ({ arbitrary: fc.constantFrom(...rich.families).chain((resource) => sortQuestion(resource, 'rich')), predicate: expectSortAnswer }),
  });

  // ---- Counts ----

  /** Counts with `by` missing, unknown, repeated or not countable, and the list's own parameters; or a valid question. */
  function countsQuestion(resource: Resource, brand: Question['brand']): fc.Arbitrary<Question> {
    const countable = resource.countable.map((field) => field.name);
    const notCountable = resource.recordFields.map((field) => field.name).filter((name) => !countable.includes(name));
    const someCountable = countable.length > 0 ? countable : ['status'];
    const one = (name: string, value: string | null): Pair[] => [[name, value]];
    const by: fc.Arbitrary<Pair[]> = fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...someCountable).map((name) => one('by', name)) },
      { weight: 1, arbitrary: fc.constant<Pair[]>([]) },
      { weight: 2, arbitrary: fc.constantFrom(...notCountable, 'createdAt', 'id', 'x', '', ...INTERNAL_NAMES).map((name) => one('by', name)) },
      { weight: 1, arbitrary: fc.constantFrom(...someCountable).map((name) => one('by', name.toUpperCase())) },
      { weight: 1, arbitrary: fc.constantFrom(...someCountable).map((name) => one('by', ` ${name}`)) },
      { weight: 1, arbitrary: fc.constantFrom(...someCountable).map((name) => one('by', `${name},${name}`)) },
      { weight: 1, arbitrary: fc.constant(one('by', null)) },
      { weight: 2, arbitrary: fc.tuple(fc.constantFrom(...someCountable), fc.constantFrom(...someCountable)).map(([a, b]): Pair[] => [['by', a], ['by', b]]) },
      { weight: 1, arbitrary: fc.tuple(fc.constantFrom('BY', 'by[]', 'By', 'by '), fc.constantFrom(...someCountable)).map(([name, value]) => one(name, value)) },
    );
    // The list's own parameters, with values a list takes: counts take none of them.
    const listOnly = validPairs(resource, 'list', { exact: false }).map((pairs) => pairs.filter(([name]) => ['sort', 'limit', 'fields', 'include'].includes(name)));
    const extra: fc.Arbitrary<Pair[]> = fc.record({
      listOnly: fc.oneof({ weight: 2, arbitrary: fc.constant([] as Pair[]) }, { weight: 1, arbitrary: listOnly }),
      cursor: maybe(fc.constantFrom('e30.e30', 'not-a-cursor', ''), 1, 5),
      include: maybe(fc.constantFrom('', 'x'), 1, 9),
    }).map(({ listOnly: pairs, cursor, include }) => [...pairs, ...(cursor === null ? [] : [['cursor', cursor] as const]), ...(include === null ? [] : [['include', include] as const])]);
    const filters = validPairs(resource, 'counts', { exact: brand === 'rich' }).map((pairs) => pairs.filter(([name]) => name !== 'by'));
    return shuffled(fc.tuple(by, extra, filters).map(([a, b, c]) => [...a, ...b, ...c])).chain((pairs) =>
      fc.constantFrom<BracketStyle>('raw', 'upper').map((style) => ({ family: resource.path, route: 'counts' as const, brand, query: wireQuery(pairs, style) })));
  }

  async function expectCountsAnswer(question: Question): Promise<string> {
    const outcome = await expectQuestionAnswer(question);
    const query = queryOf(question.query);
    const resource = family(question.family);
    const listOnly = ['cursor', 'limit', 'sort', 'include', 'fields'].filter((name) => query.has(name));
    if (resource.countable.length > 0) {
      const by = query.getAll('by');
      const valid = by.length === 1 && resource.countable.some((field) => field.name === by[0]);
      if (!valid || listOnly.length > 0) expect(outcome, `counts with by=${JSON.stringify(by)} and ${listOnly.join(', ') || 'no list parameter'}: ${question.query}`).to.equal('400 invalid_parameter');
      if (!valid) return `by ${by.length === 0 ? 'missing' : by.length > 1 ? 'repeated' : 'not countable'}: ${outcome}`;
      if (listOnly.length > 0) return `with ${listOnly.length > 1 ? 'list parameters' : listOnly[0]}: ${outcome}`;
    }
    return outcome;
  }

  fuzzEach('every family\'s counts answer random query strings (all of Unicode, malformed escapes, repeats) as the contract says', {
    items: () => data.families.filter((resource) => resource.countable.length > 0),
    label: (resource) => resource.path,
    numRuns: 1,
    outcomes: ['200 counts', '400 invalid_parameter'],
    build: (resource) => ({
      // A valid `by` first, twice in three cases, so that hostile filters get past it to the counts' SQL.
      arbitrary: fc.tuple(queryArbitrary(countsVocabulary(resource, data.planted.get(resource.path) ?? [])), maybe(fc.constantFrom(...resource.countable), 2, 1))
        .map(([query, by]) => (by === null ? query : `?by=${by.name}${query === '' ? '' : `&${query.slice(1)}`}`))
        .map((query) => ({ family: resource.path, route: 'counts' as const, brand: 'home' as const, query })),
      predicate: expectQuestionAnswer,
    }),
  });

  const countsOutcomes = ['200 counts', 'by missing: 400 invalid_parameter', 'by repeated: 400 invalid_parameter', 'by not countable: 400 invalid_parameter', 'with cursor: 400 invalid_parameter', 'with list parameters: 400 invalid_parameter'];

  fuzzEach('every family\'s counts refuse by missing, unknown, repeated or not countable, and the list\'s own parameters', {
    items: () => data.families,
    label: (resource) => resource.path,
    numRuns: 2,
    outcomes: [...countsOutcomes, '400 nothing countable'],
    build: (resource) => ({ arbitrary: countsQuestion(resource, 'home'), predicate: expectCountsAnswer }),
  });

  fuzzIt('counts on the chosen families: refused as the contract says, or exactly the planted records\' counts', {
    numRuns: 60,
    outcomes: countsOutcomes,
    build: () => ({
      arbitrary: fc.constantFrom(...rich.families.filter((resource) => resource.countable.length > 0)).chain((resource) => countsQuestion(resource, 'rich')),
      predicate: expectCountsAnswer,
    }),
  });

  // ---- Valid questions combined ----

  fuzzIt('valid combinations of sort, any of, ranges, fields, include and limit: the planted records that match, walked in order; their counts', {
    numRuns: 60,
    outcomes: ['200 list', '200 sorted list', '200 counts'],
    build: () => ({
      arbitrary: fc.constantFrom(...rich.families).chain((resource) =>
        countableRoute(resource).chain((route) =>
          fc.tuple(shuffled(validPairs(resource, route, { exact: true, limits: ['1', '2', '3', '4', '7', '100'] })), fc.constantFrom(...BRACKET_STYLES))
            .map(([pairs, style]) => ({ family: resource.path, route, brand: 'rich' as const, query: wireQuery(pairs, style), walk: true })))),
      predicate: async (question: Question) => {
        const outcome = await expectQuestionAnswer(question);
        expect(outcome, `a valid question is answered: ${question.query}`).to.match(/^200/);
        return outcome;
      },
    }),
  });

  it('every family\'s counts without by, or with by given twice, are 400 naming by', async () => {
    const failures: string[] = [];
    for (const resource of data.families.filter((candidate) => candidate.countable.length > 0)) {
      const by = resource.countable[0]!.name;
      for (const query of ['', `?by=${by}&by=${by}`, `?${resource.filters[0] ? `${encodeStrict(resource.filters[0].name)}=` : ''}`]) {
        const path = `${routePath(resource, 'counts', 'home')}${query}`;
        const response = await get(path, 'home');
        expectAnswer({ path, response, statuses: [400], codes: ['invalid_parameter'] });
        const named = namedParameters(response);
        if (!named.includes('by') || named.some((name) => name !== 'by' && !query.includes(`${encodeStrict(name)}=`))) failures.push(describeResponse(path, response));
      }
    }
    expect(failures, 'counts answers whose details do not name by, or name a parameter not given').to.deep.equal([]);
  });

  it('every family\'s changes feed refuses sort, range bounds and by, naming each', async () => {
    for (const resource of data.families) {
      const bound = resource.filters.find(isBound)!;
      const pairs: Pair[] = [['sort', sortValues(resource)[0]!], [bound.name, BOUND_CANDIDATES[rangeType(bound)][0]!], ['by', resource.countable[0]?.name ?? 'status']];
      const path = `${listPath(data.home.slug, resource)}/changes${wireQuery(pairs)}`;
      const response = await get(path, 'home');
      expectAnswer({ path, response, statuses: [400], codes: ['invalid_parameter'] });
      expect(new Set(namedParameters(response)), describeResponse(path, response)).to.deep.equal(new Set(['sort', bound.name, 'by']));
    }
  });

  it('the chosen families hold every feature a list question depends on, and the issue\'s named families', () => {
    const missing = QUESTION_FEATURES.filter(([, has]) => !rich.families.some(has)).map(([feature]) => feature);
    expect(missing, 'features no chosen family has').to.deep.equal([]);
    expect(rich.families.map((resource) => resource.path)).to.include.members(['orders', 'invoices', 'countries']);
    for (const resource of rich.families) expect(rich.planted.get(resource.path), `records planted for ${resource.path}`).to.have.length.above(0);
  });
});
