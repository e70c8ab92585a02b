import { expect } from 'chai';
import type { Resource } from '../../src/engine/definition/resource.ts';
import type { TestResponse, TestServer } from '../support/test-server.ts';
import { KEY_GRANTS, type BrandName, type KeyName, type World } from './plant-world.ts';
import { canSee, type Oracle } from './visibility.ts';

/**
 * Requests and readable failures for the matrix. A check gathers every
 * problem it finds (each naming the family, route, key, parameters and the
 * offending record) and fails once with all of them, so one run shows the
 * whole extent of a leak.
 */

/** What every check needs; the world and server exist once the suite's `before` has run. */
export interface Matrix extends Oracle {
  readonly server: TestServer;
  /** The same app with production's key cache. */
  readonly cachedServer: Pick<TestServer, 'request'>;
}

/** A brand of the world, or a slug no brand has. */
export type PathBrand = BrandName | 'unknown';

export function slugOf(world: World, brand: PathBrand): string {
  return brand === 'unknown' ? world.unknownSlug : world.brands[brand].slug;
}

export function query(params: Readonly<Record<string, string>> = {}): string {
  const text = new URLSearchParams(params).toString();
  return text ? `?${text}` : '';
}

export const listPath = (world: World, resource: Resource, brand: PathBrand, params: Readonly<Record<string, string>> = {}): string =>
  `/brands/${slugOf(world, brand)}/${resource.path}${query(params)}`;

export const recordPath = (world: World, resource: Resource, brand: PathBrand, id: string, params: Readonly<Record<string, string>> = {}): string =>
  `/brands/${slugOf(world, brand)}/${resource.path}/${id}${query(params)}`;

export const keyLabel = (key: KeyName): string => `${key} (brands ${KEY_GRANTS[key].join('+')})`;

/** One request, labelled for messages: `GET <path> with keyA (brands A)`. */
export interface Probe {
  readonly path: string;
  readonly key: KeyName;
  /** Sent to the server with the key cache instead of the test server. */
  readonly cached?: boolean;
}

/** `[family] GET <path> with <key>`; a cursor is shortened (the case says whose it is). */
export const label = (family: string, probe: Probe): string =>
  `[${family}] GET ${decodeURIComponent(probe.path).replace(/cursor=[^&]+/, 'cursor=...')} with ${keyLabel(probe.key)}${probe.cached ? ' through the key cache' : ''}`;

export function send(matrix: Matrix, probe: Probe): Promise<TestResponse> {
  return (probe.cached ? matrix.cachedServer : matrix.server).request(probe.path, { key: matrix.world.keys[probe.key] });
}

/** Sends requests a few at a time (they only read): enough to overlap, not enough to swamp a 2-core machine. */
export async function sendAll(matrix: Matrix, probes: readonly Probe[], concurrency = 6): Promise<TestResponse[]> {
  const responses: TestResponse[] = new Array(probes.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < probes.length) {
      const index = next;
      next += 1;
      responses[index] = await send(matrix, probes[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, probes.length) }, worker));
  return responses;
}

/** A record named for a reader: family, role, owner and id. */
export function describeRecord(world: World, id: unknown): string {
  const row = typeof id === 'string' ? world.byId(id) : undefined;
  if (!row) return `an unplanted record ${JSON.stringify(id)}`;
  const owner = row.owner === 'shared' ? 'a shared row (no brand)' : `brand ${row.owner}`;
  return `${row.family} record ${row.record.id as string} (role ${row.role}, of ${owner})`;
}

/** The problems one check found; `assertNone` fails with all of them. */
export class Problems {
  readonly list: string[] = [];

  add(where: string, message: string): void {
    this.list.push(`${where}: ${message}`);
  }

  /** Whether the response has the status (and error code); a problem otherwise. */
  status(where: string, response: TestResponse, status: number, errorCode?: string): boolean {
    if (response.status !== status || (errorCode !== undefined && response.body?.errorCode !== errorCode)) {
      this.add(where, `expected ${status}${errorCode ? ` ${errorCode}` : ''}, got ${response.status} ${response.text.slice(0, 300)}`);
      return false;
    }
    return true;
  }

  /**
   * The ids returned must be exactly the expected ones. A record the path's
   * brand may not see is flagged as a LEAK, naming its family, role, owner and id.
   */
  ids({ where, matrix, resource, brandId, actual, expected }: {
    where: string;
    matrix: Matrix;
    resource: Resource;
    brandId: string;
    actual: readonly unknown[];
    expected: readonly string[];
  }): void {
    const { world } = matrix;
    const seen = new Set<string>();
    for (const id of actual) {
      const key = String(id);
      if (seen.has(key)) this.add(where, `returned ${describeRecord(world, id)} twice`);
      seen.add(key);
      if (expected.includes(key)) continue;
      const row = world.byId(key);
      const leak = !row || row.family !== resource.path || !canSee(resource, row, brandId);
      const brand = world.brandName(brandId) ?? brandId;
      this.add(where, `${leak ? `LEAK: brand ${brand} must never see` : 'returned, though not expected:'} ${describeRecord(world, id)}`);
    }
    for (const id of expected) if (!seen.has(id)) this.add(where, `missing ${describeRecord(world, id)}`);
  }
}

/** Fails the test with every problem, one a line. */
export function assertNone(problems: Problems): void {
  const shown = problems.list.slice(0, 40);
  const more = problems.list.length > shown.length ? `\n... and ${problems.list.length - shown.length} more` : '';
  expect(problems.list.length, `\n${shown.join('\n')}${more}\n`).to.equal(0);
}

