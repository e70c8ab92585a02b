import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { RecordInput } from '../../src/db/insert-records.ts';
import { expectErrorBody } from '../support/error-body.ts';
import { createBrand, createTestKey, insert, resetToBrand } from '../support/fixtures.ts';
import { listOrder, qs } from '../support/list-order.ts';
import type { TestResponse, TestServer } from '../support/test-server.ts';
import { useServer } from '../support/use-server.ts';

/**
 * Local helpers shared by the tests of test/resources/: a server and two
 * brands per test, the error-body assertion, and the rules every family shares.
 */

export { listOrder, qs };

export interface Api {
  server: TestServer;
  /** The brand the key reads: slug `acme`. */
  brand: { id: string; slug: string };
  /** Another brand, slug `globex`, that `key` may not read. */
  other: { id: string; slug: string };
  /** A key for `acme` only. */
  key: string;
  /** A key for `globex` only. */
  otherKey: string;
  /** GET with the `acme` key. */
  get(path: string): Promise<TestResponse>;
}

/** Registers the hooks of the example test: one server per file, an empty database and fresh brands per test. */
export function useApi(): Api {
  const server = useServer();
  const api = { server, get: (path: string) => server.request(path, { key: api.key }) } as Api;
  beforeEach(async () => {
    ({ brand: api.brand, key: api.key } = await resetToBrand('acme'));
    api.other = await createBrand('globex');
    ({ key: api.otherKey } = await createTestKey({ brands: ['globex'] }));
  });
  return api;
}

/** The ids of a list page. */
export function ids(response: TestResponse): string[] {
  expect(response.status, response.text).to.equal(200);
  return (response.body.items as { id: string }[]).map((item) => item.id);
}

/**
 * Asserts an error response: the status, the code, a body of exactly
 * `{ error, errorCode, details? }` and, when parameters are named, that
 * `details` lists each of them (and only them).
 */
export function expectError(response: TestResponse, status: number, errorCode: string, parameters?: readonly string[]): void {
  expect(response.status, response.text).to.equal(status);
  expect(response.headers.get('content-type')).to.match(/^application\/json/);
  expectErrorBody(response.body, errorCode);
  const body = response.body as Record<string, unknown>;
  if (parameters) {
    expect(body.details, response.text).to.be.an('array');
    const details = body.details as { parameter: unknown; message: unknown }[];
    for (const issue of details) {
      expect(issue.parameter).to.be.a('string');
      expect(issue.message).to.be.a('string').and.not.equal('');
    }
    expect([...new Set(details.map((d) => d.parameter))].sort(), response.text).to.deep.equal([...parameters].sort());
  }
}

export const MALFORMED_IDS: readonly string[] = [
  'not-a-uuid',
  '123',
  'A1B2C3D4-E5F6-4A7B-8C9D-0E1F2A3B4C5D',
  'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5D',
  'urn:uuid:a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d',
  '{a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d}',
  'a1b2c3d4e5f64a7b8c9d0e1f2a3b4c5d',
  'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d0',
  ' a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d',
];

/** Asserts that each malformed UUID given to a filter is a 400 naming the filter. */
export async function expectUuidFilter(api: Api, path: string, parameter: string): Promise<void> {
  for (const value of MALFORMED_IDS) {
    expectError(await api.get(`/brands/acme/${path}${qs({ [parameter]: value })}`), 400, 'invalid_parameter', [parameter]);
  }
  expectError(await api.get(`/brands/acme/${path}?${parameter}=`), 400, 'invalid_parameter', [parameter]);
  // A well-formed UUID that matches nothing is no error.
  const none = await api.get(`/brands/acme/${path}${qs({ [parameter]: randomUUID() })}`);
  expect(none.status, none.text).to.equal(200);
  expect(none.body).to.deep.equal({ items: [], nextCursor: null, totalItems: 0 });
}

/** Asserts the length rule of a string filter: empty and 256 characters are 400, 1 and 255 are fine. */
export async function expectStringFilterLength(api: Api, path: string, parameter: string): Promise<void> {
  expectError(await api.get(`/brands/acme/${path}?${parameter}=`), 400, 'invalid_parameter', [parameter]);
  expectError(await api.get(`/brands/acme/${path}${qs({ [parameter]: 'x'.repeat(256) })}`), 400, 'invalid_parameter', [parameter]);
  expectError(await api.get(`/brands/acme/${path}${qs({ [parameter]: 'a'.repeat(1000) })}`), 400, 'invalid_parameter', [parameter]);
  for (const value of ['x', 'x'.repeat(255)]) {
    const response = await api.get(`/brands/acme/${path}${qs({ [parameter]: value })}`);
    expect(response.status, response.text).to.equal(200);
  }
}

/**
 * Asserts that an exact filter takes any of several values (CONTRACT.md §8):
 * given twice with the same value it answers as given once, and given more
 * than 100 times it is a 400 naming it.
 */
export async function expectAnyOf(api: Api, path: string, parameter: string, value: string): Promise<void> {
  const v = encodeURIComponent(value);
  const once = await api.get(`/brands/acme/${path}?${parameter}=${v}`);
  const twice = await api.get(`/brands/acme/${path}?${parameter}=${v}&${parameter}=${v}`);
  expect(once.status, once.text).to.equal(200);
  expect(twice.status, twice.text).to.equal(200);
  expect(twice.body).to.deep.equal(once.body);
  const tooMany = Array.from({ length: 101 }, () => `${parameter}=${v}`).join('&');
  expectError(await api.get(`/brands/acme/${path}?${tooMany}`), 400, 'invalid_parameter', [parameter]);
}

export interface CommonRules {
  /** The family's path. */
  path: string;
  /** Declared include names ([] when the family declares none). */
  includes: readonly string[];
  /** A declared filter name and a valid value for it (for the single-record and repeat checks). */
  filter: { name: string; value: string };
  /**
   * Inserts exactly one record of the family for a brand (and, in other
   * families, whatever it references), returning the inserted record.
   */
  make(brandId: string): Promise<Record<string, any>>;
}

/**
 * The rules of CONTRACT.md that every family shares: brand isolation on the
 * list, the count and by id; the single-record route; unknown, repeated and
 * undeclared parameters; includes; the empty list.
 */
export function describeCommonRules(api: Api, rules: CommonRules): void {
  const { path } = rules;
  describe(`common rules of /brands/{brand}/${path}`, () => {
    it('never lists, counts or returns by id a record of another brand', async () => {
      const mine = [await rules.make(api.brand.id), await rules.make(api.brand.id)];
      const theirs = await rules.make(api.other.id);
      const list = await api.get(`/brands/acme/${path}`);
      expect(ids(list)).to.deep.equal(listOrder(mine).map((r) => r.id));
      expect(list.body.totalItems).to.equal(2);
      expectError(await api.get(`/brands/acme/${path}/${theirs.id}`), 404, 'not_found');
      // The other brand's record exists, for its own key, and that list holds nothing of acme.
      const theirList = await api.server.request(`/brands/globex/${path}`, { key: api.otherKey });
      expect(ids(theirList)).to.deep.equal([theirs.id]);
      expect(theirList.body.totalItems).to.equal(1);
      const theirOne = await api.server.request(`/brands/globex/${path}/${theirs.id}`, { key: api.otherKey });
      expect(theirOne.status, theirOne.text).to.equal(200);
      expect(theirOne.body.id).to.equal(theirs.id);
      expectError(await api.server.request(`/brands/globex/${path}/${mine[0]!.id}`, { key: api.otherKey }), 404, 'not_found');
    });

    it('returns the bare record by id, equal to its list item', async () => {
      const record = await rules.make(api.brand.id);
      const list = await api.get(`/brands/acme/${path}`);
      expect(list.status, list.text).to.equal(200);
      const item = (list.body.items as { id: string }[]).find((i) => i.id === record.id);
      expect(item, 'the record is listed').to.not.equal(undefined);
      const one = await api.get(`/brands/acme/${path}/${record.id}`);
      expect(one.status, one.text).to.equal(200);
      expect(one.headers.get('content-type')).to.match(/^application\/json/);
      expect(one.body).to.deep.equal(item);
      expect(one.body).to.not.have.any.keys('items', 'item', 'data', 'nextCursor', 'totalItems');
      expect(one.headers.get('link')).to.equal(null);
    });

    it('answers 404 not_found for an unknown id', async () => {
      await rules.make(api.brand.id);
      expectError(await api.get(`/brands/acme/${path}/${randomUUID()}`), 404, 'not_found');
    });

    it('answers 400 invalid_parameter for a malformed id', async () => {
      for (const id of MALFORMED_IDS.filter((value) => !value.startsWith(' '))) {
        expectError(await api.get(`/brands/acme/${path}/${encodeURIComponent(id)}`), 400, 'invalid_parameter', ['id']);
      }
    });

    it('rejects every query parameter but include on the single-record route', async () => {
      const record = await rules.make(api.brand.id);
      for (const [name, value] of [['limit', '5'], ['cursor', 'abc.def'], [rules.filter.name, rules.filter.value], ['foo', 'bar']] as const) {
        expectError(await api.get(`/brands/acme/${path}/${record.id}${qs({ [name]: value })}`), 400, 'invalid_parameter', [name]);
      }
    });

    it('rejects an undeclared parameter on the list, naming it, and takes any of an exact filter\'s values', async () => {
      await rules.make(api.brand.id);
      expectError(await api.get(`/brands/acme/${path}?foo=1`), 400, 'invalid_parameter', ['foo']);
      expectError(await api.get(`/brands/acme/${path}?page=2`), 400, 'invalid_parameter', ['page']);
      expectError(await api.get(`/brands/acme/${path}?foo=1&bar=2`), 400, 'invalid_parameter', ['foo', 'bar']);
      await expectAnyOf(api, path, rules.filter.name, rules.filter.value);
      const upper = rules.filter.name.charAt(0).toUpperCase() + rules.filter.name.slice(1);
      expectError(await api.get(`/brands/acme/${path}${qs({ [upper]: rules.filter.value })}`), 400, 'invalid_parameter', [upper]);
    });

    it('answers an empty list with no next page', async () => {
      await rules.make(api.other.id);
      const response = await api.get(`/brands/acme/${path}`);
      expect(response.status, response.text).to.equal(200);
      expect(response.body).to.deep.equal({ items: [], nextCursor: null, totalItems: 0 });
      expect(response.headers.get('link')).to.equal(null);
    });

    if (rules.includes.length === 0) {
      it('answers any include with 400 unsupported_include, on the list and by id', async () => {
        const record = await rules.make(api.brand.id);
        for (const include of ['product', 'brand', 'option', 'id', 'a,b']) {
          expectError(await api.get(`/brands/acme/${path}${qs({ include })}`), 400, 'unsupported_include');
          expectError(await api.get(`/brands/acme/${path}/${record.id}${qs({ include })}`), 400, 'unsupported_include');
        }
      });
    } else {
      it('answers an unknown include with 400 unsupported_include, on the list and by id, even among known ones', async () => {
        const record = await rules.make(api.brand.id);
        const known = rules.includes[0]!;
        for (const include of ['bogus', `${known},bogus`, known.toUpperCase(), 'brand', 'id']) {
          expectError(await api.get(`/brands/acme/${path}${qs({ include })}`), 400, 'unsupported_include');
          expectError(await api.get(`/brands/acme/${path}/${record.id}${qs({ include })}`), 400, 'unsupported_include');
        }
        // Parameters are checked before the record: an unknown id with a bad include is still the 400.
        expectError(await api.get(`/brands/acme/${path}/${randomUUID()}?include=bogus`), 400, 'unsupported_include');
      });

      it('embeds every declared include on the list and by id, and include given twice is a 400', async () => {
        const record = await rules.make(api.brand.id);
        const include = rules.includes.join(',');
        const list = await api.get(`/brands/acme/${path}${qs({ include })}`);
        expect(list.status, list.text).to.equal(200);
        const item = (list.body.items as { id: string }[]).find((i) => i.id === record.id);
        for (const name of rules.includes) expect(item).to.have.property(name);
        const one = await api.get(`/brands/acme/${path}/${record.id}${qs({ include })}`);
        expect(one.status, one.text).to.equal(200);
        expect(one.body).to.deep.equal(item);
        // Without include, no include key appears.
        const bare = await api.get(`/brands/acme/${path}/${record.id}`);
        expect(bare.body).to.not.have.any.keys(...rules.includes);
        const twice = `include=${rules.includes[0]}&include=${rules.includes[0]}`;
        expectError(await api.get(`/brands/acme/${path}?${twice}`), 400, 'invalid_parameter', ['include']);
        expectError(await api.get(`/brands/acme/${path}/${record.id}?${twice}`), 400, 'invalid_parameter', ['include']);
      });
    }
  });
}

/** Inserts and returns one record (the single-record form of `insert`). */
export async function insertOne(path: string, brandId: string | null, record: RecordInput = {}): Promise<Record<string, any>> {
  const [inserted] = await insert(path, brandId, [record]);
  return inserted!;
}

/** `createdAt` of a record as the API writes it: ISO 8601 UTC with milliseconds. */
export function iso(at: string): string {
  return new Date(at).toISOString();
}
