import { defineResource } from '../src/engine/definition/define-resource.ts';

export default defineResource({
  path: 'product-launch-windows',
  scope: 'brand',
  area: 'catalog',
  description: 'Schedules a product into a launch window.',
  fields: {
    id: { type: 'uuid' },
    productId: { type: 'uuid', references: 'products' },
    launchWindowId: { type: 'uuid', references: 'launch-windows' },
    createdAt: { type: 'timestamp', nullable: false },
    updatedAt: { type: 'timestamp', nullable: false },
  },
  filters: {
    productId: { field: 'productId', match: 'exact' },
    launchWindowId: { field: 'launchWindowId', match: 'exact' },
  },
  includes: {
    product: { resource: 'products', on: { productId: 'id' } },
    launchWindow: { resource: 'launch-windows', on: { launchWindowId: 'id' } },
  },
  countable: ['productId', 'launchWindowId'],
});
