import { documentFile } from './documents.ts';
import type { LogisticsIds } from './logistics.ts';
import type { OrderIds } from './orders.ts';
import type { PartyIds } from './parties.ts';
import { PEOPLE } from './people.ts';
import type { ReferenceIds } from './reference-data.ts';
import type { SeedContext } from './seed-context.ts';
import { money } from './values.ts';

/**
 * Finance. PO-2026-0001 is paid 30/70: a deposit on order, the balance after
 * arrival, both settled against Porto Knitwear's commercial invoice and
 * confirmed by the bank. Atlas bills the freight of SH-2026-0001 (approved,
 * not yet paid). PO-2026-0002 is on 60 days net, nothing due yet.
 */

export interface FinanceIds {
  readonly invoices: Record<'commercial' | 'freight', string>;
  readonly payments: Record<'deposit' | 'balance', string>;
}

export async function seedFinance({ put, putNamed, clock, brandId, reference, parties, orders, logistics }: SeedContext & {
  reference: ReferenceIds;
  parties: PartyIds;
  orders: OrderIds;
  logistics: LogisticsIds;
}): Promise<FinanceIds> {
  const { suppliers, partners } = parties;
  const total = Number(orders.totals.po1);
  const deposit = money(total * 0.3);
  const balance = money(total - Number(deposit));

  // The payment plans, agreed with the orders.
  clock.jumpTo('2026-02-23T11:00:00.000Z');
  const agreements = await putNamed('payment-agreements', brandId, {
    po1: { orderId: orders.orders.po1, supplierId: suppliers.porto, paymentTermId: reference.paymentTerms.deposit30Balance70, currency: 'EUR', totalAmount: orders.totals.po1, status: 'completed' },
  });
  const milestones = await putNamed('payment-milestones', brandId, {
    deposit: { paymentAgreementId: agreements.po1, sequence: 1, name: 'Deposit', percent: '30.00', amount: deposit, currency: 'EUR', dueOn: '2026-03-02', trigger: 'on_order', status: 'paid' },
    balance: { paymentAgreementId: agreements.po1, sequence: 2, name: 'Balance', percent: '70.00', amount: balance, currency: 'EUR', dueOn: '2026-04-14', trigger: 'after_arrival', status: 'paid' },
  });
  clock.jumpTo('2026-03-06T10:00:00.000Z');
  const po2Agreement = await putNamed('payment-agreements', brandId, {
    po2: { orderId: orders.orders.po2, supplierId: suppliers.saigon, paymentTermId: reference.paymentTerms.net60, currency: 'USD', totalAmount: orders.totals.po2, status: 'active' },
  });
  await put('payment-milestones', brandId, [
    { paymentAgreementId: po2Agreement.po2, sequence: 1, name: 'Payment in full, 60 days after bill of lading', percent: '100.00', amount: orders.totals.po2, currency: 'USD', dueOn: '2026-06-08', trigger: 'after_shipment', status: 'pending' },
  ]);

  // The deposit goes out three days after the order.
  clock.jumpTo('2026-02-26T10:00:00.000Z');
  const depositPayment = await putNamed('payments', brandId, {
    deposit: { supplierId: suppliers.porto, paymentAgreementId: agreements.po1, code: 'PAY-2026-0031', status: 'completed', method: 'wire', amount: deposit, currency: 'EUR', paidAt: '2026-02-26T10:00:00.000Z' },
  });
  clock.jumpTo('2026-02-27T09:00:00.000Z');
  await receipt(depositPayment.deposit, 'PAY-2026-0031', deposit, '2026-02-27T08:45:00.000Z', 48_210);

  // Porto's commercial invoice for the whole order, issued when the goods leave.
  clock.jumpTo('2026-03-30T17:00:00.000Z');
  const [commercial] = await put('invoices', brandId, [{
    supplierId: suppliers.porto, orderId: orders.orders.po1, shipmentId: logistics.shipments.sh1, code: 'FT 2026/0142', type: 'commercial', status: 'paid',
    currency: 'EUR', issuedOn: '2026-03-30', dueOn: '2026-04-14', subtotalAmount: orders.totals.po1, taxAmount: '0.00', totalAmount: orders.totals.po1,
  }]);
  const colourName = (code: string): string => ({ NAV: 'Navy', OAT: 'Oat' })[code.split('-')[3]!] ?? code;
  await put('invoice-lines', brandId, orders.lines.po1.map((line) => ({
    invoiceId: commercial!.id, orderItemId: line.id, skuId: line.sku.id,
    description: `Everyday Organic Tee, ${colourName(line.sku.code)}, ${line.sku.size} (${line.sku.code})`,
    quantity: line.quantity, unitPrice: line.unitPrice, amount: money(line.quantity * Number(line.unitPrice)), currency: 'EUR',
  })));
  // The deposit is applied to the invoice as soon as it is booked.
  await put('payment-settlements', brandId, [
    { paymentId: depositPayment.deposit, invoiceId: commercial!.id, paymentMilestoneId: milestones.deposit, amount: deposit, currency: 'EUR' },
  ]);

  // Atlas bills the freight of SH-2026-0001, and the charges are booked against its invoice.
  clock.jumpTo('2026-04-10T10:00:00.000Z');
  const charges: [string, string, string][] = [
    ['freight', 'Ocean freight Leixões to Rotterdam, 19 cartons (1.82 cbm)', '1450.00'],
    ['pre_carriage', 'Pre-carriage Maia to Port of Leixões', '210.00'],
    ['on_carriage', 'On-carriage Port of Rotterdam to Northwind DC Tilburg', '170.00'],
    ['handling', 'Terminal handling and documentation', '95.00'],
  ];
  const subtotal = charges.reduce((sum, [, , amount]) => sum + Number(amount), 0);
  const tax = money(subtotal * 0.21);
  const [freight] = await put('invoices', brandId, [{
    supplierId: suppliers.atlas, orderId: null, shipmentId: logistics.shipments.sh1, code: 'ATL-26-0918', type: 'freight', status: 'approved',
    currency: 'EUR', issuedOn: '2026-04-09', dueOn: '2026-05-09', subtotalAmount: money(subtotal), taxAmount: tax, totalAmount: money(subtotal + Number(tax)),
  }]);
  await put('invoice-lines', brandId, charges.map(([, description, amount]) => ({
    invoiceId: freight!.id, orderItemId: null, skuId: null, description, quantity: 1, unitPrice: amount, amount, currency: 'EUR',
  })));
  await put('shipment-charges', brandId, charges.map(([chargeType, , amount]) => ({
    shipmentId: logistics.shipments.sh1, partnerId: partners.atlas, chargeType, amount, currency: 'EUR', invoiceId: freight!.id,
  })));

  // The balance, due seven days after arrival.
  clock.jumpTo('2026-04-13T09:30:00.000Z');
  const balancePayment = await putNamed('payments', brandId, {
    balance: { supplierId: suppliers.porto, paymentAgreementId: agreements.po1, code: 'PAY-2026-0058', status: 'completed', method: 'wire', amount: balance, currency: 'EUR', paidAt: '2026-04-13T09:30:00.000Z' },
  });
  await put('payment-settlements', brandId, [
    { paymentId: balancePayment.balance, invoiceId: commercial!.id, paymentMilestoneId: milestones.balance, amount: balance, currency: 'EUR' },
  ]);
  clock.jumpTo('2026-04-14T09:00:00.000Z');
  await receipt(balancePayment.balance, 'PAY-2026-0058', balance, '2026-04-14T08:50:00.000Z', 51_377);

  return {
    invoices: { commercial: commercial!.id, freight: freight!.id },
    payments: { deposit: depositPayment.deposit, balance: balancePayment.balance },
  };

  /** The bank's confirmation of a payment, filed as a document, and the receipt that points at it. */
  async function receipt(paymentId: string, code: string, amount: string, receivedAt: string, sizeBytes: number): Promise<void> {
    const [confirmation] = await put('documents', brandId, [documentFile({
      documentTypeId: reference.documentTypes.paymentConfirmation, entityType: 'payment', entityId: paymentId,
      name: `Bank confirmation ${code}`, fileName: `${code}_confirmation.pdf`, sizeBytes, uploadedByUserId: PEOPLE.finance,
    })]);
    await put('payment-receipts', brandId, [{
      paymentId, documentId: confirmation!.id, reference: `SEPA ${code} NORTHWIND OUTFITTERS BV`, amount, currency: 'EUR', receivedAt,
    }]);
  }
}
