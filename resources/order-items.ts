import { defineResource } from '../src/engine/definition/define-resource.ts';

export default defineResource({
  path: 'order-items',
  scope: 'brand',
  area: 'orders',
  description: 'A line of a purchase order: one SKU, its quantity and price.',
  fields: {
    id: { type: 'uuid' },
    orderId: { type: 'uuid', references: 'orders' },
    productId: { type: 'uuid', references: 'products' },
    productOptionId: { type: 'uuid', references: 'product-options' },
    skuId: { type: 'uuid', references: 'skus' },
    lineNumber: { type: 'integer', description: 'Position on the order, from 1.' },
    quantity: { type: 'integer', description: 'Units ordered.' },
    unitPrice: { type: 'decimal' },
    currency: { type: 'string', description: 'ISO 4217 code, such as EUR.' },
    status: { type: 'string', description: 'Such as open, confirmed, shipped, received, cancelled.' },
    createdAt: { type: 'timestamp', nullable: false },
    updatedAt: { type: 'timestamp', nullable: false },
  },
  filters: {
    orderId: { field: 'orderId', match: 'exact' },
    productId: { field: 'productId', match: 'exact' },
    productOptionId: { field: 'productOptionId', match: 'exact' },
    skuId: { field: 'skuId', match: 'exact' },
    status: { field: 'status', match: 'exact' },
  },
  includes: {
    order: { resource: 'orders', on: { orderId: 'id' } },
    product: { resource: 'products', on: { productId: 'id' } },
    productOption: { resource: 'product-options', on: { productOptionId: 'id' } },
    sku: { resource: 'skus', on: { skuId: 'id' } },
    shipmentItems: { resource: 'shipment-items', on: { id: 'orderItemId' } },
  },
  sorts: ['lineNumber', 'quantity', 'unitPrice'],
  ranges: ['quantity', 'unitPrice'],
  countable: ['status', 'orderId', 'productId', 'productOptionId', 'skuId'],
});
