import { expect } from 'chai';
import fc from 'fast-check';
import { useServer } from '../support/use-server.ts';
import { expectErrorBody } from './contract-checks.ts';
import { bearer, send } from './fuzz-http.ts';
import { fuzzIt } from './fuzz-run.ts';
import { fuzzData, type FuzzData } from './fuzz-world.ts';
import { hostileText, isSendable, MAX_WIRE_LENGTH, onTheWire } from './hostile-values.ts';

/**
 * Issue 7, item 2, random paths: real routes (lists, records, the brand,
 * the OpenAPI document, the docs pages) changed in a place or two, and paths
 * drawn from real segments, their case changed, walked with `.` and `..`,
 * doubled slashes and hostile segments. Whatever the path, the answer is 200, 400, 401 or 404 (405 is for
 * other methods), an error with the contract's body. Never a 500, never more
 * than ANSWER_MS.
 */
describe('fuzz: random paths', function () {
  this.timeout(180_000);
  let data: FuzzData;

  before(async function () {
    this.timeout(180_000);
    data = await fuzzData();
  });
  const server = useServer();

  function pathArbitrary(): fc.Arbitrary<string> {
    const ids = data.families.slice(0, 5).map((resource) => data.planted.get(resource.path)![0]!.id as string);
    const routes = [
      ...data.families.slice(0, 5).flatMap((resource, i) => [`/api/public/v1/brands/${data.home.slug}/${resource.path}`, `/api/public/v1/brands/${data.home.slug}/${resource.path}/${ids[i]}`]),
      `/api/public/v1/brands/${data.home.slug}`, '/api/public/v1/openapi.json', '/api/public/v1/docs', '/api/public/v1/docs/getting-started',
    ];
    const words = ['api', 'public', 'v1', 'brands', data.home.slug, data.other.slug, 'openapi.json', 'docs', 'getting-started', ...data.families.map((r) => r.path), ...ids];
    const segment = fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom(...words) },
      { weight: 1, arbitrary: fc.constantFrom(...words).map((word) => word.toUpperCase()) },
      { weight: 2, arbitrary: fc.constantFrom('', '.', '..', '%2e%2e', '%2F', '..%2F..', '~', '*', 'index.html', '%00', ';', 'swagger-ui.css') },
      { weight: 2, arbitrary: onTheWire(hostileText()).map((wire) => wire.replace(/[/?]/g, encodeURIComponent)) },
    );
    // A real route, changed in one or two places: a segment replaced, one inserted, a trailing slash.
    const changed = fc.tuple(fc.constantFrom(...routes), fc.array(fc.tuple(fc.nat(), segment, fc.constantFrom('replace', 'insert', 'upper', 'slash')), { minLength: 1, maxLength: 2 }))
      .map(([route, changes]) => {
        const segments = route.split('/').slice(1);
        for (const [at, text, how] of changes) {
          const i = at % segments.length;
          if (how === 'replace') segments[i] = text;
          else if (how === 'insert') segments.splice(i, 0, text);
          else if (how === 'upper') segments[i] = segments[i]!.toUpperCase();
          else segments.push('');
        }
        return `/${segments.join('/')}`;
      });
    // Or segments drawn anywhere, under the API base or not.
    const drawn = fc.tuple(fc.constantFrom('/api/public/v1', '/api/public/v1/brands', ''), fc.array(segment, { minLength: 1, maxLength: 6 }))
      .map(([base, segments]) => `${base}/${segments.join('/')}`);
    return fc.oneof({ weight: 1, arbitrary: fc.constantFrom(...routes) }, { weight: 3, arbitrary: changed }, { weight: 2, arbitrary: drawn })
      .filter((path) => path.length <= MAX_WIRE_LENGTH);
  }

  async function expectPathAnswer({ path, key }: { path: string; key: boolean }): Promise<string> {
    expect(isSendable(path), `the generator made an unsendable path: ${path}`).to.equal(true);
    const response = await send({ origin: server.origin, path, headers: bearer(key ? data.globalKey : null) });
    const what = `GET ${path} -> ${response.status} ${response.text.slice(0, 300)}`;
    expect(response.status, what).to.be.oneOf([200, 400, 401, 404]);
    if (response.status === 200) {
      // The API's JSON, or a docs page or asset (served without a key).
      expect(String(response.headers['content-type']), what).to.match(/^(application\/json|text\/html|text\/css|text\/javascript|application\/javascript|image\/png)/);
      return '200';
    }
    expect(String(response.headers['content-type']), what).to.match(/^application\/json/);
    expectErrorBody({ what, body: response.body as Record<string, unknown>, status: response.status });
    return String(response.status);
  }

  fuzzIt('random paths answer 200, 400, 401 or 404, errors with the contract\'s body', {
    numRuns: 600,
    outcomes: ['200', '401', '404'],
    build: () => ({
      arbitrary: fc.record({ path: pathArbitrary(), key: fc.boolean() }),
      predicate: expectPathAnswer,
    }),
  });
});
