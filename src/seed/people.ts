/**
 * Users of Northwind's own system who appear in the data (`...UserId`,
 * `lastEditedById`). There is no users family: these are ids only, fixed so
 * that the demo reads the same on every machine.
 */
export const PEOPLE = Object.freeze({
  /** Product designer: tech packs, notes on products, product relations. */
  designer: '5b0c7a4e-2f1d-4c8a-9e63-7d1f0a2b3c4d',
  /** Buyer: quotes, samples, orders. */
  buyer: '8e2d4b61-7c3a-4f09-b5d8-1a6e9c0f2b37',
  /** Logistics coordinator: bookings, packing lists, bills of lading. */
  logistics: 'c41f9d27-5e86-4b1a-8f3c-2d7e6a9b0c15',
  /** Accounts payable: invoices and payment confirmations. */
  finance: '2a7e5c13-9b4d-4e6f-a1c8-7f3b0d9e5a62',
});
