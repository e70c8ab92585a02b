import { expect } from 'chai';
import fc from 'fast-check';
import type { Resource } from '../../src/engine/definition/resource.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { expectAnswer, expectListPage, namedParameters, queryOf } from './contract-checks.ts';
import { bearer, send } from './fuzz-http.ts';
import { fuzzEach, fuzzIt } from './fuzz-run.ts';
import { fuzzData, listPath, type FuzzData } from './fuzz-world.ts';
import { isSendable } from './hostile-values.ts';
import { expectedQueryOutcome } from './query-outcome.ts';
import { listVocabulary, queryArbitrary } from './query-strings.ts';

/**
 * Issue 7, item 2, (1): every family's list under random query strings. The
 * answer is exactly what the contract implies for the query (query-outcome.ts):
 * 200 with a valid page, or 400 with a valid error body naming what is wrong;
 * never a 500, never more than ANSWER_MS.
 */
describe('fuzz: list query strings', function () {
  this.timeout(180_000);
  let server: TestServer;
  let data: FuzzData;
  const arbitraries = new Map<string, fc.Arbitrary<string>>();

  before(async function () {
    this.timeout(180_000);
    data = await fuzzData();
    server = await startTestServer();
    for (const resource of data.families) {
      arbitraries.set(resource.path, queryArbitrary(listVocabulary(resource, data.planted.get(resource.path) ?? [])));
    }
  });
  after(() => server?.close());

  /** Checks one request; the outcome it names: `200 with filters`, `200`, or `400 <errorCode>`. */
  async function expectListAnswer(resource: Resource, query: string): Promise<string> {
    const path = `${listPath(data.home.slug, resource)}${query}`;
    expect(isSendable(path), `the generator made an unsendable path: ${path}`).to.equal(true);
    const response = await send({ origin: server.origin, path, headers: bearer(data.key) });
    expectAnswer({ path, response, statuses: [200, 400] });
    const expected = expectedQueryOutcome({ resource, query: queryOf(path), route: 'list' });
    const what = `GET ${path} -> ${response.status} ${response.text.slice(0, 500)}`;
    expect(response.status, `status (expected ${JSON.stringify(expected)}): ${what}`).to.equal(expected.status);
    if (expected.status === 200) {
      expectListPage({ path, response, resource });
      const filtered = resource.filters.some((filter) => queryOf(path).has(filter.name));
      return filtered ? '200 with filters' : '200';
    }
    expect(response.body.errorCode, `errorCode: ${what}`).to.equal(expected.errorCode);
    if (expected.errorCode === 'invalid_parameter') {
      expect(namedParameters(response), `details should name every offending parameter: ${what}`).to.include.members([...expected.parameters]);
    }
    return `400 ${expected.errorCode}`;
  }

  /** What both properties must reach on every run: filters that got to SQL, and each kind of refusal. */
  const outcomes = ['200 with filters', '400 invalid_parameter', '400 unsupported_include'];

  // One pass over every family on every run, so no family goes unvisited.
  fuzzEach('every family\'s list answers random queries as the contract says', {
    items: () => data.families,
    label: (resource) => resource.path,
    numRuns: 8,
    outcomes,
    build: (resource) => ({
      arbitrary: arbitraries.get(resource.path)!,
      predicate: (query: string) => expectListAnswer(resource, query),
    }),
  });

  // Then depth: families drawn at random.
  fuzzIt('lists of families drawn at random answer random queries as the contract says', {
    numRuns: 800,
    outcomes,
    build: () => ({
      arbitrary: fc.constantFrom(...data.families.map((resource) => resource.path))
        .chain((family) => arbitraries.get(family)!.map((query) => ({ family, query }))),
      predicate: ({ family, query }) => expectListAnswer(data.families.find((resource) => resource.path === family)!, query),
    }),
  });
});
