import { expect } from 'chai';
import fc from 'fast-check';
import { generateKey } from '../../src/server/auth/api-keys.ts';
import { useServer } from '../support/use-server.ts';
import { expectAnswer, expectListPage } from './contract-checks.ts';
import { send } from './fuzz-http.ts';
import { fuzzIt } from './fuzz-run.ts';
import { fuzzData, listPath, type FuzzData } from './fuzz-world.ts';

/**
 * Issue 7, item 2, (5): random `Authorization` headers on a list the key may
 * read. 200 only for the scheme `Bearer` (any case), one or more spaces and
 * exactly a live key (RFC 7235: the scheme is case-insensitive; the HTTP
 * parser strips spaces and tabs around a header value); anything else is 401
 * `unauthorized`. Never a 500, never more than ANSWER_MS.
 *
 * Header values hold only what Node's client sends (tab, visible ASCII, bytes
 * 0x80-0xFF; it refuses other control characters and NUL): the generators
 * keep to that.
 */

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** What Node's HTTP client accepts in a header value. */
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

type Header = { value: string | null; family: string };

describe('fuzz: Authorization headers', function () {
  this.timeout(180_000);
  let data: FuzzData;
  /** Keys with a valid checksum that no one holds: each costs a lookup that finds nothing. */
  const unknownKeys = Array.from({ length: 4 }, () => generateKey());

  before(async function () {
    this.timeout(180_000);
    data = await fuzzData();
  });
  const server = useServer();

  function keyArbitrary(): fc.Arbitrary<string> {
    const real = fc.constantFrom(data.key, data.globalKey);
    return fc.oneof(
      { weight: 4, arbitrary: real },
      // One character changed, dropped or added, or the case changed.
      { weight: 2, arbitrary: fc.tuple(real, fc.nat(), fc.constantFrom(...BASE62)).map(([key, at, char]) => `${key.slice(0, at % key.length)}${char}${key.slice(at % key.length + 1)}`) },
      { weight: 1, arbitrary: fc.tuple(real, fc.nat()).map(([key, at]) => key.slice(0, at % key.length)) },
      { weight: 1, arbitrary: fc.tuple(real, fc.constantFrom(...BASE62, '=', '.', ',')).map(([key, char]) => `${key}${char}`) },
      { weight: 1, arbitrary: real.map((key) => key.toLowerCase()) },
      { weight: 1, arbitrary: fc.constantFrom(...unknownKeys) },
      // The shape of a key made before checksums (43 characters): looked up, found nowhere.
      { weight: 1, arbitrary: fc.string({ unit: fc.constantFrom(...BASE62), minLength: 43, maxLength: 43 }).map((secret) => `bcat_sk_${secret}`) },
      { weight: 1, arbitrary: fc.constantFrom('', 'bcat_sk_', 'null', 'undefined', "' or 1=1 --", 'x'.repeat(10_000)) },
    );
  }

  function headerArbitrary(): fc.Arbitrary<string | null> {
    const scheme = fc.constantFrom('Bearer', 'Bearer', 'bearer', 'BEARER', 'BeArEr', 'Bearer:', 'Basic', 'Token', 'Bearerx', '');
    const gap = fc.constantFrom(' ', ' ', '  ', '     ', '\t', ' \t', '', ',');
    const lead = fc.constantFrom('', '', ' ', '  ', '\t');
    const trail = fc.constantFrom('', '', ' ', '   ', '\t', ',', ' x', ', Bearer x');
    const structured = fc.tuple(lead, scheme, gap, keyArbitrary(), trail).map(([before, s, g, key, after]) => `${before}${s}${g}${key}${after}`);
    const random = fc.string({ unit: 'binary-ascii', maxLength: 80 }).map((text) => text.replace(/[^\t\x20-\x7e\x80-\xff]/g, ''));
    return fc.oneof(
      { weight: 6, arbitrary: structured },
      { weight: 2, arbitrary: random },
      { weight: 1, arbitrary: random.map((text) => `Bearer ${text}`) },
      { weight: 1, arbitrary: fc.constant(null) },
    );
  }

  /** Whether a header value carries a live key, as RFC 7235 reads `Bearer <token>`. */
  function carriesLiveKey(value: string | null): boolean {
    if (value === null) return false;
    const match = /^bearer +(.*)$/is.exec(value.replace(/^[ \t]+|[ \t]+$/g, ''));
    return match !== null && (match[1] === data.key || match[1] === data.globalKey);
  }

  /** Checks one request; the outcome it names is the status. */
  async function expectAuthorizationAnswer({ value, family }: Header): Promise<string> {
    expect(value === null || HEADER_VALUE.test(value), `the generator made an unsendable header: ${JSON.stringify(value)}`).to.equal(true);
    const resource = data.families.find((candidate) => candidate.path === family)!;
    const path = listPath(data.home.slug, resource);
    const response = await send({ origin: server.origin, path, headers: value === null ? {} : { Authorization: value } });
    const what = `GET ${path} with Authorization ${JSON.stringify(value?.slice(0, 200))} -> ${response.status} ${response.text.slice(0, 300)}`;
    expectAnswer({ path, response, statuses: [200, 401] });
    const live = carriesLiveKey(value);
    expect(response.status, `${live ? 'a live key' : 'no live key'}: ${what}`).to.equal(live ? 200 : 401);
    if (live) expectListPage({ path, response, resource });
    else expect(response.body.errorCode, what).to.equal('unauthorized');
    return String(response.status);
  }

  fuzzIt('random Authorization headers are 401 unauthorized unless they carry a live key as Bearer', {
    numRuns: 700,
    outcomes: ['200', '401'],
    build: () => ({
      arbitrary: fc.record({ value: headerArbitrary(), family: fc.constantFrom(...data.families.map((resource) => resource.path)) }),
      predicate: expectAuthorizationAnswer,
    }),
  });
});
