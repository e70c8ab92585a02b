import { expect } from 'chai';
import fc from 'fast-check';
import { UUID_PATTERN } from '../../src/engine/compile/field-types.ts';
import type { Resource } from '../../src/engine/definition/resource.ts';
import { useServer } from '../support/use-server.ts';
import { expectAnswer, expectRecord, namedParameters, queryOf } from './contract-checks.ts';
import { bearer, send } from './fuzz-http.ts';
import { familiesInRun } from '../support/families-in-run.ts';
import { fuzzEach, fuzzIt } from './fuzz-run.ts';
import { fuzzData, listPath, type FuzzData } from './fuzz-world.ts';
import { encodeAll, hostileText, isSendable, MAX_WIRE_LENGTH, onTheWire, routerDecode, UUID_TEXT } from './hostile-values.ts';
import { expectedQueryOutcome } from './query-outcome.ts';

/**
 * Issue 7, item 2, (2): single-record routes with random ids in the path.
 * The id segment is decoded as the router does (percent-decoding, kept as
 * sent when malformed); a decoded lower-case UUID is 200 when it is a record
 * of the brand and 404 otherwise, anything else 400 `invalid_parameter`
 * naming `id`. A raw `/` in the id (a trailing one too) makes a path with no
 * route: 404. `include` and `fields` take values from all of Unicode; a 200
 * matches the published OpenAPI document. Never a 500, never more than
 * ANSWER_MS.
 */

const UUID = new RegExp(UUID_PATTERN);

/** Ids as a client might mangle them, around a real one. */
const MANGLINGS: readonly ((id: string) => string)[] = [
  (id) => id, (id) => id, (id) => id.toUpperCase(), (id) => `{${id}}`, (id) => `urn:uuid:${id}`, (id) => id.replace(/-/g, ''),
  (id) => `${id} `, (id) => ` ${id}`, (id) => `${id}\u0000`, (id) => `${id}/`, (id) => `${id}/..`, (id) => `../${id}`, (id) => `${id}/x`,
  (id) => `${id}?`, (id) => `${id};v=1`, (id) => `${id}.json`, (id) => `${id}0`, (id) => id.slice(0, -1), (id) => `${id},${id}`, (id) => id.repeat(40),
];

/** Segments that try to walk the path. */
const PATH_TRICKS: readonly string[] = ['.', '..', '...', '../..', '../../brands', './', '/', '//', '\\', '..\\..', '%2e%2e', '%2E%2E%2F', '.%2e', '~', '*', '%'];

describe('fuzz: record ids in the path', function () {
  this.timeout(180_000);
  let data: FuzzData;

  before(async function () {
    this.timeout(180_000);
    data = await fuzzData();
  });
  const server = useServer();

  function idArbitrary(resource: Resource): fc.Arbitrary<string> {
    const mine = data.planted.get(resource.path)!.map((record) => record.id as string);
    const theirs = data.plantedOther.get(resource.path)!.map((record) => record.id as string);
    const text = fc.oneof(
      { weight: 4, arbitrary: fc.tuple(fc.constantFrom(...mine, ...theirs), fc.constantFrom(...MANGLINGS)).map(([id, mangle]) => mangle(id)) },
      { weight: 2, arbitrary: UUID_TEXT },
      { weight: 2, arbitrary: hostileText() },
      { weight: 1, arbitrary: fc.constantFrom(...PATH_TRICKS) },
    ).filter((id) => id !== '');
    return fc.oneof({ weight: 4, arbitrary: onTheWire(text) }, { weight: 1, arbitrary: text.map(encodeAll) });
  }

  function queryArbitrary(resource: Resource): fc.Arbitrary<string> {
    const include = resource.includes[0]?.name ?? 'none';
    const fields = resource.recordFields.slice(0, 2).map((field) => field.name).join(',');
    return fc.oneof(
      { weight: 6, arbitrary: fc.constant('') },
      {
        weight: 2,
        arbitrary: fc.constantFrom(`?include=${include}`, '?fields=id', '?fields=id,nope', '?limit=5', '?cursor=x', '?include=zz', '?id=1', '?include=&fields=', '?include=',
          `?include=${include}&include=${include}`, '?fields=id&fields=id', '?fields', '?include'),
      },
      { weight: 2, arbitrary: fc.tuple(fc.constantFrom('include', 'fields', 'id', '__proto__'), onTheWire(hostileText([include, 'id', fields]))).map(([name, value]) => `?${name}=${value}`) },
    );
  }

  function caseArbitrary(resource: Resource): fc.Arbitrary<{ family: string; id: string; query: string }> {
    return fc.record({ family: fc.constant(resource.path), id: idArbitrary(resource), query: queryArbitrary(resource) })
      .filter(({ id, query }) => id.length + query.length <= MAX_WIRE_LENGTH);
  }

  /** Checks one request; the outcome it names is the status. */
  async function expectGetAnswer({ family, id, query }: { family: string; id: string; query: string }): Promise<string> {
    const resource = data.families.find((candidate) => candidate.path === family)!;
    const prefix = listPath(data.home.slug, resource);
    const path = `${prefix}/${id}${query}`;
    expect(isSendable(path), `the generator made an unsendable path: ${path}`).to.equal(true);
    const response = await send({ origin: server.origin, path, headers: bearer(data.key) });
    const what = `GET ${path} -> ${response.status} ${response.text.slice(0, 500)}`;
    expectAnswer({ path, response, statuses: [200, 400, 404] });

    // What the router sees: the path before the first `?`, matched exactly (CONTRACT.md §4):
    // `.../family/` (a trailing slash), an empty segment or an id with a `/` in it is no route.
    const pathPart = path.split('?')[0]!;
    const segment = pathPart.slice(prefix.length + 1);
    if (segment === 'changes') return 'changes';
    if (segment === '' || segment.includes('/')) {
      expect(response.status, `a path with no route: ${what}`).to.equal(404);
      expect(response.body.errorCode, what).to.equal('not_found');
      return 'no route';
    }
    const decoded = routerDecode(segment);
    const outcome = expectedQueryOutcome({ resource, query: queryOf(path), route: 'get' });
    if (!UUID.test(decoded)) {
      expect(response.status, `a malformed id (${JSON.stringify(decoded)}): ${what}`).to.equal(400);
      expect(response.body.errorCode, what).to.equal('invalid_parameter');
      expect(namedParameters(response), `details should name id: ${what}`).to.include('id');
      if (outcome.status === 400 && outcome.errorCode === 'invalid_parameter') expect(namedParameters(response), what).to.include.members([...outcome.parameters]);
      return '400 id';
    }
    if (outcome.status === 400) {
      expect(response.status, what).to.equal(400);
      expect(response.body.errorCode, what).to.equal(outcome.errorCode);
      if (outcome.errorCode === 'invalid_parameter') expect(namedParameters(response), what).to.include.members([...outcome.parameters]);
      return '400 query';
    }
    const mine = data.planted.get(family)!.some((record) => record.id === decoded);
    expect(response.status, `${mine ? 'a record of the brand' : 'no record of the brand'}: ${what}`).to.equal(mine ? 200 : 404);
    if (mine) {
      expectRecord({ what, record: response.body, resource, query: queryOf(path) });
      expect(response.body.id ?? decoded, what).to.equal(decoded);
    }
    return String(response.status);
  }

  /** Each run must reach a record, miss one, refuse a malformed id and find no route. */
  const outcomes = ['200', '404', '400 id', 'no route'];

  fuzzEach('every family\'s single-record route answers random ids as the contract says', {
    items: () => familiesInRun(data.families),
    label: (resource) => resource.path,
    numRuns: 6,
    outcomes,
    build: (resource) => ({ arbitrary: caseArbitrary(resource), predicate: expectGetAnswer }),
  });

  fuzzIt('single-record routes of families drawn at random answer random ids as the contract says', {
    numRuns: 600,
    outcomes,
    build: () => ({
      arbitrary: fc.constantFrom(...data.families).chain(caseArbitrary),
      predicate: expectGetAnswer,
    }),
  });
});
