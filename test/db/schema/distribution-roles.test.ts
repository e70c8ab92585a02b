import { expect } from 'chai';
import { distributionRoles, ROLE_OF_SCOPE } from '../../../src/db/schema/distribution-roles.ts';
import { SERVICE_TABLES } from '../../../src/db/schema/service-tables.ts';
import type { SchemaPlan } from '../../../src/engine/compile/plan-schema.ts';

describe('distributionRoles', () => {
  it('distributes brand-scoped tables and copies the rest, the service tables included', () => {
    const schema: SchemaPlan = {
      tables: [
        { name: 'brands', scope: 'tenant', columns: [] },
        { name: 'units', scope: 'shared', columns: [] },
        { name: 'products', scope: 'brand', columns: [] },
      ],
      indexes: [],
    };
    expect([...distributionRoles(schema)]).to.deep.equal([
      ['brands', 'reference'],
      ['units', 'reference'],
      ['products', 'distributed'],
      ...SERVICE_TABLES.map((table) => [table.name, 'reference']),
    ]);
    expect(ROLE_OF_SCOPE).to.deep.equal({ brand: 'distributed', shared: 'reference', tenant: 'reference' });
  });
});
