import { expect } from 'chai';
import { DEFAULT_SORT, listSorts } from '../../../src/engine/compile/list-sorts.ts';
import { createRegistry, loadRegistry } from '../../../src/engine/definition/registry.ts';
import type { ResourceDefinition } from '../../../src/engine/definition/resource-definition.ts';

const brands: ResourceDefinition = { path: 'brands', scope: 'tenant', area: 'reference', fields: { id: { type: 'uuid' }, slug: { type: 'string' }, createdAt: { type: 'timestamp', nullable: false } } };
const orders: ResourceDefinition = {
  path: 'orders',
  scope: 'brand', area: 'orders',
  fields: {
    id: { type: 'uuid' }, code: { type: 'string' }, totalAmount: { type: 'decimal' }, orderedOn: { type: 'date' },
    createdAt: { type: 'timestamp', nullable: false }, updatedAt: { type: 'timestamp', nullable: false },
  },
  sorts: ['orderedOn', 'totalAmount'],
};

describe('listSorts', () => {
  const registry = createRegistry([brands, orders]);

  it('gives each sort field ascending then descending, createdAt and updatedAt first, then the declared ones in order', () => {
    const sorts = listSorts(registry.get('orders'));
    expect([...sorts.keys()]).to.deep.equal(['createdAt', '-createdAt', 'updatedAt', '-updatedAt', 'orderedOn', '-orderedOn', 'totalAmount', '-totalAmount']);
    expect(sorts.get('-totalAmount')).to.deep.include({ name: '-totalAmount', descending: true });
    expect(sorts.get('-totalAmount')!.field.name).to.equal('totalAmount');
    expect(sorts.get('orderedOn')).to.deep.include({ name: 'orderedOn', descending: false });
    expect(sorts.get('-totalAmount')!.field, 'the family\'s own field').to.equal(registry.get('orders').fields.find((field) => field.name === 'totalAmount'));
  });

  it('takes no field that is not a sort: a field of the record is not a sort by itself', () => {
    const sorts = listSorts(registry.get('orders'));
    for (const name of ['code', '-code', 'id', '+createdAt', '--createdAt']) expect(sorts.has(name), name).to.equal(false);
    // The tenant family has no list: one record a brand.
    expect(listSorts(registry.get('brands')).size).to.equal(0);
  });

  it('freezes every sort, so no request can change what another reads', () => {
    for (const sort of listSorts(registry.get('orders')).values()) expect(Object.isFrozen(sort), sort.name).to.equal(true);
  });

  it('has the default sort, createdAt ascending, in every family of the repository with a list', async () => {
    for (const resource of (await loadRegistry()).resources.filter((family) => family.scope !== 'tenant')) {
      expect(listSorts(resource).get(DEFAULT_SORT), resource.path).to.deep.include({ name: 'createdAt', descending: false });
    }
  });
});
