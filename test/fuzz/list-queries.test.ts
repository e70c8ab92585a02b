import { expect } from 'chai';
import fc from 'fast-check';
import type { Resource } from '../../src/engine/definition/resource.ts';
import { useServer } from '../support/use-server.ts';
import { expectAnswer, expectChangesPage, expectListPage, namedParameters, queryOf } from './contract-checks.ts';
import { bearer, send } from './fuzz-http.ts';
import { familiesInRun } from '../support/families-in-run.ts';
import { fuzzEach, fuzzIt } from './fuzz-run.ts';
import { fuzzData, listPath, type FuzzData } from './fuzz-world.ts';
import { isSendable } from './hostile-values.ts';
import { expectedQueryOutcome, type RouteKind } from './query-outcome.ts';
import { changesVocabulary, listVocabulary, queryArbitrary } from './query-strings.ts';

/**
 * Issue 7, item 2, (1), and issue 16: every parameter of every family's list
 * and changes feed under random query strings, their values drawn from all
 * of Unicode. The answer is exactly what the contract implies for the query
 * (query-outcome.ts): 200 with a page whose every record matches the
 * published OpenAPI document, 304 for `If-None-Match: *` on what would be a
 * 200, or 400 with a valid error body naming what is wrong; never a 500,
 * never more than ANSWER_MS.
 */

/** `If-None-Match` now and then: `*` matches any current body (304), the others none. */
const CONDITIONS = fc.constantFrom(null, null, null, null, null, '*', '*', 'W/"x"', '"garbage"', '');

interface Case {
  readonly family: string;
  readonly query: string;
  readonly ifNoneMatch: string | null;
}

describe('fuzz: list and changes query strings', function () {
  this.timeout(180_000);
  let data: FuzzData;
  const arbitraries = new Map<string, fc.Arbitrary<string>>();

  before(async function () {
    this.timeout(180_000);
    data = await fuzzData();
    for (const resource of data.families) {
      arbitraries.set(`list ${resource.path}`, queryArbitrary(listVocabulary(resource, data.planted.get(resource.path) ?? [])));
      arbitraries.set(`changes ${resource.path}`, queryArbitrary(changesVocabulary(resource)));
    }
  });
  const server = useServer();

  const caseOf = (route: RouteKind, resource: Resource): fc.Arbitrary<Case> =>
    fc.record({ family: fc.constant(resource.path), query: arbitraries.get(`${route} ${resource.path}`)!, ifNoneMatch: CONDITIONS });

  /** Checks one request; the outcome it names: `200 with filters`, `200`, `304`, or `400 <errorCode>`. */
  async function expectQueryAnswer(route: RouteKind, { family, query, ifNoneMatch }: Case): Promise<string> {
    const resource = data.families.find((candidate) => candidate.path === family)!;
    const path = `${listPath(data.home.slug, resource)}${route === 'changes' ? '/changes' : ''}${query}`;
    expect(isSendable(path), `the generator made an unsendable path: ${path}`).to.equal(true);
    const headers = { ...bearer(data.key), ...(ifNoneMatch === null ? {} : { 'If-None-Match': ifNoneMatch }) };
    const response = await send({ origin: server.origin, path, headers });
    expectAnswer({ path, response, statuses: [200, 304, 400] });
    const expected = expectedQueryOutcome({ resource, query: queryOf(path), route });
    const what = `GET ${path} (If-None-Match ${JSON.stringify(ifNoneMatch)}) -> ${response.status} ${response.text.slice(0, 500)}`;
    if (expected.status === 200) {
      if (ifNoneMatch === '*') {
        expect(response.status, `status (expected 304): ${what}`).to.equal(304);
        return '304';
      }
      expect(response.status, `status (expected 200): ${what}`).to.equal(200);
      if (route === 'changes') expectChangesPage({ path, response, resource });
      else expectListPage({ path, response, resource });
      return resource.filters.some((filter) => queryOf(path).has(filter.name)) ? '200 with filters' : '200';
    }
    expect(response.status, `status (expected ${JSON.stringify(expected)}): ${what}`).to.equal(400);
    expect(response.body.errorCode, `errorCode: ${what}`).to.equal(expected.errorCode);
    if (expected.errorCode === 'invalid_parameter') {
      expect(namedParameters(response), `details should name every offending parameter: ${what}`).to.include.members([...expected.parameters]);
    }
    return `400 ${expected.errorCode}`;
  }

  /** What the list properties must reach on every run: filters that got to SQL, a 304, and each kind of refusal. */
  const listOutcomes = ['200 with filters', '304', '400 invalid_parameter', '400 unsupported_include'];

  // One pass over every family on every run, so no family goes unvisited.
  fuzzEach('every family\'s list answers random queries as the contract says', {
    items: () => familiesInRun(data.families),
    label: (resource) => resource.path,
    numRuns: 8,
    outcomes: listOutcomes,
    build: (resource) => ({ arbitrary: caseOf('list', resource), predicate: (c: Case) => expectQueryAnswer('list', c) }),
  });

  // Then depth: families drawn at random.
  fuzzIt('lists of families drawn at random answer random queries as the contract says', {
    numRuns: 800,
    outcomes: listOutcomes,
    build: () => ({
      arbitrary: fc.constantFrom(...data.families).chain((resource) => caseOf('list', resource)),
      predicate: (c: Case) => expectQueryAnswer('list', c),
    }),
  });

  fuzzEach('every family\'s changes feed answers random queries as the contract says', {
    items: () => familiesInRun(data.families),
    label: (resource) => resource.path,
    numRuns: 3,
    build: (resource) => ({ arbitrary: caseOf('changes', resource), predicate: (c: Case) => expectQueryAnswer('changes', c) }),
  });

  fuzzIt('changes feeds of families drawn at random answer random queries as the contract says', {
    numRuns: 200,
    outcomes: ['200', '304', '400 invalid_parameter', '400 invalid_cursor'],
    build: () => ({
      arbitrary: fc.constantFrom(...data.families).chain((resource) => caseOf('changes', resource)),
      predicate: (c: Case) => expectQueryAnswer('changes', c),
    }),
  });
});
