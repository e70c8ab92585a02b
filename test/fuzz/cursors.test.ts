import { expect } from 'chai';
import fc from 'fast-check';
import type { Resource } from '../../src/engine/definition/resource.ts';
import { useServer } from '../support/use-server.ts';
import { expectAnswer, expectListPage } from './contract-checks.ts';
import { bearer, send } from './fuzz-http.ts';
import { fuzzIt } from './fuzz-run.ts';
import { fuzzData, listPath, type FuzzData } from './fuzz-world.ts';
import { encodeAll, encodeStrict } from './hostile-values.ts';

/**
 * Issue 7, item 2, (4): cursors taken from real pages, then forged. Only an
 * untouched cursor on its own list (same brand, family and filters; any
 * limit, any key that reads the brand) gives 200; a truncated, altered,
 * spliced or made-up one is 400 `invalid_cursor`; a genuine one on another
 * family, brand or filter set is 400 `cursor_mismatch`; one signed with
 * another secret is `invalid_cursor`. Never a 500, never more than ANSWER_MS.
 */

const EARLY = '2000-01-01T00:00:00.000Z';
const LATER = '2001-01-01T00:00:00.000Z';
const OTHER_SECRET = 'another-cursor-secret-0123456789abcdef0123456789';
/** What a flipped character may become: base64url, the separator, and what a careless client adds. */
const FLIPS = 'AZaz09-_.=+/%~';

/** Where a cursor comes from: the brand, the key, the server (secret) and the filter of its list. */
interface Source {
  readonly family: string;
  readonly brand: 'home' | 'other';
  readonly filtered: boolean;
  readonly secret: 'test' | 'other';
}

type Case =
  | { kind: 'untouched'; source: Source; limit: number | null; encoded: boolean; key: 'scoped' | 'global' }
  | { kind: 'truncated'; source: Source; at: number }
  | { kind: 'flipped'; source: Source; at: number; char: string }
  | { kind: 'spliced'; source: Source; donor: Source }
  | { kind: 'forged-json'; source: Source; json: unknown; signature: 'own' | 'random'; random: string }
  | { kind: 'forged-field'; source: Source; field: string; value: unknown }
  | { kind: 'other-family'; source: Source; target: string }
  | { kind: 'other-brand'; source: Source }
  | { kind: 'other-filters'; source: Source; since: string | null }
  | { kind: 'other-secret'; source: Source };

describe('fuzz: forged and replayed cursors', function () {
  this.timeout(180_000);
  let data: FuzzData;
  const cursors = new Map<string, Promise<{ cursor: string; firstId: string }>>();

  before(async function () {
    this.timeout(180_000);
    data = await fuzzData();
  });
  const server = useServer();
  /** The same app and database with another cursor secret: its cursors are forgeries to `server`. */
  const otherServer = useServer({ cursorSecret: OTHER_SECRET });

  const family = (path: string): Resource => data.families.find((resource) => resource.path === path)!;
  /** The family's `...Since` filter (null when it has none). */
  const sinceFilter = (resource: Resource): string | null => resource.filters.find((filter) => filter.match === 'since')?.name ?? null;
  const slugOf = (brand: Source['brand']): string => (brand === 'home' ? data.home.slug : data.other.slug);
  const query = (resource: Resource, since: string | null, extra: Record<string, string> = {}): string => {
    const params = new URLSearchParams(extra);
    if (since !== null) params.set(sinceFilter(resource)!, since);
    const text = params.toString();
    return text ? `?${text}` : '';
  };

  /** The next cursor of a source's first page of one record, fetched once per file. */
  function realCursor(source: Source): Promise<{ cursor: string; firstId: string }> {
    const id = JSON.stringify(source);
    let found = cursors.get(id);
    if (!found) {
      found = (async () => {
        const resource = family(source.family);
        const path = `${listPath(slugOf(source.brand), resource)}${query(resource, source.filtered ? EARLY : null, { limit: '1' })}`;
        const response = await send({ origin: (source.secret === 'test' ? server : otherServer).origin, path, headers: bearer(data.globalKey) });
        expect(response.status, `a first page to take a cursor from: GET ${path}: ${response.text}`).to.equal(200);
        expect(response.body.nextCursor, `a next cursor on ${path}`).to.be.a('string');
        return { cursor: response.body.nextCursor as string, firstId: response.body.items[0].id as string };
      })();
      cursors.set(id, found);
    }
    return found;
  }

  function caseArbitrary(): fc.Arbitrary<Case> {
    const paths = data.families.map((resource) => resource.path);
    const withSince = data.families.filter((resource) => sinceFilter(resource) !== null).map((resource) => resource.path);
    const source = (families: readonly string[] = paths): fc.Arbitrary<Source> => fc.record({
      family: fc.constantFrom(...families),
      brand: fc.constantFrom<Source['brand']>('home', 'home', 'other'),
      filtered: families === withSince ? fc.boolean() : fc.constant(false),
      secret: fc.constant<Source['secret']>('test'),
    });
    const anySource = fc.oneof(source(), source(withSince));
    return fc.oneof(
      fc.record({
        kind: fc.constant('untouched' as const),
        source: anySource,
        limit: fc.option(fc.integer({ min: 1, max: 100 })),
        encoded: fc.boolean(),
        key: fc.constantFrom('scoped' as const, 'global' as const),
      }),
      fc.record({ kind: fc.constant('truncated' as const), source: anySource, at: fc.nat() }),
      fc.record({ kind: fc.constant('flipped' as const), source: anySource, at: fc.nat(), char: fc.constantFrom(...FLIPS) }),
      fc.record({ kind: fc.constant('spliced' as const), source: anySource, donor: anySource }),
      fc.record({
        kind: fc.constant('forged-json' as const),
        source: anySource,
        json: fc.oneof(fc.jsonValue(), fc.record({ v: fc.constantFrom(1, 2, 3), b: fc.uuid(), c: fc.string(), f: fc.string(), t: fc.string(), i: fc.uuid(), n: fc.integer() })),
        signature: fc.constantFrom('own' as const, 'random' as const),
        random: fc.base64String({ minLength: 24, maxLength: 24 }).map((text) => text.replace(/\+/g, '-').replace(/\//g, '_')),
      }),
      fc.record({
        kind: fc.constant('forged-field' as const),
        source: anySource,
        field: fc.constantFrom('v', 'b', 'c', 'f', 't', 'i', 'n', 'extra'),
        value: fc.oneof(fc.jsonValue(), fc.constantFrom(-1, 2 ** 53, 1e308, '1970-01-01T00:00:00.000000Z', '9999-12-31T23:59:59.999999Z')),
      }),
      fc.record({ kind: fc.constant('other-family' as const), source: anySource, target: fc.constantFrom(...paths) }),
      fc.record({ kind: fc.constant('other-brand' as const), source: anySource }),
      fc.record({ kind: fc.constant('other-filters' as const), source: source(withSince), since: fc.constantFrom(null, EARLY, LATER) }),
      fc.record({ kind: fc.constant('other-secret' as const), source: anySource.map((s) => ({ ...s, secret: 'other' as const })) }),
    );
  }

  /** The request a case makes: the list it reads, the key, the cursor text, and the answer it must get. */
  async function plan(c: Case): Promise<{ path: string; key: string; cursor: string; expected: 200 | 'invalid_cursor' | 'cursor_mismatch' }> {
    const { cursor } = await realCursor(c.source);
    const resource = family(c.source.family);
    const ownSince = c.source.filtered ? EARLY : null;
    const ownList = (extra: Record<string, string> = {}): string => `${listPath(slugOf(c.source.brand), resource)}${query(resource, ownSince, extra)}`;
    const [payload, signature] = cursor.split('.') as [string, string];
    switch (c.kind) {
      case 'untouched':
        return {
          path: ownList(c.limit === null ? {} : { limit: String(c.limit) }),
          // The scoped key reads only `home`: the global one reads `other`.
          key: c.key === 'scoped' && c.source.brand === 'home' ? data.key : data.globalKey,
          cursor: c.encoded ? encodeAll(cursor) : cursor,
          expected: 200,
        };
      case 'truncated':
        return { path: ownList(), key: data.globalKey, cursor: cursor.slice(0, c.at % cursor.length), expected: 'invalid_cursor' };
      case 'flipped': {
        const at = c.at % cursor.length;
        const char = cursor[at] === c.char ? (c.char === 'A' ? 'B' : 'A') : c.char;
        return { path: ownList(), key: data.globalKey, cursor: encodeStrict(`${cursor.slice(0, at)}${char}${cursor.slice(at + 1)}`), expected: 'invalid_cursor' };
      }
      case 'spliced': {
        const donor = (await realCursor(c.donor)).cursor;
        const spliced = `${payload}.${donor.split('.')[1]}`;
        // The donor's signature is the cursor's own when both are the same cursor: nothing was forged.
        return { path: ownList(), key: data.globalKey, cursor: spliced, expected: spliced === cursor ? 200 : 'invalid_cursor' };
      }
      case 'forged-json': {
        const forged = Buffer.from(JSON.stringify(c.json) ?? 'null').toString('base64url');
        return { path: ownList(), key: data.globalKey, cursor: `${forged}.${c.signature === 'own' ? signature : c.random}`, expected: 'invalid_cursor' };
      }
      case 'forged-field': {
        const body = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
        const forged = Buffer.from(JSON.stringify({ ...body, [c.field]: c.value })).toString('base64url');
        return { path: ownList(), key: data.globalKey, cursor: `${forged}.${signature}`, expected: forged === payload ? 200 : 'invalid_cursor' };
      }
      case 'other-family': {
        const target = family(c.target);
        const path = `${listPath(slugOf(c.source.brand), target)}${ownSince !== null && sinceFilter(target) === sinceFilter(resource) ? query(target, ownSince) : ''}`;
        const same = c.target === c.source.family && (ownSince === null || sinceFilter(target) === sinceFilter(resource));
        return { path, key: data.globalKey, cursor, expected: same ? 200 : 'cursor_mismatch' };
      }
      case 'other-brand': {
        const brand = c.source.brand === 'home' ? 'other' : 'home';
        return { path: `${listPath(slugOf(brand), resource)}${query(resource, ownSince)}`, key: data.globalKey, cursor, expected: 'cursor_mismatch' };
      }
      case 'other-filters':
        return {
          path: `${listPath(slugOf(c.source.brand), resource)}${query(resource, c.since)}`,
          key: data.globalKey,
          cursor,
          expected: c.since === ownSince ? 200 : 'cursor_mismatch',
        };
      case 'other-secret':
        return { path: ownList(), key: data.globalKey, cursor, expected: 'invalid_cursor' };
    }
  }

  /** Checks one request; the outcome it names: `200`, `invalid_cursor` or `cursor_mismatch`. */
  async function expectCursorAnswer(c: Case): Promise<string> {
    const { path: list, key, cursor, expected } = await plan(c);
    // Cursor text goes as it is when it is plain (or already encoded), encoded otherwise.
    const wire = /^[A-Za-z0-9\-_.%]*$/.test(cursor) ? cursor : encodeStrict(cursor);
    const path = `${list}${list.includes('?') ? '&' : '?'}cursor=${wire}`;
    const response = await send({ origin: server.origin, path, headers: bearer(key) });
    const what = `${c.kind}: GET ${path} -> ${response.status} ${response.text.slice(0, 500)}`;
    expectAnswer({ path, response, statuses: [200, 400], codes: ['invalid_cursor', 'cursor_mismatch'] });
    if (expected === 200) {
      expect(response.status, what).to.equal(200);
      expectListPage({ path, response, resource: family(c.source.family) });
      // The page after the cursor's own first page: its first record is behind.
      const { firstId } = await realCursor(c.source);
      expect((response.body.items as { id: string }[]).map((item) => item.id), `the first page's record again: ${what}`).to.not.include(firstId);
      return '200';
    }
    expect(response.status, what).to.equal(400);
    expect(response.body.errorCode, what).to.equal(expected);
    return expected;
  }

  fuzzIt('forged, truncated and replayed cursors are 400 invalid_cursor or cursor_mismatch; only untouched ones on their own list are 200', {
    numRuns: 800,
    outcomes: ['200', 'invalid_cursor', 'cursor_mismatch'],
    build: () => ({ arbitrary: caseArbitrary(), predicate: expectCursorAnswer }),
  });
});
