import type { LogisticsIds } from '../logistics/logistics.ts';
import type { OrderIds } from '../orders/orders.ts';
import type { PartyIds } from '../parties/parties.ts';
import type { SeedContext } from '../seed-context.ts';
import { money } from '../values.ts';

/** Porto's commercial invoice for the whole of PO-2026-0001, issued when the goods leave: one line per order line. */

const COLOUR_NAMES: Readonly<Record<string, string>> = { NAV: 'Navy', OAT: 'Oat' };

/** An invoice line's description: `Everyday Organic Tee, Navy, M (NW-TS-001-NAV-M)`. */
export function teeLineDescription(sku: { code: string; size: string }): string {
  const colour = sku.code.split('-')[3]!;
  return `Everyday Organic Tee, ${COLOUR_NAMES[colour] ?? sku.code}, ${sku.size} (${sku.code})`;
}

export async function seedCommercialInvoice({ put, clock, brandId, parties: { suppliers }, orders, logistics }: SeedContext & {
  parties: PartyIds;
  orders: OrderIds;
  logistics: LogisticsIds;
}): Promise<string> {
  clock.jumpTo('2026-03-30T17:00:00.000Z');
  const [invoice] = await put('invoices', brandId, [{
    supplierId: suppliers.porto, orderId: orders.orders.po1, shipmentId: logistics.shipments.sh1, code: 'FT 2026/0142', type: 'commercial', status: 'paid',
    currency: 'EUR', issuedOn: '2026-03-30', dueOn: '2026-04-14', subtotalAmount: orders.totals.po1, taxAmount: '0.00', totalAmount: orders.totals.po1,
  }]);
  await put('invoice-lines', brandId, orders.lines.po1.map((line) => ({
    invoiceId: invoice!.id, orderItemId: line.id, skuId: line.sku.id, description: teeLineDescription(line.sku),
    quantity: line.quantity, unitPrice: line.unitPrice, amount: money(line.quantity * Number(line.unitPrice)), currency: 'EUR',
  })));
  return invoice!.id;
}
