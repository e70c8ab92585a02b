import type { LogisticsIds } from '../logistics/logistics.ts';
import type { PartyIds } from '../parties/parties.ts';
import type { SeedContext } from '../seed-context.ts';
import { money } from '../values.ts';

/** Atlas bills the freight of SH-2026-0001 (21% VAT, approved, not yet paid), and the charges are booked against its invoice. */

/** Charge type, description, amount (EUR). */
const CHARGES: readonly (readonly [string, string, string])[] = [
  ['freight', 'Ocean freight Leixões to Rotterdam, 19 cartons (1.82 cbm)', '1450.00'],
  ['pre_carriage', 'Pre-carriage Maia to Port of Leixões', '210.00'],
  ['on_carriage', 'On-carriage Port of Rotterdam to Northwind DC Tilburg', '170.00'],
  ['handling', 'Terminal handling and documentation', '95.00'],
];

/** The invoice's subtotal of the charges, 21% tax on it and the total, as decimal strings. */
export function freightAmounts(charges: readonly (readonly [string, string, string])[]): { subtotalAmount: string; taxAmount: string; totalAmount: string } {
  const subtotal = charges.reduce((sum, [, , amount]) => sum + Number(amount), 0);
  const tax = money(subtotal * 0.21);
  return { subtotalAmount: money(subtotal), taxAmount: tax, totalAmount: money(subtotal + Number(tax)) };
}

export async function seedFreightInvoice({ put, clock, brandId, parties: { suppliers, partners }, logistics }: SeedContext & {
  parties: PartyIds;
  logistics: LogisticsIds;
}): Promise<string> {
  clock.jumpTo('2026-04-10T10:00:00.000Z');
  const [invoice] = await put('invoices', brandId, [{
    supplierId: suppliers.atlas, orderId: null, shipmentId: logistics.shipments.sh1, code: 'ATL-26-0918', type: 'freight', status: 'approved',
    currency: 'EUR', issuedOn: '2026-04-09', dueOn: '2026-05-09', ...freightAmounts(CHARGES),
  }]);
  await put('invoice-lines', brandId, CHARGES.map(([, description, amount]) => ({
    invoiceId: invoice!.id, orderItemId: null, skuId: null, description, quantity: 1, unitPrice: amount, amount, currency: 'EUR',
  })));
  await put('shipment-charges', brandId, CHARGES.map(([chargeType, , amount]) => ({
    shipmentId: logistics.shipments.sh1, partnerId: partners.atlas, chargeType, amount, currency: 'EUR', invoiceId: invoice!.id,
  })));
  return invoice!.id;
}
