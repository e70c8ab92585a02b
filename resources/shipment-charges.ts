import { defineResource } from '../src/engine/definition/define-resource.ts';

export default defineResource({
  path: 'shipment-charges',
  scope: 'brand',
  area: 'logistics',
  description: 'A cost of moving a shipment, such as freight, duty or insurance.',
  fields: {
    id: { type: 'uuid' },
    shipmentId: { type: 'uuid', references: 'shipments' },
    partnerId: { type: 'uuid', references: 'partners', description: 'Who charges it, such as the forwarder or customs broker.' },
    chargeType: { type: 'string', description: 'Such as freight, duty, insurance, handling.' },
    amount: { type: 'decimal' },
    currency: { type: 'string', description: 'ISO 4217 code, such as EUR.' },
    invoiceId: { type: 'uuid', references: 'invoices', description: 'The invoice that bills the charge; null until invoiced.' },
    createdAt: { type: 'timestamp', nullable: false },
    updatedAt: { type: 'timestamp', nullable: false },
  },
  filters: {
    shipmentId: { field: 'shipmentId', match: 'exact' },
    partnerId: { field: 'partnerId', match: 'exact' },
    chargeType: { field: 'chargeType', match: 'exact' },
    invoiceId: { field: 'invoiceId', match: 'exact' },
  },
  includes: {
    shipment: { resource: 'shipments', on: { shipmentId: 'id' } },
    partner: { resource: 'partners', on: { partnerId: 'id' } },
    invoice: { resource: 'invoices', on: { invoiceId: 'id' } },
  },
  sorts: ['amount'],
  ranges: ['amount'],
  countable: ['shipmentId', 'partnerId', 'chargeType', 'currency', 'invoiceId'],
});
