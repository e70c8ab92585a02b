import { expect } from 'chai';
import fc from 'fast-check';
import { useServer } from '../support/use-server.ts';
import { expectAnswer, expectListPage, expectRecord, queryOf } from './contract-checks.ts';
import { bearer, send } from './fuzz-http.ts';
import { fuzzIt } from './fuzz-run.ts';
import { fuzzData, type FuzzData } from './fuzz-world.ts';
import { encodeAll, hostileText, isSendable, LONG_TEXT, MAX_WIRE_LENGTH, onTheWire, routerDecode } from './hostile-values.ts';

/**
 * Issue 7, item 2, (3): random brand slugs in the path of a list, a single
 * record and the brand itself, with the scoped key, the global key, a made-up
 * key or none. The contract's order (CONTRACT.md §4): the key first (401),
 * then the brand: 404 when no brand has the slug as decoded, 401 when the key
 * may not read it, then the request. Never a 500, never more than ANSWER_MS.
 */

type KeyKind = 'scoped' | 'global' | 'made-up' | 'none';
type RouteKind = 'list' | 'get' | 'brand';

/** Slugs as a client might mangle them. */
const MANGLINGS: readonly ((slug: string) => string)[] = [
  (s) => s, (s) => s, (s) => s.toUpperCase(), (s) => `${s} `, (s) => ` ${s}`, (s) => `${s}\u0000`, (s) => `\u0000${s}`, (s) => `${s}%`,
  (s) => `${s}'`, (s) => `${s}' or '1'='1`, (s) => `${s}%_`, (s) => s.replace(/-/g, '_'), (s) => `${s}-`, (s) => s.slice(0, -1), (s) => `${s}\u200B`,
  (s) => s.normalize('NFKD'), (s) => `${s.slice(0, 1)}\u0301${s.slice(1)}`, (s) => s.repeat(300),
];

describe('fuzz: brand slugs in the path', function () {
  this.timeout(180_000);
  let data: FuzzData;

  before(async function () {
    this.timeout(180_000);
    data = await fuzzData();
  });
  const server = useServer();

  function slugArbitrary(): fc.Arbitrary<string> {
    const text = fc.oneof(
      { weight: 4, arbitrary: fc.tuple(fc.constantFrom(data.home.slug, data.other.slug), fc.constantFrom(...MANGLINGS)).map(([slug, mangle]) => mangle(slug)) },
      { weight: 3, arbitrary: hostileText() },
      { weight: 1, arbitrary: LONG_TEXT },
      { weight: 1, arbitrary: fc.constantFrom('.', '..', '%2e%2e', 'brands', 'api', '*', '%', '\\', 'null', 'undefined') },
    ).filter((slug) => slug !== '');
    // Raw `/` and `?` are left out: they make another path, which record-ids.test.ts covers; here the slug stays one segment.
    return fc.oneof({ weight: 4, arbitrary: onTheWire(text) }, { weight: 1, arbitrary: text.map(encodeAll) })
      .filter((wire) => wire.length <= MAX_WIRE_LENGTH && !wire.includes('/') && !wire.includes('?'));
  }

  function caseArbitrary(): fc.Arbitrary<{ slug: string; route: RouteKind; family: string; key: KeyKind }> {
    return fc.record({
      slug: slugArbitrary(),
      route: fc.constantFrom<RouteKind>('list', 'get', 'brand'),
      family: fc.constantFrom(...data.families.map((resource) => resource.path)),
      key: fc.constantFrom<KeyKind>('scoped', 'scoped', 'global', 'made-up', 'none'),
    });
  }

  /** Checks one request; the outcome it names is the status. */
  async function expectSlugAnswer({ slug, route, family, key }: { slug: string; route: RouteKind; family: string; key: KeyKind }): Promise<string> {
    const resource = data.families.find((candidate) => candidate.path === family)!;
    const recordId = data.planted.get(family)![0]!.id as string;
    const path = route === 'brand'
      ? `/api/public/v1/brands/${slug}`
      : `/api/public/v1/brands/${slug}/${family}${route === 'get' ? `/${recordId}` : ''}`;
    expect(isSendable(path), `the generator made an unsendable path: ${path}`).to.equal(true);
    const keyText = key === 'scoped' ? data.key : key === 'global' ? data.globalKey : key === 'made-up' ? 'bcat_sk_0000000000000000000000000000000000000000000000' : null;
    const response = await send({ origin: server.origin, path, headers: bearer(keyText) });
    const what = `GET ${path} (${key} key) -> ${response.status} ${response.text.slice(0, 500)}`;
    expectAnswer({ path, response, statuses: [200, 401, 404] });

    const decoded = routerDecode(slug);
    const expected = key === 'made-up' || key === 'none' ? 401
      : decoded === data.home.slug ? 200
      : decoded === data.other.slug ? (key === 'scoped' ? 401 : route === 'get' ? 404 : 200)
      : 404;
    expect(response.status, `slug ${JSON.stringify(decoded)}: ${what}`).to.equal(expected);
    if (expected === 401) expect(response.body.errorCode, what).to.equal('unauthorized');
    if (expected === 404) expect(response.body.errorCode, what).to.equal('not_found');
    if (expected !== 200) return String(expected);
    if (route === 'list') expectListPage({ path, response, resource });
    else if (route === 'get') expectRecord({ what, record: response.body, resource, query: queryOf(path) });
    else {
      expectRecord({ what, record: response.body, resource: data.tenant, query: queryOf(path) });
      expect(response.body.slug, what).to.equal(decoded);
    }
    return '200';
  }

  fuzzIt('random brand slugs answer 401 or 404 in the contract\'s order, 200 only for a brand the key reads', {
    numRuns: 700,
    outcomes: ['200', '401', '404'],
    build: () => ({ arbitrary: caseArbitrary(), predicate: expectSlugAnswer }),
  });
});
