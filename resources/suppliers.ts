import { defineResource } from '../src/engine/definition/define-resource.ts';

export default defineResource({
  path: 'suppliers',
  scope: 'brand',
  description: 'A partner the brand buys products or materials from, with its commercial defaults.',
  fields: {
    id: { type: 'uuid' },
    partnerId: { type: 'uuid', references: 'partners', description: 'The company record behind the supplier.' },
    code: { type: 'string' },
    name: { type: 'string' },
    status: { type: 'string', description: 'Such as prospect, active, suspended, inactive.' },
    countryId: { type: 'uuid', references: 'countries' },
    paymentTermId: { type: 'uuid', references: 'payment-terms', description: 'Default payment terms.' },
    currency: { type: 'string', description: 'Default currency, ISO 4217 code such as USD.' },
    leadTimeDays: { type: 'integer', description: 'Usual production lead time, in days.' },
    createdAt: { type: 'timestamp', nullable: false },
    updatedAt: { type: 'timestamp', nullable: false },
  },
  filters: {
    partnerId: { field: 'partnerId', match: 'exact' },
    code: { field: 'code', match: 'exact' },
    status: { field: 'status', match: 'exact' },
    countryId: { field: 'countryId', match: 'exact' },
    paymentTermId: { field: 'paymentTermId', match: 'exact' },
    currency: { field: 'currency', match: 'exact' },
    search: { fields: ['name', 'code'], match: 'contains-ci' },
  },
  includes: {
    partner: { resource: 'partners', on: { partnerId: 'id' } },
    country: { resource: 'countries', on: { countryId: 'id' } },
    paymentTerm: { resource: 'payment-terms', on: { paymentTermId: 'id' } },
    quotes: { resource: 'quotes', on: { id: 'supplierId' } },
    materials: { resource: 'materials', on: { id: 'supplierId' } },
    orders: { resource: 'orders', on: { id: 'supplierId' } },
  },
});
