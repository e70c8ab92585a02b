import type { Include, Resource } from '../../src/engine/definition/resource.ts';
import { renderedValue } from '../support/record-factory.ts';
import type { TestResponse } from '../support/test-server.ts';
import type { PlantedRow } from './plant-world.ts';
import { describeRecord, type Matrix, type Problems } from './probe.ts';
import { canSee, fieldValue, includedIds, joinedFields } from './visibility.ts';

/**
 * Checks one record of a response against the oracle: it is a record the
 * path's brand may see, its fields read through joins hold only what the
 * brand's joined row holds (null when the join names another brand's row),
 * and every include embeds exactly the related records the brand may see.
 */
export function checkRecord({ problems, where, matrix, resource, brandId, body, includes = [], sparse = null }: {
  problems: Problems;
  where: string;
  matrix: Matrix;
  resource: Resource;
  brandId: string;
  body: unknown;
  includes?: readonly Include[];
  /** The fields asked for with `fields=`, or null for every field. */
  sparse?: readonly string[] | null;
}): void {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    problems.add(where, `expected a ${resource.path} record, got ${JSON.stringify(body)}`);
    return;
  }
  const record = body as Record<string, unknown>;
  const row = typeof record.id === 'string' ? matrix.world.byId(record.id) : undefined;
  if (!row || row.family !== resource.path || !canSee(resource, row, brandId)) {
    problems.add(where, `LEAK: brand ${matrix.world.brandName(brandId) ?? brandId} must never see ${describeRecord(matrix.world, record.id)}`);
    return;
  }
  if (sparse !== null) {
    const keys = Object.keys(record).sort();
    const wanted = [...sparse, ...includes.map((include) => include.name)].sort();
    if (JSON.stringify(keys) !== JSON.stringify(wanted)) problems.add(where, `fields=${sparse.join(',')}: ${describeRecord(matrix.world, record.id)} has the keys ${keys.join(',')}`);
  } else {
    for (const field of joinedFields(resource)) {
      const expected = renderedValue(field.type, fieldValue(matrix, { resource, field, row, brandId }));
      if (JSON.stringify(record[field.name]) !== JSON.stringify(expected)) {
        problems.add(where, `${field.name} of ${describeRecord(matrix.world, record.id)}, read through join '${field.join}', is ${JSON.stringify(record[field.name])}: expected ${JSON.stringify(expected)} (another brand's joined row must read as null)`);
      }
    }
  }
  for (const include of includes) checkEmbedded({ problems, where, matrix, resource, brandId, record, include, row });
}

function checkEmbedded({ problems, where, matrix, resource, brandId, record, include, row }: {
  problems: Problems;
  where: string;
  matrix: Matrix;
  resource: Resource;
  brandId: string;
  record: Record<string, unknown>;
  include: Include;
  row: PlantedRow;
}): void {
  const related = matrix.registry.get(include.resource);
  const expected = includedIds(matrix, { resource, include, row, brandId });
  const at = `${where}, include ${include.name} of ${describeRecord(matrix.world, record.id)}`;
  if (!(include.name in record)) {
    problems.add(at, 'the include is missing from the record');
    return;
  }
  const embedded = record[include.name];
  if (include.cardinality === 'one') {
    if (embedded === null) {
      if (expected.length > 0) problems.add(at, `null, expected ${describeRecord(matrix.world, expected[0])}`);
      return;
    }
    const id = (embedded as Record<string, unknown>).id;
    if (id !== expected[0]) {
      problems.add(at, expected.length === 0 ? `expected null, embedded ${leakOrNot(matrix, related, brandId, id)}` : `embedded ${leakOrNot(matrix, related, brandId, id)}, expected ${describeRecord(matrix.world, expected[0])}`);
      return;
    }
    checkRecord({ problems, where: at, matrix, resource: related, brandId, body: embedded });
    return;
  }
  if (!Array.isArray(embedded)) {
    problems.add(at, `expected an array, got ${JSON.stringify(embedded)}`);
    return;
  }
  problems.ids({ where: at, matrix, resource: related, brandId, actual: embedded.map((child) => (child as Record<string, unknown>)?.id), expected });
  for (const child of embedded) {
    const id = (child as Record<string, unknown>)?.id;
    if (typeof id === 'string' && expected.includes(id)) checkRecord({ problems, where: at, matrix, resource: related, brandId, body: child });
  }
}

function leakOrNot(matrix: Matrix, related: Resource, brandId: string, id: unknown): string {
  const row = typeof id === 'string' ? matrix.world.byId(id) : undefined;
  const leak = !row || row.family !== related.path || !canSee(related, row, brandId);
  return `${leak ? `(LEAK: brand ${matrix.world.brandName(brandId) ?? brandId} must never see it) ` : ''}${describeRecord(matrix.world, id)}`;
}

/**
 * Checks a list response: 200, exactly the expected records (a record the
 * brand may not see is a LEAK), `totalItems` their number, no next page (the
 * matrix asks for 100, more than any family holds), and each record as above.
 */
export function checkList({ problems, where, matrix, resource, brandId, response, expected, includes = [], sparse = null }: {
  problems: Problems;
  where: string;
  matrix: Matrix;
  resource: Resource;
  brandId: string;
  response: TestResponse;
  expected: readonly string[];
  includes?: readonly Include[];
  sparse?: readonly string[] | null;
}): void {
  if (!problems.status(where, response, 200)) return;
  const items: unknown = response.body?.items;
  if (!Array.isArray(items)) {
    problems.add(where, `expected a list body, got ${response.text.slice(0, 300)}`);
    return;
  }
  problems.ids({ where, matrix, resource, brandId, actual: items.map((item) => (item as Record<string, unknown>)?.id), expected });
  if (response.body.totalItems !== expected.length) problems.add(where, `totalItems is ${JSON.stringify(response.body.totalItems)}, expected ${expected.length}`);
  if (response.body.nextCursor !== null) problems.add(where, `nextCursor is ${JSON.stringify(response.body.nextCursor)}, expected null`);
  // Records not expected are reported above; the rest must also be right inside.
  for (const item of items) {
    if (expected.includes(String((item as Record<string, unknown>)?.id))) checkRecord({ problems, where, matrix, resource, brandId, body: item, includes, sparse });
  }
}
