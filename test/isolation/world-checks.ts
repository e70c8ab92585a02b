import type { Resource } from '../../src/engine/definition/resource.ts';
import type { Owner, Role } from './plant-world.ts';
import { listedFamilies } from '../support/registry-lookups.ts';
import { assertNone, describeRecord, Problems, type Matrix } from './probe.ts';
import { referenceEdges } from './reference-edges.ts';

/**
 * Checks on the planted world itself, with no request: the matrix proves
 * isolation only if every family really has rows in A, B and C, shared rows
 * where it may, clean references within the brand and cross references to
 * the other brand.
 */
export function defineWorldChecks(matrix: () => Matrix): void {
  it('plants every family in brands A, B and C (and shared rows where the family allows them)', () => {
    const m = matrix();
    const problems = new Problems();
    for (const resource of listedFamilies(m.registry)) {
      const roles = m.world.rows(resource.path).map((row) => row.role).sort();
      const wanted: Role[] = ['a1', 'a2', 'ax', 'b1', 'b2', 'bx', 'c1', ...(resource.scope === 'shared' ? (['s1', 's2'] as Role[]) : [])];
      if (JSON.stringify(roles) !== JSON.stringify(wanted.sort())) problems.add(`[${resource.path}]`, `planted roles ${roles.join(',')}`);
    }
    assertNone(problems);
  });

  it('points every reference of A\'s and B\'s clean rows at their own brand, of ax at B\'s rows and of bx at A\'s rows', () => {
    const m = matrix();
    const problems = new Problems();
    for (const resource of listedFamilies(m.registry)) {
      for (const edge of referenceEdges(m.registry, resource)) {
        expectOwner(m, problems, resource, edge.field, edge.targetField, edge.target, { a1: 'A', b1: 'B', ax: 'B', bx: 'A', c1: 'C' });
      }
    }
    assertNone(problems);
  });
}

function expectOwner(m: Matrix, problems: Problems, resource: Resource, field: string, targetField: string, target: string, owners: Partial<Record<Role, Owner>>): void {
  for (const [role, owner] of Object.entries(owners) as [Role, Owner][]) {
    const value = m.world.row(resource.path, role)?.record[field];
    const named = m.world.rows(target).find((row) => value !== null && value !== undefined && String(row.record[targetField]) === String(value));
    if (!named || named.owner !== owner) {
      problems.add(`[${resource.path}] ${role}.${field}`, `names ${named ? describeRecord(m.world, named.record.id) : JSON.stringify(value)}, expected a ${target} row of brand ${owner}`);
    }
  }
}
