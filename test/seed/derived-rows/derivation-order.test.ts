import { expect } from 'chai';
import { createRegistry } from '../../../src/engine/definition/registry.ts';
import type { FieldDefinition, ResourceDefinition } from '../../../src/engine/definition/resource-definition.ts';
import { derivationOrder } from '../../../src/seed/derived-rows/derivation-order.ts';

/** A brand family with an id, a creation time and the given links. */
function family(path: string, links: Readonly<Record<string, FieldDefinition>> = {}): ResourceDefinition {
  return { path, scope: 'brand', area: 'catalog', fields: { id: { type: 'uuid' }, ...links, createdAt: { type: 'timestamp', nullable: false } } };
}

describe('derivationOrder', () => {
  const registry = createRegistry([
    family('anchors'),
    family('bolts', { nutId: { type: 'uuid', references: 'nuts' } }),
    family('nuts', { anchorId: { type: 'uuid', references: 'anchors' }, boltId: { type: 'uuid', references: 'bolts' } }),
    family('washers', { nutId: { type: 'uuid', references: 'nuts' }, selfId: { type: 'uuid', references: 'washers' } }),
    family('zips'),
  ]);

  it('is path order for families that do not link to each other', () => {
    expect(derivationOrder({ registry, paths: ['zips', 'anchors'] })).to.deep.equal(['anchors', 'zips']);
  });

  it('puts a family after the derived families it links to; a link to itself or to a family with rows already does not count', () => {
    expect(derivationOrder({ registry, paths: ['washers', 'nuts', 'anchors'] })).to.deep.equal(['anchors', 'nuts', 'washers']);
    expect(derivationOrder({ registry, paths: ['washers', 'zips'] })).to.deep.equal(['washers', 'zips']);
  });

  it('takes families that link to each other in path order, after what they depend on', () => {
    expect(derivationOrder({ registry, paths: ['nuts', 'bolts', 'anchors', 'washers'] })).to.deep.equal(['anchors', 'bolts', 'nuts', 'washers']);
  });
});
