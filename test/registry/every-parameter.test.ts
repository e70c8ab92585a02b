import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { loadRegistry } from '../../src/engine/definition/registry.ts';
import type { Resource } from '../../src/engine/definition/resource.ts';
import { expectErrorBody } from '../support/error-body.ts';
import { familiesInRun, familiesInRunNote } from '../support/families-in-run.ts';
import { resetToBrand } from '../support/fixtures.ts';
import { rawRequest, type RawResponse } from '../support/raw-request.ts';
import { useServer } from '../support/use-server.ts';
import { unicodeSpaces } from '../support/unicode-text.ts';
import { listedFamilies } from '../support/registry-lookups.ts';

/**
 * Issue 16, points 1, 5 and 6, over HTTP on every family of the registry:
 * a date or timestamp parameter with any Unicode space between date and time
 * is a 400 naming the character (it was a 500: AJV's `date-time` format took
 * any `\s`, Postgres did not); the messages of a timestamp without a zone or
 * with an unencoded `+` say what is wrong and show a valid value; an empty
 * `include=` on a family without includes is `unsupported_include`.
 */

const BASE = '/api/public/v1';

const codePoint = (char: string): string => `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
const escape = (char: string): string => [...Buffer.from(char, 'utf8')].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join('');

const listed = listedFamilies(await loadRegistry());

describe(`every date and timestamp parameter of every family, and include${familiesInRunNote(listed)}`, function () {
  this.timeout(120_000);
  const server = useServer();
  let key: string;
  let families: readonly Resource[];

  before(async () => {
    ({ key } = await resetToBrand());
    families = familiesInRun(listed);
  });

  const get = (path: string): Promise<RawResponse> => rawRequest(server.origin, path, { headers: { Authorization: `Bearer ${key}` } });

  /** Runs the requests a few at a time (hundreds at once would only queue in the server). */
  async function each<T>(items: readonly T[], check: (item: T) => Promise<void>): Promise<void> {
    for (let i = 0; i < items.length; i += 16) await Promise.all(items.slice(i, i + 16).map(check));
  }

  /** Every date or timestamp filter of every family, with its family. */
  function dateTimeParameters(): { resource: Resource; name: string; type: string }[] {
    return families.flatMap((resource) => resource.filters
      .filter((filter) => filter.targets.some((target) => target.type === 'timestamp' || target.type === 'date'))
      .map((filter) => ({ resource, name: filter.name, type: filter.targets[0]!.type })));
  }

  function expectParameterIssue(response: RawResponse, parameter: string, what: string): string {
    expect(response.status, `${what}: ${response.text}`).to.equal(400);
    expectErrorBody(response.body, 'invalid_parameter', { details: 'required' });
    const issue = (response.body.details as { parameter: string; message: string }[]).find((detail) => detail.parameter === parameter);
    expect(issue, `${what}: details should name ${parameter}: ${response.text}`).to.not.equal(undefined);
    return issue!.message;
  }

  it('answers a non-ASCII space between date and time with 400 naming the character, never 500, on every such parameter', async () => {
    const parameters = dateTimeParameters();
    expect(parameters.length, 'date and timestamp parameters in the registry').to.be.above(0);
    const spaces = unicodeSpaces().filter((space) => space !== ' ');
    // U+00A0 on every parameter (issue 16's case), and each other space on some parameter: all of them in one pass.
    const cases = parameters.flatMap((parameter, i) => [
      { ...parameter, space: '\u00a0' },
      { ...parameter, space: spaces[i % spaces.length]! },
    ]);
    await each(cases, async ({ resource, name, type, space }) => {
      const value = type === 'date' ? `2026-01-01${escape(space)}` : `2026-01-01${escape(space)}00:00:00Z`;
      const what = `${resource.path}?${name}=${value}`;
      const message = expectParameterIssue(await get(`${BASE}/brands/acme/${resource.path}?${name}=${value}`), name, what);
      expect(message, what).to.contain(`contains ${codePoint(space)}`);
      expect(message, what).to.match(/such as 2026-03-01/);
    });
  });

  it('says what is wrong with a timestamp without a zone or with an unencoded +, and shows a valid one, on every such parameter', async () => {
    const timestamps = dateTimeParameters().filter((parameter) => parameter.type === 'timestamp');
    await each(timestamps, async ({ resource, name }) => {
      const path = `${BASE}/brands/acme/${resource.path}`;
      const noZone = expectParameterIssue(await get(`${path}?${name}=2026-01-01T00:00:00`), name, `${resource.path} without a zone`);
      expect(noZone).to.equal('has no time zone: end it with Z for UTC or with an offset such as +02:00, as in 2026-01-01T00:00:00Z');
      const plus = expectParameterIssue(await get(`${path}?${name}=2026-01-01T00:00:00+01:00`), name, `${resource.path} with a raw +`);
      expect(plus).to.contain("an unencoded '+' is read as a space, so send it as %2B (2026-01-01T00:00:00%2B01:00)");
      const encoded = await get(`${path}?${name}=2026-01-01T00:00:00%2B01:00`);
      expect(encoded.status, `${resource.path} with %2B: ${encoded.text}`).to.equal(200);
    });
  });

  it('answers include= (empty, or any other) with 400 unsupported_include on a family that declares no include, on the list and by id', async () => {
    const without = families.filter((resource) => resource.includes.length === 0);
    expect(without.length, 'families without includes').to.be.above(0);
    await each(without, async (resource) => {
      for (const path of [`${BASE}/brands/acme/${resource.path}`, `${BASE}/brands/acme/${resource.path}/${randomUUID()}`]) {
        for (const include of ['', ',', 'x'.repeat(2000)]) {
          const response = await get(`${path}?include=${include}`);
          expect(response.status, `${path}?include=${include.slice(0, 20)}: ${response.text}`).to.equal(400);
          expectErrorBody(response.body, 'unsupported_include', { details: 'required' });
          expect(response.body.details).to.deep.equal([{ parameter: 'include', message: `${resource.path} has no includes: leave include out` }]);
        }
      }
    });
  });

  it('answers include= (empty) with 400 invalid_parameter on a family that declares includes: it names none of them', async () => {
    const withIncludes = families.filter((resource) => resource.includes.length > 0);
    await each(withIncludes, async (resource) => {
      const message = expectParameterIssue(await get(`${BASE}/brands/acme/${resource.path}?include=`), 'include', `${resource.path}?include=`);
      expect(message).to.equal('must not be empty');
    });
  });
});
