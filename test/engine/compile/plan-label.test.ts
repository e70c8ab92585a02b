import { expect } from 'chai';
import { listSorts } from '../../../src/engine/compile/list-sorts.ts';
import { compileRegistry } from '../../../src/engine/compile/compile-registry.ts';
import type { PlanLabel } from '../../../src/engine/compile/plan-label.ts';
import type { SqlFragment } from '../../../src/engine/compile/sql-fragment.ts';
import { loadRegistry } from '../../../src/engine/definition/registry.ts';

const registry = await loadRegistry();
const BRAND = '5a1e0000-0000-4000-8000-00000000b0a0';
const ID = '5a1e0000-0000-4000-8000-0000000000d1';
const AFTER = { createdAt: '2026-03-01T09:30:00.123456Z', id: '5a1e0000-0000-4000-8000-0000000000af' };

describe('planLabel: every compiled statement names its family and operation, and never a value', () => {
  for (const family of compileRegistry(registry).values()) {
    const { resource, queries, changes } = family;
    it(`labels every plan of ${resource.path}`, () => {
      const count = queries.count({ brandId: BRAND, filters: {} });
      const field = resource.recordFields[0]!.name;
      const plans: [SqlFragment, PlanLabel['operation']][] = [
        [queries.page({ brandId: BRAND, filters: {}, after: AFTER, limit: 25, sort: family.sorts.get('createdAt') ?? listSorts(resource).get('createdAt') ?? { name: 'createdAt', field: resource.fields.find((f) => f.name === 'createdAt')!, descending: false } }), 'page'],
        [count.count, 'count'],
        [count.changedSince('990'), 'count check'],
        [queries.one({ brandId: BRAND, id: ID }), 'one'],
        [queries.matching({ brandId: BRAND, field, values: [ID], limit: 5001 }), 'include'],
        ...(resource.scope === 'tenant' ? [] : [
          [changes.start({ brandId: BRAND, since: '990', seen: [] }), 'changes start'],
          [changes.page({ brandId: BRAND, since: '990', after: ID, limit: 100, walk: 'small' }), 'changes page'],
        ] as [SqlFragment, PlanLabel['operation']][]),
      ];
      for (const [plan, operation] of plans) {
        expect(plan.label, operation).to.deep.equal({ family: resource.path, table: resource.table, operation });
        expect(Object.isFrozen(plan.label)).to.equal(true);
        expect(JSON.stringify(plan.label)).to.not.match(/5a1e0000|990|2026-03-01/);
      }
    });
  }
});
